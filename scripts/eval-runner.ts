import { existsSync } from 'node:fs';
import path from 'node:path';
import { ASSESSOR_MODEL, type AssessorModel, CONFIDENT_AT } from '../src/judges/index.js';
import { type Prediction, type TrainingItem, fitModel, predict, prepareItems } from './assessor-training.js';
import {
  type ConfidenceFigures,
  type ConfidenceGroup,
  type ScoreCeiling,
  confidenceFigures,
  confidenceGroups,
  scoreCeiling,
} from './eval-confidence.js';
import {
  DEV_FILES,
  type EvalItem,
  FOLDS,
  KOREAN_DEV_SETS,
  type Scores,
  baselineScore,
  groupFolds,
  label2For,
  label3For,
  loadItems,
  roundScores,
  scoreLabels,
  tuneThreshold2,
  tuneThresholds3,
} from './eval-support.js';

/**
 * One evaluation run over the dev files and the Korean dev set: the assessor with its committed constants and
 * the baseline with thresholds tuned on the same file ("dev"), and both under cross-validation grouped by
 * question ("cv": the assessor refitted on every other question of all files, the baseline's thresholds tuned on
 * the other folds of the file), which estimates how each carries over to unseen questions.
 */

export type Task = 'label2' | 'label3';

export interface MethodResult {
  dev: Scores;
  cv: Scores;
}

export interface SetResult {
  set: string;
  items: number;
  questions: number;
  assessor: MethodResult;
  baseline: MethodResult & { thresholds: number[] };
  /** The assessor's confidence on its good/bad verdicts, dev and grouped CV. */
  confidence: { dev: ConfidenceFigures; cv: ConfidenceFigures };
  /** The error kinds §3 bounds, dev and grouped CV. */
  kinds: { dev: KindFigures; cv: KindFigures };
  /** What thresholds on the assessor's P(good) alone could reach, under grouped CV (eval-confidence.ts). */
  ceiling: { cv: ScoreCeiling };
}

/** Content words up to which a correct answer counts as short (a term or two, 개조식). */
export const SHORT_CORRECT = 6;

/**
 * Shares of answers of a kind judged with confidence on the wrong side: correct answers (all, and the short ones)
 * judged bad, contradictions of the reference judged good; with the count of each kind.
 */
export interface KindFigures {
  correct: number;
  correctSureBad: number;
  shortCorrect: number;
  shortCorrectSureBad: number;
  contradictions: number;
  contradictionsSureGood: number;
}

function kindsOf(entries: readonly TrainingItem[], predicted: readonly Prediction[]): KindFigures {
  const sure = (index: number, label: string) => predicted[index]?.label2 === label && (predicted[index]?.confidence ?? 0) >= CONFIDENT_AT;
  const rate = (indexes: readonly number[], label: string) =>
    indexes.length === 0 ? 0 : Math.round((indexes.filter((index) => sure(index, label)).length / indexes.length) * 1000) / 1000;
  const all = entries.map((_, index) => index);
  const correct = all.filter((index) => entries[index]?.item.label2 === 'good');
  const short = correct.filter((index) => (entries[index]?.prepared.answer.units.length ?? 0) <= SHORT_CORRECT);
  const contradictions = all.filter((index) => entries[index]?.item.contradiction === true);
  return {
    correct: correct.length,
    correctSureBad: rate(correct, 'bad'),
    shortCorrect: short.length,
    shortCorrectSureBad: rate(short, 'bad'),
    contradictions: contradictions.length,
    contradictionsSureGood: rate(contradictions, 'good'),
  };
}

/** One line per set: the kinds' counts and wrong-side confident shares (targets: ≤ 0.10 bad, ≤ 0.05 good). */
export function formatKinds(title: string, sets: readonly { set: string; figures: KindFigures }[]): string {
  const lines = [
    `${title} (targets: correct answers confidently bad ≤ 0.10, contradictions confidently good ≤ 0.05)`,
    `${'set'.padEnd(22)} correct: n, sure bad    short correct (≤ ${SHORT_CORRECT} words): n, sure bad    contradictions: n, sure good   targets`,
  ];
  for (const { set, figures } of sets) {
    lines.push(
      `${set.padEnd(22)} ${`${figures.correct}, ${figures.correctSureBad.toFixed(3)}`.padEnd(22)} ${`${figures.shortCorrect}, ${figures.shortCorrectSureBad.toFixed(3)}`.padEnd(38)} ${`${figures.contradictions}, ${figures.contradictionsSureGood.toFixed(3)}`.padEnd(30)} ${figures.correctSureBad <= 0.1 && figures.shortCorrectSureBad <= 0.1 && figures.contradictionsSureGood <= 0.05 ? 'met' : 'MISSED'}`,
    );
  }
  return lines.join('\n');
}

