import {
  type ConfidenceFigures,
  type ConfidenceGroup,
  type ConfidentVerdict,
  type GroupedVerdict,
  confidenceFigures,
  compareGroupNames,
  confidenceGroups,
  formatConfidence,
} from './eval-confidence.js';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { ExamGrader, type ExamProblem, type GradeStatus } from '../src/exams/index.js';
import { analyseText, assessAnswer, confidenceReading } from '../src/judges/index.js';
import { createOfflineModel } from '../src/llm/index.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { DEV_FILES, type EvalItem, KOREAN_DEV_SETS, type Scores, loadItems, roundScores, scoreLabels } from './eval-support.js';

/**
 * The exam grader's offline path, measured as the server runs it: every dev answer goes through the real
 * ExamGrader (src/exams/exam-grader.ts) on the offline model with the offline task table of src/offline-tasks.ts, as
 * a Descriptive item whose model answer is the item's reference (an exam item has one model answer, so the
 * alternatives some Beetle questions list are not used here) and whose key keywords are the item's, if any. The
 * same answers are also given to assessAnswer directly with the same inputs: `agree` counts the items where the
 * two labels are the same, which shows the exam path is the assessor measured above and nothing else.
 *
 * Then the never-Correct guarantees, on probes generated from every question of every set: give-ups ("I don't
 * know", "idk", "모르겠어요", "잘 모르겠습니다"), echoes of the question (as asked, and without its punctuation),
 * pasted passages of the material (two other sentences of the source; for the English sets, whose items have no
 * source, a source is made of the question's reference and other questions' references, and the paste is two of
 * the others that share no four-word run with the question's own reference) and bare keyword lists (the reference's first four content words, comma-separated). Each probe is graded
 * twice: by the offline grader, and by a grader whose model says Correct to everything — what the server's checks
 * alone guarantee. Every count of Correct must be 0.
 */

const STATUS_TO_LABEL3: Record<Exclude<GradeStatus, 'Ungraded' | 'Needs_Review'>, string> = { Correct: 'correct', Partial_Correct: 'partial', Incorrect: 'incorrect' };

/** A dev item as the exam grader meets it: a Descriptive item whose one model answer is the item's reference. */
export function problemOf(item: EvalItem, id: number): ExamProblem {
  return {
    id,
    type: 'Descriptive',
    question_content: item.question,
    model_answer: item.reference,
    key_keywords: item.keywords ?? [],
    intent_diagnosis: '-',
  };
}

export interface ExamPathResult {
  set: string;
  items: number;
  label3: Scores;
  label2: Scores;
  /** Items where the exam path's label3 equals assessAnswer's on the same inputs. */
  agree: number;
  ungraded: number;
  /** Items held for review (their label3 above is the status the grader proposed). */
  review: number;
  /** Share of Partial_Correct among the gold labels, all proposals, and the statuses told as final. */
  partialShare: { gold: number; proposed: number; final: number };
  /** Statuses told as final on items with a three-way gold label, and how many of them are the gold status. */
  finalStatus: { n: number; right: number };
  confidence: ConfidenceFigures;
  /**
   * The confidence groups of verdict-confidence.ts on this path (what each verdict's confidence rests on, read from
   * assessAnswer on the same inputs): with one model answer, as the product grades, a group may be right less often
   * than its constant, which is measured with every reference the dev sets give.
   */
  groups: ConfidenceGroup[];
}

/** Every dev set: the ASAG files in `directory`, then the Korean dev sets that exist. */
export function setsIn(directory: string): { name: string; items: EvalItem[] }[] {
  const sets = DEV_FILES.map((file) => ({ name: file.replace('.dev.jsonl', ''), items: loadItems(path.join(directory, file)) }));
  for (const { name, file } of KOREAN_DEV_SETS) if (existsSync(file)) sets.push({ name, items: loadItems(file) });
  return sets;
}

/** The grading context of a dev item: its material, when it has one. */
export const context = (item: EvalItem) => ({ materialId: 'eval', ...(item.source === undefined ? {} : { source: item.source }) });

