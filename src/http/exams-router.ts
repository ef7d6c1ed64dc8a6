import { Router, type NextFunction, type Request, type Response } from 'express';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { EXAM_JOB_KIND, ExamRequestBody, chooseMix, decisionsJsonl, requestedMix, type ExamJobParams, type ExamRecord, type ExamService } from '../exams/index.js';
import { viewOf, type JobRecord, type JobRepository, type JobRunner } from '../jobs/index.js';
import type { ModelBudget } from '../llm/index.js';
import { ExamGoalBody, ExamGroupGradeBody, ExamListQuery, ExamOverrideBody, ExamProblemPatch, ExamPublishBody } from '../protocol/exams.js';
import type { ExamAnswerGroupsReply, ExamDetailReply, ExamGroupGradeReply, ExamOverrideReply, ExamProfileReply, ExamProgressReply, ExamResultsReply, ExamStartReply } from '../protocol/exams.js';
import { PageQuery } from '../protocol/page.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { contentDisposition } from './content-disposition.js';
import { materialNotFound, type Authorizer, type Grant } from './authorize.js';
import { JOB_TOKEN_TTL_MS } from './math-router.js';
import { parseOrThrow } from '../boundary/index.js';

/**
 * Live exams for their owner account (or a class instructor token, which stands for its class's owner):
 * - `POST /api/materials/:id/exams` (ExamRequestBody `{count, descriptive?, difficulty?, chapters?, classId?}`) -> 202
 *   `{jobId, job, jobToken, mix}`: the `exam-generation` job (Planner → Writer → Validator), watched on `/jobs` like
 *   math problems; an exam for a class (`classId`, or a class token's class) is planned from the class's aggregated
 *   learner profile, and without `descriptive` its balance is chosen from it (`mix` says how and why);
 *   429 MODEL_BUDGET_EXCEEDED at once when the account's daily model budget is spent
 * - `GET /api/exams?materialId=&cursor=&limit=` -> `{exams, nextCursor}`; `GET /api/exams/:examId` -> the exam
 * - `PATCH /api/exams/:examId/problems/:id` -> the problem (draft only; the item's validator complaints leave it);
 *   `POST /api/exams/:examId/problems/:id/accept` -> the exam (the item's complaints accepted as they are);
 *   `POST /api/exams/:examId/publish` (409 EXAM_COMPLAINTS_OPEN while complaints are neither fixed nor accepted);
 *   `POST /api/exams/:examId/end` (ends a published exam now: the deadline becomes now)
 * - `GET /api/exams/:examId/results` (`.json`, `.csv`); `POST .../students/:sessionId/items/:questionId/override`
 * - answer groups of one item (src/exams/answer-group-grading.ts): `GET /api/exams/:examId/items/:questionId/groups`;
 *   `POST .../groups/:groupId/grade` `{status, reason}` (404 EXAM_GROUP_NOT_FOUND when the group changed);
 *   `POST .../answers/:sessionId/move-out` and `.../move-in` (the groups as they are then)
 * - `GET /api/exams/:examId/decisions.jsonl`: overrides and group grades as labelled JSON Lines
 * - `DELETE /api/exams/:examId`
 * - `GET`/`PATCH /api/classes/:classId/students/:sessionId/profile`: a class student's learner profile and goal
 * Another account's exam answers 404 like a missing one; a class token reaches only the exams of its class (or
 * unpublished ones of its owner). The credential is checked before the body.
 */

