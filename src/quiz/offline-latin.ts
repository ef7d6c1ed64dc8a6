import { analyze } from '../retrieval/index.js';

/**
 * English (Latin-script) key terms for the offline cloze builder. Words are matched by the retrieval index's own
 * analyzer (its stopwords and Porter stemmer), so `variance`, `variances` and `Variance` are one term and the blank
 * takes every form of it; the builder never keeps a second copy of those rules.
 */

const LATIN_WORD = /^[A-Za-z][A-Za-z-]*[A-Za-z]$/u;
/** Shorter words are mostly function words the stopword list misses (`over`, `into` pass, `set` would not). */
const MIN_LETTERS = 4;

/**
 * Everyday words that are never what a material teaches (the analyzer's stopwords are only function words): as
 * answers or distractors they make silly questions. The English counterpart of the Korean GENERIC_NOUNS.
 */
const GENERIC_WORDS: ReadonlySet<string> = new Set([
  'example', 'examples', 'number', 'numbers', 'first', 'second', 'third', 'used', 'using', 'uses', 'many', 'much', 'more',
  'most', 'other', 'others', 'same', 'different', 'following', 'called', 'page', 'pages', 'chapter', 'section', 'figure',
  'table', 'like', 'make', 'makes', 'made', 'given', 'give', 'gives', 'take', 'takes', 'often', 'always', 'never',
  'every', 'well', 'good', 'large', 'small', 'thing', 'things', 'part', 'parts', 'here', 'into', 'over', 'between',
  'through', 'while', 'however', 'therefore', 'thus', 'since', 'before', 'after', 'until', 'without', 'within',
  'whether', 'either', 'neither', 'another', 'which', 'what', 'there', 'their', 'these', 'those', 'would', 'could',
  'should', 'must', 'will', 'shall', 'might', 'also', 'even', 'still', 'only', 'just', 'once', 'twice', 'each',
  'several', 'certain', 'whole', 'usually', 'said', 'says', 'mean', 'means', 'show', 'shows', 'shown', 'need',
  'needs', 'want', 'wants', 'know', 'known', 'help', 'helps', 'note', 'notes', 'time', 'times', 'people', 'someone',
  'something', 'anything', 'nothing', 'everything', 'important', 'simple', 'common', 'usual', 'able', 'last', 'next',
  'below', 'above', 'following', 'whose', 'because',
]);

/** The analyzer's stem of one word, or undefined for a stopword or a word that is not Latin letters. */
export function latinStem(word: string): string | undefined {
  if (!LATIN_WORD.test(word)) return undefined;
  const terms = analyze(word);
  return terms.length === 1 ? terms[0] : undefined;
}

export interface LatinTerm {
  /** The form shown as a choice: the word's most frequent spelling in the text (lower case unless always capitalised). */
  term: string;
  stem: string;
  count: number;
  /** Frequency × length (length capped), as the Korean ranking scores its terms. */
  score: number;
}

/** The text's English key terms, most important first. */
export function latinTerms(text: string): LatinTerm[] {
  const byStem = new Map<string, { count: number; forms: Map<string, number> }>();
  for (const word of text.normalize('NFC').match(/[A-Za-z][A-Za-z-]*[A-Za-z]/gu) ?? []) {
    const lower = word.toLowerCase();
    if (lower.length < MIN_LETTERS || GENERIC_WORDS.has(lower) || lower.endsWith('ly')) continue;
    const stem = latinStem(word);
    if (stem === undefined) continue;
    const entry = byStem.get(stem) ?? { count: 0, forms: new Map<string, number>() };
    entry.count += 1;
    // Capitalised at a sentence start is the same word; a name capitalised everywhere keeps its capital.
    entry.forms.set(word, (entry.forms.get(word) ?? 0) + 1);
    byStem.set(stem, entry);
  }
  const terms: LatinTerm[] = [];
  for (const [stem, entry] of byStem) {
    const lowered = new Map<string, number>();
    for (const [form, count] of entry.forms) {
      const shown = [...entry.forms.keys()].some((other) => other === form.toLowerCase()) ? form.toLowerCase() : form;
      lowered.set(shown, (lowered.get(shown) ?? 0) + count);
    }
    // Most frequent form; equal counts: the shorter (the base form, `variance` over `variances`), then first seen.
    const [term] = [...lowered.entries()].sort((left, right) => right[1] - left[1] || left[0].length - right[0].length)[0] ?? [''];
    terms.push({ term, stem, count: entry.count, score: entry.count * Math.min(term.length, 5) });
  }
  return terms.sort((left, right) => right.score - left.score);
}

/** Words of a Latin sentence (letters, with inner hyphens). */
export function latinWords(text: string): string[] {
  return text.match(/[A-Za-z][A-Za-z-]*[A-Za-z]|[A-Za-z]/gu) ?? [];
}
