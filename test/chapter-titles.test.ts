/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - IG10 — Titles name content. A bookmark that only names a position or nothing ("Slide 5–8", "Page 3", "Untitled",
 *   "슬라이드 3", "3페이지" …
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chapterProblems, MAX_CHAPTERS, planFromOutline } from '../src/materials/chapter-plan.js';
import { fileStem, isGenericTitle, isMeaningfulDocumentTitle } from '../src/materials/generic-titles.js';
import { materialTitle } from '../src/materials/material-title.js';
import { PageHeadings, isHeadingLike } from '../src/materials/page-headings.js';
import type { ExtractedOutlineItem, ExtractedPage, ExtractedPdf } from '../src/materials/types.js';

/** A page whose first line is drawn larger (a slide title) above body lines, with a running footer. */
const slide = (title: string | null, body: string[], footer: string | null = null): ExtractedPage => ({
  text: [...(title ? [title] : []), ...body, ...(footer ? [footer] : [])].join('\n'),
  headings: title ? [{ text: title, size: 24 }] : [],
});

function pdf(pages: ExtractedPage[], overrides: Partial<ExtractedPdf> = {}): ExtractedPdf {
  return { pageCount: pages.length, pages, outline: [], bodyFontSize: 11, metadataTitle: null, timings: { loadMs: 0, textMs: 0 }, ...overrides };
}

const entry = (title: string, pageIndex: number): ExtractedOutlineItem => ({ title, pageIndex, children: [] });
const titles = (doc: ExtractedPdf) => planFromOutline(doc)?.map((chapter) => chapter.title);

describe('IG10 generic titles', () => {
  it.each([
    'Slide 5–8', 'Slide 5', 'Slides 1-4', 'slide5', 'Page 3', 'Pages 3 - 5', 'Page 3 of 20', 'p. 3', 'pp. 3–5', 'Untitled',
    'Untitled 3', 'untitled-2', '슬라이드 3', '슬라이드 3–5', '페이지 3', '3페이지', '3 페이지', '3쪽', '4–6쪽', '3번 슬라이드',
    '제목 없음', '제목없음', '제목 없는 슬라이드', '무제', '12', '  ', '', '(Slide 7)',
  ])('"%s" is generic', (title) => {
    expect(isGenericTitle(title)).toBe(true);
  });

  it.each(['Variance', 'Chapter 3', 'Part 1', '1. 평균의 의미', '평균 1', '3장 대수의 법칙', 'Page rank', 'Slide rules', '제목 짓기', '들어가며'])(
    '"%s" is a real title',
    (title) => {
      expect(isGenericTitle(title)).toBe(false);
    },
  );

  it('recognises a metadata title that only names a file or nothing', () => {
    for (const title of [
      'Microsoft PowerPoint - lec3.pptx', 'Microsoft Word - draft.docx', 'Microsoft PowerPoint - 통계 3강', 'lec3.pdf', 'lec3_final_v2',
      'Presentation1', 'PowerPoint 프레젠테이션', '문서1', 'Untitled', '제목 없음', 'C:\\slides\\lec3', '', null, 'x',
    ]) {
      expect(isMeaningfulDocumentTitle(title), String(title)).toBe(false);
    }
    for (const title of ['Linear Algebra Notes', '기초 통계', '확률과 통계 입문', 'Input/Output systems']) {
      expect(isMeaningfulDocumentTitle(title), title).toBe(true);
    }
    expect(isMeaningfulDocumentTitle('week 3 notes', 'week_3-notes.pdf')).toBe(false);
    expect(fileStem('C:\\uploads\\stat_lecture-02.PDF')).toBe('stat lecture 02');
    expect(fileStem('통계 1.5강.pdf')).toBe('통계 1.5강');
  });
});

describe('IG10 page titles', () => {
  it('accepts short title lines and refuses sentences, formulas, bullets, links and labels', () => {
    for (const line of ['Measuring the centre', '평균의 성질', '1. 평균의 의미', 'Why normalise?']) expect(isHeadingLike(line, { larger: true }), line).toBe(true);
    for (const line of [
      '평균은 자료의 무게중심입니다.', '평균은 무게중심이다', 'x̄ = (70 + 80 + 90) / 3 = 80', 'Σ (xᵢ − x̄) = 0', '• first point',
      'https://example.com/notes', 'Slide 4', '42', 'For example:', 'a'.repeat(61),
    ]) {
      expect(isHeadingLike(line, { larger: true }), line).toBe(false);
    }
    // A plain line ending in a question mark is a question in the text; a larger one may be a slide title.
    expect(isHeadingLike('What is a mean?')).toBe(false);
  });

  it('takes the first larger line in reading order, skipping formulas set large', () => {
    const page: ExtractedPage = {
      text: 'x̄ = Σx / n\nThe mean\nThe mean is the balance point of the data.',
      headings: [{ text: 'x̄ = Σx / n', size: 16 }, { text: 'The mean', size: 24 }],
    };
    expect(new PageHeadings([page]).titleOf(0)).toBe('The mean');
  });

  it('falls back to a plain first line only when it reads like a title and is not a running header', () => {
    const pages = [0, 1, 2, 3].map((index) => ({
      text: `STAT 101 · ${index + 1}\n${index === 2 ? 'Sampling error' : 'The mean is a balance point.'}\nMore body text follows here.`,
      headings: [],
    }));
    const headings = new PageHeadings(pages);
    expect(headings.titleOf(2)).toBe('Sampling error');
    expect(headings.titleOf(0)).toBeNull();
  });

  it('ignores a banner set large on most pages but keeps a title repeated on a few', () => {
    const pages = [
      slide('Variance', ['Spread around the mean.']),
      slide('Variance', ['Squared deviations.']),
      slide('Mean', ['The balance point.']),
      slide('Median', ['The middle value.']),
      slide('Mode', ['The most common value.']),
    ].map((page) => ({ ...page, text: `STAT 101\n${page.text}`, headings: [{ text: 'STAT 101', size: 28 }, ...page.headings] }));
    const headings = new PageHeadings(pages);
    expect(headings.titleOf(0)).toBe('Variance');
    expect(headings.titleOf(1)).toBe('Variance');
    expect(headings.largestTitleOf(3)).toBe('Median');
  });
});

