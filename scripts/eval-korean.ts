import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ExamGrader, type ExamProblem } from '../src/exams/index.js';
import { CONFIDENT_AT, assessAnswer, assessmentConfidence } from '../src/judges/index.js';
import { confidenceFigures, formatConfidence } from './eval-confidence.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { offlineTasks } from '../src/offline-tasks.js';
import {
  type EvalItem,
  KO_DEV_FILE,
  REPO_ROOT,
  type Scores,
  baselineScore,
  label2For,
  label3For,
  loadItems,
  roundScores,
  scoreLabels,
  tuneThreshold2,
  tuneThresholds3,
} from './eval-support.js';

/**
 * A Korean answer set by answer kind, the file given as the first argument: the frozen held-out set
 * (`npm run eval:heldout`: eval/ko-heldout.jsonl, new questions in science, history, programming and economics, none
 * of them in ko-dev) or a dev set written in the same shape (`npm run eval:korean -- eval/ko-dev2.jsonl`). The
 * offline lecture judge (label2), the offline grader (label3) and the exam grader's live path (the real ExamGrader on
 * the offline model, one model answer), against the word-overlap baseline with its thresholds tuned on ko-dev (what a
 * rule fitted on dev can do) and, for reference, tuned on the set itself (the issue's "tuned baseline", an optimistic
 * bound). Per answer kind (the `note` of each line), the share of correct answers judged bad and of contradictions
 * judged good. Never tune on the held-out figures: that set is read to report, once per change that is kept.
 */

const argument = process.argv[2];
if (argument === undefined) {
  console.error('usage: npm run eval:korean -- FILE (eval/ko-dev2.jsonl, eval/ko-dev3.jsonl, eval/ko-class.jsonl); the held-out set: npm run eval:heldout');
  process.exit(2);
}
const SET_FILE = path.resolve(argument);

interface Kind {
  name: string;
  test: (note: string) => boolean;
}
/** Answer kinds, by the wording of the notes. */
const KINDS: Kind[] = [
  { name: 'correct: everyday paraphrase', test: (note) => note.startsWith('everyday paraphrase') },
  { name: 'correct: short', test: (note) => note.startsWith('short correct') },
  { name: 'correct: English', test: (note) => note === 'English' },
  { name: 'contradiction / swapped / wrong number', test: (note) => /contradiction|swapped|wrong number|reversed|wrong place|wrong ally|wrong products/u.test(note) },
  { name: 'misconception / other concept', test: (note) => /misconception|confused concept/u.test(note) },
  { name: 'partial', test: (note) => note.startsWith('partial') || note.startsWith('keyword list') },
  { name: 'off-topic / give-up / injection', test: (note) => /off-topic|give-up|injection|filler/u.test(note) },
];

const notes = new Map<string, string>();
function loadWithNotes(file: string): EvalItem[] {
  const items = loadItems(file);
  // The note is not part of the shared item schema: read it beside it.
  for (const line of readFileSync(file, 'utf8').split('\n').filter((entry) => entry.trim() !== '')) {
    const row = JSON.parse(line) as { id: string; note?: string };
    notes.set(row.id, row.note ?? '');
  }
  return items;
}

function problemOf(item: EvalItem, id: number): ExamProblem {
  return { id, type: 'Descriptive', question_content: item.question, model_answer: item.reference, key_keywords: item.keywords ?? [], intent_diagnosis: '-' };
}

const STATUS: Record<string, 'correct' | 'partial' | 'incorrect'> = { Correct: 'correct', Partial_Correct: 'partial', Incorrect: 'incorrect' };

