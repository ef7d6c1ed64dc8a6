import { constants, inflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFContext, PDFRawStream } from 'pdf-lib';
import { PdfReadFailure } from './pdf-reader.js';

/**
 * What a PDF may cost the parsers before they are given it. pdf.js inflates every content stream and font it reads
 * (and pdf-lib every object stream) whole, into memory, so a flate bomb of under a megabyte (a content stream that
 * inflates to hundreds of megabytes) once held a parser for its whole time limit and half a gigabyte. This check
 * reads the raw file first and inflates each compressed stream only to count its bytes, never past the limits, so
 * such a file is refused in about a second with a bounded amount of memory.
 */
export interface PdfBudget {
  /** Decompressed bytes of all streams together, images excepted (their pixels are not parsed for text). */
  maxInflatedBytes: number;
  /** Decompressed bytes of any one stream, images included. */
  maxStreamBytes: number;
  /** Indirect objects, those packed in object streams included. */
  maxObjects: number;
}

export const DEFAULT_PDF_BUDGET: PdfBudget = { maxInflatedBytes: 256 * 1024 * 1024, maxStreamBytes: 64 * 1024 * 1024, maxObjects: 250_000 };

/** What the check found (for the logs and the tests). */
export interface PdfCost {
  objects: number;
  streams: number;
  inflatedBytes: number;
}

const OBJECT = /\d+\s+\d+\s+obj\b/g;
const STREAM = /(?<![a-z])stream(?:\r\n|\n|\r)/g;
const FILTER_NAMES: Record<string, string> = { Fl: 'FlateDecode', AHx: 'ASCIIHexDecode', A85: 'ASCII85Decode', LZW: 'LZWDecode', RL: 'RunLengthDecode' };
/** Filters that only decode pixels: pdf.js never runs them to read text. */
const IMAGE_CODECS = new Set(['DCTDecode', 'JPXDecode', 'CCITTFaxDecode', 'JBIG2Decode']);

/** Throws PdfReadFailure('too-complex') when `bytes` would cost more than `budget`; answers what it cost otherwise. */
export function checkPdfBudget(bytes: Uint8Array, budget: PdfBudget): PdfCost {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const refuse = (detail: string): never => {
    throw new PdfReadFailure('too-complex', detail);
  };
  let objects = (text.match(OBJECT) ?? []).length;
  if (objects > budget.maxObjects) refuse(`${objects} objects`);
  let streams = 0;
  let inflated = 0;
  for (const match of text.matchAll(STREAM)) {
    const dictionary = dictionaryBefore(text, match.index);
    if (dictionary === null) continue;
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    if (end < 0) continue;
    streams += 1;
    const packed = /\/N\s+(\d+)/.exec(/\/Type\s*\/ObjStm\b/.test(dictionary) ? dictionary : '');
    if (packed) {
      objects += Number(packed[1]);
      if (objects > budget.maxObjects) refuse(`${objects} objects`);
    }
    const filters = filtersOf(dictionary);
    if (filters.length === 0 || filters.some((filter) => IMAGE_CODECS.has(filter))) continue;
    const image = /\/Subtype\s*\/Image\b/.test(dictionary);
    const limit = image ? budget.maxStreamBytes : Math.min(budget.maxStreamBytes, budget.maxInflatedBytes - inflated);
    const size = decodedSize(bytes.subarray(start, end), filters, limit);
    if (size > budget.maxStreamBytes) refuse(`a stream inflates past ${budget.maxStreamBytes} bytes`);
    if (!image) {
      inflated += size;
      if (inflated > budget.maxInflatedBytes) refuse(`streams inflate past ${budget.maxInflatedBytes} bytes`);
    }
  }
  return { objects, streams, inflatedBytes: inflated };
}

/** The `<<…>>` right before a `stream` keyword (nested dictionaries included), or null when there is none. */
function dictionaryBefore(text: string, index: number): string | null {
  let end = index;
  while (end > 0 && /\s/.test(text[end - 1] ?? '')) end -= 1;
  if (text.slice(end - 2, end) !== '>>') return null;
  let depth = 0;
  for (let position = end - 2; position > 0 && end - position < 65_536; position -= 1) {
    const pair = text.slice(position, position + 2);
    if (pair === '>>') {
      depth += 1;
      position -= 1;
    } else if (pair === '<<') {
      depth -= 1;
      if (depth === 0) return text.slice(position, end);
      position -= 1;
    }
  }
  return null;
}

/** The stream's filters in order (full names), from a name or an array of names; none when it is unfiltered. */
function filtersOf(dictionary: string): string[] {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/.exec(dictionary);
  if (!match?.[1]) return [];
  return [...match[1].matchAll(/\/([^\s/[\]<>()]+)/g)].map((name) => FILTER_NAMES[name[1] ?? ''] ?? name[1] ?? '');
}

/**
 * How many bytes the filters produce from `raw`, counted up to `limit` (anything over it answers limit + 1). Flate
 * alone, the usual case, goes through zlib; any other chain through pdf-lib's decoders (the same as pdf.js's),
 * read in slices. A stream that does not decode counts what it produced: the parsers decide whether the file is
 * readable.
 */
function decodedSize(raw: Uint8Array, filters: string[], limit: number): number {
  if (limit < 0) return 1;
  if (filters.length === 1 && filters[0] === 'FlateDecode') {
    try {
      return inflateSync(raw, { maxOutputLength: limit + 1, finishFlush: constants.Z_SYNC_FLUSH }).byteLength;
    } catch (error) {
      return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? limit + 1 : 0;
    }
  }
  let size = 0;
  try {
    const context = PDFContext.create();
    const stream = decodePDFRawStream(PDFRawStream.of(context.obj({ Filter: filters.length === 1 ? filters[0]! : filters }), raw));
    for (;;) {
      const slice = stream.getBytes(1024 * 1024);
      size += slice.byteLength;
      if (slice.byteLength === 0 || size > limit) return Math.min(size, limit + 1);
    }
  } catch {
    return size;
  }
}
