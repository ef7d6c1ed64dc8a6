import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analystProblems } from '../src/materials/analyst.js';
import {
  chapterProblems,
  chapterTitle,
  MAX_CHAPTERS,
  mergeSegments,
  minimumPages,
  planByPages,
  planFromDocument,
  planFromHeadings,
  planFromOutline,
} from '../src/materials/chapter-plan.js';
import type { Chapter, ExtractedOutlineItem, ExtractedPage, ExtractedPdf } from '../src/materials/types.js';

function extracted(pageCount: number, overrides: Partial<ExtractedPdf> = {}): ExtractedPdf {
  return {
    pageCount,
    pages: Array.from({ length: pageCount }, (): ExtractedPage => ({ text: 'body text line', headings: [] })),
    outline: [],
    bodyFontSize: 11,
    metadataTitle: null,
    timings: { loadMs: 0, textMs: 0 },
    ...overrides,
  };
}

const entry = (title: string, pageIndex: number | null, children: ExtractedOutlineItem[] = []): ExtractedOutlineItem => ({
  title,
  pageIndex,
  children,
});

const ranges = (chapters: Chapter[]) => chapters.map((chapter) => [chapter.startPage, chapter.endPage]);

describe('IG3 chapter plan: outline', () => {
  it('uses top-level outline entries as chapters, 1-based inclusive', () => {
    const chapters = planFromOutline(extracted(12, { outline: [entry('A', 0), entry('B', 4), entry('C', 8)] }));
    expect(chapters).toEqual([
      { index: 0, title: 'A', startPage: 1, endPage: 4 },
      { index: 1, title: 'B', startPage: 5, endPage: 8 },
      { index: 2, title: 'C', startPage: 9, endPage: 12 },
    ]);
  });

  it('folds a short cover into the first chapter and gives a long lead-in its own chapter', () => {
    const withCover = planFromOutline(extracted(10, { outline: [entry('A', 1), entry('B', 4), entry('C', 7)] }));
    expect(ranges(withCover ?? [])).toEqual([[1, 4], [5, 7], [8, 10]]);
    const withPreface = planFromOutline(extracted(20, { outline: [entry('A', 6), entry('B', 12)] }));
    expect(withPreface?.map((chapter) => chapter.title)).toEqual(['들어가며', 'A', 'B']);
    expect(ranges(withPreface ?? [])).toEqual([[1, 6], [7, 12], [13, 20]]);
  });

  it('sorts out-of-order entries, ignores unresolved ones and folds entries sharing a page', () => {
    const chapters = planFromOutline(
      extracted(12, { outline: [entry('C', 8), entry('A', 0), entry('lost', null), entry('B', 4), entry('B2', 4)] }),
    );
    expect(chapters?.map((chapter) => chapter.title)).toEqual(['A', 'B · B2', 'C']);
  });

  it('descends below a lone top-level entry such as the book title', () => {
    const outline = [entry('Book', 0, [entry('Part 1', 0), entry('Part 2', 5), entry('Part 3', 10)])];
    expect(planFromOutline(extracted(15, { outline }))?.map((chapter) => chapter.title)).toEqual(['Part 1', 'Part 2', 'Part 3']);
  });

  it('does not plan from an outline with a single usable entry', () => {
    expect(planFromOutline(extracted(10, { outline: [entry('Only', 0)] }))).toBeNull();
    expect(planFromOutline(extracted(10, { outline: [entry('x', null), entry('y', null)] }))).toBeNull();
  });

  it('merges one bookmark per slide into a handful of chapters named after their topics', () => {
    const topics = ['평균', '분산', '기댓값', '대수의 법칙'];
    const outline = Array.from({ length: 40 }, (_, index) => entry(`${topics[Math.floor(index / 10)]} ${index + 1}`, index));
    const chapters = planFromOutline(extracted(40, { outline })) ?? [];
    expect(chapterProblems(chapters, 40)).toEqual([]);
    expect(chapters.length).toBeGreaterThanOrEqual(3);
    expect(chapters.length).toBeLessThanOrEqual(8);
    expect(chapters.every((chapter) => chapter.endPage - chapter.startPage + 1 >= 5)).toBe(true);
    expect(chapters.map((chapter) => chapter.title)).toEqual(['평균', '분산', '기댓값', '대수의 법칙']);
  });

  it('never leaves more than MAX_CHAPTERS chapters', () => {
    const outline = Array.from({ length: 30 }, (_, index) => entry(`Chapter ${index + 1}`, index * 10));
    const chapters = planFromOutline(extracted(300, { outline })) ?? [];
    expect(chapters.length).toBe(MAX_CHAPTERS);
    expect(chapterProblems(chapters, 300)).toEqual([]);
  });
});

