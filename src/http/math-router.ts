import { Router, type NextFunction, type Request, type Response } from 'express';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { viewOf, type JobRecord, type JobRepository, type JobRunner } from '../jobs/index.js';
import type { LanguageModel } from '../llm/index.js';
import { MATH_JOB_KIND, type MathJobParams, type MathSetRecord, type MathSetRepository } from '../math-problems/index.js';
import type { OwnershipRepository } from '../ownership/index.js';
import { MathProblemsBody, MathSetQuizBody, MathSetShareBody, MathShortAnswerBody } from '../protocol/jobs.js';
import { PageQuery } from '../protocol/page.js';
import { QuizItem, type Quiz } from '../protocol/quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { MathSetShareReply, MathShortAnswerReply } from '../protocol/wire/jobs.js';
import type { QuizMaterialSource, QuizRepository } from '../quiz/index.js';
import type { Quotas } from '../quota/index.js';
import { materialNotFound, type Authorizer, type Grant } from './authorize.js';
import { authorizeModelCall } from './model-guard.js';
import { parseOrThrow } from '../boundary/index.js';
import { gradeAnswerForRequest } from './short-answer-grading.js';

/**
 * Math problems as background jobs and the sets they make, for their owner account (or a class
 * instructor token, which stands for its class's owner):
 * - `POST /api/materials/:id/math-problems` (MathProblemsBody `{count, multipleChoice, difficulty?, chapter?}`) ->
 *   202 `{job, jobToken}`: the job runs on whichever node takes it; `jobToken` opens `/jobs` for its live progress
 * - `GET /api/jobs/:id` -> `{job, jobToken}`; `POST /api/jobs/:id/cancel` -> `{job}`
 * - `GET /api/materials/:id/math-sets?cursor=&limit=` -> `{sets, nextCursor, summary}`: the caller's sets of that
 *   material, newest first, and the judgement summary of all of them
 * - `GET /api/math-sets/:id` -> the set with every problem and rejected problem and their judgements
 * - `POST /api/math-sets/:id/quiz` (`{title?, classId?}`) -> 201 like `POST /api/quizzes`: a quiz of the set's
 *   multiple-choice problems
 * - `POST /api/math-sets/:id/problems/:problemId/answer` (`{answer}`) -> `{problemId, correct, method, verdict,
 *   feedback, correct_answer, explanation}`: a short answer graded by `mathEquivalent`, and by the judge model (billed
 *   to the set's owner) only when it cannot compare; 502 GRADING_ERROR when the model gave no verdict
 * - `POST /api/math-sets/:id/share` (`{classId}`) -> `{setId, classId, shortAnswers}`: the set shared with one of the
 *   owner's classes, whose students answer its short-answer problems (src/http/class-math-router.ts); another
 *   account's class answers 404 like a missing one
 * Another account's job or set answers 404 like a missing one. The credential is checked before the body.
 */

export interface MathRouterDeps {
  access: Authorizer;
  signer: TokenSigner;
  model: LanguageModel;
  materials: QuizMaterialSource;
  jobs: JobRepository;
  runner: JobRunner;
  sets: MathSetRepository;
  quizzes: QuizRepository;
  ownership: OwnershipRepository;
  quotas: Quotas;
}

/** How long a job token opens `/jobs` (a page asks `GET /api/jobs/:id` for a fresh one). */
export const JOB_TOKEN_TTL_MS = 24 * 60 * 60_000;

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

const jobNotFound = () => new AppError(ErrorCode.JOB_NOT_FOUND);
const setNotFound = () => new AppError(ErrorCode.MATH_SET_NOT_FOUND);
const problemNotFound = () => new AppError(ErrorCode.MATH_PROBLEM_NOT_FOUND);
const CHOICE_LETTERS = 'ABCD';

/** A choice as a quiz shows it: math stays LaTeX, wrapped in `$…$` unless the model already delimited it. */
export function choiceText(choice: string): string {
  const text = choice.trim();
  return text.includes('$') ? text : `$${text}$`;
}

/** The quiz items of a set: its multiple-choice problems that make a valid quiz item (four distinct choices, a key). */
export function quizItemsOf(set: MathSetRecord): QuizItem[] {
  return set.problems.flatMap((problem) => {
    if (problem.type !== 'multiple_choice' || problem.choices === undefined) return [];
    const parsed = QuizItem.safeParse({
      question: problem.question,
      choices: problem.choices.map(choiceText),
      answer: CHOICE_LETTERS.indexOf(problem.correct_answer),
      explanation: problem.explanation,
      difficulty: problem.difficulty,
      quizId: problem.problemId,
      sources: problem.sources.slice(0, 10),
    });
    return parsed.success ? [parsed.data] : [];
  });
}

