import type { Request, Response, Router } from 'express';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { EXAM_JOB_KIND, ExamJobParams, SelfStudyExamBody, chooseMix, requestedMix, type ExamService } from '../exams/index.js';
import type { SelfStudyExamStartReply } from '../protocol/exams.js';
import { viewOf, type JobRecord, type JobRepository, type JobRunner } from '../jobs/index.js';
import type { ModelBudget } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { materialNotFound } from './authorize.js';
import type { ClassStudent } from './class-student.js';
import { JOB_TOKEN_TTL_MS } from './math-router.js';
import { authorizeModelCall } from './model-guard.js';
import { parseOrThrow } from '../boundary/index.js';

/**
 * A class student's own self-study exams ("or a student, for self-study"; src/exams/self-study-exam.ts),
 * on the /api/class-exams router:
 * - `POST /api/class-exams/self-study` (SelfStudyExamBody `{count, descriptive?, difficulty?, chapters?, materialId?}`)
 *   -> 202 `{jobId, job, jobToken, mix}`: the same `exam-generation` job as the instructor's (Planner → Writer →
 *   Validator, the student's learner profile as the planner's input; without `descriptive` the balance is chosen
 *   from that profile and `mix` says why), on the student's class material, billed to the
 *   class's owner (their daily model budget is checked first; the route is rate limited like generation). Once
 *   stored, the exam is published to the student alone, with no deadline. While a class exam on the same material
 *   runs in the student's class: 409 EXAM_RUNNING (and a job that finishes into one fails with it).
 * - `GET /api/class-exams/self-study/jobs/:jobId` -> `{job}`: the job's progress for pages that poll (the `jobToken`
 *   opens `/jobs` for the same, live). Another student's job, or another kind, 404 JOB_NOT_FOUND.
 */

export interface SelfStudyExamDeps {
  exams: ExamService;
  signer: TokenSigner;
  jobs: JobRepository;
  runner: JobRunner;
  materials: { get(id: string): Promise<{ chapters: readonly unknown[] } | null> };
  sessionProfile(sessionId: string): Promise<{ materialId: string; classId?: string | undefined; billTo?: string | undefined } | null>;
  budget?: ModelBudget | undefined;
}

type Route = (handler: (request: Request, response: Response) => Promise<void>) => (request: Request, response: Response, next: (error?: unknown) => void) => void;

const jobNotFound = () => new AppError(ErrorCode.JOB_NOT_FOUND);

/** The job when it is this student's self-study exam generation; null otherwise. */
function ownJob(job: JobRecord | null, who: ClassStudent): JobRecord | null {
  if (!job || job.kind !== EXAM_JOB_KIND) return null;
  const params = ExamJobParams.safeParse(job.params);
  const mine = params.success && params.data.selfStudy?.sessionId === who.sessionId && params.data.selfStudy.classId === who.classId;
  return mine ? job : null;
}

export function addSelfStudyExamRoutes(router: Router, route: Route, student: (request: Request, response: Response) => Promise<ClassStudent>, deps: SelfStudyExamDeps): void {
  router.post(
    '/self-study',
    route(async (request, response) => {
      const who = await student(request, response);
      const body = parseOrThrow(SelfStudyExamBody, request.body ?? {});
      const session = await deps.sessionProfile(who.sessionId);
      // The class's material only: any other id answers like a missing material.
      if (!session || (body.materialId !== undefined && body.materialId !== session.materialId)) throw materialNotFound();
      const material = await deps.materials.get(session.materialId);
      if (!material) throw materialNotFound();
      const outside = body.chapters?.find((chapter) => chapter >= material.chapters.length);
      if (outside !== undefined) {
        throw new AppError(ErrorCode.INVALID_PAYLOAD, `장 번호 ${outside}번은 이 자료에 없습니다. 0부터 ${material.chapters.length - 1} 사이로 골라 주세요.`);
      }
      await deps.exams.assertNoRunningExam(who.classId, session.materialId);
      const { billTo } = authorizeModelCall(response, { joined: { classId: who.classId }, billTo: who.billTo });
      if (billTo === undefined) throw new AppError(ErrorCode.FORBIDDEN, '이 수업에서는 혼자 시험 보기를 쓸 수 없습니다.');
      await deps.budget?.assertAvailable(billTo);
      const { materialId: _materialId, descriptive, ...asked } = body;
      const profile = await deps.exams.profile(who.classId, who.sessionId);
      // Only the count: the balance is the planner's, from the student's own profile (exam-mix.ts).
      const mix = descriptive === undefined ? chooseMix(body.count, profile, { kind: 'student' }) : requestedMix(body.count, descriptive);
      const params: ExamJobParams = {
        materialId: session.materialId,
        request: { ...asked, descriptive: mix.descriptive },
        profile,
        ...(mix.source === 'request' ? {} : { mixReason: mix.reason }),
        selfStudy: { classId: who.classId, sessionId: who.sessionId },
      };
      const job = await deps.jobs.create(EXAM_JOB_KIND, billTo, params, 'student');
      void deps.runner.tick();
      const jobToken = deps.signer.sign({ kind: 'job', sub: job.jobId, scope: job.accountId }, JOB_TOKEN_TTL_MS);
      const reply: SelfStudyExamStartReply = { jobId: job.jobId, job: viewOf(job), jobToken, mix };
      response.status(202).json(reply);
    }),
  );

  router.get(
    '/self-study/jobs/:jobId',
    route(async (request, response) => {
      const who = await student(request, response);
      const job = ownJob(await deps.jobs.get(String(request.params.jobId)), who);
      if (!job) throw jobNotFound();
      response.json({ job: viewOf(job) });
    }),
  );
}
