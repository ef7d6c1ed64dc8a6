import {
  DEFAULT_SCORE_WEIGHTS,
  type EvaluationItem,
  type ExamCallContext,
  type ExamItemGrader,
  type ExamLog,
  type ExamProblem,
  type ScoreWeights,
} from './exam-types.js';

/**
 * `Gen_ShortAnswer_feedBack(ShortAnswer_Problem Object, user_answers_text)`: every problem graded by
 * `Agent_ShortAnswerGrader` (an {@link ExamItemGrader}) into the seed's log, in the problems' order. An item without
 * an answer is graded as an empty answer (`Incorrect`, no model call). At most {@link GRADING_CONCURRENCY} items
 * are graded at once, so a 20-item exam does not send 20 model calls together.
 */

export const GRADING_CONCURRENCY = 4;

export async function gradeExam(
  grader: ExamItemGrader,
  problems: readonly ExamProblem[],
  answers: Readonly<Record<string, string>>,
  context: ExamCallContext,
  concurrency = GRADING_CONCURRENCY,
): Promise<ExamLog> {
  const items = new Array<EvaluationItem>(problems.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < problems.length) {
      const index = next;
      next += 1;
      const problem = problems[index] as ExamProblem;
      const answer = Object.hasOwn(answers, String(problem.id)) ? (answers[String(problem.id)] ?? '') : '';
      items[index] = await grader.grade(problem, answer, context);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, problems.length)) }, () => worker()));
  return { evaluation_items: items };
}

/**
 * The background retry of a log: only its `Ungraded` items are graded again (with the answers they were given),
 * every other item is kept as it is. Returns the new log and how many items are still pending.
 */
export async function regradePending(
  grader: ExamItemGrader,
  problems: readonly ExamProblem[],
  log: ExamLog,
  context: ExamCallContext,
  concurrency = GRADING_CONCURRENCY,
): Promise<{ log: ExamLog; pending: number }> {
  const pendingProblems = problems.filter((problem) =>
    log.evaluation_items.some((item) => item.question_id === problem.id && item.result_status === 'Ungraded'),
  );
  const answers = Object.fromEntries(log.evaluation_items.map((item) => [String(item.question_id), item.user_response]));
  const regraded = await gradeExam(grader, pendingProblems, answers, context, concurrency);
  const byId = new Map(regraded.evaluation_items.map((item) => [item.question_id, item]));
  const evaluation_items = log.evaluation_items.map((item) => (item.result_status === 'Ungraded' ? (byId.get(item.question_id) ?? item) : item));
  return { log: { evaluation_items }, pending: evaluation_items.filter((item) => item.result_status === 'Ungraded').length };
}

export interface ExamScore {
  /** Points of the graded items under the weights. */
  score: number;
  /** Points of every item at the best weight: what a perfect exam scores. */
  maxScore: number;
  /** Items still `Ungraded`: not worth 0 for good, pending until graded. */
  pending: number;
}

/** The server's score of a log (Correct 1, Partial_Correct 0.5, Incorrect 0 by default); `Ungraded` and `Needs_Review` are pending. */
export function scoreExam(log: ExamLog, weights: ScoreWeights = DEFAULT_SCORE_WEIGHTS): ExamScore {
  const best = Math.max(weights.Correct, weights.Partial_Correct, weights.Incorrect);
  let score = 0;
  let pending = 0;
  for (const item of log.evaluation_items) {
    if (item.result_status === 'Ungraded' || item.result_status === 'Needs_Review') pending += 1;
    else score += weights[item.result_status];
  }
  return { score, maxScore: best * log.evaluation_items.length, pending };
}
