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
  if (ending === '보다') return 'than';
  return undefined;
}

/** The one case role of each content unit in each clause; a unit given two roles in one clause is left out. */
function rolesByClause(text: AnalysedText): Map<number, Map<string, string>> {
  const clauses = new Map<number, Map<string, string>>();
  const ambiguous: { roles: Map<string, string>; unit: string }[] = [];
  text.tokens.forEach((token, index) => {
    const role = caseRole(text, index);
    if (role === undefined) return;
    const roles = clauses.get(token.clause) ?? new Map<string, string>();
    clauses.set(token.clause, roles);
    const known = roles.get(token.unit);
    if (known !== undefined && known !== role) ambiguous.push({ roles, unit: token.unit });
    roles.set(token.unit, role);
  });
  for (const { roles, unit } of ambiguous) roles.delete(unit);
  return clauses;
}

/** The distinct content units of each clause, by clause number. */
export function contentByClause(text: AnalysedText): Map<number, Set<string>> {
  const clauses = new Map<number, Set<string>>();
  for (const token of text.tokens) {
    if (!token.content) continue;
    const units = clauses.get(token.clause) ?? new Set<string>();
    units.add(token.unit);
    clauses.set(token.clause, units);
  }
  return clauses;
}

/** Two nouns that trade case roles, and the roles they trade (the reference's role of the first noun first). */
export interface RoleSwap {
  units: [string, string];
  roles: [string, string];
}

/**
 * Two nouns that trade case roles between a reference clause and the answer clause that says the most of it: one is
 * the object (을/를) in the reference and the instrument (으로/로) in the answer while the other goes the opposite
 * way, and so on for subject, goal (에), source (에서) and the compared side (보다). "클래스는 객체를 만들기 위한
 * 설계도" / "객체는 클래스를 만들기 위한 설계도"; "여름에는 해양에서 대륙으로" / "여름에는 대륙에서 해양으로". Each
 * answer clause is read against the one reference clause it shares the most words with (none on a tie), so a
 * correct answer that says the reference's two clauses in another order is not a swap. A noun that only changes its
 * own role ("모평균에 가까워진다" / "모평균에서 멀어진다") is not a swap: the antonym check reads that one.
 */
export function roleSwap(answer: AnalysedText, reference: AnalysedText): RoleSwap | undefined {
  const referenceRoles = rolesByClause(reference);
  const answerRoles = rolesByClause(answer);
  const referenceContent = contentByClause(reference);
  for (const [clause, units] of contentByClause(answer)) {
    const shared = [...referenceContent].map(([other, words]) => ({ other, count: [...units].filter((unit) => words.has(unit)).length }));
    const best = Math.max(0, ...shared.map((entry) => entry.count));
    const aligned = shared.filter((entry) => entry.count === best);
    if (best < 2 || aligned.length !== 1) continue;
    const from = referenceRoles.get(aligned[0]?.other ?? -1);
    const to = answerRoles.get(clause);
    if (from === undefined || to === undefined) continue;
    const changed = [...from].flatMap(([unit, role]) => {
      const now = to.get(unit);
      return now === undefined || now === role ? [] : [{ unit, from: role, to: now }];
    });
    for (const one of changed) {
      const other = changed.find((entry) => entry.unit !== one.unit && entry.from === one.to && entry.to === one.from);
      if (other !== undefined) return { units: [one.unit, other.unit], roles: [one.from, other.from] };
    }
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
