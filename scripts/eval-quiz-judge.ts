import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { planByPages, planFromDocument } from '../src/materials/chapter-plan.js';
import { readPdf } from '../src/materials/pdf-reader.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { QuizItem } from '../src/protocol/quiz.js';
import { EvalAgent } from '../src/quiz/eval-agent.js';
import { RetrievalService } from '../src/retrieval/index.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { REPO_ROOT } from './eval-support.js';
import { fixturePdf, SAFETY_HANDBOOK, TRADE_HANDBOOK } from './retrieval-fixtures.js';
import { READING_DECKS, SAMPLE_DECKS, type SampleDeck } from './sample-decks.js';

/**
 * How often the offline EvalAgent agrees with a person, on three labelled files (one JSON object a line: `id`,
 * `material`, `faithful`, `item`):
 * - `eval/quiz-judge-dev.jsonl`: 36 items from the Korean trade handbook and the English safety handbook, in pairs — a
 *   faithful item and the same item with one wrong fact;
 * - `eval/quiz-judge-decks.jsonl`: 22 items on the English sample decks (the AI course deck, the statistics slides),
 *   sound cloze items on key noun phrases and bad ones: blanks on verbs, adverbs, adjectives, prepositions, half a
 *   term, fragments, a formula, a wrong key, the cover page, the medium, repeated choices;
 * - `eval/quiz-judge-heldout.jsonl`: 12 items of the same kinds on a biology handout (READING_DECKS) — frozen: written
 *   once, never used to tune the judge; reported on its own.
 * A bad item is rejected when the agent fails it, a good one kept when it passes. Grouped by deck (each material a
 * group): the judge has no fitted parameter, so leave-one-deck-out cross-validation is the per-deck figures, given
 * with their minimum. Each material is extracted from its PDF and indexed as at ingest, on the memory store.
 * Prints one JSON object. Usage: npm run eval:quiz-judge
 */

const Row = z.object({ id: z.string(), material: z.enum(['trade', 'safety', 'ai', 'stats', 'bio']), faithful: z.boolean(), item: QuizItem });
type Row = z.infer<typeof Row>;
const FILES = { dev: 'quiz-judge-dev.jsonl', decks: 'quiz-judge-decks.jsonl', heldout: 'quiz-judge-heldout.jsonl' } as const;

const read = (name: string): Row[] =>
  readFileSync(path.join(REPO_ROOT, 'eval', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => Row.parse(JSON.parse(line)));

const deck = (name: string) => [...SAMPLE_DECKS, ...READING_DECKS].find((entry) => entry.name === name);
const PDFS: Record<Row['material'], () => Promise<Uint8Array>> = {
  trade: () => fixturePdf(TRADE_HANDBOOK),
  safety: () => fixturePdf(SAFETY_HANDBOOK),
  ai: () => (deck('ai-course-deck') as SampleDeck).build(),
  stats: () => (deck('english-slide-deck') as SampleDeck).build(),
  bio: () => (deck('biology-handout') as SampleDeck).build(),
};

const model = createOfflineModel(offlineTasks);
const store = new MemoryStore();
const retriever = new RetrievalService({ store, model });
for (const [id, build] of Object.entries(PDFS)) {
  const extracted = await readPdf(await build(), { maxPages: 1_000 });
  const pageTexts = extracted.pages.map((page) => page.text);
  const chapters = planFromDocument(extracted)?.chapters ?? planByPages(extracted.pageCount, pageTexts);
  await retriever.buildIndex(id, { chapters, pageTexts });
}
const agent = new EvalAgent({ model, retriever });

interface Result {
  id: string;
  material: Row['material'];
  faithful: boolean;
  passed: boolean;
  scores: [number, number, number];
  feedback: string;
}
async function judge(rows: readonly Row[]): Promise<Result[]> {
  const results: Result[] = [];
  for (const row of rows) {
    const verdict = await agent.judge(row.item, { materialId: row.material });
    if (!verdict.judged) throw new Error(`${row.id}: not judged (${verdict.reason})`);
    results.push({ id: row.id, material: row.material, faithful: row.faithful, passed: verdict.is_passed, scores: [verdict.grounding, verdict.educational, verdict.insight], feedback: verdict.feedback });
  }
  return results;
}

const round = (value: number) => Math.round(value * 1000) / 1000;
function figures(results: readonly Result[]) {
  const bad = results.filter((result) => !result.faithful);
  const good = results.filter((result) => result.faithful);
  return {
    items: results.length,
    good: good.length,
    bad: bad.length,
    /** Of the bad items, the share the judge fails (what a gate keeps away from students). */
    badRejected: round(bad.filter((result) => !result.passed).length / Math.max(1, bad.length)),
    /** Of the good items, the share the judge passes (what a gate does not throw away). */
    goodKept: round(good.filter((result) => result.passed).length / Math.max(1, good.length)),
    /** How many different score triples: a judge that scores everything alike tells nothing. */
    distinctScores: new Set(results.map((result) => result.scores.join('/'))).size,
  };
}

const splits = { dev: await judge([...read(FILES.dev), ...read(FILES.decks)]), heldout: await judge(read(FILES.heldout)) };
const all = [...splits.dev, ...splits.heldout];
const byDeck = Object.fromEntries(
  [...new Set(all.map((result) => result.material))].map((material) => [material, figures(all.filter((result) => result.material === material))]),
);
const perDeck = Object.values(byDeck);

console.log(
  JSON.stringify(
    {
      task: 'quiz-judge',
      files: Object.values(FILES).map((name) => `eval/${name}`),
      dev: figures(splits.dev),
      englishDecks: figures(splits.dev.filter((result) => result.material === 'ai' || result.material === 'stats')),
      heldout: figures(splits.heldout),
      groupedByDeck: { decks: byDeck, minBadRejected: Math.min(...perDeck.map((entry) => entry.badRejected)), minGoodKept: Math.min(...perDeck.map((entry) => entry.goodKept)) },
      disagreements: all.filter((result) => result.faithful !== result.passed).map(({ id, scores, feedback }) => ({ id, scores, feedback })),
    },
    null,
    2,
  ),
);
