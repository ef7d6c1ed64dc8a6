import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ENGLISH_NEGATIONS, ENGLISH_STOPWORDS } from '../src/judges/english-words.js';
import { normalizeKorean, stripParticles } from '../src/text/korean-text.js';

/**
 * Shared parts of the judge/grader evaluations: the data files, the metrics (accuracy, macro-F1, Cohen's κ), the
 * word-overlap baseline of shared/eval/README.md with its tuned thresholds, and folds grouped by question.
 */

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEV_FILES = ['saf-en.dev.jsonl', 'semeval-beetle.dev.jsonl', 'semeval-scientsbank.dev.jsonl'] as const;
export const KO_DEV_FILE = path.join(REPO_ROOT, 'eval', 'ko-dev.jsonl');
/**
 * The Korean dev sets, each reported on its own: ko-dev (the set the Korean rules were debugged on), ko-dev2 (new
 * questions in other subjects, first measured before any rule was changed for them), ko-dev3 (short answers) and
 * ko-class (five questions with thirty answers each, as one class answers an exam item: what grading by groups saves).
 */
export const KOREAN_DEV_SETS = [
  { name: 'ko-dev', file: KO_DEV_FILE },
  { name: 'ko-dev2', file: path.join(REPO_ROOT, 'eval', 'ko-dev2.jsonl') },
  { name: 'ko-dev3', file: path.join(REPO_ROOT, 'eval', 'ko-dev3.jsonl') },
  { name: 'ko-class', file: path.join(REPO_ROOT, 'eval', 'ko-class.jsonl') },
] as const;
export const FOLDS = 5;

export type Label3 = 'correct' | 'partial' | 'incorrect';
export type Label2 = 'good' | 'bad';

const ItemSchema = z.object({
  id: z.string(),
  question_id: z.string(),
  question: z.string(),
  reference: z.string(),
  alt_references: z.array(z.string()).optional(),
  keywords: z.array(z.string()).optional(),
  source: z.string().optional(),
  answer: z.string(),
  label3: z.enum(['correct', 'partial', 'incorrect']).nullable(),
  label2: z.enum(['good', 'bad']),
  source_label_3way: z.string().optional(),
  source_label_5way: z.string().optional(),
  note: z.string().optional(),
});

/** The hand-written notes (ko-dev) that mark the reference's words saying the opposite. */
const CONTRADICTION_NOTE = /antonym|negation|opposite|swapped|reversed|contradicts|wrong direction|wrong operation|different operation/u;

export interface EvalItem {
  id: string;
  questionId: string;
  question: string;
  reference: string;
  alternatives: string[];
  keywords: string[] | undefined;
  source: string | undefined;
  answer: string;
  label3: Label3 | null;
  label2: Label2;
  /**
   * A contradiction of the reference (the source's `contradictory` label in the SemEval files, a note naming a
   * negation, antonym, swap or reversal in ko-dev): the kind that must never be judged good with confidence.
   */
  contradiction: boolean;
}

/** The data directory: the first non-flag argument, else ../shared/eval/asag beside the repository. */
export function dataDirectory(): string {
  const argument = process.argv.slice(2).find((value) => !value.startsWith('--'));
  const directory = path.resolve(argument ?? path.join(REPO_ROOT, '..', 'shared', 'eval', 'asag'));
  const missing = DEV_FILES.filter((file) => !existsSync(path.join(directory, file)));
  if (missing.length > 0) {
    console.error(
      `eval: data directory ${directory} lacks ${missing.join(', ')}. Pass the directory holding the ASAG dev files ` +
        '(shared/eval/asag) as the first argument.',
    );
    process.exit(2);
  }
  return directory;
}

