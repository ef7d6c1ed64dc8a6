import type { AnalysedText, Token } from './text-units.js';

/**
 * Whether a unit of one text is found in another: exact unit, then the forgiving cases students produce —
 * missing spaces and leftover endings in Korean (`표본평균이` vs `표본 평균`), one-letter typos in longer English
 * words (`postive`, `papth` are too short to forgive).
 */

/** A reference concept: a unit and its aliases written in parentheses (`분산(variance)`). */
export interface UnitGroup {
  units: string[];
  /** The surface form shown in evidence. */
  label: string;
  hangul: boolean;
  /** Position of the first token, for order checks. */
  index: number;
}

function editDistanceAtMostOne(left: string, right: string): boolean {
  if (Math.abs(left.length - right.length) > 1) return false;
  let index = 0;
  while (index < left.length && index < right.length && left[index] === right[index]) index += 1;
  if (left.length === right.length) return left.slice(index + 1) === right.slice(index + 1);
  if (left.length > right.length) return left.slice(index + 1) === right.slice(index);
  return left.slice(index) === right.slice(index + 1);
}

/** Two Hangul syllables with the same initial consonant and vowel (`누`/`눈`). */
export function sameExceptFinal(left: string, right: string): boolean {
  const code = (syllable: string): number => Math.floor((syllable.charCodeAt(0) - 0xac00) / 28);
  return /[\uac00-\ud7a3]/u.test(left) && /[\uac00-\ud7a3]/u.test(right) && code(left) === code(right);
}

/** Whether the stream holds the syllables with only the last one's final consonant different. */
function inStreamExceptFinal(syllables: readonly string[], stream: string): boolean {
  const prefix = syllables.slice(0, -1).join('');
  const last = syllables.at(-1) ?? '';
  for (let at = stream.indexOf(prefix); at >= 0; at = stream.indexOf(prefix, at + 1)) {
    const next = stream[at + prefix.length];
    if (next !== undefined && sameExceptFinal(next, last)) return true;
  }
  return false;
}

function sharedPrefix(left: string[], right: string[]): number {
  let index = 0;
  while (index < left.length && index < right.length && left[index] === right[index]) index += 1;
  return index;
}

/** Whether `unit` (from the reference or a keyword) occurs in the analysed answer. */
export function unitFound(unit: string, hangul: boolean, answer: AnalysedText): boolean {
  if (unit.length === 0) return false;
  if (answer.unitSet.has(unit)) return true;
  if (hangul) {
    const syllables = Array.from(unit);
    if (syllables.length >= 2 && answer.hangulStream.includes(unit)) return true;
    // A verb stem in a run written without spaces keeps its modifier ending on the last syllable: `나누` in
    // `개수로나눈값`, `더하` in `전부더한다음`.
    if (syllables.length >= 2 && inStreamExceptFinal(syllables, answer.hangulStream)) return true;
    if (syllables.length < 3) return false;
    if (syllables.length >= 5) {
      // A run written without spaces (`자료가평균에서얼마나`) keeps its particles inside: compare its bigrams.
      let found = 0;
      for (let index = 0; index + 1 < syllables.length; index += 1) {
        if (answer.grams.has(`${syllables[index]}${syllables[index + 1]}`)) found += 1;
      }
      if (found / (syllables.length - 1) >= 0.6) return true;
    }
    // One trailing syllable of slack on stems of three or more, when it only differs in its final consonant
    // (`나누`/`나눈`) or one side simply goes on (`연결되`/`연결되어`); `나타내` and `나타나` stay apart.
    return answer.units.some((other) => {
      const otherSyllables = Array.from(other);
      if (otherSyllables.length < 2) return false;
      const shared = sharedPrefix(syllables, otherSyllables);
      if (shared >= syllables.length || shared >= otherSyllables.length) return shared >= syllables.length - 1;
      return shared === syllables.length - 1 && sameExceptFinal(syllables[shared] ?? '', otherSyllables[shared] ?? '');
    });
  }
  if (unit.length < 5 || /\d/u.test(unit)) return false;
  return answer.units.some(
    (other) => other.length >= 5 && other[0] === unit[0] && !/\d/u.test(other) && editDistanceAtMostOne(unit, other),
  );
}

export function groupFound(group: UnitGroup, answer: AnalysedText): boolean {
  return group.units.some((unit) => unitFound(unit, group.hangul || /[\uac00-\ud7a3]/u.test(unit), answer));
}

/** Content tokens of a text grouped with their parenthesised aliases, one group per distinct concept. */
export function unitGroups(text: AnalysedText): UnitGroup[] {
  const groups: UnitGroup[] = [];
  const byToken = new Map<number, UnitGroup>();
  const byUnit = new Map<string, UnitGroup>();
  text.tokens.forEach((token: Token, index) => {
    if (!token.content) return;
    const anchor = token.aliasOf === undefined ? undefined : byToken.get(token.aliasOf);
    const known = byUnit.get(token.unit);
    if (anchor !== undefined && known === undefined) {
      anchor.units.push(token.unit);
      byUnit.set(token.unit, anchor);
    }
    const existing = anchor ?? known;
    if (existing !== undefined) {
      byToken.set(index, existing);
      return;
    }
    const group: UnitGroup = { units: [token.unit], label: token.hangul ? token.unit : token.surface, hangul: token.hangul, index };
    groups.push(group);
    byToken.set(index, group);
    byUnit.set(token.unit, group);
  });
  return groups;
}
