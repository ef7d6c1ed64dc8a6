import {
  type AssessorModel,
  FEATURE_NAMES,
  type PreparedAssessment,
  type ConfidenceBasis,
  confidenceReading,
  decideAssessment,
  prepareAssessment,
  probability,
} from '../src/judges/index.js';
import { type EvalItem, type Label2, type Label3, scoreLabels } from './eval-support.js';

/**
 * Fitting the assessor's few global numbers: an L2-regularised logistic regression (Newton/IRLS, deterministic)
 * for label2 over the feature vectors, then the two probability thresholds for the best mean macro-F1 over the
 * training files. Used by train-assessor.ts for the committed constants and by the evaluations for grouped
 * cross-validation (fit on the other questions, predict the held-out ones).
 */

export interface TrainingItem {
  item: EvalItem;
  /** The file (data set) the item belongs to: thresholds are chosen for the mean over files. */
  file: string;
  prepared: PreparedAssessment;
}

export const L2_PENALTY = 1;
const ROUNDS = 3;

export function prepareItems(items: readonly EvalItem[], file: string): TrainingItem[] {
  return items.map((item) => ({
    item,
    file,
    prepared: prepareAssessment({
      question: item.question,
      reference: item.reference,
      alternatives: item.alternatives,
      answer: item.answer,
      ...(item.keywords === undefined ? {} : { keywords: item.keywords }),
      ...(item.source === undefined ? {} : { source: item.source }),
    }),
  }));
}

function solve(matrix: number[][], vector: number[]): number[] {
  const size = vector.length;
  const rows = matrix.map((row, index) => [...row, vector[index] ?? 0]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1) {
      if (Math.abs(rows[row]?.[column] ?? 0) > Math.abs(rows[pivot]?.[column] ?? 0)) pivot = row;
    }
    [rows[column], rows[pivot]] = [rows[pivot] ?? [], rows[column] ?? []];
    const lead = rows[column]?.[column] ?? 1;
    for (let row = 0; row < size; row += 1) {
      if (row === column) continue;
      const factor = (rows[row]?.[column] ?? 0) / lead;
      for (let index = column; index <= size; index += 1) {
        (rows[row] as number[])[index] = (rows[row]?.[index] ?? 0) - factor * (rows[column]?.[index] ?? 0);
      }
    }
  }
  return rows.map((row, index) => (row[size] ?? 0) / (row[index] ?? 1));
}

/** Logistic regression by Newton's method with an L2 penalty on the weights (not the bias). */
export function fitLogistic(
  features: readonly number[][],
  targets: readonly number[],
  sampleWeights: readonly number[] = features.map(() => 1),
  penalty = L2_PENALTY,
): { weights: number[]; bias: number } {
  const dimension = FEATURE_NAMES.length + 1;
  let beta = new Array<number>(dimension).fill(0);
  for (let iteration = 0; iteration < 50; iteration += 1) {
    const gradient = new Array<number>(dimension).fill(0);
    const hessian = Array.from({ length: dimension }, () => new Array<number>(dimension).fill(0));
    features.forEach((row, index) => {
      const x = [...row, 1];
      const z = x.reduce((sum, value, position) => sum + value * (beta[position] ?? 0), 0);
      const p = 1 / (1 + Math.exp(-z));
      const sample = sampleWeights[index] ?? 1;
      const error = sample * ((targets[index] ?? 0) - p);
      const weight = sample * Math.max(p * (1 - p), 1e-9);
      for (let i = 0; i < dimension; i += 1) {
        gradient[i] = (gradient[i] ?? 0) + error * (x[i] ?? 0);
        for (let j = 0; j < dimension; j += 1) (hessian[i] as number[])[j] = (hessian[i]?.[j] ?? 0) + weight * (x[i] ?? 0) * (x[j] ?? 0);
      }
    });
    for (let i = 0; i < dimension - 1; i += 1) {
      gradient[i] = (gradient[i] ?? 0) - penalty * (beta[i] ?? 0);
      (hessian[i] as number[])[i] = (hessian[i]?.[i] ?? 0) + penalty;
    }
    const step = solve(hessian, gradient);
    beta = beta.map((value, index) => value + (step[index] ?? 0));
    if (Math.max(...step.map(Math.abs)) < 1e-8) break;
  }
  return { weights: beta.slice(0, -1), bias: beta.at(-1) ?? 0 };
}

