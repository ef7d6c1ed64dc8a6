import { stemmer } from 'stemmer';

/**
 * The lexical analyzer of the retrieval index: text → terms for BM25, one function for passages and queries.
 *
 * - Hangul (and CJK) runs become overlapping character bigrams. Korean glues particles and endings to its words
 *   (`표본평균은`, `데이터에는`), and whitespace or Intl.Segmenter words keep them attached, so a query's word rarely
 *   equals the passage's; the bigrams of the stem (`표본`, `본평`, `평균`) match whatever particle follows. Two
 *   Hangul runs separated only by spaces also give the bigram across the space, so `표본 평균` and `표본평균` share
 *   every bigram of the compound: spacing variants match.
 * - A one-syllable Hangul word is kept as a unigram (`값`), since it has no bigram; one or two syllables glued to a
 *   Latin word or a number are its particle (`variance가`, `3개`) and are dropped.
 * - Latin-script words (and digits) become lowercase words without stopwords, Porter-stemmed (`variances` →
 *   `varianc`): letter bigrams would match English words by accident.
 *
 * The text is NFKC-folded and lowercased first, so full-width letters and compatibility forms match plain ones.
 * Bump ANALYZER_VERSION when the terms change: stored indexes record it and are re-analysed when it differs.
 */

export const ANALYZER_VERSION = 1;

const RUN = /([\uac00-\ud7a3]+)|([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)|((?:(?![\uac00-\ud7a3\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff])[\p{L}\p{N}])+)/gu;
const SPACES_ONLY = /^[^\S\r\n]*(?:\r?\n[^\S\r\n]*)?$/u;

/** English function words: frequent, so they carry nothing for ranking. */
const STOPWORDS: ReadonlySet<string> = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'it', 'its', 'they', 'them', 'their', 'there', 'he', 'she',
  'his', 'her', 'we', 'our', 'you', 'your', 'i', 'me', 'my', 'is', 'are', 'was', 'were', 'be', 'been', 'being',
  'am', 'do', 'does', 'did', 'have', 'has', 'had', 'will', 'would', 'shall', 'should', 'can', 'could', 'may',
  'might', 'must', 'of', 'to', 'in', 'on', 'at', 'by', 'for', 'with', 'from', 'into', 'about', 'as', 'than', 'then',
  'so', 'and', 'or', 'but', 'if', 'because', 'when', 'where', 'which', 'who', 'whom', 'what', 'why', 'how', 'also',
  'just', 'only', 'very', 'too', 'such', 'any', 'some', 'each', 'both', 'all', 'not', 'no',
]);

/** The terms of `text` in order (with repeats). */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  const folded = text.normalize('NFKC').toLowerCase();
  let previousHangul: string | undefined;
  let previousLatin = false;
  let previousEnd = 0;
  for (const match of folded.matchAll(RUN)) {
    const [whole, hangul, cjk, word] = match;
    const start = match.index;
    if (hangul !== undefined && hangul.length <= 2 && previousLatin && start === previousEnd) {
      // One or two syllables glued to a Latin word or a number are its particle (`variance가`, `x의`, `3개`).
      previousHangul = undefined;
    } else if (hangul !== undefined || cjk !== undefined) {
      const run = (hangul ?? cjk) as string;
      // A bigram across a space joins two Hangul words of one line: `표본 평균` reads like `표본평균`.
      if (hangul !== undefined && previousHangul !== undefined && SPACES_ONLY.test(folded.slice(previousEnd, start))) {
        terms.push(`${previousHangul.at(-1) ?? ''}${run[0] ?? ''}`);
      }
      if (run.length === 1) terms.push(run);
      for (let index = 0; index + 1 < run.length; index++) terms.push(run.slice(index, index + 2));
      previousHangul = hangul;
      previousLatin = false;
    } else if (word !== undefined) {
      previousHangul = undefined;
      previousLatin = true;
      if (!STOPWORDS.has(word)) terms.push(/^[a-z]{3,}$/u.test(word) ? stemmer(word) : word);
    }
    previousEnd = start + whole.length;
  }
  return terms;
}