export interface ExamsRouterDeps {
  access: Authorizer;
  signer: TokenSigner;
  exams: ExamService;
  materials: { get(id: string): Promise<{ chapters: readonly unknown[] } | null> };
  jobs: JobRepository;
  runner: JobRunner;
  /** The paying account's daily model budget, checked before a generation job is started (429, not a failed job). */
  budget?: ModelBudget | undefined;
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

/** An answer group's id (src/exams/answer-groups.ts: 12 hex digits). */
const GROUP_ID = /^[0-9a-f]{12}$/;
const examNotFound = () => new AppError(ErrorCode.EXAM_NOT_FOUND);
const studentNotFound = () => new AppError(ErrorCode.EXAM_STUDENT_NOT_FOUND, '이 수업의 학생을 찾을 수 없습니다.');
const positiveInt = (raw: string, notFound: () => AppError) => {
  if (!/^\d{1,4}$/.test(raw)) throw notFound();
  return Number(raw);
};

export function createExamsRouter(deps: ExamsRouterDeps): Router {
  const { access, exams } = deps;
  const router = Router();
  const jobToken = (job: JobRecord) => deps.signer.sign({ kind: 'job', sub: job.jobId, scope: job.accountId }, JOB_TOKEN_TTL_MS);

  const ownExam = async (request: Request, response: Response): Promise<{ exam: ExamRecord; grant: Grant & { classId?: string } }> => {
    const grant = await access.accountOrClassToken(request, response);
    const exam = await exams.repository.get(String(request.params.examId));
    if (!exam || exam.accountId !== grant.accountId) throw examNotFound();
    if (grant.via === 'token') {
      const publication = await exams.repository.publication(exam.examId);
      if (publication && publication.classId !== grant.classId) throw examNotFound();
    }
    return { exam, grant };
  };

  const detail = async (exam: ExamRecord): Promise<ExamDetailReply> => {
    const publication = await exams.repository.publication(exam.examId);
    const { accountId: _accountId, jobId: _jobId, ...rest } = exam;
    return { ...rest, accepted: exam.accepted ?? [], status: await exams.status(exam, publication), publication };
  };

  router.post(
    '/materials/:id/exams',
    route(async (request, response) => {
      const grant = await access.accountOrClassToken(request, response);
      const materialId = String(request.params.id);
      await access.authorizeMaterialRead(request, response, materialId);
      const { classId: named, descriptive, ...asked } = parseOrThrow(ExamRequestBody, request.body ?? {});
      // The class the exam is for: named (the caller's), else a class instructor token's own.
      const classId = named ?? grant.classId;
      if (named !== undefined) await access.authorizeClass(request, response, named);
      const material = await deps.materials.get(materialId);
      if (!material) throw materialNotFound();
      const outside = asked.chapters?.find((chapter) => chapter >= material.chapters.length);
      if (outside !== undefined) {
        throw new AppError(ErrorCode.INVALID_PAYLOAD, `장 목록의 장 번호는 0부터 ${material.chapters.length - 1} 사이여야 합니다.`);
      }
      // a spent budget is refused now, not by a job that fails later.
      await deps.budget?.assertAvailable(grant.accountId);
      // An exam for a class is planned from the class's aggregated profile; its balance, when not asked, too.
      const aggregate = classId === undefined ? null : await exams.classProfile(classId);
      const profile = aggregate?.profile ?? null;
      const mix =
        descriptive !== undefined
          ? requestedMix(asked.count, descriptive)
          : chooseMix(asked.count, profile, aggregate === null ? { kind: 'student' } : { kind: 'class', students: aggregate.students });
      const params: ExamJobParams = {
        materialId,
        request: { ...asked, descriptive: mix.descriptive },
        ...(profile === null ? {} : { profile }),
        ...(mix.source === 'request' ? {} : { mixReason: mix.reason }),
      };
      const job = await deps.jobs.create(EXAM_JOB_KIND, grant.accountId, params);
      void deps.runner.tick();
      const reply: ExamStartReply = { jobId: job.jobId, job: viewOf(job), jobToken: jobToken(job), mix };
      response.status(202).json(reply);
    }),
  );

  router.get(
    '/exams',
    route(async (request, response) => {
      const grant = await access.accountOrClassToken(request, response);
      const { materialId } = parseOrThrow(ExamListQuery, { materialId: request.query.materialId });
      const page = parseOrThrow(PageQuery, { cursor: request.query.cursor, limit: request.query.limit });
      const listed = await exams.list(grant.accountId, materialId, page);
      // A class token sees its class's exams and its owner's unpublished ones.
      const visible = grant.via === 'token' ? listed.exams.filter((exam) => exam.classId === undefined || exam.classId === grant.classId) : listed.exams;
      response.json({ exams: visible, nextCursor: listed.nextCursor });
    }),
  );

  router.get(
    '/exams/:examId',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      response.json(await detail(exam));
    }),
  );

  router.patch(
    '/exams/:examId/problems/:id',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      const id = positiveInt(String(request.params.id), () => new AppError(ErrorCode.EXAM_QUESTION_NOT_FOUND));
      const patch = parseOrThrow(ExamProblemPatch, request.body ?? {});
      response.json(await exams.editProblem(exam, id, patch));
    }),
  );

  router.post(
    '/exams/:examId/problems/:id/accept',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      const id = positiveInt(String(request.params.id), () => new AppError(ErrorCode.EXAM_QUESTION_NOT_FOUND));
      response.json(await detail(await exams.acceptItem(exam, id)));
    }),
  );

  router.post(
    '/exams/:examId/publish',
    route(async (request, response) => {
      const { exam, grant } = await ownExam(request, response);
      const body = parseOrThrow(ExamPublishBody, request.body ?? {});
      // The class must be the caller's own: another account's class answers 404 like a missing one.
      if (grant.via === 'token' && body.classId !== grant.classId) throw examNotFound();
      if (grant.via === 'account') await access.authorizeClass(request, response, body.classId);
      const publication = 'selfStudy' in body ? await exams.publishSelfStudy(exam, body.classId) : await exams.publish(exam, body.classId, body.timeLimitMinutes);
      response.json({ publication });
    }),
  );

  router.post(
    '/exams/:examId/end',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      response.json({ publication: await exams.endNow(exam) });
    }),
  );

  router.get(
    '/exams/:examId/progress',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      const reply: ExamProgressReply = await exams.progress(exam);
      response.json(reply);
    }),
  );

  const results = async (request: Request, response: Response): Promise<ExamResultsReply> => {
    const { exam } = await ownExam(request, response);
    return exams.results(exam);
  };
  router.get(
    '/exams/:examId/results',
    route(async (request, response) => {
      response.json(await results(request, response));
    }),
  );
  router.get(
    '/exams/:examId/results.json',
    route(async (request, response) => {
      const body = await results(request, response);
      response.set('Content-Disposition', contentDisposition('attachment', `exam-${body.examId}-results.json`));
      response.json(body);
    }),
  );
  router.get(
    '/exams/:examId/results.csv',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      const csv = await exams.resultsCsv(exam);
      response.set('Content-Type', 'text/csv; charset=utf-8');
      response.set('Content-Disposition', contentDisposition('attachment', `exam-${exam.examId}-results.csv`));
      response.send(csv);
    }),
  );

  // The teacher's overrides and group grades as labelled JSON Lines (src/exams/teacher-decisions.ts): no student identity.
  router.get(
    '/exams/:examId/decisions.jsonl',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      response.set('Content-Type', 'application/x-ndjson; charset=utf-8');
      response.set('Content-Disposition', `attachment; filename="exam-${exam.examId}-decisions.jsonl"`);
      response.send(decisionsJsonl(await exams.teacherDecisions(exam)));
    }),
  );

  router.post(
    '/exams/:examId/students/:sessionId/items/:questionId/override',
    route(async (request, response) => {
      const { exam, grant } = await ownExam(request, response);
      const questionId = positiveInt(String(request.params.questionId), () => new AppError(ErrorCode.EXAM_QUESTION_NOT_FOUND));
      const body = parseOrThrow(ExamOverrideBody, request.body ?? {});
      const reply: ExamOverrideReply = await exams.override(exam, String(request.params.sessionId), questionId, body.status, body.reason, grant.accountId);
      response.json(reply);
    }),
  );

  // ---- answer groups ----
  const questionOf = (request: Request) => positiveInt(String(request.params.questionId), () => new AppError(ErrorCode.EXAM_QUESTION_NOT_FOUND));
  router.get(
    '/exams/:examId/items/:questionId/groups',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      const reply: ExamAnswerGroupsReply = await exams.groups.list(exam, questionOf(request));
      response.json(reply);
    }),
  );

  router.post(
    '/exams/:examId/items/:questionId/groups/:groupId/grade',
    route(async (request, response) => {
      const { exam, grant } = await ownExam(request, response);
      const questionId = questionOf(request);
      const groupId = String(request.params.groupId);
      if (!GROUP_ID.test(groupId)) throw new AppError(ErrorCode.EXAM_GROUP_NOT_FOUND);
      const body = parseOrThrow(ExamGroupGradeBody, request.body ?? {});
      const reply: ExamGroupGradeReply = await exams.groups.grade(exam, questionId, groupId, { status: body.status, reason: body.reason, by: grant.accountId });
      response.json(reply);
    }),
  );

  for (const [action, detached] of [['move-out', true], ['move-in', false]] as const) {
    router.post(
      `/exams/:examId/items/:questionId/answers/:sessionId/${action}`,
      route(async (request, response) => {
        const { exam, grant } = await ownExam(request, response);
        const reply: ExamAnswerGroupsReply = await exams.groups.setDetached(exam, questionOf(request), String(request.params.sessionId), detached, grant.accountId);
        response.json(reply);
      }),
    );
  }

  router.delete(
    '/exams/:examId',
    route(async (request, response) => {
      const { exam } = await ownExam(request, response);
      await exams.delete(exam);
      response.status(204).end();
    }),
  );

  const classStudentProfile = async (request: Request, response: Response): Promise<{ classId: string; sessionId: string }> => {
    const classId = String(request.params.classId);
    await access.authorizeClass(request, response, classId);
    const sessionId = String(request.params.sessionId);
    if (!(await exams.isStudent(classId, sessionId))) throw studentNotFound();
    return { classId, sessionId };
  };

  router.get(
    '/classes/:classId/students/:sessionId/profile',
    route(async (request, response) => {
      const { classId, sessionId } = await classStudentProfile(request, response);
      const reply: ExamProfileReply = { profile: await exams.profile(classId, sessionId) };
      response.json(reply);
    }),
  );

  router.patch(
    '/classes/:classId/students/:sessionId/profile',
    route(async (request, response) => {
      const { classId, sessionId } = await classStudentProfile(request, response);
      const body = parseOrThrow(ExamGoalBody, request.body ?? {});
      const reply: ExamProfileReply = { profile: await exams.setGoal(classId, sessionId, body) };
      response.json(reply);
    }),
  );

  return router;
}
