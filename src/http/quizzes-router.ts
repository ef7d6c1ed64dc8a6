import { Router, type Response } from 'express';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { LanguageModel } from '../llm/index.js';
import { PageQuery } from '../protocol/page.js';
import { CreateQuizBody, GenerateQuizBody, type Quiz } from '../protocol/quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { generateQuizItems, loadQuizSource, newQuizSeed, type QuizMaterialSource, type QuizRepository } from '../quiz/index.js';
import { instructorClassId } from './bearer.js';
import { parseOrThrow } from './validate.js';

/**
 * Quiz authoring, every route with `Authorization: Bearer <instructorToken>`; a quiz belongs to the token's class.
 * - `POST /api/quizzes` (CreateQuizBody) -> 201 `{quizId, title, items, createdAt, materialId?}`
 * - `GET /api/quizzes?cursor=&limit=` -> `{quizzes: [{quizId, title, itemCount, createdAt}], nextCursor}`, newest
 *   first, one page (PageQuery)
 * - `GET /api/quizzes/:id` -> the quiz with its solutions (another class's quiz: 403, unknown: 404 QUIZ_NOT_FOUND)
 * - `POST /api/materials/:id/quiz` (GenerateQuizBody) -> the QuizAgent writes five items, stored like an uploaded
 *   quiz, 201 with the same body as `POST /api/quizzes`
 * The token is checked before the body, so an anonymous caller learns nothing about what a valid body looks like.
 */

export interface QuizzesRouterDeps {
  quizzes: QuizRepository;
  signer: TokenSigner;
  materials: QuizMaterialSource;
}

export interface MaterialQuizRouterDeps extends QuizzesRouterDeps {
  model: LanguageModel;
  logger: Logger;
  /** Where generated quizzes get their seed (random unless a test fixes it). */
  newSeed?: () => string;
}

const quizNotFound = () => new AppError(ErrorCode.QUIZ_NOT_FOUND, '퀴즈를 찾을 수 없습니다.', { status: 404 });
const materialNotFound = () => new AppError(ErrorCode.MATERIAL_NOT_FOUND, '강의 자료를 찾을 수 없습니다.', { status: 404 });

/** The body of a created quiz (the owner's view: solutions included, and a generated quiz's seed). */
function created(quiz: Quiz) {
  const { quizId, title, items, createdAt, materialId, seed } = quiz;
  return { quizId, title, items, createdAt, ...(materialId === undefined ? {} : { materialId }), ...(seed === undefined ? {} : { seed }) };
}

/** Mounted at /api/quizzes. */
export function createQuizzesRouter({ quizzes, signer, materials }: QuizzesRouterDeps): Router {
  const router = Router();

  router.post('/', async (request, response, next) => {
    try {
      const classId = instructorClassId(signer, request, response);
      const body = parseOrThrow(CreateQuizBody, request.body);
      if (body.materialId !== undefined && !(await materials.get(body.materialId))) throw materialNotFound();
      response.status(201).json(created(await quizzes.create(classId, body)));
    } catch (error) {
      next(error);
    }
  });

  router.get('/', async (request, response, next) => {
    try {
      const classId = instructorClassId(signer, request, response);
      const { items, nextCursor } = await quizzes.listByClass(classId, parseOrThrow(PageQuery, request.query));
      response.json({ quizzes: items, nextCursor });
    } catch (error) {
      next(error);
    }
  });

  router.get('/:id', async (request, response, next) => {
    try {
      const classId = instructorClassId(signer, request, response);
      const quiz = await quizzes.get(String(request.params.id));
      if (!quiz) throw quizNotFound();
      if (quiz.classId !== classId) throw new AppError(ErrorCode.FORBIDDEN, '이 수업의 퀴즈가 아닙니다.', { status: 403 });
      response.json(quiz);
    } catch (error) {
      next(error);
    }
  });

  return router;
}

/**
 * Mounted at /api/materials after the JSON body parser (the materials router itself is mounted before it, for
 * multipart uploads). Only `POST /:id/quiz` is answered here; everything else falls through.
 */
export function createMaterialQuizRouter({ quizzes, signer, materials, model, logger, newSeed = newQuizSeed }: MaterialQuizRouterDeps): Router {
  const router = Router();
  const log = logger.child({ component: 'quiz-agent' });

  router.post('/:id/quiz', async (request, response, next) => {
    try {
      const classId = instructorClassId(signer, request, response);
      const body = parseOrThrow(GenerateQuizBody, request.body ?? {});
      const source = await loadQuizSource(materials, String(request.params.id), body.chapter);
      // Each generation its own seed: the same material never gives a predictable answer key.
      const seed = newSeed();
      const items = await generateQuizItems({
        model,
        source,
        difficulty: body.difficulty,
        seed,
        signal: abortedWith(response),
        logger: log,
      });
      const quiz = await quizzes.create(
        classId,
        { title: body.title ?? `${source.title} 퀴즈`.slice(0, 100), items, materialId: source.materialId },
        { seed },
      );
      response.status(201).json(created(quiz));
    } catch (error) {
      next(error);
    }
  });

  return router;
}

/** Aborts when the client goes away before the answer is sent, so a closed tab stops paying for model calls. */
function abortedWith(response: Response): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
