import { z } from 'zod';
import type { MathProblemView } from '../protocol/wire/jobs.js';
import { Difficulty } from '../protocol/quiz.js';

/**
 * Math problems (seed 002): multiple choice (four choices, `correct_answer` a letter A–D) or short answer
 * (`correct_answer` the answer itself), each with a step-by-step explanation that ends in `final_answer`, LaTeX
 * for math. What the model writes is loose ({@link RawMathProblem}: one broken problem must not sink the others);
 * every problem is then checked by the server (problem-checks.ts) and judged (math-judge.ts) before it is kept.
 */

export const MATH_PROBLEM_TYPES = ['multiple_choice', 'short_answer'] as const;
export const MathProblemType = z.enum(MATH_PROBLEM_TYPES);
export type MathProblemType = z.infer<typeof MathProblemType>;

export const CHOICE_LETTERS = ['A', 'B', 'C', 'D'] as const;

/** One problem as the model is asked to write it. */
export const RawMathProblem = z.object({
  type: MathProblemType.describe('multiple_choice(객관식) 또는 short_answer(단답형)'),
  question: z.string().describe('문제 (수식은 LaTeX, $...$로 감쌈)'),
  choices: z.array(z.string()).describe('객관식이면 서로 다른 보기 정확히 4개, 단답형이면 빈 배열'),
  correct_answer: z.string().describe('객관식이면 정답 보기의 기호 A, B, C, D 중 하나, 단답형이면 정답 (LaTeX 가능)'),
  explanation: z.string().describe('단계별 풀이 (LaTeX 가능)'),
  final_answer: z.string().describe('풀이가 마지막에 도달한 답 (보기 기호가 아니라 값이나 식)'),
  difficulty: Difficulty.describe('이 문제의 난이도'),
  sources: z.array(z.number().int()).describe('이 문제의 근거가 된 참고 자료의 번호들'),
});
export type RawMathProblem = z.infer<typeof RawMathProblem>;

export const MathGenerateReply = z.object({
  problems: z.array(RawMathProblem.nullable().catch(null)).describe('요청한 개수의 문제, 요청한 유형 순서대로'),
});
export type MathGenerateReply = z.infer<typeof MathGenerateReply>;

/** The four criteria of seed 002's judge, each 1–5. */
export const MATH_CRITERIA = ['mathematical_accuracy', 'consistency', 'completeness', 'logic_flow'] as const;
export type MathCriterion = (typeof MATH_CRITERIA)[number];
export type MathScores = Record<MathCriterion, number>;

/**
 * A stored judgement (seed 002's future work: every judgement kept with its item). `judged: false` marks a
 * problem passed without a verdict under the network-error policy, or failed before the judge by a deterministic
 * check (then `check` names it and no model was asked). The wire type pages read: one shape for both.
 */
export type MathJudgement = MathProblemView['judgement'];

/** A problem with its judgement: kept when `judgement.passed`, else one of a generation's rejected problems. */
export type MathProblem = MathProblemView;
