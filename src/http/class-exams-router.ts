import { Router, type NextFunction, type Request, type Response } from 'express';
import type { TokenSigner } from '../auth/index.js';
import type { ExamService } from '../exams/index.js';
import { ExamDraftBody, ExamRegradeBody, ExamSubmitBody } from '../protocol/exams.js';
import type { ClassExamReply, ClassExamResultReply, ClassExamsReply, ExamDraftReply, ExamProfileReply, ExamSubmitReply } from '../protocol/exams.js';
import { addSelfStudyExamRoutes, type SelfStudyExamDeps } from './class-self-exams.js';
import { classStudent, type ClassStudent } from './class-student.js';
import { parseOrThrow } from '../boundary/index.js';

/**
 * A class's students take the live exams published to their class, mounted at /api/class-exams, with
 * their class session token (`Authorization: Bearer`):
 * - `GET /api/class-exams` -> `{serverNow, exams}`; `GET /api/class-exams/:examId` -> the questions (never a model
 *   answer or a keyword), the student's drafts and submissions, the server's time and the deadline
 * - `PUT /api/class-exams/:examId/draft {answers}` -> `{savedAt, serverNow}` (autosave, last write wins)
 * - `POST /api/class-exams/:examId/submit {questionIds?}` -> `{submitted, submittedAll}` (first write wins)
 * - `GET /api/class-exams/:examId/result`; `POST /api/class-exams/:examId/regrade {questionId, comment}` -> `{request}`
 * - `GET /api/class-exams/profile` -> `{profile}`: the student's own learner profile
 * - `POST /api/class-exams/self-study`, `GET /api/class-exams/self-study/jobs/:jobId`: the student's own self-study
 *   exams (class-self-exams.ts), listed and taken with the routes above (no deadline, result at their submission)
 * No credential 401; an instructor's credential or a session outside a class 403; an exam not published to the
 * student's class (or another student's self-study exam) 404 EXAM_NOT_FOUND; after the deadline 409 EXAM_CLOSED. The credential is checked before the body.
 */

export interface ClassExamsRouterDeps extends SelfStudyExamDeps {
  signer: TokenSigner;
  exams: ExamService;
  sessionProfile(sessionId: string): Promise<{ materialId: string; classId?: string | undefined; billTo?: string | undefined } | null>;
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

export function createClassExamsRouter(deps: ClassExamsRouterDeps): Router {
  const { exams } = deps;
  const router = Router();
  const student = (request: Request, response: Response): Promise<ClassStudent> => classStudent(deps, request, response, '시험');
  const examId = (request: Request) => String(request.params.examId);

  router.get(
    '/',
    route(async (request, response) => {
      const who = await student(request, response);
      const reply: ClassExamsReply = await exams.studentExams(who.classId, who.sessionId);
      response.json(reply);
    }),
  );

  // The student's own self-study exams (class-self-exams.ts), before `/:examId`.
  addSelfStudyExamRoutes(router, route, student, deps);

  // Before `/:examId`, which would take it for an exam id.
  router.get(
    '/profile',
    route(async (request, response) => {
      const who = await student(request, response);
      const reply: ExamProfileReply = { profile: await exams.profile(who.classId, who.sessionId) };
      response.json(reply);
    }),
  );

  router.get(
    '/:examId',
    route(async (request, response) => {
      const who = await student(request, response);
      const reply: ClassExamReply = await exams.studentView(examId(request), who.classId, who.sessionId);
      response.json(reply);
    }),
  );

  router.put(
    '/:examId/draft',
    route(async (request, response) => {
      const who = await student(request, response);
      const body = parseOrThrow(ExamDraftBody, request.body ?? {});
      const reply: ExamDraftReply = await exams.saveDraft(examId(request), who.classId, who.sessionId, body.answers);
      response.json(reply);
    }),
  );

  router.post(
    '/:examId/submit',
    route(async (request, response) => {
      const who = await student(request, response);
      const body = parseOrThrow(ExamSubmitBody, request.body ?? {});
      const reply: ExamSubmitReply = await exams.submit(examId(request), who.classId, who.sessionId, body.questionIds);
      response.json(reply);
    }),
  );

  router.get(
    '/:examId/result',
    route(async (request, response) => {
      const who = await student(request, response);
      const reply: ClassExamResultReply = await exams.studentResult(examId(request), who.classId, who.sessionId);
      response.json(reply);
    }),
  );

  router.post(
    '/:examId/regrade',
    route(async (request, response) => {
      const who = await student(request, response);
      const body = parseOrThrow(ExamRegradeBody, request.body ?? {});
      response.json({ request: await exams.requestRegrade(examId(request), who.classId, who.sessionId, body.questionId, body.comment) });
    }),
  );

  return router;
}
