import { z } from 'zod';
import type { OfflineTasks } from '../llm/index.js';
import { mathEquivalent } from '../math/index.js';
import { checkProblem, keyedAnswer } from './problem-checks.js';
import { MATH_JUDGE_TASKS, type MathJudgeReply } from './math-judge.js';
import { RawMathProblem } from './problem.js';

/**
 * The offline math judge: deterministic, and labelled as a heuristic in its feedback. It cannot read a problem's
 * mathematics the way a model does, so it scores what the server can verify:
 * - consistency: the explanation's final answer against the keyed answer by `mathEquivalent` — equal 5, unknown 3
 *   (below the pass threshold of 4: an answer the server cannot compare is never passed offline), different 1;
 * - completeness: the deterministic checks pass (four distinct choices, a valid key) and the explanation has at
 *   least two steps (lines, sentences or `=` signs) — 5; one of the two — 3; neither — 1;
 * - logic_flow: 5 with three or more steps, 4 with two, 2 with one;
 * - mathematical_accuracy: 4 when the final answer reads as math at all (it compares equal to itself), else 3.
 * There is no offline math generator: the offline model answers `math.generate` with UNKNOWN_TASK. Nor is there an
 * offline short-answer judge (`math.short-answer`): it is asked only about answers `mathEquivalent` could not compare,
 * which a heuristic cannot read either, so the answer stays ungraded (short-answer-grader.ts) rather than guessed.
 */

const Input = z.object({ problems: z.array(RawMathProblem) });

/** Steps of an explanation: its lines, sentences and equations, whichever shows more. */
export function explanationSteps(explanation: string): number {
  const lines = explanation.split(/\n+/u).filter((line) => line.trim() !== '').length;
  const sentences = explanation.split(/(?<=[.!?。])\s+|(?<=다\.)/u).filter((part) => part.trim() !== '').length;
  const equations = (explanation.match(/=/gu) ?? []).length;
  return Math.max(lines, sentences, equations);
}

export function judgeMathOffline(problem: RawMathProblem): MathJudgeReply {
  const keyed = keyedAnswer(problem);
  const verdict = keyed === undefined ? 'different' : mathEquivalent(problem.final_answer, keyed);
  const consistency = verdict === 'equal' ? 5 : verdict === 'unknown' ? 3 : 1;
  const steps = explanationSteps(problem.explanation);
  const checks = checkProblem(problem).ok;
  const completeness = checks && steps >= 2 ? 5 : checks || steps >= 2 ? 3 : 1;
  const logic_flow = steps >= 3 ? 5 : steps === 2 ? 4 : 2;
  const mathematical_accuracy = mathEquivalent(problem.final_answer, problem.final_answer) === 'equal' ? 4 : 3;
  const notes = [
    verdict === 'equal' ? '풀이의 최종 답이 정답과 같습니다.' : verdict === 'unknown' ? '풀이의 최종 답을 정답과 비교할 수 없습니다.' : '풀이의 최종 답이 정답과 다릅니다.',
    steps >= 2 ? `풀이는 ${steps}단계입니다.` : '풀이 단계가 부족합니다.',
  ];
  return { mathematical_accuracy, consistency, completeness, logic_flow, feedback: `[휴리스틱 채점] ${notes.join(' ')}` };
}

export const mathOfflineTasks: OfflineTasks = {
  [MATH_JUDGE_TASKS.judge]: {
    object: (input) => {
      const [problem] = Input.parse(input).problems;
      if (problem === undefined) throw new Error('math.judge needs one problem');
      return judgeMathOffline(problem);
    },
  },
  [MATH_JUDGE_TASKS.judgeBatch]: {
    object: (input) => ({ results: Input.parse(input).problems.map((problem, index) => ({ index: index + 1, ...judgeMathOffline(problem) })) }),
  },
};
