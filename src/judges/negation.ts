import { type AnalysedText, neighbours } from './text-units.js';

/**
 * Negation that the answer and the reference do not share: not/never/no…, 않다/없다/아니다/못/안. Read clause by
 * clause, where the two texts talk about the same things.
 */

/**
 * Positions of the Korean words a negation applies to: the word before a negating predicate (`같지 않다`,
 * `대표하지 못해`, `치우침 없이`), the word after the adverbs 안/못, or the fused word itself (`관계없다`).
 */
function koreanNegatedPositions(text: AnalysedText): Set<number> {
  const positions = new Set<number>();
  text.tokens.forEach((token, index) => {
    if (!token.negation || !token.hangul) return;
    if (token.unit !== '') {
      positions.add(index);
      return;
    }
    const forward = token.surface === '안' || token.surface === '못';
    const [head] = neighbours(text, index, forward ? 'after' : 'before');
    if (head !== undefined) positions.add(head);
  });
  return positions;
}

/** Predicates that say a `-기` verb can hardly be done (`끊기 어렵다`, `고치기 힘들다`). */
const HARDLY = new Set(['어렵', '힘들']);

/**
 * Positions of the Korean verbs said to be hard to do (`끊기 어렵게`): the same claim as a negated one (`못 끊게`), so
 * a negation on one side and this on the other is no flip. It is not a negation itself: `쉽게 끊는다` against `끊기
 * 어렵다` is read by the antonym check (쉽/어렵), which a negation here would cancel.
 */
function koreanHardlyPositions(text: AnalysedText): Set<number> {
  const positions = new Set<number>();
  text.tokens.forEach((token, index) => {
    const next = text.tokens[index + 1];
    if (token.hangul && token.content && token.ending === '기' && next !== undefined && next.clause === token.clause && HARDLY.has(next.unit)) positions.add(index);
  });
  return positions;
}

interface Clause {
  units: Set<string>;
  /** English negation cues in the clause. */
  negations: number;
  /** Korean units under a negation in the clause. */
  negated: Set<string>;
  /** Korean units said to be hard to do (koreanHardlyPositions). */
  hardly: Set<string>;
}

function clausesOf(text: AnalysedText): Clause[] {
  const negatedKorean = koreanNegatedPositions(text);
  const hardlyKorean = koreanHardlyPositions(text);
  const byClause = new Map<number, Clause>();
  text.tokens.forEach((token, index) => {
    const entry = byClause.get(token.clause) ?? { units: new Set<string>(), negations: 0, negated: new Set<string>(), hardly: new Set<string>() };
    if (token.content) entry.units.add(token.unit);
    if (token.negation && !token.hangul) entry.negations += 1;
    if (negatedKorean.has(index)) entry.negated.add(token.unit);
    if (hardlyKorean.has(index)) entry.hardly.add(token.unit);
    byClause.set(token.clause, entry);
  });
  return [...byClause.values()];
}

function differs(clause: Clause, aligned: Clause, shared: readonly string[]): boolean {
  const negative = (side: Clause, unit: string): boolean => side.negated.has(unit) || side.hardly.has(unit);
  return clause.negations % 2 !== aligned.negations % 2 || shared.some((unit) => negative(clause, unit) !== negative(aligned, unit));
}

/**
 * Negation clause by clause: each answer clause is lined up with the reference clause it shares most content with
 * (at least two words, or all of a shorter clause; between equally close clauses, one that agrees). English negation is compared by parity within the pair (its
 * scope is loose: "not contained in the same path" = "not in the same path"); Korean negation sits next to its
 * head, so a shared word negated on one side only counts. The answer flips the reference when the disagreeing
 * pairs outweigh the agreeing ones (weighted by shared words).
 */
export function negationFlip(answer: AnalysedText, reference: AnalysedText): boolean {
  const referenceClauses = clausesOf(reference);
  let agree = 0;
  let disagree = 0;
  for (const clause of clausesOf(answer)) {
    let best: { clause: Clause; shared: string[] } | undefined;
    for (const candidate of referenceClauses) {
      const shared = [...clause.units].filter((unit) => candidate.units.has(unit));
      // A tie is an ambiguous alignment, not evidence of a flip: between equally close clauses, the agreeing one.
      const closer = best === undefined || shared.length > best.shared.length;
      const agreeingTie =
        best !== undefined && shared.length === best.shared.length && differs(clause, best.clause, best.shared) && !differs(clause, candidate, shared);
      if (closer || agreeingTie) best = { clause: candidate, shared };
    }
    if (best === undefined) continue;
    const { clause: aligned, shared } = best;
    if (shared.length === 0 || shared.length < Math.min(2, clause.units.size, aligned.units.size)) continue;
    const english = clause.negations > 0 || aligned.negations > 0;
    const korean = shared.some((unit) => clause.negated.has(unit) || aligned.negated.has(unit));
    if (!english && !korean) continue;
    if (differs(clause, aligned, shared)) disagree += shared.length;
    else agree += shared.length;
  }
  return disagree > agree;
}

