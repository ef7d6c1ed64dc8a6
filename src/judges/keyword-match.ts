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
    const synonyms = keyword.split(/[/|]/u).map((part) => part.trim()).filter((part) => part.length > 0);
    if (synonyms.length === 0) continue;
    (synonyms.some((synonym) => keywordFound(synonym, answer)) ? matched : missing).push(keyword.trim());
  }
  const total = matched.length + missing.length;
  return { matched, missing, coverage: total === 0 ? 0 : matched.length / total };
}
