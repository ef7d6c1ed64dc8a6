// Draws the first page of a PDF (a material's page cut by the server) into a canvas with the bundled PDF.js: the
// library is its own chunk, loaded only when a page is shown, and its worker is /build/pdf.worker.js (same origin, no
// CDN). CMaps and the standard fonts come from /build/pdfjs/ for Korean PDFs whose fonts are not embedded. Eval is
// off: the pages' CSP allows no eval, and PDF.js then draws glyphs without compiling them. WebAssembly is off too (the
// CSP has no 'wasm-unsafe-eval', kept strict): a JPEG 2000 image (scanned slides) is decoded by PDF.js's plain
// JavaScript build of OpenJPEG, imported from /build/pdfjs/wasm/ on first use (same origin, allowed by script-src).
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';

GlobalWorkerOptions.workerSrc = '/build/pdf.worker.js';

/** At most this many device pixels across: a projector's width, without huge canvases on phones. */
const MAX_PIXELS_WIDE = 2000;

/** The draw under way on each canvas: PDF.js refuses a second render into a canvas while one is running. */
const drawing = new WeakMap<HTMLCanvasElement, Promise<void>>();

/**
 * Renders page 1 of `bytes` into `canvas`, `cssWidth` CSS pixels wide (sharp on high-density screens). Draws into
 * one canvas run one after another, so a quick second pick (the next question, another page number) is drawn last.
 */
export function drawPdfPage(canvas: HTMLCanvasElement, bytes: Uint8Array, cssWidth: number): Promise<void> {
  const next = (drawing.get(canvas) ?? Promise.resolve()).catch(() => undefined).then(() => draw(canvas, bytes, cssWidth));
  drawing.set(canvas, next);
  return next;
}

async function draw(canvas: HTMLCanvasElement, bytes: Uint8Array, cssWidth: number): Promise<void> {
  const document = await getDocument({
    data: bytes,
    cMapUrl: '/build/pdfjs/cmaps/',
    cMapPacked: true,
    standardFontDataUrl: '/build/pdfjs/standard_fonts/',
    wasmUrl: '/build/pdfjs/wasm/',
    useWasm: false,
    isEvalSupported: false,
  }).promise;
  try {
    const page = await document.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const pixels = Math.min(MAX_PIXELS_WIDE, Math.max(1, cssWidth) * (globalThis.devicePixelRatio || 1));
    const viewport = page.getViewport({ scale: pixels / natural.width });
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    await page.render({ canvas, viewport }).promise;
  } finally {
    await document.destroy();
  }
}
