import { BULLET_LINE, CLOSING_LINE, RunningLines, isFrontMatterPage, letterCount, looksLikeNoun } from '../../text/index.js';

/**
 * The layout of a chapter's extracted PDF text as the offline lecture reads it: pages, their headings, paragraphs,
 * formulas and list items, without the cover, table of contents and administrative pages a student is not taught
 * from. Kept apart from the lecture writer so the writer only decides what to say and where to ask.
 */

export interface Block {
  kind: 'heading' | 'prose' | 'formula' | 'list' | 'code';
  text: string;
  /** The taught concept block it belongs to: a heading starts one, and so does each paragraph of a page without. */
  section: number;
}

const FORMULA_SYMBOL = /[=≤≥≠≈∑Σ∫√±×÷^→←∞]|\b(?:lim|log|exp|sin|cos)\b/u;
// A line that opens with a short symbolic left-hand side (`μ = …`, `x̄ ≈ …`) is a formula even with Hangul words in it.
const FORMULA_START = /^[^\s\uac00-\ud7a3]{1,8}\s*[=≈≤≥<>→]/u;
const SENTENCE_END = /[.!?。？！]$/u;
const PAGE_NUMBER_LINE = /^(?:-?\s*\d{1,4}\s*-?|page\s*\d+|\d+\s*\/\s*\d+)$/iu;

/**
 * A line of program code as extracted from a slide (indentation lost): a statement keyword, an assignment or a call
 * with nothing around it, a block opener ending in `:` or `{`. Kept as a code block, whole, line by line.
 */
const CODE_LINE = /^(?:def|class|for|while|if|elif|else|return|import|from|try|except|function|var|let|const)\b.*|^[A-Za-z_][\w.[\]]*\s*(?:=|\+=|-=|:=)\s*\S.*|^[A-Za-z_][\w.]*\(.*\)\s*;?$/u;

export function isCodeLine(line: string): boolean {
  if (/[\uac00-\ud7a3]/u.test(line) || SENTENCE_END.test(line) && !/\)\.?$/u.test(line)) return false;
  return CODE_LINE.test(line.trim()) || /[:{]$/u.test(line.trim()) && /\w\(|\b(?:for|while|if|def|else)\b/u.test(line);
}

/** A line of figure labels (`S A B G`, `1 4 2 5 3`): tokens of one or two characters, nothing to read. */
function isFigureLabels(line: string): boolean {
  const tokens = line.split(/\s+/u);
  return tokens.length >= 3 && tokens.every((token) => /^[A-Za-z0-9]{1,2}$/u.test(token));
}

/** Mostly digits and symbols (`Parent 1: 1 0 1 1 | 0 0 1 0`): a worked row kept whole, never joined to prose. */
function isDataRow(line: string): boolean {
  const visible = line.replace(/\s+/gu, '');
  if (/[\uac00-\ud7a3]/u.test(line) || (line.match(/[A-Za-z]{3,}/gu) ?? []).length > 2) return false;
  return visible.length > 0 && (line.match(/\p{L}/gu) ?? []).length / visible.length < 0.4;
}

export function isFormula(line: string): boolean {
  const hangul = (line.match(/[\uac00-\ud7a3]/gu) ?? []).length;
  // English prose that writes a formula inline (`A consistent heuristic satisfies h(n) ≤ … for every`) is prose.
  if (hangul === 0 && (line.match(/\b[A-Za-z]{3,}\b/gu) ?? []).length >= 5) return false;
  if (FORMULA_SYMBOL.test(line) && hangul <= letterCount(line) * 0.3) return true;
  // `E[X] = 0.5입니다.` is a sentence about a formula, not a formula line.
  return FORMULA_START.test(line) && !/[다요]\.?$/u.test(line);
}

const EXAMPLE_START = /^(?:예제|예시|예|보기|풀이|example|worked example)\s*\d*\s*[:.)]\s/iu;

