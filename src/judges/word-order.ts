import type { AnalysedText } from './text-units.js';

/**
 * Korean marks what a noun does with the particle after it, so an answer can say the reference's nouns in another
 * order and mean the same, or trade their roles and mean the opposite: "클래스는 객체를 만들기 위한 설계도" /
 * "객체는 클래스를 만들기 위한 설계도", "이순신의 수군이 … 일본군의 보급로를" / "일본군이 … 이순신 수군의 보급로를".
 * The role checks (argument-roles.ts) read the trades they know; overlap reads neither, and an answer that reuses
 * the reference's words is exactly the one overlap scores highest. So a good verdict on a Korean answer that says the
 * reference's words in another order is never sure (verdict-confidence.ts REORDERED_CONFIDENCE). English is left
 * out: there, the same words in another order were mostly a rewording (grouped CV on the English dev sets: 66 of 78
 * sure good verdicts with such a reordering were right).
 */

/** Each Hangul content unit said exactly once in the text, with its position. */
function hangulOnce(text: AnalysedText): Map<string, number> {
  const positions = new Map<string, number>();
  const counts = new Map<string, number>();
  text.tokens.forEach((token, index) => {
    if (!token.content || !token.hangul) return;
    counts.set(token.unit, (counts.get(token.unit) ?? 0) + 1);
    positions.set(token.unit, index);
  });
  for (const [unit, count] of counts) if (count > 1) positions.delete(unit);
  return positions;
}

/**
 * Whether two Hangul words that the answer and the reference each say once come in the opposite order in the
 * answer. Words said twice are left out: which of the two mentions pairs with which is not known.
 */
export function reordersReferenceWords(answer: AnalysedText, reference: AnalysedText): boolean {
  const inAnswer = hangulOnce(answer);
  const inReference = hangulOnce(reference);
  const shared = [...inAnswer.keys()].filter((unit) => inReference.has(unit));
  for (let first = 0; first < shared.length; first += 1) {
    for (let second = first + 1; second < shared.length; second += 1) {
      const one = shared[first] ?? '';
      const other = shared[second] ?? '';
      const answerOrder = (inAnswer.get(one) ?? 0) < (inAnswer.get(other) ?? 0);
      const referenceOrder = (inReference.get(one) ?? 0) < (inReference.get(other) ?? 0);
      if (answerOrder !== referenceOrder) return true;
    }
  }
  return false;
}