export async function examPathResults(directory: string): Promise<ExamPathResult[]> {
  const grader = new ExamGrader({ model: createOfflineModel(offlineTasks) });
  const results: ExamPathResult[] = [];
  for (const set of setsIn(directory)) {
    const gold3: string[] = [];
    const predicted3: string[] = [];
    const gold2: string[] = [];
    const predicted2: string[] = [];
    let agree = 0;
    let ungraded = 0;
    let review = 0;
    const verdicts: ConfidentVerdict[] = [];
    const grouped: GroupedVerdict[] = [];
    const finals: string[] = [];
    const finalStatus = { n: 0, right: 0 };
    for (const [index, item] of set.items.entries()) {
      const graded = await grader.grade(problemOf(item, index + 1), item.answer, context(item));
      const direct = assessAnswer({
        question: item.question,
        reference: item.reference,
        keywords: item.keywords ?? [],
        answer: item.answer,
        ...(item.source === undefined ? {} : { source: item.source }),
      });
      if (graded.result_status === 'Ungraded') {
        ungraded += 1;
        continue;
      }
      if (graded.result_status === 'Needs_Review') review += 1;
      const status = graded.result_status === 'Needs_Review' ? (graded.evidence?.proposed ?? 'Partial_Correct') : graded.result_status;
      const label3 = STATUS_TO_LABEL3[status];
      const confidence = graded.evidence?.confidence ?? 1;
      verdicts.push({ gold: item.label2, predicted: label3 === 'correct' ? 'good' : 'bad', confidence });
      const reading = confidenceReading(direct);
      grouped.push({ gold: item.label2, predicted: direct.label2, confidence: reading.confidence, basis: reading.basis, ...(reading.row === undefined ? {} : { row: reading.row }) });
      if (graded.result_status !== 'Needs_Review') {
        finals.push(label3);
        if (item.label3 !== null) {
          finalStatus.n += 1;
          if (label3 === item.label3) finalStatus.right += 1;
        }
      }
      if (label3 === direct.label3) agree += 1;
      if (item.label3 !== null) {
        gold3.push(item.label3);
        predicted3.push(label3);
      }
      gold2.push(item.label2);
      predicted2.push(label3 === 'correct' ? 'good' : 'bad');
    }
    results.push({
      set: set.name,
      items: set.items.length,
      label3: roundScores(scoreLabels(gold3, predicted3)),
      label2: roundScores(scoreLabels(gold2, predicted2)),
      agree,
      ungraded,
      review,
      partialShare: {
        gold: share(gold3, 'partial'),
        proposed: share(predicted3, 'partial'),
        final: share(finals, 'partial'),
      },
      finalStatus,
      confidence: confidenceFigures(verdicts),
      groups: confidenceGroups(grouped),
    });
  }
  return results;
}

export const PROBE_KINDS = ['give-up', 'echo', 'pasted-passage', 'keyword-list'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export interface ProbeResult {
  kind: ProbeKind;
  probes: number;
  /** Probes the offline grader graded Correct. */
  correctOffline: number;
  /** Probes graded Correct by a grader whose model says Correct to everything (the server's checks alone). */
  correctAdversarial: number;
}

const GIVE_UPS = ["I don't know", 'idk', '모르겠어요', '잘 모르겠습니다'];

/** The reference's content words as the judges read them (no stopwords), in order, without repeats. */
function contentWords(text: string): string[] {
  return [...new Set(analyseText(text).tokens.filter((token) => token.content).map((token) => token.surface))];
}

function fourWordRuns(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const runs = new Set<string>();
  for (let index = 0; index + 4 <= words.length; index += 1) runs.add(words.slice(index, index + 4).join(' '));
  return runs;
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+/u).map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0);
}

