/**
 * Display tokens for the paced lecture stream.
 *
 * Korean is read by eojeol (the space-separated unit: `평균은`, `값이에요.`), so a token is one whitespace-delimited
 * run together with the whitespace after it; punctuation and markdown stay glued to their word (`**굵게**`,
 * `E[X]는`). Runs longer than `maxGraphemes` (unspaced CJK text, URLs, long formulas) are cut at Intl.Segmenter
 * word boundaries, and a single over-long word at grapheme boundaries, so a token never splits a Hangul syllable,
 * a combining sequence or an emoji. Concatenating the tokens gives back the input exactly.
 */

export interface TokenizeOptions {
  /** Longest token, in graphemes, before a run is cut further (whitespace not counted). Default 12. */
  maxGraphemes?: number;
}

export const DEFAULT_MAX_GRAPHEMES = 12;

// A fixed locale keeps tokenisation deterministic regardless of the host's default locale.
const wordSegmenter = new Intl.Segmenter('ko', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('ko', { granularity: 'grapheme' });

function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter.segment(text), (part) => part.segment);
}

/** Cuts text into pieces of at most `max` graphemes. */
function cutGraphemes(text: string, max: number): string[] {
  const parts = graphemes(text);
  const out: string[] = [];
  for (let index = 0; index < parts.length; index += max) out.push(parts.slice(index, index + max).join(''));
  return out;
}

/** Splits an over-long run (no inner whitespace) at word boundaries, keeping punctuation on the preceding word. */
function splitLongRun(run: string, max: number): string[] {
  const words: string[] = [];
  let current = '';
  for (const part of wordSegmenter.segment(run)) {
    if (part.isWordLike === true && current.length > 0 && /[\p{L}\p{N}]/u.test(current)) {
      words.push(current);
      current = '';
    }
    current += part.segment;
  }
  if (current.length > 0) words.push(current);

  // Re-join short neighbours so a cut run does not become a hail of one-letter tokens.
  const out: string[] = [];
  let piece = '';
  let pieceLength = 0;
  for (const word of words) {
    const length = graphemes(word).length;
    if (length > max) {
      if (piece.length > 0) out.push(piece);
      piece = '';
      pieceLength = 0;
      out.push(...cutGraphemes(word, max));
      continue;
    }
    if (pieceLength + length > max && piece.length > 0) {
      out.push(piece);
      piece = '';
      pieceLength = 0;
    }
    piece += word;
    pieceLength += length;
  }
  if (piece.length > 0) out.push(piece);
  return out;
}

/** Splits text into display tokens; `tokenize(text).join('') === text` always holds. */
export function tokenize(text: string, options: TokenizeOptions = {}): string[] {
  const max = Math.max(1, Math.floor(options.maxGraphemes ?? DEFAULT_MAX_GRAPHEMES));
  const tokens: string[] = [];
  // Leading whitespace has no word to follow, so it rides on the first token.
  const runPattern = /^\s+|\S+\s*/gu;
  let leading = '';
  for (const match of text.matchAll(runPattern)) {
    const run = match[0];
    if (match.index === 0 && /^\s/u.test(run)) {
      leading = run;
      continue;
    }
    const body = run.trimEnd();
    const trailing = run.slice(body.length);
    const pieces = body.length > max && graphemes(body).length > max ? splitLongRun(body, max) : [body];
    const last = pieces.length - 1;
    pieces.forEach((piece, index) => {
      tokens.push((index === 0 ? leading : '') + piece + (index === last ? trailing : ''));
    });
    leading = '';
  }
  if (leading.length > 0) tokens.push(leading);
  return tokens;
}

/** Number of display tokens in `text` (what the pacer's tokens-per-second counts). */
export function countTokens(text: string, options: TokenizeOptions = {}): number {
  return tokenize(text, options).length;
}