/** `1. 평균의 의미`, `2장 기댓값`, `Chapter 3 Sampling` -> the words of the title without its number. */
export function bareTitle(line: string): string {
  return line
    .replace(/^(?:제\s*)?\d{1,2}(?:\s*장|\s*강|[.)])?\s+|^(?:chapter|part|unit|lecture)\s+\d{1,2}[.:]?\s+/iu, '')
    .replace(/\s+/gu, ' ')
    .trim()
    .toLowerCase();
}

/**
 * An English slide title: capitalised like a title (every word of four letters or more, or the words before a
 * `Topic: subtitle` colon), at most eight words, ending in a word, a closing bracket or a question mark
 * (`What Is a Process?`, `Creating Processes: fork and exec`, `First-Come, First-Served (FCFS)`). A sentence wrapped
 * onto a page's first line is not capitalised so.
 */
function isEnglishTitle(line: string): boolean {
  if (/[^\x20-\x7e]/u.test(line) || !/^[A-Z]/u.test(line) || !/[A-Za-z0-9)?]$/u.test(line) || /[.!]$/u.test(line)) return false;
  const words = line.split(' ');
  if (words.length > 8 || line.length > 60) return false;
  const head = /^([^:]+):\s\S/u.exec(line)?.[1] ?? line;
  return head.split(' ').every((word) => !/^[a-z]{4,}/u.test(word));
}

/** A page's first line that names what follows: short, no sentence end, not a formula, something after it. */
function isHeading(line: string, next: string | undefined): boolean {
  if (next === undefined || isFormula(line)) return false;
  if (isEnglishTitle(line)) return true;
  if (SENTENCE_END.test(line) || /[,:;]$/u.test(line)) return false;
  // A sentence carried over from the previous page (`확률을 곱해`, `표본평균이 기댓값에`) is not a heading.
  const last = line.split(' ').at(-1) ?? '';
  if (!looksLikeNoun(last) || /(?:을|를|에|에서|으로)$/u.test(last)) return false;
  return Array.from(line).length <= 30 && line.split(' ').length <= 6 && letterCount(line) >= 2;
}

/** The lines of each page of extracted text, without page numbers and running headers/footers. */
function pageLines(text: string): string[][] {
  const running = new RunningLines(text);
  return text
    .normalize('NFC')
    .split(/\r?\n[^\S\r\n]*\r?\n/u)
    .map((page) =>
      page
        .split(/\r\n?|\n/u)
        .map((raw) => raw.replace(/\s+/gu, ' ').trim())
        .filter((line) => line.length > 0 && !PAGE_NUMBER_LINE.test(line) && !running.has(line)),
    );
}

/** Whether the text has pages and every one of them is a cover, a table of contents or an administrative page. */
export function onlyFrontMatter(text: string): boolean {
  const pages = pageLines(text);
  const filled = pages.map((lines, index) => ({ lines, index })).filter(({ lines }) => lines.length > 0);
  // A lone page is never taken for a cover here (a one-line chapter is short, not a cover); contents and
  // administrative pages are recognised by what they say.
  return filled.length > 0 && filled.every(({ lines, index }) => isFrontMatterPage(lines, index === 0 && filled.length > 1 && pages.length >= 2));
}

/**
 * Rebuilds paragraphs from extracted PDF lines: joins wrapped lines, keeps headings, formulas and list items apart,
 * drops page numbers, running headers/footers, front matter and any repeat of the chapter title (the lecture shows
 * the title once, as its own heading).
 */