describe('IG3 chapter plan: headings and page windows', () => {
  const heading = (text: string, size: number) => ({ text, size });

  it('starts a chapter at each page carrying the largest repeated heading size (a cover title used once is not it)', () => {
    const doc = extracted(10);
    doc.pages[0] = { text: '', headings: [heading('Statistics', 36)] };
    doc.pages[1] = { text: '', headings: [heading('Means', 24), heading('Intro', 16)] };
    doc.pages[5] = { text: '', headings: [heading('Expectation', 24)] };
    doc.pages[7] = { text: '', headings: [heading('Detail', 16)] };
    expect(planFromHeadings(doc)?.map((chapter) => [chapter.title, chapter.startPage, chapter.endPage])).toEqual([
      ['Means', 1, 5],
      ['Expectation', 6, 10],
    ]);
  });

  it('finds no headings in uniform text or a document without text', () => {
    expect(planFromHeadings(extracted(10))).toBeNull();
    expect(planFromHeadings(extracted(10, { bodyFontSize: 0 }))).toBeNull();
    expect(planFromDocument(extracted(10))).toBeNull();
  });

  it('splits into even windows titled by page range and first line', () => {
    const chapters = planByPages(20, Array.from({ length: 20 }, (_, index) => `Topic ${index + 1}\nmore`));
    expect(ranges(chapters)).toEqual([[1, 6], [7, 13], [14, 20]]);
    expect(chapters[1]?.title).toBe('Topic 7 (7–13쪽)');
    expect(planByPages(1)).toEqual([{ index: 0, title: '1쪽', startPage: 1, endPage: 1 }]);
  });
});

describe('IG3 chapter titles', () => {
  it('joins two topics, counts more, and collapses numbered runs', () => {
    expect(chapterTitle(['A'], 1, 3)).toBe('A');
    expect(chapterTitle(['A', 'B'], 1, 3)).toBe('A · B');
    expect(chapterTitle(['A', 'B', 'C'], 1, 3)).toBe('A 외 2개 주제');
    expect(chapterTitle(['평균 1', '평균 2', '평균 (계속)'], 1, 3)).toBe('평균 1–2');
    expect(chapterTitle(['', '  '], 4, 6)).toBe('4–6쪽');
  });
});

// ---- properties ----------------------------------------------------------------------------------------------

const outlineItem = (pageCount: number): fc.Arbitrary<ExtractedOutlineItem> =>
  fc.record({
    title: fc.oneof(fc.constant(''), fc.string({ maxLength: 20 }), fc.constantFrom('평균', '기댓값 1', 'Chapter 3', '  ')),
    pageIndex: fc.option(fc.integer({ min: -2, max: pageCount + 2 }), { nil: null }),
    children: fc.array(
      fc.record({ title: fc.string({ maxLength: 10 }), pageIndex: fc.option(fc.integer({ min: 0, max: pageCount - 1 }), { nil: null }), children: fc.constant([]) }),
      { maxLength: 4 },
    ),
  });

const document = fc.integer({ min: 1, max: 400 }).chain((pageCount) =>
  fc.record({
    pageCount: fc.constant(pageCount),
    outline: fc.array(outlineItem(pageCount), { maxLength: 60 }),
    bodyFontSize: fc.constantFrom(0, 10, 11, 12),
    headingPages: fc.array(
      fc.record({ page: fc.integer({ min: 0, max: pageCount - 1 }), size: fc.constantFrom(14, 18, 24, 30), text: fc.string({ maxLength: 30 }) }),
      { maxLength: 80 },
    ),
  }),
);

