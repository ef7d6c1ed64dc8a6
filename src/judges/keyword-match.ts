import { type AnalysedText, analyseText } from './text-units.js';
import { unitFound } from './unit-match.js';

/**
 * Keyword evidence: which expected keywords an answer contains. Korean keywords match without regard to spacing
 * or particles (`사용자 니즈` in `사용자니즈가`), Latin words by stem, and Latin multi-word phrases only as the
 * same words in the same order ("product right" is not "right product"). A keyword may list synonyms with `/` or
 * `|` (`과적합/overfitting`); any of them counts.
 */

export interface KeywordEvidence {
  matched: string[];
  missing: string[];
  /** Share of keywords matched. */
  coverage: number;
}

const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);

function phraseUnits(text: AnalysedText): string[] {
  return text.tokens.filter((token) => token.unit !== '' && !ARTICLES.has(token.surface)).map((token) => token.unit);
}

function containsSequence(haystack: readonly string[], needle: readonly string[]): boolean {
  outer: for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    for (let offset = 0; offset < needle.length; offset += 1) {
      if (haystack[start + offset] !== needle[offset]) continue outer;
    }
    return true;
  }
  return false;
}

/** Whether one keyword (no synonyms) occurs in the analysed answer. */
export function keywordFound(keyword: string, answer: AnalysedText): boolean {
  const analysed = analyseText(keyword);
  const latin = analysed.tokens.filter((token) => !token.hangul && token.unit !== '' && !ARTICLES.has(token.surface));
  const hangul = analysed.tokens.filter((token) => token.hangul && token.unit !== '');
  if (latin.length === 0 && hangul.length === 0) return false;
  if (latin.length >= 2) {
    // A Latin phrase: the exact ordered sequence of its words (stems), nothing in between but articles.
    if (!containsSequence(phraseUnits(answer), phraseUnits(analysed))) return false;
  } else if (latin.length === 1 && !unitFound(latin[0]?.unit ?? '', false, answer)) {
    return false;
  }
  if (hangul.length === 0) return true;
  // Korean: the stems joined without spaces, found in the answer's spacing-free stream of stems.
  const joined = hangul.map((token) => token.unit).join('');
  return hangul.length === 1 ? unitFound(joined, true, answer) : answer.hangulStream.includes(joined);
}

export function matchKeywords(keywords: readonly string[], answer: AnalysedText): KeywordEvidence {
  const matched: string[] = [];
  const missing: string[] = [];
  for (const keyword of keywords) {
    const synonyms = keywordSynonyms(keyword);
    if (synonyms.length === 0) continue;
    (synonyms.some((synonym) => keywordFound(synonym, answer)) ? matched : missing).push(keyword.trim());
  }
  const total = matched.length + missing.length;
  return { matched, missing, coverage: total === 0 ? 0 : matched.length / total };
}

/** One keyword located in an answer: the synonym that matched and its character span in the text as written. */
export interface KeywordLocation {
  /** The keyword as given, synonyms included (`과적합/overfitting`). */
  keyword: string;
  /** The synonym that matched; null when none did. */
  matchedAs: string | null;
  /**
   * Offsets (UTF-16, end exclusive) of the earliest-ending shortest run of words that matches on its own. Null when nothing matched,
   * or when only the whole answer matches (a long Korean keyword found by its scattered syllable pairs).
   */
  at: { start: number; end: number } | null;
}

/** Words of the text as written, with their offsets (the same word pattern analyseText reads). */
const WORD_SPAN = /[\p{L}\p{N}]+(?:['.][\p{L}\p{N}]+)*/gu;
/** The longest run of words tried when locating a keyword: longer keywords than this are found but not located. */
const MAX_LOCATE_WORDS = 12;

/** Splits a keyword into its synonyms (`a/b`, `a|b`). */
export function keywordSynonyms(keyword: string): string[] {
  return keyword.split(/[/|]/u).map((part) => part.trim()).filter((part) => part.length > 0);
}

function locate(synonym: string, text: string, words: readonly { start: number; end: number }[]): { start: number; end: number } | null {
  if (words.length === 0) return null;
  const found = (first: number, last: number): boolean =>
    keywordFound(synonym, analyseText(text.slice(words[first]?.start ?? 0, words[last]?.end ?? 0)));
  // The earliest word at which the text up to it matches: prefixes of 8, 16, 32… words, then a binary search in the
  // last step, since a longer prefix keeps every match of a shorter one (a few analyses instead of one per window,
  // and short ones for a keyword near the start).
  const lastWord = words.length - 1;
  let high = Math.min(7, lastWord);
  let low = 0;
  while (!found(0, high)) {
    if (high === lastWord) return null;
    low = high + 1;
    high = Math.min(high * 2 + 1, lastWord);
  }
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (found(0, middle)) high = middle;
    else low = middle + 1;
  }
  // Of the runs ending there, the shortest that matches on its own.
  for (let first = low; first > low - MAX_LOCATE_WORDS && first >= 0; first -= 1) {
    if (found(first, low)) return { start: words[first]?.start ?? 0, end: words[low]?.end ?? 0 };
  }
  return null;
}

/**
 * Which keywords (or synonyms) an answer contains and where. Found-or-not is decided by {@link keywordFound} on the
 * whole answer, exactly as {@link matchKeywords}; the span is then the earliest-ending shortest run of words that the same
 * matcher accepts on its own, so the two never disagree about a keyword being present.
 */
export function locateKeywords(keywords: readonly string[], answerText: string): KeywordLocation[] {
  const answer = analyseText(answerText);
  const words = Array.from(answerText.matchAll(WORD_SPAN), (match) => ({ start: match.index, end: match.index + match[0].length }));
  const result: KeywordLocation[] = [];
  for (const keyword of keywords) {
    const synonyms = keywordSynonyms(keyword);
    if (synonyms.length === 0) continue;
    const matchedAs = synonyms.find((synonym) => keywordFound(synonym, answer)) ?? null;
    result.push({ keyword: keyword.trim(), matchedAs, at: matchedAs === null ? null : locate(matchedAs, answerText, words) });
  }
  return result;
}