async function main(): Promise<void> {
  const answers = loadWithNotes(SET_FILE);
  const dev = loadItems(KO_DEV_FILE);
  const devScores = dev.map(baselineScore);
  const threshold2 = tuneThreshold2(devScores, dev.map((item) => item.label2));
  const thresholds3 = tuneThresholds3(devScores, dev.map((item) => item.label3 ?? 'incorrect'));
  const scores = answers.map(baselineScore);
  const oracle2 = tuneThreshold2(scores, answers.map((item) => item.label2));
  const oracle3 = tuneThresholds3(scores, answers.map((item) => item.label3 ?? 'incorrect'));

  const assessed = answers.map((item) =>
    assessAnswer({ question: item.question, reference: item.reference, alternatives: item.alternatives, answer: item.answer, ...(item.source === undefined ? {} : { source: item.source }) }),
  );
  const grader = new ExamGrader({ model: createOfflineModel(offlineTasks) });
  const examPath: string[] = [];
  const examConfidence: number[] = [];
  for (const [index, item] of answers.entries()) {
    const graded = await grader.grade(problemOf(item, index + 1), item.answer, { materialId: 'eval', ...(item.source === undefined ? {} : { source: item.source }) });
    // An item held for review is scored here by the status the grader proposed; its confidence says it was held.
    const status = graded.result_status === 'Needs_Review' ? (graded.evidence?.proposed ?? 'Partial_Correct') : graded.result_status;
    examPath.push(STATUS[status] ?? 'incorrect');
    examConfidence.push(graded.evidence?.confidence ?? 1);
  }
  const judgeConfidence = assessed.map((entry) => assessmentConfidence(entry));

  const gold2 = answers.map((item) => item.label2);
  const gold3 = answers.map((item) => item.label3 ?? 'incorrect');
  const rows: [string, Scores][] = [
    ['judge label2: assessor', scoreLabels(gold2, assessed.map((entry) => entry.label2))],
    ['judge label2: baseline (ko-dev thr.)', scoreLabels(gold2, scores.map((score) => label2For(score, threshold2)))],
    ['judge label2: baseline (held-out thr.)', scoreLabels(gold2, scores.map((score) => label2For(score, oracle2)))],
    ['grader label3: assessor', scoreLabels(gold3, assessed.map((entry) => entry.label3))],
    ['grader label3: exam path', scoreLabels(gold3, examPath)],
    ['grader label2: exam path', scoreLabels(gold2, examPath.map((label) => (label === 'correct' ? 'good' : 'bad')))],
    ['grader label3: baseline (ko-dev thr.)', scoreLabels(gold3, scores.map((score) => label3For(score, thresholds3)))],
    ['grader label3: baseline (held-out thr.)', scoreLabels(gold3, scores.map((score) => label3For(score, oracle3)))],
  ];
  console.log(`Korean set ${path.relative(REPO_ROOT, SET_FILE)}: ${answers.length} answers to ${new Set(answers.map((item) => item.questionId)).size} questions`);
  console.log(`${'method'.padEnd(42)} acc   F1    κ`);
  for (const [name, value] of rows) {
    const rounded = roundScores(value);
    console.log(`${name.padEnd(42)} ${rounded.accuracy.toFixed(3)} ${rounded.macroF1.toFixed(3)} ${rounded.kappa.toFixed(3)}`);
  }
  const partialShare = (labels: readonly string[]) => labels.filter((label) => label === 'partial').length / labels.length;
  console.log(`Partial_Correct share: gold ${partialShare(gold3).toFixed(3)}, exam path ${partialShare(examPath).toFixed(3)}, assessor ${partialShare(assessed.map((entry) => entry.label3)).toFixed(3)}`);
  console.log('');
  console.log(`${'answer kind'.padEnd(42)} n    judged good (judge)  judged good (exam path)  confident good (judge / exam)  confident bad (judge / exam)`);
  const kinds = KINDS.map((kind) => {
    const indexes = answers.map((item, index) => (kind.test(notes.get(item.id) ?? '') ? index : -1)).filter((index) => index >= 0);
    const judgeGood = indexes.filter((index) => assessed[index]?.label2 === 'good').length;
    const examGood = indexes.filter((index) => examPath[index] === 'correct').length;
    const sure = (confidence: readonly number[], index: number) => (confidence[index] ?? 0) >= CONFIDENT_AT;
    const judgeSureGood = indexes.filter((index) => assessed[index]?.label2 === 'good' && sure(judgeConfidence, index)).length;
    const examSureGood = indexes.filter((index) => examPath[index] === 'correct' && sure(examConfidence, index)).length;
    const judgeSureBad = indexes.filter((index) => assessed[index]?.label2 === 'bad' && sure(judgeConfidence, index)).length;
    const examSureBad = indexes.filter((index) => examPath[index] !== 'correct' && sure(examConfidence, index)).length;
    const rate = (count: number) => (count / Math.max(1, indexes.length)).toFixed(3);
    console.log(
      `${kind.name.padEnd(42)} ${String(indexes.length).padEnd(4)} ${rate(judgeGood).padEnd(20)} ${rate(examGood).padEnd(24)} ${`${rate(judgeSureGood)} / ${rate(examSureGood)}`.padEnd(30)} ${rate(judgeSureBad)} / ${rate(examSureBad)}`,
    );
    return { kind: kind.name, n: indexes.length, judgeGood, examGood, judgeSureGood, examSureGood, judgeSureBad, examSureBad };
  });
  const judgeFigures = confidenceFigures(answers.map((item, index) => ({ gold: item.label2, predicted: assessed[index]?.label2 ?? 'bad', confidence: judgeConfidence[index] ?? 0 })));
  const examFigures = confidenceFigures(
    answers.map((item, index) => ({ gold: item.label2, predicted: examPath[index] === 'correct' ? 'good' : 'bad', confidence: examConfidence[index] ?? 0 })),
  );
  console.log('');
  console.log(formatConfidence('Confidence', [{ set: 'judge (assessor)', figures: judgeFigures }, { set: 'exam path', figures: examFigures }]));
  const finals = examPath.filter((_, index) => (examConfidence[index] ?? 0) >= CONFIDENT_AT);
  console.log(`Partial_Correct share among statuses told as final (exam path): ${partialShare(finals).toFixed(3)} (gold ${partialShare(gold3).toFixed(3)})`);
  const finalRight = examPath.filter((label, index) => (examConfidence[index] ?? 0) >= CONFIDENT_AT && label === gold3[index]).length;
  console.log(`Statuses told as final (exam path) that are the gold status: ${finals.length === 0 ? '—' : (finalRight / finals.length).toFixed(3)} (${finals.length})`);
  console.log(
    JSON.stringify({
      confidence: { judge: judgeFigures, examPath: examFigures },
      task: 'korean',
      file: path.relative(REPO_ROOT, SET_FILE),
      items: answers.length,
      scores: Object.fromEntries(rows.map(([name, value]) => [name, roundScores(value)])),
      kinds,
    }),
  );
}

await main();
