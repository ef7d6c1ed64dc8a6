import { parentPort } from 'node:worker_threads';
import type { PDFDocument } from 'pdf-lib';
import { checkPdfBudget } from './pdf-budget.js';
import { PdfReadFailure, loadStructure, readPdf, slicePdf } from './pdf-reader.js';
import { buildSamplePdf } from './sample-pdf.js';
import type { WorkerRequest, WorkerResponse } from './pdf-worker-pool.js';

/**
 * Entry point of a PDF worker thread: answers one request at a time (the pool never sends a second before the
 * first is answered). Expected failures travel back as `{ok:false, kind}`; anything else as kind 'corrupt', since
 * it was the file that made a parser throw.
 */
const port = parentPort;
if (!port) throw new Error('pdf-worker must run in a worker thread');

// pdf-lib reports every recoverable oddity of a file with console.warn, which a worker would print on the server's
// stdout; collect them instead and send them with the answer, where the pool logs them through pino.
const MAX_WARNINGS = 20;
let warnings: string[] = [];
globalThis.console.warn = (...parts: unknown[]) => {
  if (warnings.length < MAX_WARNINGS) warnings.push(parts.map(String).join(' '));
};

port.on('message', (request: WorkerRequest) => {
  warnings = [];
  void handle(request).then((answer) => {
    const response: WorkerResponse = warnings.length > 0 ? { ...answer, warnings } : answer;
    const transfer =
      response.ok && response.type === 'slice'
        ? response.slices.map((slice) => slice.buffer as ArrayBuffer)
        : response.ok && response.type === 'sample'
          ? [response.pdf.buffer as ArrayBuffer]
          : [];
    port.postMessage(response, transfer);
  });
});

/**
 * The pdf-lib document of the last extraction, kept for the slicing that usually follows on this same worker (the
 * pool sends it here when it can), so a large file is parsed by pdf-lib once per ingest instead of twice.
 */
let kept: { key: string; document: PDFDocument; pageCount: number } | null = null;

async function handle(request: WorkerRequest): Promise<WorkerResponse> {
  try {
    if (request.type === 'extract') {
      kept = null;
      // Before any parser: a file that would inflate or multiply past the budget is refused here.
      checkPdfBudget(request.bytes, request.budget);
      const structure = await loadStructure(request.bytes);
      if (request.key !== undefined) kept = { key: request.key, ...structure };
      const extracted = await readPdf(request.bytes, { maxPages: request.maxPages, structure });
      return { id: request.id, ok: true, type: 'extract', extracted };
    }
    if (request.type === 'sample') return { id: request.id, ok: true, type: 'sample', pdf: await buildSamplePdf() };
    const document = kept !== null && kept.key === request.key ? kept.document : undefined;
    kept = null;
    return { id: request.id, ok: true, type: 'slice', slices: await slicePdf(request.bytes, request.ranges, document) };
  } catch (error) {
    kept = null;
    if (error instanceof PdfReadFailure) {
      return { id: request.id, ok: false, kind: error.kind, detail: error.message, ...(error.pageCount === undefined ? {} : { pageCount: error.pageCount }) };
    }
    return { id: request.id, ok: false, kind: 'corrupt', detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
