/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MP1 — Checks before the judge. Multiple choice needs exactly four non-empty choices, no two equal as text or as
 *   math, a key in A–D; a short answer needs a non-empty answer.
 * - MP2 — The pass rule is the server's. Scores clamp to 1–5 (non-numbers are 1); pass when consistency ≥ the
 *   difficulty's threshold (4) and the mean of the other three ≥ its other threshold (3.5 …
 * - MP3 — The plan. Multiple choice first; a given difficulty for all, else 2/5 easy, 2/5 medium, the rest hard,
 *   spread over both types.
 * - MP4 — Offline judge. A labelled heuristic that passes only a final answer `equal` to the key with steps.
 */
import { describe, expect, it } from 'vitest';
import {
  checkProblem,
  clampMathScore,
  decideMathPass,
  explanationSteps,
  judgeMathOffline,
  mathPlan,
  planInstruction,
  SEED_THRESHOLD,
  type MathScores,
  type RawMathProblem,
} from '../src/math-problems/index.js';

/** MP1–MP4 (test/SPEC.md, "Math problems"): the deterministic checks, the pass rule, the plan, the offline judge. */

function problem(overrides: Partial<RawMathProblem> = {}): RawMathProblem {
  return {
    type: 'multiple_choice',
    question: '$X$가 1, 2, 3을 같은 확률로 가질 때 $E[X]$는?',
    choices: ['$1$', '$2$', '$3$', '$\\frac{5}{2}$'],
    correct_answer: 'B',
    explanation: '기댓값은 값에 확률을 곱해 더한 것입니다.\n$E[X] = 1\\cdot\\frac13 + 2\\cdot\\frac13 + 3\\cdot\\frac13$\n$= \\frac{6}{3} = 2$',
    final_answer: '2',
    difficulty: 'easy',
    sources: [1],
    ...overrides,
  };
}

describe('MP1 deterministic checks before the judge', () => {
  it('passes a consistent problem on to the judge, saying whether the answers compared equal', () => {
    expect(checkProblem(problem())).toEqual({ ok: true, equivalence: 'equal' });
    expect(checkProblem(problem({ type: 'short_answer', choices: [], correct_answer: '\\frac{4}{2}' }))).toEqual({ ok: true, equivalence: 'equal' });
    // Prose the reader cannot compare is left to the judge, never failed or passed by the server.
    expect(checkProblem(problem({ type: 'short_answer', choices: [], correct_answer: '증가한다', final_answer: '점점 커진다' }))).toEqual({ ok: true, equivalence: 'unknown' });
  });

  it.each([
    ['three choices', { choices: ['1', '2', '3'] }, 'choices', '정확히 4개'],
    ['an empty choice', { choices: ['1', '2', ' ', '4'] }, 'choices', '빈 보기'],
    ['the same choice twice as text', { choices: ['1', '2', '2 ', '4'] }, 'choices', 'B와 C'],
    ['the same value written twice (1/2 and 0.5)', { choices: ['\\frac{1}{2}', '0.5', '2', '4'], final_answer: '2', correct_answer: 'C' }, 'choices', 'A와 B'],
    ['a key that is not A–D', { correct_answer: 'E' }, 'answer-key', 'A, B, C, D'],
    ['an empty short answer', { type: 'short_answer' as const, choices: [], correct_answer: ' ' }, 'answer-key', '비어'],
  ])('fails %s without the judge', (_name, overrides, check, text) => {
    const outcome = checkProblem(problem(overrides));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.check).toBe(check);
    expect(outcome.feedback).toContain(text);
  });

  it('fails an explanation whose final answer is different from the keyed choice, naming the choice it does equal', () => {
    const outcome = checkProblem(problem({ correct_answer: 'D', final_answer: '2' }));
    expect(outcome).toMatchObject({ ok: false, check: 'equivalence', equivalence: 'different' });
    if (outcome.ok) return;
    expect(outcome.feedback).toContain('보기 B와 같습니다');
    // A sign error in a short answer is different too.
    expect(checkProblem(problem({ type: 'short_answer', choices: [], correct_answer: '-2', final_answer: '2' }))).toMatchObject({ ok: false, check: 'equivalence' });
  });
});

