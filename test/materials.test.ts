/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - IG1 — One material per PDF. The same bytes get the same id and are ingested once, also when uploaded concurrently
 *   and by two nodes sharing a store (a store lease: one node does the work …
 * - IG2 — Stored blobs. On a shared store the PDF and its chapter slices live in the store, not on disk, and every
 *   node serves them; a slice whose blob was lost is cut again from the original.
 * - IG3 — Chapters. The plan follows the outline (a lone top-level entry such as the book title is descended; a short
 *   cover folds into the first chapter, a long lead-in gets its own …
 * - IG4 — Korean text. The text layer is read as Korean, also from a non-embedded CJK font (through the CMaps).
 * - IG6 — Bad PDFs. Not a PDF (415 `NOT_A_PDF`), encrypted (422 `ENCRYPTED_PDF`), corrupt or truncated (422
 *   `CORRUPT_PDF`), scanned with the offline model (422 `NO_TEXT_LAYER`) …
 * - IG8 — Parsing off the event loop. PDFs are parsed in a worker pool: a parse over `PDF_TIMEOUT_MS` answers 422
 *   `PDF_TIMEOUT` and the next upload still works; other requests are served meanwhile …
 * - IG9 — Reads. The list, the text and the chapter slices of a material are served; an unknown material or chapter
 *   answers 404 `NOT_FOUND` (also for an id that looks like a path), a malformed id 400.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { httpStatusOf } from '../src/boundary/index.js';
import { isAppError } from '../src/kernel/errors.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { createLogger } from '../src/kernel/logger.js';
import { createStoreBlobStore } from '../src/materials/blob-store.js';
import { createMaterialService, type MaterialServiceDeps } from '../src/materials/material-service.js';
import { createPdfWorkerPool, type PdfWorkerPool } from '../src/materials/pdf-worker-pool.js';
import { SAMPLE_CHAPTERS, buildSamplePdf } from '../src/materials/sample-pdf.js';
import { MemoryStore } from '../src/store/memory-store.js';
import {
  corruptPdf,
  encryptedPdf,
  nonEmbeddedKoreanPdf,
  outlinePdf,
  plainPdf,
  scannedPdf,
  sectionedPdf,
  slidesPdf,
  truncated,
} from '../scripts/pdf-fixtures.js';
import { materialKeys } from '../src/materials/material-keys.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';

const logger = createLogger('silent');
const pool = createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS });
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => pool.close());

const limits = { maxPdfBytes: 20 * 1024 * 1024, maxPdfPages: 500, pdfTimeoutMs: 30_000 };

/** A service on a fresh memory store and data dir; the worker pool is shared to keep workers warm. */
async function makeService(overrides: Partial<MaterialServiceDeps> & { maxPdfPages?: number } = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-materials-'));
  const store = overrides.store ?? new MemoryStore();
  const service = createMaterialService({
    config: { dataDir, limits: { ...limits, maxPdfPages: overrides.maxPdfPages ?? limits.maxPdfPages } },
    store,
    model: createOfflineModel({}),
    logger,
    pool: sharedPool(),
    ...overrides,
  });
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  if (!overrides.store) cleanups.push(() => store.close());
  return { service, store, dataDir };
}

/** The shared pool without its close(), so one service's close cannot stop the others' workers. */
function sharedPool(): PdfWorkerPool {
  return {
    extract: (bytes, options) => pool.extract(bytes, options),
    slice: (bytes, ranges, options) => pool.slice(bytes, ranges, options),
    sample: () => pool.sample(),
    close: async () => undefined,
  };
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    // The status the HTTP edge answers with (the error's own, else its code's).
    if (isAppError(error)) return `${httpStatusOf(error)} ${error.code}`;
    throw error;
  }
  throw new Error('expected a rejection');
}

async function pageCountOf(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes)).getPageCount();
}