export function toBlocks(title: string, text: string): Block[] {
  const blocks: Block[] = [];
  const titleKey = bareTitle(title);
  const pages = pageLines(text);
  let section = -1;
  let prose = '';
  let headed = false;
  let pageProse = false;
  let example = false;
  const flush = (): void => {
    if (letterCount(prose) > 0) {
      // Without a heading, each paragraph of the page is a block of its own (the formulas after it belong to it);
      // a worked example belongs to the block it works out.
      if (!headed && pageProse && !example) section += 1;
      blocks.push({ kind: 'prose', text: prose.trim(), section });
      pageProse = true;
    }
    prose = '';
    example = false;
  };
  pages.forEach((lines, pageIndex) => {
    if (lines.length === 0 || isFrontMatterPage(lines, pageIndex === 0 && pages.length >= 2)) return;
    // A page that opens with `Questions?` or `Thank you` is the deck's closing slide: what follows on it (`Reading:
    // OSTEP chapters 4-9`, `Next lecture: …`) is course administration, not something to teach.
    if (CLOSING_LINE.test(lines[0] ?? '')) return;
    flush();
    // A page without a heading of its own still starts a new block: slides and pages are units of teaching.
    section += 1;
    headed = false;
    pageProse = false;
    lines.forEach((line, lineIndex) => {
      // `Next lecture: …`, `Questions?`: how a slide deck closes, not what it teaches.
      if (CLOSING_LINE.test(line)) return;
      if (lineIndex === 0 && titleKey !== '' && bareTitle(line) === titleKey) {
        // The chapter's own title heads this page: shown once, as the lecture's heading, but still the heading of
        // this block (headings are never printed; the writer says what the block is about from it).
        // A title that names two things (`기댓값과 분산`) heads the chapter, not this block: not its heading then.
        headed = true;
        if (!/\S(?:과|와)\s|\s(?:및|and|&)\s|[,·]/iu.test(line)) blocks.push({ kind: 'heading', text: line, section });
        return;
      }
      if (lineIndex === 0 && isHeading(line, lines[1])) {
        headed = true;
        blocks.push({ kind: 'heading', text: line, section });
      } else if (isFigureLabels(line)) {
        // Labels of a figure the text cannot show.
        return;
      } else if (isCodeLine(line) && (lines.filter(isCodeLine).length >= 2 || blocks.at(-1)?.kind === 'code')) {
        flush();
        const previous = blocks[blocks.length - 1];
        if (previous?.kind === 'code' && previous.section === section) previous.text += `\n${line}`;
        else blocks.push({ kind: 'code', text: line, section });
      } else if (isFormula(line) || isDataRow(line)) {
        flush();
        blocks.push({ kind: 'formula', text: line, section });
      } else if (BULLET_LINE.test(line)) {
        flush();
        const item = line.replace(BULLET_LINE, '- ');
        const previous = blocks[blocks.length - 1];
        if (previous?.kind === 'list') previous.text += `\n${item}`;
        else blocks.push({ kind: 'list', text: item, section });
      } else if (prose === '' && blocks.at(-1)?.kind === 'list' && !SENTENCE_END.test(blocks.at(-1)?.text ?? '') && /^\p{Ll}/u.test(line)) {
        // The rest of a list item wrapped onto the next line (`… describe its` / `spread.`) stays in the item.
        const item = blocks.at(-1);
        if (item) item.text += ` ${line}`;
      } else {
        // A worked example (`예제: …`, `Example: …`) starts a paragraph of its own.
        if (EXAMPLE_START.test(line)) {
          flush();
          example = true;
        }
        // A Latin word hyphenated at the line end is glued back; everything else was wrapped at a space.
        prose = /[A-Za-z]-$/u.test(prose) && /^[a-z]/u.test(line) ? prose.slice(0, -1) + line : `${prose} ${line}`;
        // Extracted text often has no blank lines at all: cut long paragraphs at a sentence end.
        if (prose.length >= 500 && SENTENCE_END.test(line)) flush();
      }
    });
    flush();
  });
  return blocks;
}

/** The chapter's text in reading order, one heading, paragraph, formula or list per line, front matter left out. */
export function readingText(text: string): string {
  return toBlocks('', text)
    .map((block) => block.text)
    .join('\n');
}
