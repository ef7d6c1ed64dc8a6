import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { createLogger } from '../src/kernel/logger.js';
import { createMaterialService } from '../src/materials/material-service.js';
import { createPdfWorkerPool } from '../src/materials/pdf-worker-pool.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { buildPdf, type FixturePage, type OutlineEntry } from '../scripts/pdf-fixtures.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';

/**
 * IG10 through the real ingest: PDFs made with pdf-lib (Pretendard for Hangul), read by pdf.js in the worker,
 * planned and titled by the material service, as an upload is.
 */
const pool = createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS, size: 1 });
afterAll(() => pool.close());
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function ingest(options: { pages: FixturePage[]; outline: OutlineEntry[]; title?: string; korean?: boolean }, filename: string) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-titles-'));
  const store = new MemoryStore();
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }), () => store.close());
  const service = createMaterialService({
    config: { dataDir, limits: { maxPdfBytes: 20 * 1024 * 1024, maxPdfPages: 100, pdfTimeoutMs: 30_000 } },
    store,
    model: createOfflineModel({}),
    logger: createLogger('silent'),
    pool: { extract: (bytes, o) => pool.extract(bytes, o), slice: (bytes, r, o) => pool.slice(bytes, r, o), sample: () => pool.sample(), close: async () => undefined },
  });
  const { material } = await service.ingest({ bytes: await buildPdf(options), filename });
  return material;
}

/** A slide: its title drawn large, a line of body text, and the course footer every slide repeats. */
const slide = (heading: string | null, line: string, footer: string, number: number): FixturePage => ({
  ...(heading ? { heading } : {}),
  lines: [line, `${footer} · ${number}`],
});

describe('IG10 chapter and material titles of real PDFs', () => {
  it('an English deck bookmarked "Slide 1–4", "Slide 5–8" and titled by PowerPoint gets its slides\' titles', async () => {
    const headings = ['Introduction to Statistics', 'Why statistics', 'Populations and samples', 'Measuring the centre', 'Spread', 'Variance', null, 'Summary'];
    const pages = headings.map((heading, index) => slide(heading, 'Values spread around the mean in every data set.', 'STAT 101', index + 1));
    const material = await ingest(
      { pages, outline: [{ title: 'Slide 1–4', pageIndex: 0 }, { title: 'Slide 5–8', pageIndex: 4 }], title: 'Microsoft PowerPoint - lec2.pptx' },
      'lec2.pdf',
    );
    expect(material.chapterSource).toBe('outline');
    expect(material.chapters.map(({ title, startPage, endPage }) => [title, startPage, endPage])).toEqual([
      ['Why statistics', 1, 4],
      ['Spread', 5, 8],
    ]);
    expect(material.title).toBe('Introduction to Statistics');
  });

  it('a Korean document titled "Microsoft Word - draft.docx" keeps its real outline titles and takes its first heading', async () => {
    const pages = ['확률과 통계 입문', '1장 확률', null, null, '2장 통계', null].map((heading, index) =>
      slide(heading, '확률은 사건이 일어날 가능성을 0과 1 사이의 수로 나타낸 것이다.', '확률과 통계', index + 1),
    );
    const outline = [{ title: '확률의 기초', pageIndex: 0 }, { title: '통계의 기초', pageIndex: 4 }];
    const material = await ingest({ pages, outline, title: 'Microsoft Word - draft.docx', korean: true }, 'draft.pdf');
    expect(material.chapters.map((chapter) => chapter.title)).toEqual(['확률의 기초', '통계의 기초']);
    expect(material.title).toBe('확률과 통계 입문');
  });

  it('Korean generic bookmarks ("슬라이드 1–3", "4페이지", "제목 없음") take the slide titles, or stay when a slide has none', async () => {
    const headings = ['평균', '평균의 성질', '표본평균', '분산', '분산의 성질', '표준편차', null, null, null];
    const pages = headings.map((heading, index) => slide(heading, '평균은 자료의 값을 모두 더해 개수로 나눈 값입니다.', '기초 통계', index + 1));
    const outline = [{ title: '슬라이드 1–3', pageIndex: 0 }, { title: '4페이지', pageIndex: 3 }, { title: '제목 없음', pageIndex: 6 }];
    const material = await ingest({ pages, outline, korean: true }, '통계_3강.pdf');
    expect(material.chapters.map((chapter) => chapter.title)).toEqual(['평균의 성질', '분산', '제목 없음']);
    // No metadata title: the first page's heading, not the file name.
    expect(material.title).toBe('평균');
  });

  it('falls back to the file name without its extension when the PDF names nothing', async () => {
    const pages = [0, 1, 2, 3].map((index) => slide(null, 'The mean is the balance point of the data.', 'STAT 101', index + 1));
    const material = await ingest({ pages, outline: [{ title: 'Page 1', pageIndex: 0 }, { title: 'Page 3', pageIndex: 2 }], title: 'Untitled' }, 'stat_lecture-02.pdf');
    expect(material.title).toBe('stat lecture 02');
    expect(material.chapters.map((chapter) => chapter.title)).toEqual(['Page 1', 'Page 3']);
  });
});