describe('sample material', () => {
  it('IG3 IG4 ingests "기초 통계" with its three outline chapters and readable Korean text', async () => {
    const { service } = await makeService();
    const material = await service.preloadSample();
    expect(material).toMatchObject({ title: '기초 통계', pageCount: 10, hasTextLayer: true, chapterSource: 'outline' });
    expect(material.chapters).toEqual([
      { index: 0, title: SAMPLE_CHAPTERS[0], startPage: 1, endPage: 4 },
      { index: 1, title: SAMPLE_CHAPTERS[1], startPage: 5, endPage: 7 },
      { index: 2, title: SAMPLE_CHAPTERS[2], startPage: 8, endPage: 10 },
    ]);
    const expectation = await service.chapterText(material.id, 1);
    expect(expectation).toContain('E[X] = Σ x·P(X=x)');
    expect(expectation).toContain('기댓값은 확률을 가중치로 한 평균');
    expect(expectation).not.toContain('대수의 법칙:');
    expect(await service.materialText(material.id)).toContain('n이 커질수록 표본평균 X̄ₙ은 기댓값 μ에 가까워집니다.');
    for (const chapter of material.chapters) {
      expect(await pageCountOf(await service.chapterPdf(material.id, chapter.index))).toBe(chapter.endPage - chapter.startPage + 1);
    }
    expect(await pageCountOf(await service.materialPdf(material.id))).toBe(10);
  });

  it('IG2 builds the same bytes every time, so preloading twice is free', async () => {
    const [first, second] = await Promise.all([buildSamplePdf(), buildSamplePdf()]);
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const { service } = await makeService();
    const a = await service.preloadSample();
    const b = await service.ingest({ bytes: second });
    expect(b).toEqual({ material: a, created: false });
  });
});

describe('ingest', () => {
  it('IG1 gives the same bytes the same id and ingests them once, even when uploaded concurrently', async () => {
    const { service, store } = await makeService();
    let extractions = 0;
    const counting: PdfWorkerPool = { ...sharedPool(), extract: (bytes, options) => ((extractions += 1), pool.extract(bytes, options)) };
    const node = createMaterialService({ config: { dataDir: tmpdir(), limits }, store, model: createOfflineModel({}), logger, pool: counting });
    const bytes = await outlinePdf(3, 3);
    const results = await Promise.all([node.ingest({ bytes }), node.ingest({ bytes }), node.ingest({ bytes: Buffer.from(bytes) })]);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.material.id)).size).toBe(1);
    expect(extractions).toBe(1);
    expect((await service.ingest({ bytes })).created).toBe(false);
    expect(await store.zcard(materialKeys.materialIndex())).toBe(1);
    expect((await service.list({ limit: 20 })).items).toEqual([results[0]?.material]);
  });

  it('IG1 lets only one of two nodes sharing a store do the work (store lease)', async () => {
    const store = new MemoryStore();
    cleanups.push(() => store.close());
    const blobs = createStoreBlobStore(store);
    const nodeA = (await makeService({ store, blobs })).service;
    const nodeB = (await makeService({ store, blobs })).service;
    const bytes = await outlinePdf(4, 3);
    const [a, b] = await Promise.all([nodeA.ingest({ bytes }), nodeB.ingest({ bytes })]);
    expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
    expect(a.material).toEqual(b.material);
    // Blobs live in the store, so the node that did not ingest serves the slice too.
    const other = a.created ? nodeB : nodeA;
    expect(await pageCountOf(await other.chapterPdf(a.material.id, 2))).toBe(3);
  });

  it('IG2 keeps blobs in the store, not on disk, when the store is shared (Redis mode)', async () => {
    const store = new MemoryStore();
    cleanups.push(() => store.close());
    const { service, dataDir } = await makeService({ store, blobs: createStoreBlobStore(store) });
    const { material } = await service.ingest({ bytes: await outlinePdf(2, 3) });
    expect(await store.getBytes(materialKeys.blob(`${material.id}.pdf`))).not.toBeNull();
    expect(await store.getBytes(materialKeys.blob(`${material.id}.chapter-1.pdf`))).not.toBeNull();
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('IG2 re-cuts a slice whose blob was lost, from the original', async () => {
    const { service, dataDir } = await makeService();
    const { material } = await service.ingest({ bytes: await outlinePdf(3, 4) });
    await rm(path.join(dataDir, 'blobs', `${material.id}.chapter-1.pdf`));
    expect(await pageCountOf(await service.chapterPdf(material.id, 1))).toBe(4);
    expect(await readdir(path.join(dataDir, 'blobs'))).toContain(`${material.id}.chapter-1.pdf`);
  });

  it('IG3 turns one outline entry per slide into a handful of contiguous chapters whose slices have the right pages', async () => {
    const { service } = await makeService();
    const { material } = await service.ingest({ bytes: await slidesPdf(40) });
    expect(material.chapterSource).toBe('outline');
    expect(material.chapters.length).toBeGreaterThanOrEqual(3);
    expect(material.chapters.length).toBeLessThanOrEqual(8);
    let next = 1;
    for (const chapter of material.chapters) {
      expect(chapter.startPage).toBe(next);
      next = chapter.endPage + 1;
      expect(await pageCountOf(await service.chapterPdf(material.id, chapter.index))).toBe(chapter.endPage - chapter.startPage + 1);
    }
    expect(next).toBe(41);
  });

  it('IG3 plans from headings, then page windows, and resolves named destinations', async () => {
    const { service } = await makeService();
    const sections = [1, 2, 3].map((n) => ({ title: `Part ${n}`, pages: 3 }));
    const headings = await service.ingest({ bytes: await sectionedPdf({ sections, headings: true }) });
    expect(headings.material.chapterSource).toBe('headings');
    expect(headings.material.chapters.map((chapter) => chapter.title)).toEqual(['Part 1', 'Part 2', 'Part 3']);
    const named = await service.ingest({ bytes: await sectionedPdf({ sections, outline: true, namedDestinations: true }) });
    expect(named.material.chapterSource).toBe('outline');
    expect(named.material.chapters.map((chapter) => chapter.startPage)).toEqual([1, 4, 7]);
    const plain = await service.ingest({ bytes: await plainPdf(13) });
    expect(plain.material.chapterSource).toBe('pages');
    expect(plain.material.chapters.map((chapter) => [chapter.startPage, chapter.endPage])).toEqual([[1, 6], [7, 13]]);
  });

  it('IG4 reads Korean set in a non-embedded CJK font (needs the CMaps)', async () => {
    const lines = ['대수의 법칙과 표본평균', '기댓값은 가중평균이다'];
    const { service } = await makeService();
    const { material } = await service.ingest({ bytes: await nonEmbeddedKoreanPdf(lines) });
    const text = await service.materialText(material.id);
    for (const line of lines) expect(text).toContain(line);
  });

  it('IG9 answers NOT_FOUND for unknown materials and chapters', async () => {
    const { service } = await makeService();
    const { material } = await service.ingest({ bytes: await outlinePdf(2, 3) });
    expect(await service.get('0'.repeat(32))).toBeNull();
    expect(await errorCode(service.chapterText('0'.repeat(32), 0))).toBe('404 NOT_FOUND');
    expect(await errorCode(service.chapterText(material.id, 2))).toBe('404 NOT_FOUND');
    expect(await errorCode(service.chapterPdf(material.id, -1))).toBe('404 NOT_FOUND');
    expect(await errorCode(service.materialPdf('../etc/passwd'))).toBe('404 NOT_FOUND');
  });
});

