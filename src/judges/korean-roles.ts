import type { AnalysedText, Token } from './text-units.js';

/**
 * Korean marks what a noun does in its sentence with the particle after it, not with word order, so an answer can
 * reuse every word of the reference in the same order and still say something else: "값을 … 개수로 나눈" (the
 * values divided by the count) against "개수를 … 값으로 나눈" (the count divided by the values), or "편차의 제곱의
 * 평균" (the mean of the squares) against "편차의 평균의 제곱" (the square of the mean). Both are read here from
 * the particles alone, without a dictionary.
 */

/** Case roles whose exchange between two nouns changes the claim (topic and subject are one role). */
function caseRole(token: Token): string | undefined {
  if (!token.hangul || !token.content) return undefined;
  const ending = token.ending;
  if (['이', '가', '은', '는', '께서'].includes(ending)) return 'subject';
  if (['을', '를'].includes(ending)) return 'object';
  if (['으로', '로', '으로써', '로써'].includes(ending)) return 'instrument';
  if (['에', '에게'].includes(ending)) return 'goal';
  if (['에서', '에게서', '부터'].includes(ending)) return 'source';
  return undefined;
}

/** Each content unit with the one case role it is given in the text; units given two different roles are left out. */
function rolesOf(text: AnalysedText): Map<string, string> {
  const roles = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const token of text.tokens) {
    const role = caseRole(token);
    if (role === undefined) continue;
    const known = roles.get(token.unit);
    if (known !== undefined && known !== role) ambiguous.add(token.unit);
    roles.set(token.unit, role);
  }
  for (const unit of ambiguous) roles.delete(unit);
  return roles;
}

/**
 * Two nouns that trade case roles between the reference and the answer: one is the object (을/를) in the reference
 * and the instrument (으로/로) in the answer while the other goes the opposite way, and so on for subject, goal (에)
 * and source (에서). A noun that only changes its own role ("모평균에 가까워진다" / "모평균에서 멀어진다") is not a
 * swap: the antonym check reads that one.
 */
export function roleSwap(answer: AnalysedText, reference: AnalysedText): [string, string] | undefined {
  const referenceRoles = rolesOf(reference);
  const answerRoles = rolesOf(answer);
  const changed = [...referenceRoles]
    .map(([unit, role]) => ({ unit, from: role, to: answerRoles.get(unit) }))
    .filter((entry) => entry.to !== undefined && entry.to !== entry.from);
  for (const one of changed) {
    const other = changed.find((entry) => entry.unit !== one.unit && entry.from === one.to && entry.to === one.from);
    if (other !== undefined) return [one.unit, other.unit];
  }
  return undefined;
}

/** The runs of nouns linked by 의 ("편차의 제곱의 평균" → 편차, 제곱, 평균), each as its units in order. */
function genitiveChains(text: AnalysedText): string[][] {
  const chains: string[][] = [];
  let current: string[] = [];
  const flush = (): void => {
    if (current.length >= 2) chains.push(current);
    current = [];
  };
  text.tokens.forEach((token, index) => {
    const previous = text.tokens[index - 1];
    const linked = previous !== undefined && previous.hangul && previous.ending === '의' && previous.clause === token.clause;
    if (!linked) flush();
    if (token.content && token.hangul) current.push(token.unit);
    else flush();
  });
  if (current.length >= 2) chains.push(current);
  return chains;
}

/**
 * Two nouns whose order in a 의-chain is reversed: in "A의 B" the head is B, so "편차의 평균의 제곱" is not "편차의
 * 제곱의 평균". Only nouns that stand in one chain in each text are compared.
 */
export function genitiveSwap(answer: AnalysedText, reference: AnalysedText): [string, string] | undefined {
  const answerChains = genitiveChains(answer);
  for (const chain of genitiveChains(reference)) {
    for (let left = 0; left < chain.length; left += 1) {
      for (let right = left + 1; right < chain.length; right += 1) {
        const first = chain[left] ?? '';
        const second = chain[right] ?? '';
        if (first === second) continue;
        const reversed = answerChains.some((other) => {
          const at = other.indexOf(first);
          const to = other.indexOf(second);
          return at >= 0 && to >= 0 && to < at;
        });
        if (reversed) return [first, second];
      }
    }
  }
  return undefined;
}
