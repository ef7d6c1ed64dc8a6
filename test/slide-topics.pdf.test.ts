/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - IG11 — Slide decks by topic. A deck of 12 or more slides with a title on nearly every page (bookmarks, larger
 *   titles or title-like first lines) is cut where its topic shifts, not into windows of pages …
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { chapterProblems, MAX_CHAPTERS, planFromDocument, planFromOutline } from '../src/materials/chapter-plan.js';
import { createPdfWorkerPool } from '../src/materials/pdf-worker-pool.js';
import type { ExtractedPdf } from '../src/materials/types.js';
import { aiSearchDeck, cellBiologyDeck, DECKS, deckPdf, koreanHistoryDeck, operatingSystemsDeck, sectionStarts, type Deck } from '../scripts/slide-decks.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';

/**
 * Slide decks without an outline, built as real PDFs, read back by the worker and planned. Every slide of a deck is
 * tagged with the section a reader puts it in (scripts/slide-decks.ts), so the expected cuts come from the deck,
 * not from the planner.
 */
const pool = createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS, size: 1 });
afterAll(() => pool.close());

async function plan(deck: Deck) {
  const extracted = await pool.extract(await deckPdf(deck), { maxPages: 500 });
  return { extracted, plan: planFromDocument(extracted) };
}

/**
 * The sections a chapter can hold alone: a chapter keeps at least three content slides in a deck of nine or more (two
 * in a smaller one), so a shorter section stays with the one before it (the OS deck's two context-switching slides).
 */
function chapterSections(deck: Deck): Map<string, number> {
  const content = deck.slides.filter((slide) => slide.section !== 'front');
  const minimum = content.length >= 9 ? 3 : 2;
  const starts = [...sectionStarts(deck)];
  return new Map(starts.filter(([section], index) => index === 0 || content.filter((slide) => slide.section === section).length >= minimum));
}

describe('IG11 slide decks are cut by topic', () => {
  it.each(DECKS.map((deck) => [deck.name, deck] as const))('%s: one chapter per section, each named after its topic', async (_, deck) => {
    const { extracted, plan: result } = await plan(deck);
    const chapters = result?.chapters ?? [];
    expect(chapterProblems(chapters, extracted.pageCount)).toEqual([]);
    expect(chapters.map((chapter) => chapter.startPage)).toEqual([1, ...[...chapterSections(deck).values()].slice(1)]);
    const sections = [...chapterSections(deck).keys()];
    chapters.forEach((chapter, index) => {
      expect(chapter.title).not.toMatch(/외 \d+개 주제|^\d+(–\d+)?쪽$/u);
      // The title shares a word with the slides of its own section: it names that topic, not the cover or agenda.
      const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{3,}|[\uac00-\ud7a3]{2,}/gu) ?? []);
      const sectionWords = new Set(deck.slides.filter((slide) => slide.section === sections[index]).flatMap((slide) => [...words(`${slide.title} ${slide.lines.join(' ')}`)]));
      expect([...words(chapter.title)].some((word) => [...sectionWords].some((other) => other.startsWith(word.slice(0, 4))))).toBe(true);
    });
  });

  it('names the AI deck after its agenda, the history deck after its dividers and the biology review after its opening slides', async () => {
    const titles = async (deck: Deck) => (await plan(deck)).plan?.chapters.map((chapter) => chapter.title);
    expect(await titles(aiSearchDeck)).toEqual(['Uninformed search', 'Informed search and heuristics', 'Local search and gradient ascent', 'Genetic Algorithms']);
    expect(await titles(koreanHistoryDeck)).toEqual(['1. 농업의 변화', '2. 상업의 발달', '3. 신분제의 동요', '4. 실학의 등장']);
    expect(await titles(cellBiologyDeck)).toEqual(['The Plasma Membrane', 'Mitochondria', 'Chloroplasts', 'The Cell Cycle']);
  });

  it('names each chapter after the agenda item its slides are about, not one its slides mention in passing', async () => {
    // The threads slides say "CPU cores" and "scheduled" once each. The agenda has one item more than the deck has
    // chapters (the two context-switching slides stay with scheduling): the item left over is the one that weighs least.
    const chapters = (await plan(operatingSystemsDeck)).plan?.chapters.map((chapter) => [chapter.title, chapter.startPage, chapter.endPage]);
    expect(chapters).toEqual([
      ['Processes and the process control block', 1, 6],
      ['Threads and concurrency', 7, 10],
      ['CPU scheduling algorithms', 11, 19],
    ]);
  });
});

describe('IG11 any deck of titled slides (property)', () => {
  const words = ['graph', 'search', 'heuristic', 'gradient', 'population', 'mutation', '평균', '분산', '수요', '공급', '결합', '이온'];
  const slideArbitrary = fc.record({
    title: fc.oneof(fc.constantFrom('Agenda', 'Summary', 'Example', '목차', 'Questions?'), fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' '))),
    body: fc.array(fc.constantFrom(...words), { maxLength: 12 }).map((parts) => parts.join(' ')),
  });

  it('covers every page once, in order, with titles and at most MAX_CHAPTERS chapters', () => {
    fc.assert(
      fc.property(fc.array(slideArbitrary, { minLength: 12, maxLength: 80 }), (slides) => {
        const doc: ExtractedPdf = {
          pageCount: slides.length,
          pages: slides.map((slide) => ({ text: `${slide.title}\n${slide.body}`, headings: [{ text: slide.title, size: 24 }] })),
          outline: slides.map((slide, pageIndex) => ({ title: `Slide ${pageIndex + 1}`, pageIndex, children: [] })),
          bodyFontSize: 11,
          metadataTitle: null,
          timings: { loadMs: 0, textMs: 0 },
        };
        const chapters = planFromOutline(doc) ?? [];
        expect(chapterProblems(chapters, slides.length)).toEqual([]);
        expect(chapters.length).toBeLessThanOrEqual(MAX_CHAPTERS);
      }),
      { numRuns: 200 },
    );
  });
});