export function loadItems(file: string): EvalItem[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line, index) => {
      const parsed = ItemSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${index + 1}: ${parsed.error.message}`);
      const row = parsed.data;
      return {
        id: row.id,
        questionId: row.question_id,
        question: row.question,
        reference: row.reference,
        alternatives: row.alt_references ?? [],
        keywords: row.keywords,
        source: row.source,
        answer: row.answer,
        label3: row.label3,
        label2: row.label2,
        contradiction:
          row.source_label_3way === 'contradictory' || row.source_label_5way === 'contradictory' || CONTRADICTION_NOTE.test(row.note ?? ''),
      };
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Metrics

export interface Scores {
  n: number;
  accuracy: number;
  macroF1: number;
  kappa: number;
}

/** Accuracy, macro-F1 over the classes present in the gold labels, and Cohen's (unweighted) κ. */
export function scoreLabels(gold: readonly string[], predicted: readonly string[]): Scores {
  const n = gold.length;
  const classes = [...new Set(gold)].sort();
  const all = [...new Set([...gold, ...predicted])];
  let agree = 0;
  gold.forEach((label, index) => {
    if (predicted[index] === label) agree += 1;
  });
  const f1s = classes.map((label) => {
    let truePositive = 0;
    let goldCount = 0;
    let predictedCount = 0;
    gold.forEach((value, index) => {
      if (value === label) goldCount += 1;
      if (predicted[index] === label) predictedCount += 1;
      if (value === label && predicted[index] === label) truePositive += 1;
    });
    return truePositive === 0 ? 0 : (2 * truePositive) / (goldCount + predictedCount);
  });
  const observed = n === 0 ? 0 : agree / n;
  let expected = 0;
  for (const label of all) {
    const goldShare = gold.filter((value) => value === label).length / n;
    const predictedShare = predicted.filter((value) => value === label).length / n;
    expected += goldShare * predictedShare;
  }
  return {
    n,
    accuracy: observed,
    macroF1: f1s.length === 0 ? 0 : f1s.reduce((sum, value) => sum + value, 0) / f1s.length,
    kappa: expected === 1 ? 0 : (observed - expected) / (1 - expected),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Baseline: share of the reference's content words found in the answer.

const BASELINE_STOPWORDS: ReadonlySet<string> = new Set([...ENGLISH_STOPWORDS, ...ENGLISH_NEGATIONS, 'same']);

/** The simple suffix stemmer of the baseline (not Porter): plural, -ing, -ed, -ly. */
export function simpleStem(word: string): string {
  for (const [suffix, replacement] of [['ies', 'y'], ['ing', ''], ['ed', ''], ['es', ''], ['s', ''], ['ly', '']] as const) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, word.length - suffix.length) + replacement;
  }
  return word;
}

function baselineWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const word of normalizeKorean(text).split(' ')) {
    if (word.length === 0 || BASELINE_STOPWORDS.has(word)) continue;
    // Korean words keep the lecture's own particle stripping, so the baseline is today's behaviour there.
    words.add(/[\uac00-\ud7a3]/u.test(word) ? stripParticles(word) : simpleStem(word));
  }
  return words;
}

export function baselineScore(item: EvalItem): number {
  const reference = baselineWords(item.reference);
  if (reference.size === 0) return 0;
  const answer = baselineWords(item.answer);
  let found = 0;
  for (const word of reference) if (answer.has(word)) found += 1;
  return found / reference.size;
}

function candidates(scores: readonly number[]): number[] {
  return [...new Set(scores)].sort((left, right) => left - right);
}

/** The threshold (good at or above) with the best macro-F1 on these scores; ties go to the lowest. */
export function tuneThreshold2(scores: readonly number[], gold: readonly Label2[]): number {
  let best = { threshold: 0, f1: -1 };
  for (const threshold of [...candidates(scores), Number.POSITIVE_INFINITY]) {
    const f1 = scoreLabels(gold, scores.map((score) => label2For(score, threshold))).macroF1;
    if (f1 > best.f1) best = { threshold, f1 };
  }
  return best.threshold;
}

export function label2For(score: number, threshold: number): Label2 {
  return score >= threshold ? 'good' : 'bad';
}

export function label3For(score: number, thresholds: readonly [number, number]): Label3 {
  if (score >= thresholds[1]) return 'correct';
  return score >= thresholds[0] ? 'partial' : 'incorrect';
}

/** Two thresholds (partial at or above the first, correct at or above the second) with the best 3-way macro-F1. */
export function tuneThresholds3(scores: readonly number[], gold: readonly Label3[]): [number, number] {
  const values = [...candidates(scores), Number.POSITIVE_INFINITY];
  let best = { thresholds: [0, 0] as [number, number], f1: -1 };
  for (let low = 0; low < values.length; low += 1) {
    for (let high = low; high < values.length; high += 1) {
      const thresholds: [number, number] = [values[low] ?? 0, values[high] ?? 0];
      const f1 = scoreLabels(gold, scores.map((score) => label3For(score, thresholds))).macroF1;
      if (f1 > best.f1) best = { thresholds, f1 };
    }
  }
  return best.thresholds;
}

// ---------------------------------------------------------------------------------------------------------------
// Grouped folds

function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 16777619) >>> 0;
  }
  return value;
}

/**
 * Fold index per item, grouped by question: every answer to a question lands in the same fold. Questions are
 * ordered by a hash of their id and dealt round-robin, largest first, so folds are balanced and reproducible.
 */
export function groupFolds(items: readonly EvalItem[], folds = FOLDS): number[] {
  const sizes = new Map<string, number>();
  for (const item of items) sizes.set(item.questionId, (sizes.get(item.questionId) ?? 0) + 1);
  const questions = [...sizes.keys()].sort((left, right) => hash(left) - hash(right));
  const load = new Array<number>(folds).fill(0);
  const foldOf = new Map<string, number>();
  for (const question of questions.sort((left, right) => (sizes.get(right) ?? 0) - (sizes.get(left) ?? 0))) {
    const lightest = load.indexOf(Math.min(...load));
    foldOf.set(question, lightest);
    load[lightest] = (load[lightest] ?? 0) + (sizes.get(question) ?? 0);
  }
  return items.map((item) => foldOf.get(item.questionId) ?? 0);
}

// ---------------------------------------------------------------------------------------------------------------
// Output

export function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function roundScores(scores: Scores): Scores {
  return { n: scores.n, accuracy: round(scores.accuracy), macroF1: round(scores.macroF1), kappa: round(scores.kappa) };
}

export function formatRow(cells: readonly (string | number)[], widths: readonly number[]): string {
  return cells.map((cell, index) => String(cell).padEnd(widths[index] ?? 10)).join(' ');
}
