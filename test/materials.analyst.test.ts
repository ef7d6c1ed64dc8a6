/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - IG5 — Analyst. With Gemini, a PDF without a usable outline or headings (or without a text layer) is structured by
 *   the analyst agent, which receives the PDF inline …
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/kernel/logger.js';
import { createMaterialService } from '../src/materials/material-service.js';
import { createPdfWorkerPool, type PdfWorkerPool } from '../src/materials/pdf-worker-pool.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { plainPdf, scannedPdf } from '../scripts/pdf-fixtures.js';
import { fakeGeminiModel, FakeGemini } from './support/fake-gemini.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';

/**
 * The PDF analyst agent through the real Gemini adapter and SDK, against the fake Gemini server: it is asked only
 * when the PDF has neither outline nor headings, gets the PDF inline, and its ranges are checked by the server.
 */

const pool = createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS, size: 1 });
afterAll(() => pool.close());
const sharedPool: PdfWorkerPool = {
  extract: (bytes, options) => pool.extract(bytes, options),
  slice: (bytes, ranges, options) => pool.slice(bytes, ranges, options),
  sample: () => pool.sample(),
  close: async () => undefined,
};

let fake: FakeGemini;
let dataDir: string;
let store: MemoryStore;

beforeEach(async () => {
  fake = await FakeGemini.start();
  dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-analyst-'));
  store = new MemoryStore();
});

afterEach(async () => {
  await fake.close();
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

function service() {
  const model = fakeGeminiModel(fake, { maxAttempts: 1 });
  return createMaterialService({
    config: { dataDir, limits: { maxPdfBytes: 20 * 1024 * 1024, maxPdfPages: 500, pdfTimeoutMs: 30_000 } },
    store,
    model,
    logger: createLogger('silent'),
    pool: sharedPool,
  });
}

interface GeminiBody {
  contents: { parts: ({ text?: string; inlineData?: { mimeType: string; data: string } })[] }[];
}

describe('IG5 pdf analyst agent', () => {
  it('structures a PDF without outline or headings, receiving the PDF inline', async () => {
    const bytes = await plainPdf(10);
    fake.enqueue({
      json: {
        chapters: [
          { title: '표본평균', startPage: 1, endPage: 4 },
          { title: '분산', startPage: 5, endPage: 10 },
        ],
      },
    });
    const { material } = await service().ingest({ bytes });
    expect(material.chapterSource).toBe('analyst');
    expect(material.chapters).toEqual([
      { index: 0, title: '표본평균', startPage: 1, endPage: 4 },
      { index: 1, title: '분산', startPage: 5, endPage: 10 },
    ]);
    expect(fake.requests).toHaveLength(1);
    const parts = (fake.requests[0]?.body as GeminiBody).contents.flatMap((content) => content.parts);
    const inline = parts.find((part) => part.inlineData)?.inlineData;
    expect(inline?.mimeType).toBe('application/pdf');
    expect(Buffer.from(inline?.data ?? '', 'base64').equals(Buffer.from(bytes))).toBe(true);
    expect(parts.map((part) => part.text ?? '').join('')).toContain('10쪽');
  });

  it.each([
    ['overlapping', [[1, 5], [5, 10]]],
    ['leaving a gap', [[1, 4], [6, 10]]],
    ['past the last page', [[1, 5], [6, 11]]],
    ['out of order', [[6, 10], [1, 5]]],
  ] as const)('rejects %s ranges and falls back to page windows', async (_name, ranges) => {
    fake.enqueue({ json: { chapters: ranges.map(([startPage, endPage], index) => ({ title: `T${index}`, startPage, endPage })) } });
    const { material } = await service().ingest({ bytes: await plainPdf(10) });
    expect(material.chapterSource).toBe('pages');
    expect(material.chapters.map((chapter) => [chapter.startPage, chapter.endPage])).toEqual([[1, 5], [6, 10]]);
  });

  it('falls back to page windows when the model fails', async () => {
    fake.enqueue({ status: 500, message: 'boom' });
    const { material } = await service().ingest({ bytes: await plainPdf(10) });
    expect(material.chapterSource).toBe('pages');
  });

  it('accepts a scanned PDF with Gemini (it reads page images) and lets the analyst structure it', async () => {
    fake.enqueue({ json: { chapters: [{ title: '스캔 1부', startPage: 1, endPage: 2 }, { title: '스캔 2부', startPage: 3, endPage: 4 }] } });
    const { material } = await service().ingest({ bytes: await scannedPdf(4) });
    expect(material).toMatchObject({ hasTextLayer: false, chapterSource: 'analyst', pageCount: 4 });
  });
});
