import { createRequire } from 'node:module';
import path from 'node:path';
import { EncryptedPDFError, ParseSpeeds, PDFDocument } from 'pdf-lib';
import { getDocumentProxy } from 'unpdf';
import type { ExtractedOutlineItem, ExtractedPdf, HeadingLine, PageRange } from './types.js';

/**
 * The CPU-heavy PDF work: reading (pdf-lib for structure and encryption, pdf.js for text, font sizes and the
 * outline) and slicing. It runs inside the PDF worker thread (pdf-worker.ts); nothing here touches the network,
 * the store or the clock, so tests may also call it directly.
 */

/** `too-complex`: over the decompression or object budget (pdf-budget.ts), refused before any parser runs. */
export type PdfFailureKind = 'encrypted' | 'corrupt' | 'too-many-pages' | 'too-complex';

/** An expected failure of an uploaded file; the worker sends `kind` back and the service maps it to a wire code. */
export class PdfReadFailure extends Error {
  constructor(
    readonly kind: PdfFailureKind,
    message: string,
    readonly pageCount?: number,
  ) {
    super(message);
    this.name = 'PdfReadFailure';
  }
}

// CMaps and standard fonts must be plain filesystem paths ending in '/': unpdf's default (a file:// URL) makes
// pdf.js fail to load them in Node and silently extract empty text from Korean PDFs without embedded fonts.
const pdfjsDir = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const PDFJS_OPTIONS = {
  cMapUrl: `${pdfjsDir}/cmaps/`,
  cMapPacked: true,
  standardFontDataUrl: `${pdfjsDir}/standard_fonts/`,
  // Errors only: pdf.js warns on stderr about every recoverable oddity of real-world files.
  verbosity: 0,
};

const MAX_OUTLINE_DEPTH = 3;
const MAX_OUTLINE_ITEMS = 5_000;
const HEADINGS_PER_PAGE = 3;
/** A line must be this much larger than the body text to be a heading candidate. */
const HEADING_CANDIDATE_RATIO = 1.15;

export interface ReadPdfOptions {
  maxPages: number;
  /** The pdf-lib document when the caller already loaded it (the worker keeps it for the slicing that follows). */
  structure?: { document: PDFDocument; pageCount: number };
}

/** Pages whose text is requested at once: pdf.js answers through message round-trips that overlap well. */
const PAGE_CONCURRENCY = 8;

/** Loads with pdf-lib; its errors are the ones slicing would hit later, so they decide "encrypted" and "corrupt". */
export async function loadStructure(bytes: Uint8Array): Promise<{ document: PDFDocument; pageCount: number }> {
  try {
    // Inside a worker there is no event loop to be polite to: parse without pdf-lib's per-100-objects pauses.
    const document = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
    // pdf-lib accepts some garbage and only fails when the page tree is first touched.
    return { document, pageCount: document.getPageCount() };
  } catch (error) {
    if (isEncryptedError(error)) throw new PdfReadFailure('encrypted', 'encrypted (pdf-lib)');
    throw new PdfReadFailure('corrupt', `pdf-lib: ${describe(error)}`);
  }
}

/** pdf-lib is compiled to ES5, where `instanceof` fails for Error subclasses: also recognise its message. */
function isEncryptedError(error: unknown): boolean {
  return error instanceof EncryptedPDFError || (error instanceof Error && /\bis encrypted\b/.test(error.message));
}

/** Reads text per page, heading candidates and the outline. Throws PdfReadFailure for bad files. */
export async function readPdf(bytes: Uint8Array, options: ReadPdfOptions): Promise<ExtractedPdf> {
  const loadStarted = performance.now();
  const { document: structure, pageCount } = options.structure ?? (await loadStructure(bytes));
  if (pageCount > options.maxPages) {
    throw new PdfReadFailure('too-many-pages', `${pageCount} pages`, pageCount);
  }
  if (pageCount === 0) throw new PdfReadFailure('corrupt', 'no pages');
  const metadataTitle = structure.getTitle()?.trim() || null;

  // pdf.js may detach the buffer it is given, and pdf-lib's parsed objects still point into `bytes`: copy.
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    pdf = await getDocumentProxy(new Uint8Array(bytes), PDFJS_OPTIONS);
  } catch (error) {
    if (error instanceof Error && error.name === 'PasswordException') {
      throw new PdfReadFailure('encrypted', 'encrypted (pdf.js)');
    }
    throw new PdfReadFailure('corrupt', `pdf.js: ${describe(error)}`);
  }
  try {
    if (pdf.numPages !== pageCount) {
      throw new PdfReadFailure('corrupt', `page count differs: pdf-lib ${pageCount}, pdf.js ${pdf.numPages}`);
    }
    const loadMs = performance.now() - loadStarted;
    const textStarted = performance.now();
    const texts: string[] = new Array<string>(pageCount).fill('');
    const lines: HeadingLine[][] = Array.from({ length: pageCount }, () => []);
    const charsBySize = new Map<number, number>();
    let nextPage = 0;
    const readPages = async () => {
      while (nextPage < pageCount) {
        const index = nextPage++;
        const page = await pdf.getPage(index + 1);
        const content = await page.getTextContent();
        texts[index] = pageText(content.items, lines[index] ?? [], charsBySize);
        page.cleanup();
      }
    };
    await Promise.all(Array.from({ length: Math.min(PAGE_CONCURRENCY, pageCount) }, readPages));
    const bodyFontSize = mostCommon(charsBySize);
    const pages = texts.map((text, index) => ({ text, headings: headingCandidates(lines[index] ?? [], bodyFontSize) }));
    const outline = await readOutline(pdf);
    return {
      pageCount,
      pages,
      outline,
      bodyFontSize,
      metadataTitle,
      timings: { loadMs, textMs: performance.now() - textStarted },
    };
  } catch (error) {
    if (error instanceof PdfReadFailure) throw error;
    throw new PdfReadFailure('corrupt', `pdf.js: ${describe(error)}`);
  } finally {
    await pdf.destroy();
  }
}