interface LoadedSet {
  name: string;
  entries: TrainingItem[];
  /** Part of the English training pool (the Korean set never is: it checks transfer). */
  training: boolean;
}

function loadSets(directory: string): LoadedSet[] {
  const sets: LoadedSet[] = DEV_FILES.map((file) => ({
    name: file.replace('.dev.jsonl', ''),
    entries: prepareItems(loadItems(path.join(directory, file)), file),
    training: true,
  }));
  for (const { name, file } of KOREAN_DEV_SETS) {
    if (existsSync(file)) sets.push({ name, entries: prepareItems(loadItems(file), name), training: false });
  }
  return sets;
}

function goldOf(item: EvalItem, task: Task): string | null {
  return task === 'label2' ? item.label2 : item.label3;
}

function baselineResult(entries: readonly TrainingItem[], task: Task): SetResult['baseline'] {
  const items = entries.map((entry) => entry.item).filter((item) => goldOf(item, task) !== null);
  const scores = items.map(baselineScore);
  const gold = items.map((item) => goldOf(item, task) ?? '');
  const labelsWith = (indexes: readonly number[], trainIndexes: readonly number[]): Map<number, string> => {
    const predicted = new Map<number, string>();
    const trainScores = trainIndexes.map((index) => scores[index] ?? 0);
    if (task === 'label2') {
      const threshold = tuneThreshold2(trainScores, trainIndexes.map((index) => items[index]?.label2 ?? 'bad'));
      for (const index of indexes) predicted.set(index, label2For(scores[index] ?? 0, threshold));
    } else {
      const thresholds = tuneThresholds3(trainScores, trainIndexes.map((index) => items[index]?.label3 ?? 'incorrect'));
      for (const index of indexes) predicted.set(index, label3For(scores[index] ?? 0, thresholds));
    }
    return predicted;
  };
  const all = items.map((_, index) => index);
  const thresholds =
    task === 'label2'
      ? [tuneThreshold2(scores, items.map((item) => item.label2))]
      : tuneThresholds3(scores, items.map((item) => item.label3 ?? 'incorrect'));
  const dev = labelsWith(all, all);
  const folds = groupFolds(items);
  const cv = new Map<number, string>();
  for (let fold = 0; fold < FOLDS; fold += 1) {
    const test = all.filter((index) => folds[index] === fold);
    const train = all.filter((index) => folds[index] !== fold);
    if (test.length === 0) continue;
    for (const [index, label] of labelsWith(test, train)) cv.set(index, label);
  }
  return {
    dev: roundScores(scoreLabels(gold, all.map((index) => dev.get(index) ?? ''))),
    cv: roundScores(scoreLabels(gold, all.map((index) => cv.get(index) ?? ''))),
    thresholds,
  };
}

function assessorScores(entries: readonly TrainingItem[], labels: readonly { label2: string; label3: string }[], task: Task): Scores {
  const gold: string[] = [];
  const predicted: string[] = [];
  entries.forEach((entry, index) => {
    const label = goldOf(entry.item, task);
    if (label === null) return;
    gold.push(label);
    predicted.push(labels[index]?.[task] ?? '');
  });
  return roundScores(scoreLabels(gold, predicted));
}

/** Grouped CV predictions for every set: fit on all training sets minus the held-out questions of one fold. */
function crossValidated(sets: readonly LoadedSet[]): Map<string, Prediction[]> {
  const pool = sets.filter((set) => set.training);
  const result = new Map<string, Prediction[]>();
  for (const set of pool) {
    const folds = groupFolds(set.entries.map((entry) => entry.item));
    const labels = new Array<Prediction>(set.entries.length);
    for (let fold = 0; fold < FOLDS; fold += 1) {
      const training = pool.flatMap((other) => (other === set ? set.entries.filter((_, index) => folds[index] !== fold) : other.entries));
      const model = fitModel(training);
      set.entries.forEach((entry, index) => {
        if (folds[index] === fold) labels[index] = predict(entry, model);
      });
    }
    result.set(set.name, labels);
  }
  return result;
}

function confidenceOf(entries: readonly TrainingItem[], predicted: readonly Prediction[]): ConfidenceFigures {
  return confidenceFigures(
    entries.map((entry, index) => ({
      gold: entry.item.label2,
      predicted: predicted[index]?.label2 === 'good' ? 'good' : 'bad',
      confidence: predicted[index]?.confidence ?? 0,
    })),
  );
}

