import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import type { LanguageModel } from '../llm/index.js';
import { PageQuery } from '../protocol/page.js';
import { CreateQuizBody, GenerateQuizBody, KeepItemBody, type Quiz } from '../protocol/quiz.js';
import type { QuizTopicsReply } from '../protocol/wire/self-quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { AppError } from '../kernel/index.js';
import { classNotFound, type OwnershipRepository } from '../ownership/index.js';
import type { GuardReport } from '../guard/index.js';
import { gateSummary, generateJudgedQuiz, generateTypedItems, imagesOf, type PagePictures, type QuizImages, loadQuizSource, toShortItems, materialTopics, newQuizSeed, TYPED_FORMATS, type EvalAgent, type JudgedQuiz, type QuizMaterialSource, type QuizRepository, type QuizSource, type TypedFormat, type TypedGeneration } from '../quiz/index.js';
import type { Retriever } from '../retrieval/index.js';
import { materialNotFound, type Authorizer, type Grant } from './authorize.js';
import type { Quotas } from '../quota/index.js';
import { runBilledTo } from '../llm/index.js';
import { parseOrThrow } from '../boundary/index.js';
import { abortedWith } from './client-gone.js';
import { ownerOf } from './quiz-images-router.js';

/**
 * Quiz authoring (every quiz belongs to an account; a class instructor token acts for its class's owner
 * within that class):
 * - `POST /api/quizzes` (CreateQuizBody `{title, items, materialId?, classId?}`) -> 201 `{quizId, title, items,
 *   createdAt, materialId?}`; an item's `image` must be one the caller uploaded (404 NOT_FOUND otherwise) or a page
 *   `{kind: 'page', materialId, page}` of a material the owner account owns or the sample (404 MATERIAL_NOT_FOUND
 *   otherwise; 400 PAGE_OUT_OF_RANGE for a page it does not have)
 * - `GET /api/quizzes?classId=&cursor=&limit=` -> `{quizzes: [QuizSummary {quizId, classId, title, itemCount,
 *   createdAt}], nextCursor}`, newest first: "내 퀴즈" for an account (one class's with `classId`), the class's for a
 *   class token; each entry's `classId` ('' outside any class) lets a page link the quiz to its class
 * - `GET /api/quizzes/:id` -> the quiz with its solutions (authorizeQuiz: another account's or unknown: 404)
 * - `POST /api/quizzes/:id/items/:itemId/keep` (KeepItemBody `{kept}`) -> the instructor uses (or stops using) a
 *   generated item that did not pass the EvalAgent gate; answers `{quizId, itemId, review}` (authorizeQuiz)
 * - `POST /api/materials/:id/quiz` (GenerateQuizBody `{chapter?, topic?, difficulty?, title?, classId?}`) -> the
 *   QuizAgent writes five items from ten retrieved passages and every one goes through the EvalAgent gate
 *   (quiz-gate.ts); stored like an uploaded quiz with the judge reports; 201 with the same body as `POST /api/quizzes`
 *   plus `seed`, `reviews`, `gate {passed, total, rounds}` and `generation` (how the passages were found); with
 *   `format: 'short'` the items that read as questions without choices are stored as short text (short-generator.ts);
 *   with `format` `truefalse` | `multi` | `ordering` | `numeric` the items of that type are written from the same
 *   passages through the item guard (typed-agent.ts), without the EvalAgent gate (no `reviews`, no `gate`), and a
 *   material that bears fewer answers with a `shortfall` naming why (none: 422 TOO_LITTLE_MATERIAL)
 * The credential is checked before the body, so an anonymous caller learns nothing about what a valid body looks like.
 */

export interface QuizzesRouterDeps {
  quizzes: QuizRepository;
  materials: QuizMaterialSource;
  ownership: OwnershipRepository;
  access: Authorizer;
  quotas: Quotas;
  /** Uploaded pictures: an item may show only its author's own (quiz-images.ts). */
  images?: QuizImages | undefined;
  /** Pages of materials as pictures: an item may show only pages of a material its author may use (page-pictures.ts). */
  pagePictures?: PagePictures | undefined;
}

export interface MaterialQuizRouterDeps extends QuizzesRouterDeps {
  model: LanguageModel;
  /** The EvalAgent gate every generated item passes before anyone sees it (seed 001 §3). */
  judge: EvalAgent;
  retriever: Retriever;
  logger: Logger;
  /** Where generated quizzes get their seed (random unless a test fixes it). */
  newSeed?: () => string;
  /** Where the item guard's refusals go (logged, counted in the AI 품질 console). */
  guard?: GuardReport | undefined;
}