describe("MP2 the pass rule is the server's (seed 002)", () => {
  const scores = (consistency: number, others: [number, number, number]): MathScores => ({
    consistency,
    mathematical_accuracy: others[0],
    completeness: others[1],
    logic_flow: others[2],
  });

  it.each([
    [scores(4, [3.5, 3.5, 3.5]), true, 'both at the threshold'],
    [scores(4, [4, 3, 3.5]), true, 'others mean exactly 3.5'],
    [scores(3.9, [5, 5, 5]), false, 'consistency just below 4'],
    [scores(5, [4, 3, 3]), false, 'others mean 3.33'],
    [scores(9, [9, 9, 9]), true, 'scores above 5 clamp to 5'],
    [scores(Number.NaN, [5, 5, 5]), false, 'a NaN consistency is the worst score'],
    [scores(5, [0, 5, 5]), true, 'a 0 clamps to 1: (1 + 5 + 5) / 3 = 3.67'],
  ])('%j → %s (%s)', (raw, passed) => {
    expect(decideMathPass(raw, SEED_THRESHOLD).passed).toBe(passed);
  });

  it('clamps every score to 1–5 and applies a stricter threshold when configured for a difficulty', () => {
    expect([clampMathScore(7), clampMathScore(-2), clampMathScore(Number.POSITIVE_INFINITY), clampMathScore(3.2)]).toEqual([5, 1, 1, 3.2]);
    expect(decideMathPass(scores(7, [2, 2, 2]), SEED_THRESHOLD).scores.consistency).toBe(5);
    expect(decideMathPass(scores(4, [4, 4, 4]), { consistency: 5, others: 4 }).passed).toBe(false);
  });
});

describe('MP3 the plan of a request', () => {
  it('puts the multiple-choice problems first, spreads difficulties over both types, and keeps one difficulty when asked', () => {
    const plan = mathPlan({ count: 10, multipleChoice: 6 });
    expect(plan.filter((slot) => slot.type === 'multiple_choice')).toHaveLength(6);
    expect(plan.slice(0, 6).every((slot) => slot.type === 'multiple_choice')).toBe(true);
    const count = (difficulty: string) => plan.filter((slot) => slot.difficulty === difficulty).length;
    expect([count('easy'), count('medium'), count('hard')]).toEqual([4, 4, 2]);
    for (const type of ['multiple_choice', 'short_answer']) {
      expect(new Set(plan.filter((slot) => slot.type === type).map((slot) => slot.difficulty)).size).toBeGreaterThan(1);
    }
    expect(mathPlan({ count: 3, multipleChoice: 0, difficulty: 'hard' })).toEqual([
      { type: 'short_answer', difficulty: 'hard' },
      { type: 'short_answer', difficulty: 'hard' },
      { type: 'short_answer', difficulty: 'hard' },
    ]);
    expect(planInstruction(mathPlan({ count: 2, multipleChoice: 2, difficulty: 'easy' }))).toBe('객관식(multiple_choice) easy 2문제');
  });
});

describe('MP4 the offline judge is a labelled heuristic that never passes what it cannot compare', () => {
  it('passes a consistent, stepwise problem and fails a different or uncomparable final answer', () => {
    const good = judgeMathOffline(problem());
    expect(good.feedback).toMatch(/^\[휴리스틱 채점\]/u);
    expect(decideMathPass(good, SEED_THRESHOLD).passed).toBe(true);
    expect(decideMathPass(judgeMathOffline(problem({ final_answer: '3' })), SEED_THRESHOLD).passed).toBe(false);
    const prose = problem({ type: 'short_answer', choices: [], correct_answer: '증가한다', final_answer: '점점 커진다' });
    expect(judgeMathOffline(prose).consistency).toBe(3);
    expect(decideMathPass(judgeMathOffline(prose), SEED_THRESHOLD).passed).toBe(false);
    expect(explanationSteps('a = 1\nb = 2\nc = 3')).toBe(3);
  });
});
