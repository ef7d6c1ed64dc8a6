import type { AnalysedText } from './text-units.js';

/**
 * Korean marks what a noun does in its sentence with the particle after it, not with word order, so an answer can
 * reuse every word of the reference in the same order and still say something else: "값을 … 개수로 나눈" (the
 * values divided by the count) against "개수를 … 값으로 나눈" (the count divided by the values), or "편차의 제곱의
 * 평균" (the mean of the squares) against "편차의 평균의 제곱" (the square of the mean). Both are read here from
 * the particles alone, without a dictionary. English marks the same roles with `of` and `by` ("the sum of the
 * values divided by the number" / "the number of values divided by the sum").
 */

/** Words between an English preposition and its noun. */
const ENGLISH_DETERMINERS: ReadonlySet<string> = new Set(['the', 'a', 'an', 'its', 'their', 'each', 'all', 'his', 'her', 'this', 'that']);
/**
 * English prepositions whose object's role an exchange changes. `with`, `to`, `and` are left out: "A is connected
 * to B" and "B is connected to A" say the same.
 */
const ENGLISH_ROLES: ReadonlySet<string> = new Set(['of', 'by']);

/** The role of an English noun: the `of`/`by` before it (past determiners and modifiers), else `bare`. */
function englishRole(text: AnalysedText, index: number): string {
  for (let position = index - 1; position >= 0 && position >= index - 3; position -= 1) {
    const token = text.tokens[position];
    if (token === undefined || token.hangul || token.clause !== text.tokens[index]?.clause) break;
    if (ENGLISH_ROLES.has(token.surface)) return token.surface;
    // An adjective or noun modifier in between ("of the squared deviations") belongs to the same phrase.
    if (!ENGLISH_DETERMINERS.has(token.surface) && !token.content) break;
  }
  return 'bare';
}

/** Case roles whose exchange between two nouns changes the claim (topic and subject are one role). */
function caseRole(text: AnalysedText, index: number): string | undefined {
  const token = text.tokens[index];
  if (token === undefined || !token.content) return undefined;
  if (!token.hangul) return englishRole(text, index);
  const ending = token.ending;
  if (['이', '가', '은', '는', '께서'].includes(ending)) return 'subject';
  if (['을', '를'].includes(ending)) return 'object';
  if (['으로', '로', '으로써', '로써'].includes(ending)) return 'instrument';
  if (['에', '에게'].includes(ending)) return 'goal';
  if (['에서', '에게서', '부터'].includes(ending)) return 'source';
  return undefined;
}

interface Role {
  role: string;
  clause: number;
}

/**
 * Each content unit with the one case role it is given in the text (and its clause); units given two different
 * roles, or found in two clauses, are left out.
 */
function rolesOf(text: AnalysedText): Map<string, Role> {
  const roles = new Map<string, Role>();
  const ambiguous = new Set<string>();
  text.tokens.forEach((token, index) => {
    const role = caseRole(text, index);
    if (role === undefined) return;
    const known = roles.get(token.unit);
    if (known !== undefined && (known.role !== role || known.clause !== token.clause)) ambiguous.add(token.unit);
    roles.set(token.unit, { role, clause: token.clause });
  });
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
  const changed = [...referenceRoles].flatMap(([unit, from]) => {
    const to = answerRoles.get(unit);
    return to === undefined || to.role === from.role ? [] : [{ unit, from, to }];
  });
  // The two nouns share a clause on both sides: "flow of electricity" in one clause and "electricity flows" in
  // another are a rewording, not a swap.
  for (const one of changed) {
    const other = changed.find(
      (entry) =>
        entry.unit !== one.unit &&
        entry.from.role === one.to.role &&
        entry.to.role === one.from.role &&
        entry.from.clause === one.from.clause &&
        entry.to.clause === one.to.clause,
    );
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
