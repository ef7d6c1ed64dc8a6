import { analyseText, keywordFound, keywordSynonyms, locateKeywords } from '../judges/index.js';
import type { KeywordEvidenceItem } from './exam-types.js';

/**
 * Evidence first: the deterministic keyword matcher of src/judges, which reads Korean without regard
 * to spacing or particles (`사용자니즈가` has `사용자 니즈`, `variance가` has `variance`), Latin words by stem and
 * Latin phrases only in their order ("product right" is not "right product"). A key keyword may list the synonyms
 * that must also be accepted, written `과적합/overfitting` or `과적합|overfitting`.
 */

/** Which key keywords (or an accepted synonym) occur in the answer, and where in the answer as the student wrote it. */
export function keywordEvidence(keywords: readonly string[], answer: string): KeywordEvidenceItem[] {
  return locateKeywords(keywords, answer).map((location) => ({ keyword: location.keyword, matchedAs: location.matchedAs, at: location.at }));
}

/** Latin articles, never content of their own in an answer ("the overfitting"). */
const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);

/**
 * Whether a short answer IS one of the keywords (or one of its synonyms): at least one synonym of the keyword is
 * found in it, every content word of the answer belongs to that keyword's synonyms (`과적합(overfitting)입니다`),
 * and nothing negates it (`과적합 아님`). Keywords the question itself contains are never an answer: saying them
 * back is an echo of the question. Returns the keyword that matched, or null.
 */
export function exactKeywordAnswer(keywords: readonly string[], answer: string, question: string): string | null {
  const analysed = analyseText(answer);
  if (analysed.tokens.some((token) => token.negation)) return null;
  const content = analysed.tokens.filter((token) => token.content && !ARTICLES.has(token.surface));
  if (content.length === 0) return null;
  const asked = analyseText(question);
  for (const keyword of keywords) {
    const synonyms = keywordSynonyms(keyword);
    if (synonyms.length === 0 || synonyms.some((synonym) => keywordFound(synonym, asked))) continue;
    if (!synonyms.some((synonym) => keywordFound(synonym, analysed))) continue;
    const allowed = synonyms.map((synonym) => analyseText(synonym));
    const covered = content.every((token) => allowed.some((synonym) => keywordFound(token.surface, synonym)));
    if (covered) return keyword.trim();
  }
  return null;
}
