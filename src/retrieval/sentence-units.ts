import { RunningLines } from '../text/index.js';

/**
 * Extracted page text → sentence units with the pages they come from: what the chunker packs. PDF text arrives as
 * lines cut at the page width, so sentences are rebuilt first: a line that does not end a sentence and is long (it
 * reached the width) or ends with a comma continues on the next line, also across a page break; a short line
 * without a sentence end before any prose is a heading or list entry and is glued to the unit after it (a chunk
 * never ends with a dangling title); a formula line (`E[X] = Σ x·P(X=x)`) is glued to the statement before it.
 * Running headers and footers (see RunningLines) and bare page numbers are dropped.
 */

export interface SentenceUnit {
  text: string;
  /** 1-based pages of the unit's first and last character. */
  startPage: number;
  endPage: number;
  /** Starts a new line in the source (a paragraph, a heading): joined with a line break, not a space. */
  breakBefore: boolean;
}

/** Extracted lines at least this long that end without punctuation were cut by the page width. */
const WRAPPED_LINE_CHARS = 35;
const SENTENCE_END = /[.!?。？！]["'”’)\]]*$/u;
const SENTENCE_SPLIT = /(?<=[.!?。？！]["'”’)\]]*)\s+(?=\S)/u;
const PAGE_NUMBER = /^(?:[-–—]?\s*\d{1,4}\s*[-–—]?|page\s*\d+|\d+\s*\/\s*\d+|p\.\s*\d+)$/iu;
const FORMULA_SIGN = /[=≤≥≠≈∑Σ∫√±×÷→]/u;

function isFormula(line: string): boolean {
  if (!FORMULA_SIGN.test(line)) return false;
  const letters = (line.match(/\p{L}/gu) ?? []).length;
  const words = (line.match(/[\uac00-\ud7a3]{2,}|[A-Za-z]{4,}/gu) ?? []).length;
  return letters === 0 || words <= 2;
}

/** Splits a text longer than `max` at whitespace (or anywhere, when a run has none) into pieces of at most `max`. */
export function splitLong(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    const cut = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'));
    const at = cut > max / 2 ? cut : max;
    pieces.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

/** The running-line detector of a whole material (pages as blocks), shared by every chapter's units. */
export function runningLinesOf(pageTexts: readonly string[]): RunningLines {
  return new RunningLines(pageTexts.join('\n\n').normalize('NFC'));
}

/**
 * Sentence units of pages `startPage`..`endPage` (1-based, inclusive) of `pageTexts`, in order; no unit is longer
 * than `maxChars`.
 */
export function sentenceUnits(
  pageTexts: readonly string[],
  startPage: number,
  endPage: number,
  options: { maxChars: number; running?: RunningLines },
): SentenceUnit[] {
  const running = options.running ?? runningLinesOf(pageTexts);
  const units: SentenceUnit[] = [];
  /** Prose being rebuilt from wrapped lines: its pieces with their pages. */
  let prose: { text: string; page: number }[] = [];
  let prefix: { text: string; page: number }[] = [];

  const push = (text: string, startAt: number, endAt: number, breakBefore: boolean) => {
    for (const [index, piece] of splitLong(text, options.maxChars).entries()) {
      units.push({ text: piece, startPage: startAt, endPage: endAt, breakBefore: breakBefore || index > 0 });
    }
  };

  const flush = () => {
    if (prose.length === 0) return;
    // Offsets of each piece in the joined prose, to give every sentence the pages it spans.
    let offset = 0;
    const starts = prose.map((piece) => {
      const at = offset;
      offset += piece.text.length + 1;
      return { at, page: piece.page };
    });
    const pageAt = (position: number) => {
      let page = starts[0]?.page ?? startPage;
      for (const start of starts) if (start.at <= position) page = start.page;
      return page;
    };
    const joined = prose.map((piece) => piece.text).join(' ');
    let position = 0;
    for (const [index, sentence] of joined.split(SENTENCE_SPLIT).entries()) {
      const at = joined.indexOf(sentence, position);
      position = at + sentence.length;
      const head = index === 0 ? prefix : [];
      const text = [...head.map((line) => line.text), sentence].join('\n');
      push(text, head[0]?.page ?? pageAt(at), pageAt(position - 1), index === 0);
    }
    prose = [];
    prefix = [];
  };

  for (let page = startPage; page <= endPage; page++) {
    const lines = (pageTexts[page - 1] ?? '')
      .normalize('NFC')
      .split(/\r\n?|\n/u)
      .map((line) => line.replace(/\s+/gu, ' ').trim())
      .filter((line) => line.length > 0 && !PAGE_NUMBER.test(line) && !running.has(line));
    for (const line of lines) {
      const last = units.at(-1);
      if (isFormula(line) && prose.length === 0 && prefix.length === 0 && last !== undefined) {
        // A formula belongs to the statement before it (unless that would make the unit too long).
        if (last.text.length + 1 + line.length <= options.maxChars) {
          last.text = `${last.text}\n${line}`;
          last.endPage = page;
        } else {
          push(line, page, page, true);
        }
        continue;
      }
      if (SENTENCE_END.test(line)) {
        prose.push({ text: line, page });
        flush();
      } else if (Array.from(line).length >= WRAPPED_LINE_CHARS || /[,，、:：]$/u.test(line) || prose.length > 0) {
        // Wrapped (long, or cut after a comma), or the unpunctuated last line of a paragraph.
        prose.push({ text: line, page });
        if (Array.from(line).length < WRAPPED_LINE_CHARS && !/[,，、:：]$/u.test(line)) flush();
      } else {
        prefix.push({ text: line, page });
      }
    }
  }
  flush();
  if (prefix.length > 0) {
    push(prefix.map((line) => line.text).join('\n'), prefix[0]?.page ?? startPage, prefix.at(-1)?.page ?? endPage, true);
  }
  return units;
}