describe('bad input', () => {
  it.each([
    ['encrypted', () => encryptedPdf(), '422 ENCRYPTED_PDF'],
    ['corrupt', async () => corruptPdf(), '422 CORRUPT_PDF'],
    ['truncated', async () => truncated(await outlinePdf(3, 3)), '422 CORRUPT_PDF'],
    ['truncated near the end', async () => truncated(await outlinePdf(3, 3), 0.97), '422 CORRUPT_PDF'],
    ['scanned (offline model)', () => scannedPdf(3), '422 NO_TEXT_LAYER'],
  ] as const)('IG6 rejects a %s PDF with a clear code', async (_name, make, expected) => {
    const { service } = await makeService();
    expect(await errorCode(service.ingest({ bytes: await make() }))).toBe(expected);
    expect((await service.list({ limit: 20 })).items).toEqual([]);
  });

  it('IG6 rejects more pages than the limit', async () => {
    const { service } = await makeService({ maxPdfPages: 5 });
    expect(await errorCode(service.ingest({ bytes: await plainPdf(6) }))).toBe('422 TOO_MANY_PAGES');
  });

  it('IG8 stops a parse over the time limit, and the next upload still works', async () => {
    const slowPool = createPdfWorkerPool({ timeoutMs: 50, size: 1 });
    cleanups.push(() => slowPool.close());
    const { service } = await makeService({ pool: slowPool });
    expect(await errorCode(service.ingest({ bytes: await plainPdf(150) }))).toBe('422 PDF_TIMEOUT');
    const { service: healthy } = await makeService();
    expect((await healthy.ingest({ bytes: await plainPdf(4) })).created).toBe(true);
  });
});
