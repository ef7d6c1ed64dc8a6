import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { chapterProblems, MAX_CHAPTERS, planByPages, planFromDocument } from '../src/materials/chapter-plan.js';
import { createPdfWorkerPool } from '../src/materials/pdf-worker-pool.js';
import { sectionedPdf } from '../scripts/pdf-fixtures.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';

/**
 * The same invariant as chapter-plan.test.ts, but through real PDFs: generated with pdf-lib (outline and/or
 * headings or neither), read back by pdf.js in the worker, then planned.
 */
const pool = createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS, size: 1 });
afterAll(() => pool.close());

const layout = fc.record({
  sizes: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 14 }),
  outline: fc.boolean(),
  headings: fc.boolean(),
  namedDestinations: fc.boolean(),
});

describe('IG3 chapter plan over generated PDFs (property)', () => {
  it('covers every page once, in order, and follows the outline or the headings when there are any', async () => {
    await fc.assert(
      fc.asyncProperty(layout, async ({ sizes, outline, headings, namedDestinations }) => {
        const sections = sizes.map((pages, index) => ({ title: `Section ${String.fromCharCode(65 + index)}`, pages }));
        const bytes = await sectionedPdf({ sections, outline, headings, namedDestinations, linesPerPage: 4 });
        const extracted = await pool.extract(bytes, { maxPages: 500 });
        const pageCount = sizes.reduce((sum, size) => sum + size, 0);
        expect(extracted.pageCount).toBe(pageCount);

        const plan = planFromDocument(extracted);
        const chapters = plan?.chapters ?? planByPages(pageCount, extracted.pages.map((page) => page.text));
        expect(chapterProblems(chapters, pageCount)).toEqual([]);
        expect(chapters.length).toBeLessThanOrEqual(MAX_CHAPTERS);

        const sectionStarts = new Set(sizes.map((_, index) => sizes.slice(0, index).reduce((sum, size) => sum + size, 0) + 1));
        if (sizes.length >= 2 && (outline || headings)) {
          expect(plan?.source).toBe(outline ? 'outline' : 'headings');
          // Merging may drop boundaries but never invents one.
          expect(chapters.every((chapter) => sectionStarts.has(chapter.startPage))).toBe(true);
        }
        if (!outline && !headings) expect(plan).toBeNull();
      }),
      // Both conditional parts of the property run on every run, whatever the random layouts are: one fixed layout
      // with an outline, one with headings only, one with neither, before the random ones.
      {
        numRuns: 25,
        examples: [
          [{ sizes: [3, 2, 4], outline: true, headings: false, namedDestinations: true }],
          [{ sizes: [2, 3, 2], outline: false, headings: true, namedDestinations: false }],
          [{ sizes: [4, 3], outline: false, headings: false, namedDestinations: false }],
        ],
      },
    );
  });
});

describe('IG8 pdf worker pool', () => {
  it('refuses a job at once when its queue is full (busy), and still runs the ones it took', async () => {
    const small = createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS, size: 1, maxQueue: 1 });
    try {
      const bytes = await sectionedPdf({ sections: [{ title: 'Only', pages: 2 }], outline: false, headings: false, namedDestinations: false, linesPerPage: 4 });
      // One job runs, one waits; the third finds the queue full. Each call gets its own copy (bytes are transferred).
      const jobs = [0, 1, 2].map(() => small.extract(bytes.slice(), { maxPages: 10 }).then((result) => result.pageCount, (error: unknown) => error));
      const [first, second, third] = await Promise.all(jobs);
      expect(first).toBe(2);
      expect(second).toBe(2);
      expect(third).toMatchObject({ name: 'PdfJobError', kind: 'busy' });
    } finally {
      await small.close();
    }
  });
});