/** Probes for one question: its item, and the other questions of the set (for a made-up source). */
function probesFor(item: EvalItem, others: readonly EvalItem[]): { kind: ProbeKind; answer: string; source: string | undefined }[] {
  const probes: { kind: ProbeKind; answer: string; source: string | undefined }[] = [];
  for (const answer of GIVE_UPS) probes.push({ kind: 'give-up', answer, source: item.source });
  probes.push({ kind: 'echo', answer: item.question, source: item.source });
  probes.push({ kind: 'echo', answer: item.question.replace(/[?.!？]+/gu, '').trim(), source: item.source });
  if (item.source !== undefined) {
    const reference = item.reference.trim();
    const rest = sentences(item.source).filter((sentence) => !reference.includes(sentence) && !sentence.includes(reference));
    if (rest.length >= 2) probes.push({ kind: 'pasted-passage', answer: rest.slice(0, 2).join(' '), source: item.source });
  } else {
    // Other questions' references that say something else: none shares a four-word run with this one's (Beetle
    // questions often share a reference; pasting that would be pasting the answer itself).
    const own = fourWordRuns(item.reference);
    const unrelated = others.filter((other) => ![...fourWordRuns(other.reference)].some((run) => own.has(run)));
    if (unrelated.length >= 3) {
      const pasted = unrelated.slice(0, 2).map((other) => other.reference).join(' ');
      const source = [item.question, item.reference, ...unrelated.slice(0, 3).map((other) => `${other.question} ${other.reference}`)].join(' ');
      probes.push({ kind: 'pasted-passage', answer: pasted, source });
    }
  }
  const words = contentWords(item.reference).slice(0, 4);
  if (words.length >= 2) probes.push({ kind: 'keyword-list', answer: words.join(', '), source: item.source });
  return probes;
}

export async function probeResults(directory: string): Promise<ProbeResult[]> {
  const offline = new ExamGrader({ model: createOfflineModel(offlineTasks) });
  const adversarial = new ExamGrader({
    model: createOfflineModel({
      'exam.grade': { object: () => ({ result_status: 'Correct', related_topic: 'probe', feedback_message: '정확합니다.' }) },
    }),
  });
  const totals = new Map<ProbeKind, ProbeResult>(PROBE_KINDS.map((kind) => [kind, { kind, probes: 0, correctOffline: 0, correctAdversarial: 0 }]));
  for (const set of setsIn(directory)) {
    const byQuestion = new Map<string, EvalItem>();
    for (const item of set.items) if (!byQuestion.has(item.questionId)) byQuestion.set(item.questionId, item);
    const questions = [...byQuestion.values()];
    for (const [index, item] of questions.entries()) {
      const others = [...questions.slice(index + 1), ...questions.slice(0, index)];
      for (const probe of probesFor(item, others)) {
        const problem = problemOf(item, index + 1);
        const probeContext = { materialId: 'eval', ...(probe.source === undefined ? {} : { source: probe.source }) };
        const total = totals.get(probe.kind) as ProbeResult;
        total.probes += 1;
        if ((await offline.grade(problem, probe.answer, probeContext)).result_status === 'Correct') total.correctOffline += 1;
        if ((await adversarial.grade(problem, probe.answer, probeContext)).result_status === 'Correct') total.correctAdversarial += 1;
      }
    }
  }
  return [...totals.values()];
}

const share = (labels: readonly string[], label: string): number =>
  labels.length === 0 ? 0 : Math.round((labels.filter((value) => value === label).length / labels.length) * 1000) / 1000;

export function formatExamPath(results: readonly ExamPathResult[]): string {
  const lines = [
    'Exam grader offline path (ExamGrader on the offline model, one model answer per item): macro-F1 and κ, dev',
    `${'set'.padEnd(22)} ${'n'.padStart(4)}  label3 F1  κ       label2 F1  κ       agree with assessAnswer  Needs_Review  Partial share gold/proposed/final  final status right (n)`,
  ];
  for (const result of results) {
    lines.push(
      `${result.set.padEnd(22)} ${String(result.items).padStart(4)}  ${result.label3.macroF1.toFixed(3)}     ${result.label3.kappa.toFixed(3)}   ${result.label2.macroF1.toFixed(3)}     ${result.label2.kappa.toFixed(3)}   ${result.agree}/${result.items - result.ungraded}${result.ungraded > 0 ? ` (${result.ungraded} ungraded)` : ''}`.padEnd(98) +
        `${String(result.review).padEnd(12)}  ${`${result.partialShare.gold.toFixed(3)}/${result.partialShare.proposed.toFixed(3)}/${result.partialShare.final.toFixed(3)}`.padEnd(33)} ` +
        `${result.finalStatus.n === 0 ? '—' : (result.finalStatus.right / result.finalStatus.n).toFixed(3)} (${result.finalStatus.n})`,
    );
  }
  lines.push('');
  lines.push(formatConfidence('Exam grader confidence (offline path; label2 of the proposed status), dev', results.map((result) => ({ set: result.set, figures: result.confidence }))));
  lines.push('');
  lines.push(formatPathGroups(results));
  return lines.join('\n');
}