type TextContentItem = Awaited<ReturnType<Awaited<ReturnType<PdfProxy['getPage']>>['getTextContent']>>['items'][number];

/** A page's text (items joined, line ends kept) while collecting its lines and font sizes for heading detection. */
function pageText(items: readonly TextContentItem[], pageLines: HeadingLine[], charsBySize: Map<number, number>): string {
  let text = '';
  let lineText = '';
  let lineSize = 0;
  for (const item of items) {
    if (!('str' in item)) continue;
    text += item.hasEOL ? `${item.str}\n` : item.str;
    const [, , c, d] = item.transform as number[];
    const size = Math.round(Math.hypot(c ?? 0, d ?? 0) * 2) / 2;
    const visible = item.str.replace(/\s+/g, '').length;
    if (visible > 0) {
      charsBySize.set(size, (charsBySize.get(size) ?? 0) + visible);
      lineSize = Math.max(lineSize, size);
    }
    lineText += item.str;
    if (item.hasEOL) {
      pushLine(pageLines, lineText, lineSize);
      lineText = '';
      lineSize = 0;
    }
  }
  pushLine(pageLines, lineText, lineSize);
  return text;
}

function pushLine(lines: HeadingLine[], text: string, size: number): void {
  const trimmed = text.replace(/\s+/g, ' ').trim();
  if (trimmed.length > 0 && size > 0) lines.push({ text: trimmed, size });
}

function mostCommon(counts: Map<number, number>): number {
  let best = 0;
  let bestCount = 0;
  for (const [size, count] of counts) {
    if (count > bestCount || (count === bestCount && size < best)) {
      best = size;
      bestCount = count;
    }
  }
  return best;
}

function headingCandidates(lines: HeadingLine[], bodyFontSize: number): HeadingLine[] {
  if (bodyFontSize <= 0) return [];
  return lines
    .filter((line) => line.size >= bodyFontSize * HEADING_CANDIDATE_RATIO)
    .sort((a, b) => b.size - a.size)
    .slice(0, HEADINGS_PER_PAGE);
}

type PdfProxy = Awaited<ReturnType<typeof getDocumentProxy>>;
type OutlineNode = NonNullable<Awaited<ReturnType<PdfProxy['getOutline']>>>[number];

/** The outline with each destination resolved to a 0-based page; a broken outline is treated as absent. */
async function readOutline(pdf: PdfProxy): Promise<ExtractedOutlineItem[]> {
  let budget = MAX_OUTLINE_ITEMS;
  const resolve = async (nodes: OutlineNode[], depth: number): Promise<ExtractedOutlineItem[]> => {
    const items: ExtractedOutlineItem[] = [];
    for (const node of nodes) {
      if (budget <= 0) break;
      budget -= 1;
      const children = depth < MAX_OUTLINE_DEPTH && Array.isArray(node.items) ? await resolve(node.items as OutlineNode[], depth + 1) : [];
      items.push({ title: String(node.title ?? '').replace(/\s+/g, ' ').trim(), pageIndex: await pageIndexOf(pdf, node.dest), children });
    }
    return items;
  };
  try {
    return await resolve((await pdf.getOutline()) ?? [], 1);
  } catch {
    return [];
  }
}

async function pageIndexOf(pdf: PdfProxy, dest: OutlineNode['dest']): Promise<number | null> {
  try {
    const explicit: unknown = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    if (!Array.isArray(explicit)) return null;
    const target: unknown = explicit[0];
    // Some exporters write a page number instead of a page reference.
    if (typeof target === 'number') return Number.isInteger(target) && target >= 0 && target < pdf.numPages ? target : null;
    if (typeof target === 'object' && target !== null && 'num' in target && 'gen' in target) {
      return await pdf.getPageIndex(target as { num: number; gen: number });
    }
    return null;
  } catch {
    return null;
  }
}

/** Cuts one PDF per range, each with a single copyPages call; output is deterministic for the same input. */
export async function slicePdf(bytes: Uint8Array, ranges: readonly PageRange[], loaded?: PDFDocument): Promise<Uint8Array[]> {
  const source = loaded ?? (await loadStructure(bytes)).document;
  const slices: Uint8Array[] = [];
  for (const range of ranges) {
    const slice = await PDFDocument.create({ updateMetadata: false });
    const indices = Array.from({ length: range.end - range.start + 1 }, (_, offset) => range.start + offset);
    const pages = await slice.copyPages(source, indices);
    for (const page of pages) slice.addPage(page);
    slices.push(await slice.save({ objectsPerTick: Number.POSITIVE_INFINITY }));
  }
  return slices;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
