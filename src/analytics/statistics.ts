import { EASY_ITEM, HARD_ITEM, LOW_DISCRIMINATION, type ChoiceCount, type ItemFlag } from '../protocol/wire/analytics.js';

/** Arithmetic mean; null for no value. */
export function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const value of values) sum += value;
  return sum / values.length;
}

/** Population standard deviation (divides by n), as the point-biserial formula uses it; null for no value. */
export function populationSd(values: readonly number[]): number | null {
  const average = mean(values);
  if (average === null) return null;
  let squares = 0;
  for (const value of values) squares += (value - average) ** 2;
  return Math.sqrt(squares / values.length);
}

/**
 * Point-biserial correlation between item scores and total scores, paired by position:
 * r = (M₁ − M₀) / s · √(p·q) for a right/wrong item, where M₁ and M₀ are the mean totals of those who got it right
 * and wrong, s the population SD of the totals and p, q the shares right and wrong. It is Pearson's r with one
 * dichotomous variable, so Pearson's r is what is computed: that also covers partial credit (scores 0–1), where it is
 * the item–total correlation. Null when fewer than two pairs or when either side does not vary (r is undefined).
 */
export function pointBiserial(itemScores: readonly number[], totals: readonly number[]): number | null {
  if (itemScores.length !== totals.length) throw new RangeError('item scores and totals must pair up');
  const n = itemScores.length;
  if (n < 2) return null;
  const itemMean = mean(itemScores)!;
  const totalMean = mean(totals)!;
  let covariance = 0;
  let itemSquares = 0;
  let totalSquares = 0;
  for (let index = 0; index < n; index += 1) {
    const di = itemScores[index]! - itemMean;
    const dt = totals[index]! - totalMean;
    covariance += di * dt;
    itemSquares += di * di;
    totalSquares += dt * dt;
  }
  // Sums of squares this small are rounding noise around a constant, not variation.
  if (itemSquares < 1e-12 || totalSquares < 1e-12) return null;
  const r = covariance / Math.sqrt(itemSquares * totalSquares);
  return Math.max(-1, Math.min(1, r));
}

/** Which review flags an item earns from its difficulty, discrimination and choice counts (see ItemFlag). */
export function itemFlags(difficulty: number | null, discrimination: number | null, choices?: readonly ChoiceCount[]): ItemFlag[] {
  const flags: ItemFlag[] = [];
  if (discrimination !== null) {
    if (discrimination < 0) flags.push('negative-discrimination');
    else if (discrimination < LOW_DISCRIMINATION) flags.push('low-discrimination');
  }
  if (difficulty !== null) {
    if (difficulty < HARD_ITEM) flags.push('too-hard');
    else if (difficulty > EASY_ITEM) flags.push('too-easy');
  }
  if (choices) {
    const key = Math.max(0, ...choices.filter((choice) => choice.correct).map((choice) => choice.count));
    if (choices.some((choice) => !choice.correct && choice.count > key)) flags.push('distractor-beats-key');
  }
  return flags;
}

/**
 * How bad an item looks, for ordering the review list (higher: look first). Negative discrimination and a distractor
 * beating the key point at a wrong item or key; low discrimination and extreme difficulty at a weak one.
 */
export function reviewPriority(flags: readonly ItemFlag[], discrimination: number | null): number {
  const weights: Record<ItemFlag, number> = {
    'negative-discrimination': 8,
    'distractor-beats-key': 4,
    'low-discrimination': 2,
    'too-hard': 1,
    'too-easy': 1,
  };
  let priority = 0;
  for (const flag of flags) priority += weights[flag];
  return priority + (discrimination === null ? 0 : (1 - discrimination) / 4);
}
