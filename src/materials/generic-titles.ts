/**
 * Titles that name nothing. Slide and office exports write bookmarks such as "Slide 5–8", "Page 3", "Untitled",
 * "슬라이드 3", "3페이지" or "제목 없음", and document titles such as "Microsoft PowerPoint - lec3.pptx": shown to a
 * student as a chapter or material title they say where something is, never what it is about. The planner
 * replaces them with the document's own headings when it has any (see page-headings.ts).
 */

/** A number or a range of numbers: "5", "5–8", "5 - 8", "5 to 8", "5/20", "5 of 20". */
const NUMBERS = String.raw`\d+(?:\s*(?:[-–—~/]|to|of)\s*\d+)?`;
/** Words that only say where a place in the file is. */
const PLACE_WORDS = String.raw`(?:slides?|pages?|pp?\.?|folie|diapositiva|페이지|슬라이드|쪽|면)`;
const NO_TITLE = String.raw`(?:untitled|no\s+title|없음|제목\s*없음|제목\s*없는\s*(?:슬라이드|페이지|문서|자료)|무제|無題)`;

const GENERIC_TITLES: readonly RegExp[] = [
  // "Slide 5", "Slides 5–8", "Page 3 of 20", "p. 3", "슬라이드 3", "페이지 3", "slide5"
  new RegExp(String.raw`^${PLACE_WORDS}\s*${NUMBERS}$`, 'iu'),
  // "3페이지", "3 쪽", "5–8쪽", "3번 슬라이드", "3번째 슬라이드"
  new RegExp(String.raw`^${NUMBERS}\s*(?:번째|번)?\s*${PLACE_WORDS}$`, 'iu'),
  // "Untitled", "Untitled 3", "제목 없음", "무제 2"
  new RegExp(String.raw`^${NO_TITLE}(?:\s*[-–#]?\s*\d+)?$`, 'iu'),
  // a bare number or range, and a place word alone
  new RegExp(String.raw`^(?:${NUMBERS}|${PLACE_WORDS})$`, 'iu'),
];

function normalised(title: string): string {
  return title
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .replace(/^[\s([{【「]+|[\s)\]}】」.:]+$/gu, '')
    .trim();
}

/** True for an outline entry or heading that only names a position ("Slide 5–8", "3페이지") or nothing ("제목 없음"). */
export function isGenericTitle(title: string): boolean {
  const text = normalised(title);
  if (text.length === 0) return true;
  if (!/\p{L}/u.test(text)) return true;
  return GENERIC_TITLES.some((pattern) => pattern.test(text));
}

/** Default names office programs give a new file ("Presentation1", "PowerPoint 프레젠테이션", "문서1"). */
const DEFAULT_DOCUMENT_NAMES =
  /^(?:(?:microsoft\s+)?(?:powerpoint|word|excel)\s*)?(?:presentation|document|book|프레젠테이션|문서|통합\s*문서)\s*\d*$/iu;
/** "Microsoft PowerPoint - lec3.pptx", "Microsoft Word - draft.docx": the printer driver wrote the file name. */
const OFFICE_PRINT_PREFIX = /^microsoft\s+(?:office\s+)?(?:powerpoint|word|excel)\s*-\s*/iu;
const FILE_EXTENSION = /\.(?:pdf|pptx?|ppsx?|docx?|xlsx?|key|pages|odp|odt|ods|hwpx?|show|cell|tex|txt|rtf|md|html?)$/iu;

/**
 * True when a PDF's metadata title is worth showing: not empty, not a position or "untitled", not a default
 * office name, and not a file name ("Microsoft Word - draft.docx", "lec3_final.pdf", "C:\slides\lec3").
 */
export function isMeaningfulDocumentTitle(title: string | null | undefined, filename?: string | null): boolean {
  const text = normalised(title ?? '');
  if (text.length < 2 || isGenericTitle(text)) return false;
  if (OFFICE_PRINT_PREFIX.test(text) || FILE_EXTENSION.test(text) || DEFAULT_DOCUMENT_NAMES.test(text)) return false;
  // A path, or a stem in the style of file names: no spaces but underscores ("lec3_final_v2").
  if (/^[a-z]:\\|^\/|\\/iu.test(text)) return false;
  if (!text.includes(' ') && text.includes('_')) return false;
  const stem = filename ? fileStem(filename) : '';
  return stem === '' || text.toLowerCase() !== stem.toLowerCase();
}

/** The file name without its folder and extension, with underscores and dashes read as spaces. */
export function fileStem(filename: string): string {
  const base = filename.split(/[\\/]/u).at(-1) ?? '';
  return base
    .replace(FILE_EXTENSION, '')
    .replace(/[_-]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Titles of pages about the course or the document rather than a topic (목차, Agenda, 평가 방법, Questions?): such a
 * page teaches nothing of its own, so it never is, or names, a chapter.
 */
const FRONT_MATTER =
  /^(?:(?:제\s*)?\d{1,2}(?:\s*장|[.)])?\s+)?(?:목차|차례|contents|table of contents|agenda|outline|overview|today'?s agenda|today'?s topics|강의\s*계획|수업\s*계획|수업\s*안내|강의\s*안내|syllabus|성적\s*평가|평가\s*방법|평가\s*기준|출석|grading|assessment|office hours|announcements?|공지(?:\s*사항)?|questions\s*\??|any questions\s*\??|q\s*&\s*a|질문|references|참고\s*문헌|thank you\s*!?|감사합니다)$/iu;

export function isFrontMatterTitle(title: string): boolean {
  return FRONT_MATTER.test(title.replace(/\s+/gu, ' ').trim());
}