export function createMathRouter(deps: MathRouterDeps): Router {
  const { access, jobs, sets } = deps;
  const router = Router();
  const jobToken = (job: JobRecord) => deps.signer.sign({ kind: 'job', sub: job.jobId, scope: job.accountId }, JOB_TOKEN_TTL_MS);
  const ownJob = async (request: Request, response: Response): Promise<JobRecord> => {
    const grant = await access.accountOrClassToken(request, response);
    const job = await jobs.get(String(request.params.id));
    if (!job || job.accountId !== grant.accountId) throw jobNotFound();
    return job;
  };
  const ownSet = async (request: Request, response: Response): Promise<{ set: MathSetRecord; grant: Grant & { classId?: string } }> => {
    const grant = await access.accountOrClassToken(request, response);
    const set = await sets.get(String(request.params.id));
    if (!set || set.accountId !== grant.accountId) throw setNotFound();
    return { set, grant };
  };

  router.post(
    '/materials/:id/math-problems',
    route(async (request, response) => {
      const grant = await access.accountOrClassToken(request, response);
      const materialId = String(request.params.id);
      await access.authorizeMaterialRead(request, response, materialId);
      const body = parseOrThrow(MathProblemsBody, request.body ?? {});
      // Asked of the model, before any job exists: a model that writes only from its own handlers (offline) has none
      // for math problems, and a job that can only fail later would waste the instructor's wait.
      if (!deps.model.capabilities.followsPrompts) {
        throw new AppError(
          ErrorCode.MODEL_NOT_CAPABLE,
          '지금 설정된 AI 모델(오프라인 모드)로는 수학 문제를 만들 수 없습니다. Gemini나 OpenAI 호환 모델을 설정한 뒤 다시 시도해 주세요.',
        );
      }
      const material = await deps.materials.get(materialId);
      if (!material) throw materialNotFound();
      if (body.chapter !== undefined && body.chapter >= material.chapters.length) {
        throw new AppError(ErrorCode.INVALID_PAYLOAD, `chapter는 0부터 ${material.chapters.length - 1} 사이여야 합니다.`);
      }
      const { chapter, ...request_ } = body;
      const params: MathJobParams = { materialId, ...(chapter === undefined ? {} : { chapter }), request: request_ };
      const job = await jobs.create(MATH_JOB_KIND, grant.accountId, params);
      // Look at once rather than at the next poll (another node may take it first; either way it runs).
      void deps.runner.tick();
      response.status(202).json({ job: viewOf(job), jobToken: jobToken(job) });
    }),
  );

  router.get(
    '/jobs/:id',
    route(async (request, response) => {
      const job = await ownJob(request, response);
      response.json({ job: viewOf(job), jobToken: jobToken(job) });
    }),
  );

  router.post(
    '/jobs/:id/cancel',
    route(async (request, response) => {
      const job = await ownJob(request, response);
      const after = (await deps.runner.cancel(job.jobId)) ?? job;
      response.json({ job: viewOf(after) });
    }),
  );

  router.get(
    '/materials/:id/math-sets',
    route(async (request, response) => {
      const grant = await access.accountOrClassToken(request, response);
      const materialId = String(request.params.id);
      await access.authorizeMaterialRead(request, response, materialId);
      const page = parseOrThrow(PageQuery, request.query);
      const [listed, summary] = await Promise.all([sets.list(grant.accountId, materialId, page), sets.summary(grant.accountId, materialId)]);
      response.json({ sets: listed.sets, nextCursor: listed.nextCursor, summary });
    }),
  );

  router.get(
    '/math-sets/:id',
    route(async (request, response) => {
      const { set } = await ownSet(request, response);
      response.json(set);
    }),
  );

  router.post(
    '/math-sets/:id/quiz',
    route(async (request, response) => {
      const { set, grant } = await ownSet(request, response);
      const body = parseOrThrow(MathSetQuizBody, request.body ?? {});
      let classId = grant.classId ?? '';
      if (body.classId !== undefined) {
        if (grant.via === 'token' && body.classId !== grant.classId) throw setNotFound();
        if (grant.via === 'account') await access.authorizeClass(request, response, body.classId);
        classId = body.classId;
      }
      const items = quizItemsOf(set);
      if (items.length === 0) {
        throw new AppError(ErrorCode.MATH_SET_NO_CHOICES);
      }
      const material = await deps.materials.get(set.materialId);
      const title = body.title ?? `${material?.title ?? '수학'} 수학 문제`.slice(0, 100);
      const create = () => deps.quizzes.create(classId, { title, items, materialId: set.materialId });
      const quiz: Quiz = classId === '' ? await create() : await deps.quotas.chargeQuiz(classId, create);
      await deps.ownership.setOwner('quiz', quiz.quizId, grant.accountId, quiz.createdAt);
      const { quizId, items: stored, createdAt, materialId } = quiz;
      response.status(201).json({ quizId, title: quiz.title, items: stored, createdAt, ...(materialId === undefined ? {} : { materialId }), setId: set.setId });
    }),
  );

  router.post(
    '/math-sets/:id/share',
    route(async (request, response) => {
      const { set, grant } = await ownSet(request, response);
      const body = parseOrThrow(MathSetShareBody, request.body ?? {});
      if (grant.via === 'token' && body.classId !== grant.classId) throw setNotFound();
      if (grant.via === 'account') await access.authorizeClass(request, response, body.classId);
      await sets.share(set.setId, body.classId);
      const reply: MathSetShareReply = {
        setId: set.setId,
        classId: body.classId,
        shortAnswers: set.problems.filter((problem) => problem.type === 'short_answer').length,
      };
      response.json(reply);
    }),
  );

  router.post(
    '/math-sets/:id/problems/:problemId/answer',
    route(async (request, response) => {
      const { set, grant } = await ownSet(request, response);
      const problem = set.problems.find((candidate) => candidate.problemId === String(request.params.problemId));
      if (!problem) throw problemNotFound();
      if (problem.type !== 'short_answer') {
        throw new AppError(ErrorCode.MATH_PROBLEM_NOT_SHORT, '객관식 문제입니다. 이 기능은 단답형 문제의 답만 채점합니다.');
      }
      const body = parseOrThrow(MathShortAnswerBody, request.body ?? {});
      const { billTo } = authorizeModelCall(response, { joined: grant.classId === undefined ? undefined : { classId: grant.classId }, billTo: grant.accountId });
      const reply: MathShortAnswerReply = await gradeAnswerForRequest(response, { model: deps.model, problem, answer: body.answer, materialId: set.materialId, billTo });
      response.json(reply);
    }),
  );

  return router;
}
