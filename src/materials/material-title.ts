import { fileStem, isMeaningfulDocumentTitle } from './generic-titles.js';
import { PageHeadings } from './page-headings.js';
import type { ExtractedPdf } from './types.js';

const MAX_MATERIAL_TITLE = 200;
/** A cover may be an image: the title is looked for on the first pages that have text, up to this many. */
const COVER_PAGES = 3;
export const UNTITLED_MATERIAL = '제목 없는 자료';

/**
 * The material's title as students see it: the PDF's metadata title when it names the document (not a file name
 * such as "Microsoft PowerPoint - lec3.pptx", not "Untitled"), else the first page's heading (the cover's largest
 * title), else the uploaded file's name without its extension.
 */
export function materialTitle(extracted: ExtractedPdf, filename: string | null | undefined): string {
  const metadata = extracted.metadataTitle?.replace(/\s+/gu, ' ').trim() ?? '';
  const title = isMeaningfulDocumentTitle(metadata, filename) ? metadata : (coverTitle(extracted) ?? stemOf(filename) ?? UNTITLED_MATERIAL);
  return title.length > MAX_MATERIAL_TITLE ? `${title.slice(0, MAX_MATERIAL_TITLE - 1)}…` : title;
}

function coverTitle(extracted: ExtractedPdf): string | null {
  const index = extracted.pages.slice(0, COVER_PAGES).findIndex((page) => /\p{L}/u.test(page.text));
  return index === -1 ? null : new PageHeadings(extracted.pages).largestTitleOf(index);
}

function stemOf(filename: string | null | undefined): string | null {
  const stem = filename ? fileStem(filename) : '';
  return stem.length > 0 ? stem : null;
}
