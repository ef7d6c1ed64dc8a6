/**
 * How well the chapter planner finds the sections of slide decks with no outline: each deck's slides are tagged with
 * the section a reader puts them in (scripts/slide-decks.ts: development decks the rules were written against;
 * scripts/slide-decks-heldout.ts: frozen decks never used to change them). The decks go through the real PDF worker
 * and planner; a chapter boundary counts when it starts a section exactly, and a title when it names the section most
 * of its chapter's slides belong to. Prints JSON.
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
  /** Per chapter: its title names the section most of its slides are in; null when no slide uses its words. */
  named: (boolean | null)[];
}

const FUNCTION_WORDS = new Set(['and', 'the', 'of', 'for', 'with', 'vs', 'in', 'to', 'a', 'an']);

/** Words cut to a stem that meets their inflections: five letters of an English word, two syllables of a Korean one. */
function stems(text: string): string[] {
  return (text.toLowerCase().match(/[a-z]+|[\uac00-\ud7a3]+/gu) ?? [])
    .filter((word) => !FUNCTION_WORDS.has(word) && (word.length >= 2 || /[\uac00-\ud7a3]/u.test(word)))
    .map((word) => (/[a-z]/u.test(word) ? word.slice(0, 5) : Array.from(word).slice(0, 2).join('')));
}

/**
 * Whether a chapter's title names the section most of its content slides are in: of the deck's sections, that one is
 * where the title's words weigh most (each word's share of the section's words, times its idf over the sections), so
 * a word another section mentions in passing ("scheduled" on a threads slide) does not make a scheduling title fit
 * the threads chapter, and a word every section uses ("search", "결합") decides nothing. Null (not judged) when no
 * section weighs the title's words at all (a title only the agenda uses, "Uninformed search").
 */
function namesItsSection(deck: Deck, title: string, startPage: number, endPage: number): boolean | null {
  const own = new Map<string, number>();
  deck.slides.slice(startPage - 1, endPage).forEach((entry) => {
    if (entry.section !== 'front') own.set(entry.section, (own.get(entry.section) ?? 0) + 1);
  });
  const [majority] = [...own].sort((a, b) => b[1] - a[1])[0] ?? [];
  const sections = [...new Set(deck.slides.map((entry) => entry.section).filter((section) => section !== 'front'))];
  const words = new Map(
    sections.map((section) => [
      section,
      deck.slides.filter((entry) => entry.section === section).flatMap((entry) => stems(`${entry.title} ${entry.lines.join(' ')}`)),
    ]),
  );
  const wanted = [...new Set(stems(title))];
  const idf = new Map(wanted.map((stem) => [stem, Math.log((sections.length + 1) / (1 + sections.filter((section) => words.get(section)?.includes(stem)).length))]));
  const weight = (section: string) => {
    const list = words.get(section) ?? [];
    return list.length === 0 ? 0 : wanted.reduce((total, stem) => total + (list.filter((word) => word === stem).length / list.length) * (idf.get(stem) ?? 0), 0);
  };
  if (sections.every((section) => weight(section) <= 0)) return null;
  return majority !== undefined && sections.every((section) => weight(section) <= weight(majority));
}

async function planDeck(deck: Deck): Promise<DeckResult> {
  const extracted = await pool.extract(await deckPdf(deck), { maxPages: 500 });
  const chapters = planFromDocument(extracted)?.chapters ?? planByPages(extracted.pageCount, extracted.pages.map((page) => page.text));
  // The first section always starts the first chapter (with the cover before it): only later starts are boundaries.
  const expected = [...sectionStarts(deck).values()].slice(1);
  return {
    deck: deck.name,
    expected,
    found: chapters.slice(1).map((chapter) => chapter.startPage),
    titles: chapters.map((chapter) => chapter.title),
    named: chapters.map((chapter) => namesItsSection(deck, chapter.title, chapter.startPage, chapter.endPage)),
  };
}

function summary(results: readonly DeckResult[]) {
  let hits = 0;
  let nearHits = 0;
  let found = 0;
  let expected = 0;
  let named = 0;
  let judged = 0;
  for (const result of results) {
    named += result.named.filter((verdict) => verdict === true).length;
    judged += result.named.filter((verdict) => verdict !== null).length;
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
    titlesJudged: judged,
    titlesNameSection: round(judged === 0 ? 0 : named / judged),
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
