import { Router, type NextFunction, type Request, type Response } from 'express';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import type { LanguageModel } from '../llm/index.js';
import type { MathSetRepository } from '../math-problems/index.js';
import { ClassMathAnswerBody } from '../protocol/jobs.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { ClassMathAnswerReply, ClassMathProblemsReply } from '../protocol/wire/jobs.js';
import { classStudent, type ClassStudent } from './class-student.js';
import { authorizeModelCall } from './model-guard.js';
import { parseOrThrow } from '../boundary/index.js';
import { gradeAnswerForRequest } from './short-answer-grading.js';

/**
 * A class's students answer the short-answer problems of the math sets shared with their class,
 * mounted at /api/class-math, with their class session token (`Authorization: Bearer`, as the seed quiz API takes it):
 * - `GET /api/class-math/problems` -> `{sets: [{setId, title?, problems: [{problemId, question, difficulty}]}]}`:
 *   the shared sets' short-answer problems, never an answer or a solution
 * - `POST /api/class-math/answer {setId, problemId, answer}` -> `{problemId, correct, method, verdict, feedback,
 *   correct_answer, explanation, first_attempt: {answer, correct, first}}`: graded by `mathEquivalent` first and by
 *   the judge model (billed to the class's owner) only when it cannot compare; 502 GRADING_ERROR when ungraded. The
 *   student's first answer to each problem is recorded once (HSETNX); later answers are graded, the first stays.
 * No credential 401; an instructor's credential or a session outside a class 403; a set not shared with the student's class (or a problem
 * not in it, or not short-answer) 404. The credential is checked before the body.
 */

export interface ClassMathRouterDeps {
  signer: TokenSigner;
  model: LanguageModel;
  sets: MathSetRepository;
  /** A tutoring session's material, class and paying account (DataLifecycle.sessionProfile). */
  sessionProfile(sessionId: string): Promise<{ materialId: string; classId?: string | undefined; billTo?: string | undefined } | null>;
  /** How long a student's first answers are kept (the class's student data retention). */
  answerTtlMs: number;
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

const notShared = () => new AppError(ErrorCode.MATH_SET_NOT_FOUND, '이 수업에 공유된 수학 문제 세트를 찾을 수 없습니다.');
const problemNotFound = () => new AppError(ErrorCode.MATH_PROBLEM_NOT_FOUND);

export function createClassMathRouter(deps: ClassMathRouterDeps): Router {
  const { sets } = deps;
  const router = Router();

  const student = (request: Request, response: Response): Promise<ClassStudent> => classStudent(deps, request, response, '수학 문제 풀기');

  router.get(
    '/problems',
    route(async (request, response) => {
      const who = await student(request, response);
      const shared = await sets.shared(who.classId);
      const reply: ClassMathProblemsReply = {
        sets: shared.flatMap((set) => {
          const problems = set.problems
            .filter((problem) => problem.type === 'short_answer')
            .map(({ problemId, question, difficulty }) => ({ problemId, question, difficulty }));
          return problems.length === 0 ? [] : [{ setId: set.setId, problems }];
        }),
      };
      response.json(reply);
    }),
  );

  router.post(
    '/answer',
    route(async (request, response) => {
      const who = await student(request, response);
      const body = parseOrThrow(ClassMathAnswerBody, request.body ?? {});
      if (!(await sets.sharedWith(who.classId, body.setId))) throw notShared();
      const set = await sets.get(body.setId);
      if (!set) throw notShared();
      const problem = set.problems.find((candidate) => candidate.problemId === body.problemId && candidate.type === 'short_answer');
      if (!problem) throw problemNotFound();
      const { billTo } = authorizeModelCall(response, { joined: { classId: who.classId }, billTo: who.billTo });
      const grade = await gradeAnswerForRequest(response, { model: deps.model, problem, answer: body.answer, materialId: set.materialId, billTo });
      const { recorded, first } = await sets.recordFirstAnswer(
        who.sessionId,
        { setId: set.setId, problemId: problem.problemId },
        { answer: body.answer, correct: grade.correct, at: Date.now() },
        deps.answerTtlMs,
      );
      const reply: ClassMathAnswerReply = { ...grade, first_attempt: { answer: recorded.answer, correct: recorded.correct, first } };
      response.json(reply);
    }),
  );

  return router;
}
