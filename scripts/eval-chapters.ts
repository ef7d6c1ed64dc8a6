/**
 * How well the chapter planner finds the sections of slide decks with no outline: each deck's slides are tagged with
 * the section a reader puts them in (scripts/slide-decks.ts: development decks the rules were written against;
 * scripts/slide-decks-heldout.ts: frozen decks never used to change them). The decks go through the real PDF worker
 * and planner; a chapter boundary counts when it starts a section exactly. Prints JSON.
 *
 *   npm run eval:chapters
 */
import { planByPages, planFromDocument } from '../src/materials/chapter-plan.js';
import { createPdfWorkerPool } from '../src/materials/pdf-worker-pool.js';
import { DECKS, deckPdf, sectionStarts, type Deck } from './slide-decks.js';
import { HELDOUT_DECKS } from './slide-decks-heldout.js';

const pool = createPdfWorkerPool({ timeoutMs: 60_000, size: 1 });

interface DeckResult {
  deck: string;
  expected: number[];
  found: number[];
  titles: string[];
}

async function planDeck(deck: Deck): Promise<DeckResult> {
  const extracted = await pool.extract(await deckPdf(deck), { maxPages: 500 });
  const chapters = planFromDocument(extracted)?.chapters ?? planByPages(extracted.pageCount, extracted.pages.map((page) => page.text));
  // The first section always starts the first chapter (with the cover before it): only later starts are boundaries.
  const expected = [...sectionStarts(deck).values()].slice(1);
  return { deck: deck.name, expected, found: chapters.slice(1).map((chapter) => chapter.startPage), titles: chapters.map((chapter) => chapter.title) };
}

function summary(results: readonly DeckResult[]) {
  let hits = 0;
  let nearHits = 0;
  let found = 0;
  let expected = 0;
  for (const result of results) {
    hits += result.found.filter((page) => result.expected.includes(page)).length;
    nearHits += result.expected.filter((page) => result.found.some((start) => Math.abs(start - page) <= 1)).length;
    found += result.found.length;
    expected += result.expected.length;
  }
  const precision = found === 0 ? 0 : hits / found;
  const recall = expected === 0 ? 0 : hits / expected;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    decks: results.length,
    boundaries: expected,
    precision: round(precision),
    recall: round(recall),
    f1: round(precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)),
    withinOnePage: round(expected === 0 ? 0 : nearHits / expected),
  };
}

try {
  const development = [];
  for (const deck of DECKS) development.push(await planDeck(deck));
  const heldOut = [];
  for (const deck of HELDOUT_DECKS) heldOut.push(await planDeck(deck));
  process.stdout.write(
    `${JSON.stringify({ development: { ...summary(development), results: development }, heldOut: { ...summary(heldOut), results: heldOut } }, null, 2)}\n`,
  );
} finally {
  await pool.close();
}