export interface EvaluationResult {
  dataDirectory: string;
  folds: number;
  model: AssessorModel;
  label2: SetResult[];
  label3: SetResult[];
  /**
   * The confidence groups of verdict-confidence.ts, every set pooled: grouped CV for the English sets, the committed
   * model on the Korean ones (never trained on). The share right per group is what its constant states.
   */
  groups: ConfidenceGroup[];
}

export function runEvaluation(directory: string, tasks: readonly Task[], model: AssessorModel = ASSESSOR_MODEL): EvaluationResult {
  const sets = loadSets(directory);
  const cv = crossValidated(sets);
  const predictions = new Map(sets.map((set) => [set.name, cv.get(set.name) ?? set.entries.map((entry) => predict(entry, model))]));
  const resultFor = (task: Task): SetResult[] =>
    sets
      .filter((set) => set.entries.some((entry) => goldOf(entry.item, task) !== null))
      .map((set) => {
        const unseen = predictions.get(set.name) ?? [];
        // The Korean sets are never trained on, so their dev figures already are held-out ones.
        const dev = set.training ? set.entries.map((entry) => predict(entry, model)) : unseen;
        return {
          set: set.name,
          items: set.entries.filter((entry) => goldOf(entry.item, task) !== null).length,
          questions: new Set(set.entries.map((entry) => entry.item.questionId)).size,
          assessor: { dev: assessorScores(set.entries, dev, task), cv: assessorScores(set.entries, unseen, task) },
          baseline: baselineResult(set.entries, task),
          confidence: { dev: confidenceOf(set.entries, dev), cv: confidenceOf(set.entries, unseen) },
          kinds: { dev: kindsOf(set.entries, dev), cv: kindsOf(set.entries, unseen) },
          ceiling: {
            cv: scoreCeiling(
              unseen.map((predicted) => predicted.goodProbability),
              set.entries.map((entry) => entry.item.label2),
            ),
          },
        };
      });
  return {
    dataDirectory: directory,
    folds: FOLDS,
    model,
    label2: tasks.includes('label2') ? resultFor('label2') : [],
    label3: tasks.includes('label3') ? resultFor('label3') : [],
    groups: confidenceGroups(
      sets.flatMap((set) =>
        (predictions.get(set.name) ?? []).map((predicted, index) => ({
          gold: set.entries[index]?.item.label2 ?? 'bad',
          predicted: predicted.label2,
          confidence: predicted.confidence,
          basis: predicted.basis,
          ...(predicted.row === undefined ? {} : { row: predicted.row }),
          ...statusOf(set.entries[index]?.item.label3 ?? null, predicted.label3),
        })),
      ),
    ),
  };
}

function statusOf(gold: string | null, predicted: string): { status?: { gold: string; predicted: string } } {
  return gold === null ? {} : { status: { gold, predicted } };
}

function cell(scores: Scores): string {
  return `${scores.accuracy.toFixed(3)} ${scores.macroF1.toFixed(3)} ${scores.kappa.toFixed(3)}`;
}

/** A readable table: per set, accuracy / macro-F1 / κ for assessor and baseline, dev and grouped CV. */
export function formatTable(title: string, results: readonly SetResult[]): string {
  const lines = [
    title,
    `${'set'.padEnd(22)} ${'n'.padStart(4)}  ${'assessor dev'.padEnd(18)} ${'baseline dev'.padEnd(18)} ${'assessor cv'.padEnd(18)} ${'baseline cv'.padEnd(18)} beats`,
    `${''.padEnd(22)} ${''.padStart(4)}  ${'acc   F1    κ'.padEnd(18)} ${'acc   F1    κ'.padEnd(18)} ${'acc   F1    κ'.padEnd(18)} ${'acc   F1    κ'.padEnd(18)} dev/cv`,
  ];
  for (const result of results) {
    const beatsDev = result.assessor.dev.macroF1 > result.baseline.dev.macroF1 ? 'yes' : 'no';
    const beatsCv = result.assessor.cv.macroF1 > result.baseline.cv.macroF1 ? 'yes' : 'no';
    lines.push(
      `${result.set.padEnd(22)} ${String(result.items).padStart(4)}  ${cell(result.assessor.dev).padEnd(18)} ${cell(result.baseline.dev).padEnd(18)} ${cell(result.assessor.cv).padEnd(18)} ${cell(result.baseline.cv).padEnd(18)} ${beatsDev}/${beatsCv}`,
    );
  }
  return lines.join('\n');
}
