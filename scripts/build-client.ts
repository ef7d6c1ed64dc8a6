import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles the typed browser client (client/) into public/build/: one ES module per page plus shared chunks, with
 * socket.io-client, marked, DOMPurify, KaTeX and PDF.js (with its worker, CMaps and standard fonts) taken from
 * node_modules (pages never load a CDN) and sourcemaps on.
 * `npm start` runs this before the server, and the test suite's global setup runs it before the browser tests; it
 * takes a fraction of a second, so there is no separate build step to forget.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_OUT_DIR = path.join(root, 'public', 'build');

/** Each page's entry module; the key is the bundle's name (`/build/<key>.js`). */
const ENTRIES = {
  index: 'client/pages/index.ts',
  upload: 'client/pages/upload.ts',
  classroom: 'client/pages/classroom.ts',
  monitor: 'client/pages/monitor.ts',
  host: 'client/pages/host.ts',
  play: 'client/pages/play.ts',
  signin: 'client/pages/signin.ts',
  signup: 'client/pages/signup.ts',
  'reset-password': 'client/pages/reset-password.ts',
  account: 'client/pages/account.ts',
  dashboard: 'client/pages/dashboard.ts',
  quality: 'client/pages/quality.ts',
  analytics: 'client/pages/analytics.ts',
  // LTI 1.3: the launch's landing page (served by POST /lti/launch), the Deep Linking picker, dynamic registration's end.
  'lti-landing': 'client/pages/lti-landing.ts',
  'lti-picker': 'client/pages/lti-picker.ts',
  'lti-registered': 'client/pages/lti-registered.ts',
  // The classroom's markdown renderer on its own, so a browser test can feed it model output directly.
  markdown: 'client/ui/markdown.ts',
  // PDF.js's worker (client/ui/pdf-page.ts points GlobalWorkerOptions.workerSrc at /build/pdf.worker.js).
  'pdf.worker': 'node_modules/pdfjs-dist/build/pdf.worker.min.mjs',
};

/** PDF.js's CMaps (Korean PDFs whose fonts are not embedded) and standard fonts, served from /build/pdfjs/. */
const PDFJS_ASSETS = ['cmaps', 'standard_fonts'];
const JPX_DECODER = ['openjpeg_nowasm_fallback.js', 'LICENSE_OPENJPEG', 'LICENSE_PDFJS_OPENJPEG'];

export async function buildClient(): Promise<void> {
  rmSync(CLIENT_OUT_DIR, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: CLIENT_OUT_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: true,
    minify: true,
    chunkNames: 'chunks/[name]-[hash]',
    tsconfig: 'client/tsconfig.json',
    logLevel: 'warning',
  });
  for (const folder of PDFJS_ASSETS) cpSync(path.join(root, 'node_modules', 'pdfjs-dist', folder), path.join(CLIENT_OUT_DIR, 'pdfjs', folder), { recursive: true });
  // The JPEG 2000 decoder as plain JavaScript (PDF.js imports it from /build/pdfjs/wasm/ when it meets a JPX image):
  // the pages' CSP compiles no WebAssembly, so the .wasm builds are not shipped (client/ui/pdf-page.ts).
  for (const file of JPX_DECODER) cpSync(path.join(root, 'node_modules', 'pdfjs-dist', 'wasm', file), path.join(CLIENT_OUT_DIR, 'pdfjs', 'wasm', file));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  process.stdout.write('lectern: building the web pages (public/build)…\n');
  await buildClient();
  process.stdout.write(`lectern: web pages built in ${Math.round(performance.now() - started)} ms; starting the server…\n`);
}
