/** Where a material's chapter boundaries came from, in the order the planner tries them. */
export type ChapterSource = 'outline' | 'headings' | 'analyst' | 'pages';

/** One chapter: pages are 1-based and inclusive; `index` is 0-based and is what URLs and other services use. */
export interface Chapter {
  index: number;
  title: string;
  startPage: number;
  endPage: number;
}

/** What clients see of a material (the body of POST/GET /api/materials/:id). */
export interface Material {
  id: string;
  title: string;
  pageCount: number;
  hasTextLayer: boolean;
  chapterSource: ChapterSource;
  chapters: Chapter[];
}

/** What the store keeps: the client view plus bookkeeping. */
export interface MaterialRecord extends Material {
  sha256: string;
  bytes: number;
  filename: string | null;
  createdAt: string;
}

/** A bookmark as read from the PDF; `pageIndex` is 0-based, null when its destination did not resolve. */
export interface ExtractedOutlineItem {
  title: string;
  pageIndex: number | null;
  children: ExtractedOutlineItem[];
}

/** A line set larger than the body text: a heading candidate. */
export interface HeadingLine {
  text: string;
  size: number;
}

export interface ExtractedPage {
  text: string;
  /** Lines noticeably larger than the document's body size, largest first (a few at most). */
  headings: HeadingLine[];
}

/** Everything the chapter planner needs, produced off the event loop by the PDF worker. */
export interface ExtractedPdf {
  pageCount: number;
  pages: ExtractedPage[];
  outline: ExtractedOutlineItem[];
  /** The most common font size, weighted by characters; 0 when the document has no text. */
  bodyFontSize: number;
  metadataTitle: string | null;
  /** Milliseconds spent loading (pdf-lib + pdf.js) and reading text, measured inside the worker. */
  timings: { loadMs: number; textMs: number };
}

/** A chapter's 0-based inclusive page range, as slicing needs it. */
export interface PageRange {
  start: number;
  end: number;
}