describe('IG10 chapter titles from the slides', () => {
  const deck = [
    slide('Introduction to Statistics', ['Lecture 2']),
    slide('Why statistics', ['Data is everywhere.'], 'STAT 101 · 2'),
    slide('Populations and samples', ['A sample is part of a population.'], 'STAT 101 · 3'),
    slide('Measuring the centre', ['The mean and the median.'], 'STAT 101 · 4'),
    slide('Spread', ['How far values lie from the centre.'], 'STAT 101 · 5'),
    slide('Variance', ['The mean squared deviation.'], 'STAT 101 · 6'),
    slide(null, ['The standard deviation is the root of the variance.'], 'STAT 101 · 7'),
    slide('Summary', ['What we learned today.'], 'STAT 101 · 8'),
  ];

  it('replaces "Slide 1–4" and "Slide 5–8" by the first slide titles (past the cover)', () => {
    expect(titles(pdf(deck, { outline: [entry('Slide 1–4', 0), entry('Slide 5–8', 4)] }))).toEqual(['Why statistics', 'Spread']);
  });

  it('keeps real outline titles even when the page has another heading', () => {
    expect(titles(pdf(deck, { outline: [entry('Basics', 0), entry('Dispersion', 4)] }))).toEqual(['Basics', 'Dispersion']);
    expect(titles(pdf(deck, { outline: [entry('Slide 1–4', 0), entry('Dispersion', 4)] }))).toEqual(['Why statistics', 'Dispersion']);
  });

  it('keeps the generic title when the page has nothing better', () => {
    expect(titles(pdf(deck, { outline: [entry('Page 1', 0), entry('Page 7', 6)] }))).toEqual(['Why statistics', 'Page 7']);
  });
});

describe('IG10 one generic bookmark per slide', () => {
  it('merges the slides into chapters named after the slides\' own titles, never "Slide n"', () => {
    const topics = ['Mean', 'Median', 'Variance', 'Standard deviation'];
    const pages = Array.from({ length: 24 }, (_, index) => slide(topics[Math.floor(index / 6)] ?? 'x', ['Some body text here.'], `STAT 101 · ${index + 1}`));
    const outline = pages.map((_, index) => entry(`Slide ${index + 1}`, index));
    const chapters = planFromOutline(pdf(pages, { outline })) ?? [];
    expect(chapterProblems(chapters, 24)).toEqual([]);
    expect(chapters.map((chapter) => chapter.title)).toEqual(topics);
  });
});

describe('IG10 real bookmark titles (property)', () => {
  const realTitle = fc
    .string({ minLength: 1, maxLength: 40 })
    .map((text) => text.replace(/\s+/g, ' ').trim())
    .filter((text) => text.length > 0 && !isGenericTitle(text));

  it('are kept exactly, whatever the pages say', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ title: realTitle, size: fc.integer({ min: 3, max: 8 }), heading: fc.option(fc.string({ maxLength: 30 }), { nil: null }) }), {
          minLength: 2,
          maxLength: MAX_CHAPTERS,
        }),
        (sections) => {
          const pages: ExtractedPage[] = [];
          const outline: ExtractedOutlineItem[] = [];
          for (const section of sections) {
            outline.push(entry(section.title, pages.length));
            for (let page = 0; page < section.size; page += 1) pages.push(slide(page === 0 ? section.heading : null, ['Body text of the page.']));
          }
          expect(titles(pdf(pages, { outline }))).toEqual(sections.map((section) => section.title));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('IG10 material title', () => {
  const cover = slide('확률과 통계 입문', ['2024년 1학기']);
  const body = slide('1장 확률', ['확률은 사건이 일어날 가능성이다.'], '확률과 통계 · 2');

  it('uses a meaningful metadata title, else the cover heading, else the file name', () => {
    expect(materialTitle(pdf([cover, body], { metadataTitle: 'Linear Algebra Notes' }), 'x.pdf')).toBe('Linear Algebra Notes');
    expect(materialTitle(pdf([cover, body], { metadataTitle: 'Microsoft Word - draft.docx' }), 'draft.pdf')).toBe('확률과 통계 입문');
    expect(materialTitle(pdf([cover, body], { metadataTitle: '  ' }), null)).toBe('확률과 통계 입문');
    const plain = slide(null, ['이 자료는 확률의 기초를 다룬다.']);
    expect(materialTitle(pdf([plain, plain], { metadataTitle: 'Untitled' }), 'stat_lecture-02.pdf')).toBe('stat lecture 02');
    expect(materialTitle(pdf([plain]), null)).toBe('제목 없는 자료');
  });

  it('looks past an image-only cover', () => {
    expect(materialTitle(pdf([slide(null, []), cover, body]), 'scan.pdf')).toBe('확률과 통계 입문');
  });
});
