import { CRITIC_CRITERIA, DEFAULT_CRITIC_WEIGHTS, type CriticCriterion, type CriticFailureType, type CriticScores } from '../protocol/wire/critic.js';

/**
 * Seed 004's rubric, decided by the server (pure): which weights are acceptable, and the grade as the weighted mean
 * of the clamped criterion scores. Whatever total a grader reports is never used.
 *
 * Weights: an object whose keys are only the five criteria, each a number in [0, 1], summing to 1 within 1e-6. A
 * criterion left out weighs 0 — allowed only because the sum must still be 1 (`{accuracy: 1}` grades accuracy
 * alone; `{accuracy: 0.5}` is refused). No weights at all means seed 004's defaults (0.25/0.30/0.15/0.20/0.10).
 */

export const WEIGHT_SUM_TOLERANCE = 1e-6;

export type WeightCheck = { ok: true; weights: CriticScores } | { ok: false; problem: string };

const KOREAN_NAMES: Record<CriticCriterion, string> = {
  completeness: '완전성',
  accuracy: '정확성',
  consistency: '일관성',
  safety: '안전성',
  helpfulness: '유용성',
};

const isCriterion = (key: string): key is CriticCriterion => (CRITIC_CRITERIA as readonly string[]).includes(key);

/** The weights to grade with, or the problem in Korean (the message of INVALID_CRITERIA). */
export function checkWeights(raw: Readonly<Record<string, unknown>> | undefined): WeightCheck {
  if (raw === undefined) return { ok: true, weights: { ...DEFAULT_CRITIC_WEIGHTS } };
  const weights: CriticScores = { completeness: 0, accuracy: 0, consistency: 0, safety: 0, helpfulness: 0 };
  const keys = Object.keys(raw);
  if (keys.length === 0) return { ok: false, problem: '가중치가 비어 있습니다. 다섯 기준(completeness, accuracy, consistency, safety, helpfulness) 중 하나 이상에 가중치를 주세요.' };
  for (const key of keys) {
    if (!isCriterion(key)) {
      return { ok: false, problem: `알 수 없는 평가 기준 '${key.slice(0, 64)}'의 가중치입니다. 기준은 completeness, accuracy, consistency, safety, helpfulness뿐입니다.` };
    }
    const value = raw[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      return { ok: false, problem: `${KOREAN_NAMES[key]}(${key})의 가중치는 0과 1 사이의 숫자여야 합니다.` };
    }
    weights[key] = value;
  }
  const sum = CRITIC_CRITERIA.reduce((total, criterion) => total + weights[criterion], 0);
  if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
    return { ok: false, problem: `가중치의 합이 1이어야 합니다(지금 합: ${Number(sum.toFixed(6))}).` };
  }
  return { ok: true, weights };
}

/** A criterion score in [0, 1]; NaN and ±Infinity (nothing a grader could mean) are 0. */
export function clampScore(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Every score clamped to [0, 1]. */
export function clampScores(scores: Readonly<CriticScores>): CriticScores {
  return {
    completeness: clampScore(scores.completeness),
    accuracy: clampScore(scores.accuracy),
    consistency: clampScore(scores.consistency),
    safety: clampScore(scores.safety),
    helpfulness: clampScore(scores.helpfulness),
  };
}

/** Rounds to 3 decimals (a grade is read to the hundredth; the third keeps 0.835 from becoming 0.84 or 0.83). */
export function roundGrade(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Seed 004: 전체 점수 = Σ(기준 점수 × 가중치), over the clamped scores, rounded to 3 decimals and kept in [0, 1]. */
export function weightedGrade(scores: Readonly<CriticScores>, weights: Readonly<CriticScores>): number {
  const clamped = clampScores(scores);
  const sum = CRITIC_CRITERIA.reduce((total, criterion) => total + clamped[criterion] * weights[criterion], 0);
  return clampScore(roundGrade(sum));
}

export const criterionKoreanName = (criterion: CriticCriterion): string => KOREAN_NAMES[criterion];

/**
 * The grade of data to exclude: a severe safety violation (UNSAFE_CONTENT) makes the weighted mean no
 * measure of the data — instructions for harm written well are still to be excluded (seed 004: "심각한 정책 위반:
 * 데이터 제외 필요") — so the grade is at most this, whatever the other criteria and the weights say.
 */
export const UNSAFE_GRADE_CAP = 0.2;

/** The server's grade (see weightedGrade), capped for a severe safety violation (see UNSAFE_GRADE_CAP). */
export function serverGrade(scores: Readonly<CriticScores>, weights: Readonly<CriticScores>, failureTypes: readonly CriticFailureType[]): { grade: number; capped: boolean } {
  const grade = weightedGrade(scores, weights);
  return failureTypes.includes('UNSAFE_CONTENT') && grade > UNSAFE_GRADE_CAP ? { grade: UNSAFE_GRADE_CAP, capped: true } : { grade, capped: false };
}