function chosenFeatures(entry: TrainingItem, model: AssessorModel | undefined): number[] {
  const candidates = entry.prepared.candidates;
  let best = candidates[0];
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const candidate of candidates) {
    // Before the first fit the best-covered reference stands in for the model's choice.
    const value = model === undefined ? candidate.comparison.recall : probability(model.good, candidate.features);
    if (value > bestValue) {
      best = candidate;
      bestValue = value;
    }
  }
  return best?.features ?? [];
}

const GRID = Array.from({ length: 91 }, (_, index) => Math.round((0.05 + index * 0.01) * 100) / 100);

function meanF1(entries: readonly TrainingItem[], model: AssessorModel, kind: 'label2' | 'label3'): number {
  const byFile = new Map<string, { gold: string[]; predicted: string[] }>();
  for (const entry of entries) {
    const gold = kind === 'label2' ? entry.item.label2 : entry.item.label3;
    if (gold === null) continue;
    const verdict = decideAssessment(entry.prepared, model);
    const bucket = byFile.get(entry.file) ?? { gold: [], predicted: [] };
    bucket.gold.push(gold);
    bucket.predicted.push(kind === 'label2' ? verdict.label2 : verdict.label3);
    byFile.set(entry.file, bucket);
  }
  const values = [...byFile.values()].map((bucket) => scoreLabels(bucket.gold, bucket.predicted).macroF1);
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

/** Fits both logistic parts and both thresholds on the given items (pooled over their files). */
export function fitModel(entries: readonly TrainingItem[]): AssessorModel {
  const targets = entries.map((entry) => (entry.item.label2 === ('good' satisfies Label2) ? 1 : 0));
  // Each file's good and bad answers weigh half of that file: the probability then reads as evidence, not as the
  // file's base rate, which differs between corpora (61 % good in SAF, 42 % in SciEntsBank).
  const counts = new Map<string, number>();
  const key = (entry: TrainingItem, index: number): string => `${entry.file}:${targets[index]}`;
  entries.forEach((entry, index) => counts.set(key(entry, index), (counts.get(key(entry, index)) ?? 0) + 1));
  const files = new Set(entries.map((entry) => entry.file)).size;
  const sampleWeights = entries.map((entry, index) => entries.length / (2 * files * (counts.get(key(entry, index)) ?? 1)));
  const placeholder = { weights: [], bias: 0 };
  let model: AssessorModel | undefined;
  for (let round = 0; round < ROUNDS; round += 1) {
    const good = fitLogistic(entries.map((entry) => chosenFeatures(entry, model)), targets, sampleWeights);
    model = { good, incorrect: placeholder, correctThreshold: 0.5, incorrectThreshold: 0.5 };
  }
  const withGood = model as AssessorModel;
  // Incorrect against partial, over the answers that are not correct, on the reference chosen by `good`.
  const wrong = entries.filter((entry) => entry.item.label3 === 'partial' || entry.item.label3 === 'incorrect');
  const incorrect = fitLogistic(
    wrong.map((entry) => chosenFeatures(entry, withGood)),
    wrong.map((entry) => (entry.item.label3 === 'incorrect' ? 1 : 0)),
  );
  const fitted: AssessorModel = { ...withGood, incorrect };
  let best = { threshold: 0.5, f1: -1 };
  for (const threshold of GRID) {
    const f1 = meanF1(entries, { ...fitted, correctThreshold: threshold }, 'label2');
    if (f1 > best.f1 + 1e-12) best = { threshold, f1 };
  }
  let bestIncorrect = { threshold: 0.5, f1: -1 };
  for (const threshold of GRID) {
    const f1 = meanF1(entries, { ...fitted, correctThreshold: best.threshold, incorrectThreshold: threshold }, 'label3');
    if (f1 > bestIncorrect.f1 + 1e-12) bestIncorrect = { threshold, f1 };
  }
  return { ...fitted, correctThreshold: best.threshold, incorrectThreshold: bestIncorrect.threshold };
}

export interface Prediction {
  label2: Label2;
  label3: Label3;
  confidence: number;
  goodProbability: number;
  /** What the confidence rests on (verdict-confidence.ts), and for a margin reading its table row. */
  basis: ConfidenceBasis;
  row?: number;
}

export function predict(entry: TrainingItem, model: AssessorModel): Prediction {
  const verdict = decideAssessment(entry.prepared, model);
  const reading = confidenceReading(verdict, model);
  return {
    label2: verdict.label2,
    label3: verdict.label3,
    confidence: reading.confidence,
    goodProbability: verdict.goodProbability,
    basis: reading.basis,
    ...(reading.row === undefined ? {} : { row: reading.row }),
  };
}
