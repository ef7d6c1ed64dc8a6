import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import { loadPrompt, type Attribution, type LanguageModel } from '../llm/index.js';
import { mathEquivalent, MAX_ANSWER_LENGTH, type MathVerdict } from '../math/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { fence } from '../text/index.js';
import type { MathProblemView } from '../protocol/wire/jobs.js';

/**
 * A student's short math answer: the server compares it with the problem's `correct_answer` by
 * `mathEquivalent` first — `equal` is correct and `different` incorrect without any model call — and asks the judge
 * model only when the reader cannot decide (`unknown`: prose, a form it does not read). The model proposes
 * `{correct, feedback}`; a model that gives no usable reply (after its retries and the adapter's repair turn) leaves
 * the answer ungraded — never a default verdict.
 *
 * The offline model has no handler for {@link SHORT_ANSWER_TASK}: it cannot read an answer the equivalence reader
 * could not, so it answers UNKNOWN_TASK and the answer is ungraded (`reason: 'model-unavailable'`) rather than
 * guessed. Answers the reader decides are graded offline as everywhere else.
 */

export const SHORT_ANSWER_TASK = 'math.short-answer';
export const SHORT_ANSWER_TEMPERATURE = 0;
/** Longer answers are refused before anything (the equivalence reader's own bound). */
export const MAX_SHORT_ANSWER_LENGTH = MAX_ANSWER_LENGTH;

export const ShortAnswerReply = z.object({
  correct: z.boolean().describe('학생의 답이 정답과 수학적으로 같은 값이나 식이면 true'),
  feedback: z.string().describe('학생에게 보여 줄 한국어 한두 문장 (정답을 그대로 말하지 않음)'),
});
export type ShortAnswerReply = z.infer<typeof ShortAnswerReply>;

/** What a short answer is graded against. */
export type ShortAnswerProblem = Pick<MathProblemView, 'question' | 'correct_answer'>;

/** The structured input of the judge call (what an offline handler would get). */
export interface ShortAnswerInput {
  question: string;
  correctAnswer: string;
  answer: string;
}

export type ShortAnswerGrade =
  | { graded: true; correct: boolean; method: 'equivalence' | 'model'; verdict: MathVerdict; feedback: string }
  | { graded: false; reason: 'empty' | 'too-long' | 'model-unavailable' | 'model-failed'; message: string };

export interface GradeShortAnswerOptions {
  problem: ShortAnswerProblem;
  answer: string;
  model: LanguageModel;
  signal?: AbortSignal | undefined;
  attribution?: Attribution | undefined;
}

/** The judge's prompt (pure): the question, the model answer and the student's answer, each fenced. */
export function renderShortAnswerPrompt(input: ShortAnswerInput): string {
  return loadPrompt('math-short-answer').render({
    question: fence('수학_문제', input.question),
    correctAnswer: fence('모범_답안', input.correctAnswer),
    answer: fence('학생_답변', input.answer),
  });
}

export async function gradeShortMathAnswer(options: GradeShortAnswerOptions): Promise<ShortAnswerGrade> {
  const answer = options.answer.trim();
  if (answer === '') return { graded: false, reason: 'empty', message: '답을 입력해 주세요.' };
  if (answer.length > MAX_SHORT_ANSWER_LENGTH) {
    return { graded: false, reason: 'too-long', message: `답은 ${MAX_SHORT_ANSWER_LENGTH}자 이하로 입력해 주세요.` };
  }
  const verdict = mathEquivalent(answer, options.problem.correct_answer);
  if (verdict === 'equal') return { graded: true, correct: true, method: 'equivalence', verdict, feedback: '정답입니다.' };
  if (verdict === 'different') {
    return { graded: true, correct: false, method: 'equivalence', verdict, feedback: '정답과 값이 다릅니다. 풀이를 다시 확인해 보세요.' };
  }
  const input: ShortAnswerInput = { question: options.problem.question, correctAnswer: options.problem.correct_answer, answer };
  try {
    const { object } = await options.model.generateObject({
      task: SHORT_ANSWER_TASK,
      role: 'judge',
      temperature: SHORT_ANSWER_TEMPERATURE,
      input,
      prompt: renderShortAnswerPrompt(input),
      schema: ShortAnswerReply,
      ...(options.attribution === undefined ? {} : { attribution: options.attribution }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const feedback = object.feedback.trim() || (object.correct ? '정답입니다.' : '정답이 아닙니다.');
    return { graded: true, correct: object.correct, method: 'model', verdict, feedback };
  } catch (error) {
    if (options.signal?.aborted === true) throw error;
    if (!(error instanceof AppError)) throw error;
    // Spending the day's budget is the caller's error to show (429), not a grading failure.
    if (error.code === ErrorCode.MODEL_BUDGET_EXCEEDED) throw error;
    if (error.code === ErrorCode.UNKNOWN_TASK) {
      return { graded: false, reason: 'model-unavailable', message: '이 답은 자동으로 비교할 수 없고, 지금 설정된 AI 모델로는 채점할 수 없습니다.' };
    }
    return { graded: false, reason: 'model-failed', message: 'AI 채점에 실패했습니다. 잠시 후 다시 시도해 주세요.' };
  }
}
