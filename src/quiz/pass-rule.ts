/**
 * Seed 001 §3.3 (`_validate_eval_result`): the server decides whether a quiz item passes, never the model. Each
 * score is clamped to 0–10 (a model can send 12, -3 or nothing usable: a non-finite number counts as 0), and an
 * item passes only when the three scores together reach 80 % of 30 AND grounding is a full 10 — a factual slip
 * fails the item however good the rest is. Whatever `is_passed` the model sent is ignored.
 */

export const MAX_SCORE = 10;
/** Share of the 30 points an item needs (seed 001: total_ratio >= 0.8). */
export const PASS_RATIO = 0.8;

export interface EvalScores {
  grounding: number;
  educational: number;
  insight: number;
}

export interface PassDecision extends EvalScores {
  is_passed: boolean;
}

/** A score in [0, 10]; NaN and ±Infinity (nothing a judge could mean) are 0. */
export function clampScore(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(MAX_SCORE, Math.max(0, value));
}

/** The clamped scores and the server's verdict on them. */
export function decidePass(scores: EvalScores): PassDecision {
  const grounding = clampScore(scores.grounding);
  const educational = clampScore(scores.educational);
  const insight = clampScore(scores.insight);
  // Compared in points (24 of 30), not as a float ratio: 0.8 * 30 and (10 + 8 + 6) / 30 must not disagree by an ulp.
  const total = grounding + educational + insight;
  const is_passed = total >= PASS_RATIO * 3 * MAX_SCORE - 1e-9 && grounding === MAX_SCORE;
  return { grounding, educational, insight, is_passed };
}
