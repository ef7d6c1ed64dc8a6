import { RunningLines } from './running-lines.js';
import { BULLET_LINE, letterCount } from './sentences.js';

/**
 * Pages a course hands out about itself rather than what it teaches: the cover (course code, lecture number,
 * lecturer, school, term), the agenda or table of contents, and administrative pages (grading, attendance, office
 * hours). Nothing is lectured, asked, answered or offered as a choice from them: the lecture skips them, the
 * retrieval index leaves them out (so quizzes, exams and the tutor never read them), and the item guard refuses a
 * generated item that quotes them.
 */

/**
 * A line that is one of these words (numbered or not: `5. 평가 방법`), or starts with one and a colon (`출석: 10%`).
 * Not `\b`: it never matches after Hangul, so the Korean keywords would never be found.
 */
const FRONT_KEYWORD =
  /^(?:(?:제\s*)?\d{1,2}(?:\s*장|[.)])?\s+)?(?:목차|차례|contents|table of contents|agenda|today'?s agenda|outline|lecture outline|today'?s (?:topics|plan)|강의\s*계획|수업\s*계획|수업\s*안내|강의\s*안내|syllabus|성적\s*평가|평가\s*방법|평가\s*기준|출석|grading|assessment|office hours|연락처|교수\s*연구실)(?:\s*[:：].*)?$/iu;
const CONTENTS_ENTRY = /^(?:제\s*)?\d{1,2}\s*(?:장|강|단원|부|주차)(?=[\s:.]|$)|^(?:chapter|part|unit|lecture|week)\s+\d{1,2}\b|\.{3,}\s*\d{1,4}$|…\s*\d{1,4}$/iu;
/** What a cover says: who teaches, where, when, which course and lecture. */
export const COVER_LINE =
  /학기|학년도|교수|강사|담당|대학교|학과|(?:19|20)\d{2}\s*[년.-]|professor|\bprof\.|\bdr\.|lecturer|instructor|university|department|semester|school of|college of|faculty of|\b(?:spring|summer|fall|autumn|winter)\s+(?:semester\s+|term\s+|quarter\s+)?(?:19|20)\d{2}\b|^lecture\s+\d{1,2}\b|^[A-Z]{2,5}\s?\d{3,4}[A-Z]?\b/iu;
/** Lines that close a lecture or point at the next one: never content. */
export const CLOSING_LINE =
  /^(?:next\s+(?:lecture|week|time|class|session)\b|questions\s*\?$|any questions\s*\?$|thank you\b|thanks\b|다음\s*(?:시간|주|강의)(?:에는|에)?\s|질문\s*있(?:나요|습니까)|감사합니다)/iu;

const SENTENCE_END = /[.!?。？！]$/u;

/** Whether one line is front matter on its own: an agenda or contents heading, a contents entry, a closing line. */
export function isFrontMatterLine(line: string): boolean {
  const text = line.replace(/\s+/gu, ' ').trim();
  return FRONT_KEYWORD.test(text) || CLOSING_LINE.test(text) || /\.{4,}\s*\d{1,4}$/u.test(text);
}

/**
 * Whether a page (its lines, in order, running lines removed) is a cover, a table of contents or an administrative
 * page. `first`: the first page of a text of more than one page (only there is a bare title page a cover).
 * `coverNeedsEvidence`: a first page is a cover only when a line names a teacher, a school, a term or a course code
 * (not merely for being short: a page may hold the first half of a wrapped sentence).
 */
export function isFrontMatterPage(lines: readonly string[], first: boolean, options: { coverNeedsEvidence?: boolean } = {}): boolean {
  if (lines.some((line) => FRONT_KEYWORD.test(line))) return true;
  if (lines.filter((line) => CONTENTS_ENTRY.test(line)).length >= 2) return true;
  // A first page without one full sentence or list item is a cover when it is a bare title or names a term, a date
  // or a teacher; a chapter's first slide with bullet points is content and stays.
  if (!first || lines.some((line) => BULLET_LINE.test(line) || (SENTENCE_END.test(line) && letterCount(line) > 15))) return false;
  const evidence = lines.length <= 8 && lines.some((line) => COVER_LINE.test(line));
  return evidence || (options.coverNeedsEvidence !== true && lines.length <= 3);
}

const PAGE_NUMBER_LINE = /^(?:-?\s*\d{1,4}\s*-?|page\s*\d+|\d+\s*\/\s*\d+)$/iu;

/**
 * The pages of a material with every front-matter page emptied (the page count and numbers stay, so passages still
 * cite the right pages).
 */
export function withoutFrontMatter(pageTexts: readonly string[]): string[] {
  const running = new RunningLines(pageTexts.join('\n\n').normalize('NFC'));
  const filled = pageTexts.filter((page) => page.trim() !== '').length;
  let seenFirst = false;
  return pageTexts.map((page) => {
    const lines = page
      .normalize('NFC')
      .split(/\r?\n/u)
      .map((line) => line.replace(/\s+/gu, ' ').trim())
      .filter((line) => line !== '' && !PAGE_NUMBER_LINE.test(line) && !running.has(line));
    if (lines.length === 0) return page;
    const first = !seenFirst && filled > 1;
    seenFirst = true;
    if (isFrontMatterPage(lines, first, { coverNeedsEvidence: true })) return '';
    return page
      .split(/\r?\n/u)
      .filter((line) => !isFrontMatterLine(line))
      .join('\n');
  });
}
