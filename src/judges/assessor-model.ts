import type { ReferenceComparison } from './reference-comparison.js';
import type { AnalysedText } from './text-units.js';

/**
 * The assessor's score: a logistic regression over a handful of global features, and two thresholds on its
 * probability. Nothing here is per question: the same dozen numbers apply to every question in any subject.
 */

export const FEATURE_NAMES = [
  'recall',
  'novelRecall',
  'precision',
  'onTopic',
  'bigramRecall',
  'gramDice',
  'lengthRatio',
  'questionShare',
  'flipped',
  'answerLength',
  'referenceLength',
  'recallSquared',
  'questionShareLong',
  'onTopicLong',
  'precisionLong',
  'questionLength',
  'referenceCount',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/** A logistic regression over the feature vector. */
export interface LogisticPart {
  /** One weight per entry of FEATURE_NAMES, in that order. */
  weights: readonly number[];
  bias: number;
}

export interface AssessorModel {
  /** P(fully correct): decides correct (label2 good) against the rest. */
  good: LogisticPart;
  /** P(incorrect | not correct): decides incorrect against partial. */
  incorrect: LogisticPart;
  /** P(good) at or above which an answer is correct. */
  correctThreshold: number;
  /** P(incorrect) at or above which a not-correct answer is incorrect rather than partial. */
  incorrectThreshold: number;
}

/** Content words up to which an answer counts as short, a restatement whose contradictions can be read. */
export const SHORT_ANSWER = 15;

/** The feature vector of an answer against one reference, in FEATURE_NAMES order. */
export function featureVector(comparison: ReferenceComparison, answer: AnalysedText, referenceCount: number): number[] {
  // Long answers are judged differently: one that mostly reuses the question's words is padding, while a short
  // answer naturally names the question's concepts.
  const length = Math.min(1, Math.log(1 + answer.unitSet.size) / Math.log(30));
  // Contradiction signals are only read in short answers (restatements); in long ones they are noise.
  const flipped =
    answer.units.length <= SHORT_ANSWER && (comparison.contradiction.flipped || comparison.contradiction.swapped !== undefined);
  return [
    comparison.recall,
    comparison.novelRecall,
    comparison.precision,
    comparison.onTopic,
    comparison.bigramRecall,
    comparison.gramDice,
    comparison.lengthRatio / 3,
    comparison.questionShare,
    flipped ? comparison.recall : 0,
    length,
    Math.min(1, Math.log(1 + comparison.referenceSize) / Math.log(60)),
    comparison.recall * comparison.recall,
    comparison.questionShare * length,
    comparison.onTopic * length,
    comparison.precision * length,
    Math.min(1, Math.log(1 + comparison.questionSize) / Math.log(80)),
    // The best of several references is an optimistic maximum: more references, more lenient a raw score.
    Math.min(1, Math.log(referenceCount) / Math.log(8)),
  ];
}

export function probability(part: LogisticPart, features: readonly number[]): number {
  let sum = part.bias;
  features.forEach((value, index) => {
    sum += (part.weights[index] ?? 0) * value;
  });
  return 1 / (1 + Math.exp(-sum));
}

/**
 * Fitted by `npm run train:assessor` (scripts/train-assessor.ts) on the three English dev files pooled (1,500
 * answers): `good` is an L2-regularised logistic regression for label2 with each file's good and bad answers
 * weighted equally; `incorrect` one for incorrect against partial over the answers that are not correct;
 * the thresholds are the values on a 0.01 grid with the best mean macro-F1 over the files (2-way, then 3-way).
 * Grouped cross-validation by question (`npm run eval:judge`, `npm run eval:grader`) refits all of this without
 * the held-out questions and shows how it carries over to unseen ones.
 */
export const ASSESSOR_MODEL: AssessorModel = {
  good: {
    weights: [0.335, 0.95, 0.746, 0.478, 0.663, 0.337, 1.099, 0.148, -1.671, 0.267, -0.154, 0.927, -2.084, 0.007, -0.6, 0.005, -1.873],
    bias: -0.618,
  },
  incorrect: {
    weights: [-0.074, -0.704, -1.5, -0.169, 0.322, -0.711, -0.368, 1.664, 1.276, -2.454, -2.578, 1.045, 0.565, -0.584, -0.994, -0.298, -0.39],
    bias: 3.62,
  },
  correctThreshold: 0.45,
  incorrectThreshold: 0.54,
};