/** The body of a created quiz (the owner's view: solutions included, and a generated quiz's seed). */
function created(quiz: Quiz) {
  const { quizId, title, items, createdAt, materialId, seed, reviews } = quiz;
  return {
    quizId,
    title,
    items,
    createdAt,
    ...(materialId === undefined ? {} : { materialId }),
    ...(seed === undefined ? {} : { seed }),
    ...(reviews === undefined ? {} : { reviews }),
  };
}

const itemNotReviewed = () => new AppError(ErrorCode.NOT_FOUND, '검증 결과가 있는 문항이 아닙니다. 생성된 퀴즈의 문항만 고를 수 있습니다.');
const ITEM_ID = /^[0-9a-f]{8}$/;

/**
 * The class a new quiz is for: the one asked (the account's own, or the token's own class), else the token's
 * class, else none (''). Another account's class answers 404 CLASS_NOT_FOUND.
 */
async function quizClass(grant: Grant & { classId?: string }, asked: string | undefined, request: Request, response: Response, access: Authorizer): Promise<string> {
  if (asked === undefined) return grant.classId ?? '';
  if (grant.via === 'token') {
    if (asked !== grant.classId) throw classNotFound();
    return asked;
  }
  await access.authorizeClass(request, response, asked);
  return asked;
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

const ListQuery = PageQuery.extend({ classId: z.string().trim().min(1).max(64).optional() });

/** Mounted at /api/quizzes. */
export function createQuizzesRouter({ quizzes, materials, ownership, access, quotas, images, pagePictures }: QuizzesRouterDeps): Router {
  const router = Router();

  router.post(
    '/',
    route(async (request, response) => {
      const grant = await access.accountOrClassToken(request, response);
      const body = parseOrThrow(CreateQuizBody, request.body);
      const classId = await quizClass(grant, body.classId, request, response, access);
      if (body.materialId !== undefined) {
        await access.authorizeMaterialRead(request, response, body.materialId);
        if (!(await materials.get(body.materialId))) throw materialNotFound();
      }
      // Pictures: only the author's own uploads (another's id is 404 as if it did not exist).
      const pictures = imagesOf(body.items);
      if (pictures.length > 0) await images?.assertUsable(pictures, ownerOf(grant));
      // Pages of materials: the owner account's own materials or the sample, and pages they have.
      await pagePictures?.assertUsable(body.items, grant.accountId);
      const save = () => chargedToClass(quotas, classId, () => quizzes.create(classId, body));
      const quiz = images ? await images.saveShowing(pictures, save) : await save();
      await ownership.setOwner('quiz', quiz.quizId, grant.accountId, quiz.createdAt);
      await pagePictures?.attach(quiz.quizId, body.items);
      response.status(201).json(created(quiz));
    }),
  );

  router.get(
    '/',
    route(async (request, response) => {
      const grant = await access.accountOrClassToken(request, response);
      const { classId: asked, ...page } = parseOrThrow(ListQuery, request.query);
      const classId = asked === undefined ? grant.classId : await quizClass(grant, asked, request, response, access);
      if (classId !== undefined) {
        const { items, nextCursor } = await quizzes.listByClass(classId, page);
        response.json({ quizzes: items, nextCursor });
        return;
      }
      const { members, nextCursor } = await ownership.page(grant.accountId, 'quiz', page);
      response.json({ quizzes: await quizzes.summaries(members), nextCursor });
    }),
  );

  router.get(
    '/:id',
    route(async (request, response) => {
      const { quiz } = await access.authorizeQuiz(request, response, String(request.params.id));
      response.json(quiz);
    }),
  );

  // An item that never passed the gate is used only when its instructor keeps it (and can be un-kept).
  router.post(
    '/:id/items/:itemId/keep',
    route(async (request, response) => {
      const { quiz } = await access.authorizeQuiz(request, response, String(request.params.id));
      const itemId = String(request.params.itemId);
      if (!ITEM_ID.test(itemId)) {
        throw new AppError(ErrorCode.INVALID_PAYLOAD, '문항 번호(itemId)는 16진수 8자리여야 합니다.');
      }
      const { kept } = parseOrThrow(KeepItemBody, request.body ?? {});
      if (quiz.reviews?.[itemId] === undefined || !quiz.items.some((item) => item.quizId === itemId)) throw itemNotReviewed();
      const review = await quizzes.setKept(quiz.quizId, itemId, kept);
      if (!review) throw itemNotReviewed();
      response.json({ quizId: quiz.quizId, itemId, review });
    }),
  );

  return router;
}

/**
 * Mounted at /api/materials after the JSON body parser (the materials router itself is mounted before it, for
 * multipart uploads). Only `POST /:id/quiz` is answered here; everything else falls through. An account (or a class
 * instructor token) is required: an anonymous caller never starts a model call here.
 */
export function createMaterialQuizRouter({ quizzes, materials, retriever, ownership, access, model, judge, logger, quotas, guard, newSeed = newQuizSeed }: MaterialQuizRouterDeps): Router {
  const router = Router();
  const log = logger.child({ component: 'quiz-agent' });

  router.get(
    '/:id/quiz-topics',
    route(async (request, response) => {
      await access.accountOrClassToken(request, response);
      const materialId = String(request.params.id);
      await access.authorizeMaterialRead(request, response, materialId);
      const reply: QuizTopicsReply = { topics: await materialTopics(retriever, materialId) };
      response.json(reply);
    }),
  );

  router.post(
    '/:id/quiz',
    route(async (request, response) => {
      const grant = await access.accountOrClassToken(request, response);
      const materialId = String(request.params.id);
      await access.authorizeMaterialRead(request, response, materialId);
      const body = parseOrThrow(GenerateQuizBody, request.body ?? {});
      const classId = await quizClass(grant, body.classId, request, response, access);
      const format = body.format;
      if (isTypedFormat(format)) {
        let typed: TypedGeneration | undefined;
        let typedSource: QuizSource | undefined;
        const quiz = await chargedToClass(quotas, classId, () =>
          runBilledTo(grant.accountId, async () => {
            const signal = abortedWith(response);
            const scope = { chapter: body.chapter, topic: body.topic, focus: body.focus, difficulty: body.difficulty };
            typedSource = await loadQuizSource(materials, retriever, materialId, scope, { signal });
            const seed = newSeed();
            typed = await generateTypedItems({ model, source: typedSource, format, difficulty: body.difficulty, scopeLabel: body.chapter === undefined ? '이 자료' : '이 장', seed, signal, logger: log, guard });
            return quizzes.create(classId, { title: body.title ?? `${typedSource.title} 퀴즈`.slice(0, 100), items: typed.items, materialId }, { seed });
          }),
        );
        await ownership.setOwner('quiz', quiz.quizId, grant.accountId, quiz.createdAt);
        response.status(201).json({
          ...created(quiz),
          ...(typedSource ? { generation: generationReport(typedSource, body.topic) } : {}),
          ...(typed?.shortfall ? { shortfall: typed.shortfall } : {}),
        });
        return;
      }
      // Charged to the class's quiz quota and billed to the owner account (the daily model budget).
      let generation: JudgedQuiz | undefined;
      const quiz = await chargedToClass(quotas, classId, () =>
        runBilledTo(grant.accountId, async () => {
          // Every item goes through the EvalAgent gate before the quiz is stored.
          generation = await generateJudgedQuiz({
            judge,
            model,
            materials,
            retriever,
            materialId,
            chapter: body.chapter,
            topic: body.topic,
            focus: body.focus,
            difficulty: body.difficulty,
            // Each generation its own seed: the same material never gives a predictable answer key.
            seed: newSeed(),
            signal: abortedWith(response),
            logger: log,
            guard,
          });
          const { source, seed, reviews } = generation;
          const items =
            body.format === 'short'
              ? toShortItems(generation.items, { passages: source.retrieval.passages.map((passage) => passage.text), titles: [source.title], materialId, guard }).items
              : generation.items;
          return quizzes.create(classId, { title: body.title ?? `${source.title} 퀴즈`.slice(0, 100), items, materialId: source.materialId }, { seed, reviews });
        }),
      );
      await ownership.setOwner('quiz', quiz.quizId, grant.accountId, quiz.createdAt);
      response.status(201).json({
        ...created(quiz),
        ...(generation ? { gate: gateSummary(generation), generation: generationReport(generation.source, body.topic) } : {}),
        // Fewer items than asked, from a deterministic model: what it could make, and why (a Korean sentence).
        ...(generation?.shortfall ? { shortfall: generation.shortfall } : {}),
      });
    }),
  );

  return router;
}

/**
 * How the passages were found (seed 001 result metadata): the query, the filters asked and those left after
 * relaxing, what was relaxed, and the passages (without their text; each item's `sources` name the ones it used).
 */
function generationReport(source: QuizSource, topic: string | undefined) {
  const { query, filters, applied, relaxed, passages } = source.retrieval;
  return {
    topic: topic ?? 'general',
    query,
    filters,
    applied,
    relaxed,
    passages: passages.map(({ chunkId, chapter, chapterTitle, startPage, endPage, documentType, level }) => ({
      chunkId,
      chapter,
      chapterTitle,
      startPage,
      endPage,
      documentType,
      level,
    })),
  };
}

const isTypedFormat = (format: string | undefined): format is TypedFormat => (TYPED_FORMATS as readonly string[]).includes(format ?? '');

/** A quiz of a class counts against that class's quizzes (QUOTA); an account's quiz outside any class does not. */
function chargedToClass(quotas: Quotas, classId: string, create: () => Promise<Quiz>): Promise<Quiz> {
  return classId === '' ? create() : quotas.chargeQuiz(classId, create);
}