describe('IG3 chapter plan invariant (property)', () => {
  it('every plan covers every page exactly once, in order, with titles, and at most MAX_CHAPTERS chapters', () => {
    fc.assert(
      fc.property(document, ({ pageCount, outline, bodyFontSize, headingPages }) => {
        const doc = extracted(pageCount, { outline, bodyFontSize });
        for (const { page, size, text } of headingPages) doc.pages[page]?.headings.push({ text, size });
        const plan = planFromDocument(doc);
        const chapters = plan?.chapters ?? planByPages(pageCount, doc.pages.map((page) => page.text));
        expect(chapterProblems(chapters, pageCount)).toEqual([]);
        expect(chapters.length).toBeLessThanOrEqual(MAX_CHAPTERS);
        expect(chapterProblems(planByPages(pageCount), pageCount)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('GL6 a chapter of only front matter (the cover and 목차, an Agenda, 5. 평가 방법 at the end) joins its neighbour: no chapter is named after it', () => {
    const physics = [
      { start: 0, titles: ['일반물리학 I'] },
      { start: 1, titles: ['목차'] },
      { start: 2, titles: ['1. 위치와 변위'] },
      { start: 3, titles: ['2. 속도와 가속도'] },
      { start: 4, titles: ['3. 등가속도 운동'] },
      { start: 6, titles: ['4. 뉴턴의 운동 법칙'] },
      { start: 8, titles: ['5. 평가 방법'] },
    ];
    const chapters = mergeSegments(physics, 10, { minPages: 2, maxChapters: MAX_CHAPTERS });
    expect(chapters.map((chapter) => [chapter.title, chapter.startPage, chapter.endPage])).toEqual([
      ['1. 위치와 변위 · 2. 속도와 가속도', 1, 4],
      ['3. 등가속도 운동', 5, 6],
      ['4. 뉴턴의 운동 법칙', 7, 10],
    ]);
    // A topical chapter that merely contains an Agenda page keeps its own name.
    const deck = [{ start: 0, titles: ['Agenda', 'Variables'] }, { start: 3, titles: ['The Mean'] }];
    expect(mergeSegments(deck, 6, { minPages: 2, maxChapters: MAX_CHAPTERS }).map((chapter) => chapter.title)).toEqual(['Variables', 'The Mean']);
  });

  it('merging only removes boundaries and leaves every chapter at least the minimum size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 300 }).chain((pageCount) =>
          fc.tuple(fc.constant(pageCount), fc.uniqueArray(fc.integer({ min: 1, max: pageCount - 1 }), { maxLength: pageCount - 1 })),
        ),
        ([pageCount, starts]) => {
          const segments = [0, ...starts.sort((a, b) => a - b)].map((start) => ({ start, titles: [`T${start}`] }));
          const sizes = segments.map((segment, index) => (segments[index + 1]?.start ?? pageCount) - segment.start);
          const minPages = minimumPages(sizes, pageCount);
          const chapters = mergeSegments(segments, pageCount, { minPages, maxChapters: MAX_CHAPTERS });
          expect(chapterProblems(chapters, pageCount)).toEqual([]);
          const inputStarts = new Set(segments.map((segment) => segment.start + 1));
          expect(chapters.every((chapter) => inputStarts.has(chapter.startPage))).toBe(true);
          expect(chapters.length).toBeLessThanOrEqual(MAX_CHAPTERS);
          if (chapters.length > 1) {
            expect(chapters.every((chapter) => chapter.endPage - chapter.startPage + 1 >= minPages)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps real chapters of reasonable size exactly as the outline says', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 3, max: 40 }), { minLength: 2, maxLength: MAX_CHAPTERS }), (sizes) => {
        const pageCount = sizes.reduce((sum, size) => sum + size, 0);
        let start = 0;
        const outline = sizes.map((size, index) => {
          const item = entry(`Chapter ${index + 1}`, start);
          start += size;
          return item;
        });
        const chapters = planFromOutline(extracted(pageCount, { outline })) ?? [];
        expect(chapters.map((chapter) => chapter.endPage - chapter.startPage + 1)).toEqual(sizes);
        expect(chapters.map((chapter) => chapter.title)).toEqual(outline.map((item) => item.title));
      }),
      { numRuns: 200 },
    );
  });
});

describe('IG5 analyst reply checks', () => {
  const reply = (chapters: [number, number][]) => ({
    chapters: chapters.map(([startPage, endPage], index) => ({ title: `T${index}`, startPage, endPage })),
  });

  it('accepts ranges that tile the document', () => {
    expect(analystProblems(reply([[1, 3], [4, 9], [10, 10]]), 10)).toEqual([]);
  });

  it.each([
    ['out of order', [[4, 10], [1, 3]]],
    ['overlapping', [[1, 5], [5, 10]]],
    ['with a gap', [[1, 3], [5, 10]]],
    ['exceeding the page count', [[1, 5], [6, 12]]],
    ['short of the page count', [[1, 5], [6, 8]]],
    ['starting after page 1', [[2, 10]]],
    ['ending before starting', [[1, 5], [6, 5], [6, 10]]],
  ] as const)('rejects ranges %s', (_name, chapters) => {
    expect(analystProblems(reply(chapters.map(([a, b]) => [a, b])), 10).length).toBeGreaterThan(0);
  });

  it('rejects any random non-tiling reply (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 50 }),
        fc.array(fc.tuple(fc.integer({ min: -2, max: 55 }), fc.integer({ min: -2, max: 55 })), { minLength: 1, maxLength: 8 }),
        (pageCount, pairs) => {
          let expected = 1;
          let tiles = true;
          for (const [start, end] of pairs) {
            if (start !== expected || end < start) tiles = false;
            expected = end + 1;
          }
          tiles &&= expected - 1 === pageCount;
          expect(analystProblems(reply(pairs), pageCount).length === 0).toBe(tiles);
        },
      ),
      { numRuns: 300 },
    );
  });
});