/** The English words a negation cue applies to: the nearest content word after it in its clause (`not connected`, `no gap`). */
function englishNegatedUnits(text: AnalysedText): Set<string> {
  const units = new Set<string>();
  text.tokens.forEach((token, index) => {
    if (!token.negation || token.hangul) return;
    const [head] = neighbours(text, index, 'after');
    const unit = head === undefined ? undefined : text.tokens[head]?.unit;
    if (unit !== undefined) units.add(unit);
  });
  return units;
}

/**
 * Whether a negation the two texts do not share is said of a word both say. English negation is compared by parity
 * in negationFlip, whatever it applies to: `not connected` against `separated by the gap` flips the parity while
 * saying the same thing with another word. A negated word the other side also says (`not separated` / `separated`,
 * `connected` / `not connected`) is read; one it never says is not. Korean negation is read on its head already.
 */
export function negatesSharedWord(answer: AnalysedText, reference: AnalysedText): boolean {
  if ([...answer.tokens, ...reference.tokens].some((token) => token.negation && token.hangul)) return true;
  const answerHeads = englishNegatedUnits(answer);
  const referenceHeads = englishNegatedUnits(reference);
  if (answerHeads.size === 0 && referenceHeads.size === 0) return true;
  return [...answerHeads].some((unit) => reference.unitSet.has(unit)) || [...referenceHeads].some((unit) => answer.unitSet.has(unit));
}

/**
 * The Korean words under a negation, as a sorted list (a word negated twice counts twice), but for those the other
 * text says are hard to do (`못 끊게` / `끊기 어렵게`).
 */
function koreanNegatedUnits(text: AnalysedText, other: AnalysedText): string[] {
  const hardly = new Set([...koreanHardlyPositions(other)].map((index) => other.tokens[index]?.unit ?? ''));
  return [...koreanNegatedPositions(text)].map((index) => text.tokens[index]?.unit ?? '').filter((unit) => !hardly.has(unit)).sort();
}

/**
 * Whether the two texts negate different Korean words: `종료 조건은 없어도 된다` negates 조건 where the reference
 * negates 반복 (`반복되지 않도록 … 종료 조건이 반드시 있어야 한다`). negationFlip reads a negation in the clause it
 * aligns; an answer that folds two of the reference's clauses into one escapes it, and a paraphrase (`거의 안
 * 변해서` for `영향을 거의 받지 않으므로`) differs too, so this decides nothing: it only says that overlap cannot vouch
 * for a good verdict (verdict-confidence.ts NEGATION_DIFFERS_CONFIDENCE).
 */
export function negatesOtherKoreanWords(answer: AnalysedText, reference: AnalysedText): boolean {
  const said = koreanNegatedUnits(answer, reference);
  const expected = koreanNegatedUnits(reference, answer);
  return said.length + expected.length > 0 && said.join(' ') !== expected.join(' ');
}

/** Korean verbs (by their head) and English stems that negate the action they take as object. */
const PROHIBITING_KOREAN = /^(?:금지|폐지|중단|중지|거부|금하)/u;
const PROHIBITING_ENGLISH: ReadonlySet<string> = new Set(['ban', 'forbid', 'prohibit', 'abolish']);

/**
 * Whether the text says an action is stopped or forbidden (`면벌부 판매를 금지하자`, `they banned the sale`): a
 * negation in a word, which the negation cues do not see. It decides nothing on its own: like a negation the reference
 * does not have, it only says that overlap cannot vouch for a good verdict (answer-assessor.ts addsNegation).
 */
export function prohibits(text: AnalysedText): boolean {
  return text.tokens.some((token) =>
    token.hangul ? PROHIBITING_KOREAN.test(token.unit) || PROHIBITING_KOREAN.test(token.surface) : PROHIBITING_ENGLISH.has(token.unit),
  );
}