/** The confidence groups on the exam path, one column per set: how many verdicts, and the share right. */
function formatPathGroups(results: readonly ExamPathResult[]): string {
  const names = [...new Set(results.flatMap((result) => result.groups.map((group) => group.group)))].sort(compareGroupNames);
  const cell = (result: ExamPathResult, name: string) => {
    const group = result.groups.find((entry) => entry.group === name);
    return (group === undefined ? '—' : `${group.right.toFixed(2)} (${group.n})`).padEnd(14);
  };
  const lines = [
    'Confidence groups on the exam path (one model answer), dev: share right (n) per set; compare with eval:judge\'s pooled groups',
    `${'group'.padEnd(28)} ${results.map((result) => result.set.slice(0, 13).padEnd(14)).join(' ')}`,
  ];
  for (const name of names) {
    lines.push(`${name.padEnd(28)} ${results.map((result) => cell(result, name)).join(' ')}`);
  }
  return lines.join('\n');
}

/** Most Partial_Correct may exceed the gold share by (§3: no Partial by default). */
export const PARTIAL_MARGIN = 0.1;

/**
 * The exam path's targets per set, beside the tuned baseline (thresholds tuned on the same file, the optimistic
 * "dev" figure): label3 and label2 macro-F1 above the baseline's, and Partial_Correct proposed and told as final no
 * more often than the gold share plus PARTIAL_MARGIN.
 */
export function formatExamTargets(
  results: readonly ExamPathResult[],
  baseline: { label3: readonly { set: string; baseline: { dev: Scores } }[]; label2: readonly { set: string; baseline: { dev: Scores } }[] },
): string {
  const lines = [
    `Exam path targets (beats the tuned baseline 3-way and 2-way; Partial_Correct ≤ gold + ${PARTIAL_MARGIN})`,
    `${'set'.padEnd(22)} ${'3-way exam/baseline'.padEnd(26)} ${'2-way exam/baseline'.padEnd(26)} partial proposed/final ≤ limit`,
  ];
  const mark = (met: boolean) => (met ? 'met' : 'MISSED');
  for (const result of results) {
    const three = baseline.label3.find((entry) => entry.set === result.set)?.baseline.dev.macroF1;
    const two = baseline.label2.find((entry) => entry.set === result.set)?.baseline.dev.macroF1;
    const pair = (exam: number, base: number | undefined) =>
      base === undefined ? '—' : `${exam.toFixed(3)}/${base.toFixed(3)} ${mark(exam > base)}`;
    const limit = result.partialShare.gold + PARTIAL_MARGIN;
    const partialMet = result.partialShare.proposed <= limit && result.partialShare.final <= limit;
    // A set whose 3-way gold has no partial class (SciEntsBank's partial answers are unlabelled) cannot bound it.
    const partial =
      result.partialShare.gold === 0
        ? `${result.partialShare.proposed.toFixed(3)}/${result.partialShare.final.toFixed(3)} (no partial gold)`
        : `${result.partialShare.proposed.toFixed(3)}/${result.partialShare.final.toFixed(3)} ≤ ${limit.toFixed(3)} ${mark(partialMet)}`;
    lines.push(`${result.set.padEnd(22)} ${pair(result.label3.macroF1, three).padEnd(26)} ${pair(result.label2.macroF1, two).padEnd(26)} ${partial}`);
  }
  return lines.join('\n');
}

export function formatProbes(results: readonly ProbeResult[]): string {
  const lines = ['Never Correct (probes from every question of every set): Correct given by the offline grader / by any model (server checks)'];
  for (const result of results) {
    lines.push(`${result.kind.padEnd(16)} ${String(result.probes).padStart(5)} probes   offline ${result.correctOffline}   any model ${result.correctAdversarial}`);
  }
  return lines.join('\n');
}
