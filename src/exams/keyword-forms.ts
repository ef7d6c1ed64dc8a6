import { hasFinalConsonant } from '../text/index.js';

/**
 * How a Korean word is used in the material, read without a dictionary: a noun shows itself by a particle a verb stem
 * does not take (`이자의`, `금리가`, `재정을`, `척도이다`). 는 does not tell: a verb stem takes it as its adnominal
 * ending (`나타내는 척도`), so a word seen only before 는 may be a verb stem (`나타내`) and is no keyword. (은 and 을
 * are adnominal endings too, but of stems with a final consonant, nearly all of one syllable: `먹은`, `받을`.)
 */
/** Particles and the copula that follow a noun of two syllables or more, and not a verb stem of that length. */
const NOUN_ONLY_ENDINGS = new Set(['은', '을', '이', '가', '를', '의', '에', '에서', '에게', '와', '과', '도', '만', '로', '으로', '마다', '까지', '보다', '부터', '처럼', '이다', '입니다', '이며', '이고', '이나', '라고', '이라고', '이란', '란', '에는', '에도', '에만', '와의', '과의', '으로는', '로는']);
/** The same, plus 는, which a verb stem takes too (`화폐는`, `나타내는`), and the bare word. */
export const NOUN_PARTICLES = new Set([...NOUN_ONLY_ENDINGS, '', '는']);

const words = (text: string) => text.normalize('NFC').match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * Whether `text` uses `term` as a noun. `strict`: before a particle or the copula a verb stem does not take (`실험의`,
 * `무게중심입니다`); otherwise also before 는 or alone.
 */
export function usedAsNoun(term: string, text: string, strict = false): boolean {
  if (/[을를은는의에]$/u.test(term)) return false;
  const endings = strict ? NOUN_ONLY_ENDINGS : NOUN_PARTICLES;
  if (!term.includes(' ')) return words(text).some((word) => word.startsWith(term) && endings.has(word.slice(term.length)));
  // A phrase (`수요 곡선`): its last word so used right after the words before it.
  const spaced = text.normalize('NFC').replace(/[^\p{L}\p{N}]+/gu, ' ');
  const escaped = term.split(/\s+/u).map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'));
  const pattern = new RegExp(`(?:^| )${escaped.join(' ')}(\\p{L}*)`, 'gu');
  return [...spaced.matchAll(pattern)].some((match) => endings.has(match[1] ?? ''));
}

/**
 * Whether a word is a noun with 와/과 ("and") glued on (`금리와`, `수요량과`): three syllables or more, 와 after a
 * vowel and 과 after a final consonant, as the particle is written (`효과`, `결과` are nouns).
 */
export function isCoordinated(word: string): boolean {
  const syllables = Array.from(word);
  const last = syllables.at(-1);
  const stem = syllables.slice(0, -1).join('');
  if (syllables.length < 3 || !/^[가-힣]+$/u.test(word)) return false;
  return (last === '와' && !hasFinalConsonant(stem)) || (last === '과' && hasFinalConsonant(stem));
}

/** Whether a word ends in its object particle as written (`토지를`, `값을`; `마을`, `가을` are nouns). */
export function isObjectMarked(word: string): boolean {
  const syllables = Array.from(word);
  const last = syllables.at(-1);
  const stem = syllables.slice(0, -1).join('');
  if (syllables.length < 2 || !/^[가-힣]+$/u.test(word)) return false;
  return (last === '를' && !hasFinalConsonant(stem)) || (last === '을' && hasFinalConsonant(stem));
}

/** Particles a keyword must not end with (the noun is the keyword, not the noun and its particle). */
const FINAL_PARTICLES: readonly (readonly [string, 'vowel' | 'consonant' | 'any'])[] = [
  ['에서', 'any'], ['으로', 'consonant'], ['은', 'consonant'], ['는', 'vowel'], ['이', 'consonant'], ['가', 'vowel'], ['을', 'consonant'], ['를', 'vowel'],
  ['와', 'vowel'], ['과', 'consonant'], ['의', 'any'], ['에', 'any'], ['로', 'vowel'],
];

/**
 * What is wrong with the form of a Korean keyword, given the material's text, or null: a term glued with its particle
 * (`금리와 물가`: two terms joined by 와; `이자의`: the noun 이자 is written elsewhere without it), or a word the
 * material never uses as a noun (`나타내`, seen only as `나타내는`).
 */
export function keywordFormFault(keyword: string, source: string): 'particle' | 'not-noun' | null {
  if (!/[가-힣]/u.test(keyword) || /[A-Za-z0-9]/u.test(keyword)) return null;
  const parts = keyword.trim().split(/\s+/u);
  if (parts.includes('및') || parts.slice(0, -1).some(isCoordinated)) return 'particle';
  const last = parts.at(-1) ?? '';
  const sourceWords = new Set(words(source));
  for (const [particle, after] of FINAL_PARTICLES) {
    const stem = last.slice(0, last.length - particle.length);
    if (!last.endsWith(particle) || Array.from(stem).length < 2) continue;
    const fits = after === 'any' || (after === 'consonant') === hasFinalConsonant(stem);
    // The stem is a word of its own in the material, with another ending (`이자가` beside `이자의`).
    if (fits && [...sourceWords].some((word) => word !== last && word.startsWith(stem) && NOUN_PARTICLES.has(word.slice(stem.length)))) return 'particle';
  }
  return usedAsNoun(keyword, source, true) ? null : 'not-noun';
}
