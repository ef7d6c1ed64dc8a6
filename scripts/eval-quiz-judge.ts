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
import { fixturePdf, SAFETY_HANDBOOK, TRADE_HANDBOOK, type FixtureMaterial } from './retrieval-fixtures.js';

/**
 * How often the offline EvalAgent agrees with a person on `eval/quiz-judge-dev.jsonl`: 36 items written from the two
 * sample handbooks (the Korean trade handbook, the English safety handbook), in pairs — a faithful item and the same
 * item with one wrong fact (a swapped party or term, a wrong number, a reversed comparison). A person's label is
 * "faithful"; the agent agrees when it passes exactly the faithful items. Each handbook is extracted from its PDF and
 * indexed as at ingest, on the memory store. Prints one JSON object.
 * Usage: npm run eval:quiz-judge
 */

const Row = z.object({ id: z.string(), material: z.enum(['trade', 'safety']), faithful: z.boolean(), item: QuizItem });
const DEV_FILE = path.join(REPO_ROOT, 'eval', 'quiz-judge-dev.jsonl');
const MATERIALS: Record<z.infer<typeof Row>['material'], FixtureMaterial> = { trade: TRADE_HANDBOOK, safety: SAFETY_HANDBOOK };

const rows = readFileSync(DEV_FILE, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => Row.parse(JSON.parse(line)));

const model = createOfflineModel(offlineTasks);
const store = new MemoryStore();
const retriever = new RetrievalService({ store, model });
for (const [id, material] of Object.entries(MATERIALS)) {
  const extracted = await readPdf(await fixturePdf(material), { maxPages: 1_000 });
  const pageTexts = extracted.pages.map((page) => page.text);
  const chapters = planFromDocument(extracted)?.chapters ?? planByPages(extracted.pageCount, pageTexts);
  await retriever.buildIndex(id, { chapters, pageTexts });
}
const agent = new EvalAgent({ model, retriever });

const results: { id: string; faithful: boolean; passed: boolean; grounding: number; feedback: string }[] = [];
for (const row of rows) {
  const verdict = await agent.judge(row.item, { materialId: row.material });
  if (!verdict.judged) throw new Error(`${row.id}: not judged (${verdict.reason})`);
  results.push({ id: row.id, faithful: row.faithful, passed: verdict.is_passed, grounding: verdict.grounding, feedback: verdict.feedback });
}

const count = (predicate: (result: (typeof results)[number]) => boolean) => results.filter(predicate).length;
const truePass = count((result) => result.faithful && result.passed);
const falsePass = count((result) => !result.faithful && result.passed);
const falseFail = count((result) => result.faithful && !result.passed);
const trueFail = count((result) => !result.faithful && !result.passed);
const total = results.length;
const accuracy = (truePass + trueFail) / total;
// Cohen's κ of pass/fail against the labels: agreement beyond what the two marginals give by chance.
const chance = ((truePass + falsePass) * (truePass + falseFail) + (falseFail + trueFail) * (falsePass + trueFail)) / (total * total);
const kappa = chance === 1 ? 1 : (accuracy - chance) / (1 - chance);
const round = (value: number) => Math.round(value * 1000) / 1000;

console.log(
  JSON.stringify(
    {
      task: 'quiz-judge',
      file: path.relative(REPO_ROOT, DEV_FILE),
      items: total,
      faithful: count((result) => result.faithful),
      agreement: round(accuracy),
      kappa: round(kappa),
      /** Of the items the agent passes, the share that are faithful (what a generation gate lets through). */
      passPrecision: round(truePass / Math.max(1, truePass + falsePass)),
      /** Of the faithful items, the share the agent passes (what a gate does not throw away). */
      passRecall: round(truePass / Math.max(1, truePass + falseFail)),
      confusion: { truePass, falsePass, falseFail, trueFail },
      disagreements: results
        .filter((result) => result.faithful !== result.passed)
        .map(({ id, grounding, feedback }) => ({ id, grounding, feedback })),
    },
    null,
    2,
  ),
);
