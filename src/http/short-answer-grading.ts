import type { Response } from 'express';
import { AppError } from '../kernel/index.js';
import { runBilledTo, type LanguageModel } from '../llm/index.js';
import { gradeShortMathAnswer, type MathProblem } from '../math-problems/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { MathShortAnswerReply } from '../protocol/wire/jobs.js';
import { abortedWith } from './client-gone.js';

/**
 * One short math answer graded for an HTTP caller (the set's owner, or a class's student): billed to `billTo`,
 * stopped when the client goes away; an empty or over-long answer is 400, an answer nobody could grade 502
 * GRADING_ERROR — never a default verdict. The reply carries the problem's answer and explanation (after grading).
 */
export async function gradeAnswerForRequest(
  response: Response,
  options: { model: LanguageModel; problem: MathProblem; answer: string; materialId: string; billTo: string | undefined },
): Promise<MathShortAnswerReply> {
  const { model, problem, answer, materialId, billTo } = options;
  const grade = await runBilledTo(billTo, () =>
    gradeShortMathAnswer({
      problem,
      answer,
      model,
      signal: abortedWith(response),
      attribution: { materialId, ...(billTo === undefined ? {} : { accountId: billTo }) },
    }),
  );
  if (!grade.graded) {
    if (grade.reason === 'empty' || grade.reason === 'too-long') throw new AppError(ErrorCode.INVALID_PAYLOAD, grade.message);
    throw new AppError(ErrorCode.GRADING_ERROR, `${grade.message} 이 답은 채점하지 않았습니다.`);
  }
  return {
    problemId: problem.problemId,
    correct: grade.correct,
    method: grade.method,
    verdict: grade.verdict,
    feedback: grade.feedback,
    correct_answer: problem.correct_answer,
    explanation: problem.explanation,
  };
}
