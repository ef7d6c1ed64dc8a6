import { Router, type NextFunction, type Request, type Response } from 'express';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { runBilledTo } from '../llm/index.js';
import { SelfQuizAnswerBody, SelfQuizEvaluateBody, SelfQuizEvaluateDataBody, SelfQuizStartBody, type SelfQuizAnswerReply, type SelfQuizEvaluateReply, type SelfQuizStartReply } from '../protocol/self-quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { isClassItemId, type ClassQuizItems, type SelfStudy, type SelfStudyScope, type SelfStudyVerdict } from '../quiz/index.js';
import { materialNotFound, type Authorizer } from './authorize.js';
import { bearerToken, signedBearer } from './bearer.js';
import { authorizeModelCall } from './model-guard.js';
import { requireAccount } from './principal.js';
import { httpStatusOf, parseOrThrow } from '../boundary/index.js';
import { abortedWith } from './client-gone.js';

/**
 * Seed 001's HTTP API for self-study, mounted at /api/quiz, with the seed's shapes:
 * - `POST /api/quiz/start {topic, difficulty?, materialId?, chapter?}` (the seed's body as written: `difficulty: null`
 *   is no filter, no `materialId` is the caller's default material) -> `{response: [{quiz_id, question, choices,
 *   difficulty}], agent_type: 'quiz', metadata: {topic, difficulty, count, materialId, chapter, filters, shortfall?}}`:
 *   only items that passed the EvalAgent gate, never an answer or explanation; fewer than five say why in
 *   `shortfall`, relaxed or ignored filters say so in `filters`; 422 TOO_LITTLE_MATERIAL or 502 QUIZ_GATE_FAILED when
 *   none passed
 * - `POST /api/quiz/answer {quiz_id, answer}` -> `{response: {quiz_id, is_correct, user_answer, correct_answer,
 *   correct_choice, explanation}, agent_type: 'quiz', metadata: {quiz_id, recorded_answer, recorded_correct,
 *   first_attempt}}`
 * - `POST /api/quiz/evaluate {quiz_id, topic}` -> `{response: {grounding_score, educational_score, insight_score,
 *   is_passed, feedback}, agent_type: 'eval', metadata: {topic}}`; 502 QUIZ_NOT_JUDGED when there is no verdict
 * - `POST /api/quiz/evaluate {quiz_data, topic, source?, materialId?}`: the seed's code-level EvalAgent call, quiz
 *   data judged against the passage sent or the material's retrieved passages; the same reply, nothing stored
 * Callers: an instructor account (cookie with CSRF, or an API token) on a material it owns or the sample; a student
 * with their class session token (`Authorization: Bearer`) on their session's material. Anyone else 401 before any
 * work; a self-study item is answered and evaluated only by the caller that started it (404 for anyone else). A class
 * quiz's item (`quiz_id` `<quiz id>:<index>`, ClassQuizItems) by the quiz's owner account and its class's students
 * (not while a room of it is played; a student evaluates only what they answered). The credential is checked before
 * the body.
 */

export interface SeedQuizRouterDeps {
  selfStudy: SelfStudy;
  /** `/answer` and `/evaluate` on a class quiz's items (`quiz_id` `<quiz id>:<index>`). */
  classItems: ClassQuizItems;
  access: Authorizer;
  signer: TokenSigner;
  /** A tutoring session's material, class and paying account (DataLifecycle.sessionProfile). */
  sessionProfile(sessionId: string): Promise<{ materialId: string; classId?: string | undefined; billTo?: string | undefined } | null>;
  /** The account's materials, most recently added first (at most `limit`): OwnershipRepository.page. */
  latestMaterial(accountId: string): Promise<string[]>;
  sampleId(): Promise<string>;
}

/** Who calls, what they may quiz on, and who pays for the model calls. */
interface Caller {
  scope: SelfStudyScope;
  /** The one material a student may use (their session's); undefined for an account (checked per material). */
  studentMaterial?: string;
  billTo: string | undefined;
}

type Handler = (request: Request, response: Response) => Promise<void>;
const route = (handler: Handler) => (request: Request, response: Response, next: NextFunction) => handler(request, response).catch(next);

export function createSeedQuizRouter({ selfStudy, classItems, access, signer, sessionProfile, latestMaterial, sampleId }: SeedQuizRouterDeps): Router {
  const router = Router();

  async function caller(request: Request, response: Response): Promise<Caller> {
    if (signedBearer(request)) {
      const token = bearerToken(signer, request, response, ['session']);
      const profile = await sessionProfile(token.sub);
      if (!profile) throw new AppError(ErrorCode.SESSION_NOT_FOUND, '강의 세션을 찾을 수 없습니다. 수업에 다시 참여해 주세요.');
      // A session outside any class is anyone's (the sample needs no account): it may not start model calls here.
      if (profile.classId === undefined) {
        throw new AppError(ErrorCode.FORBIDDEN, '혼자 퀴즈 풀기는 수업에 참여한 학생이나 로그인한 강사만 쓸 수 있습니다.');
      }
      const { billTo } = authorizeModelCall(response, { joined: { classId: profile.classId }, billTo: profile.billTo });
      return { scope: { kind: 'student', classId: profile.classId, sessionId: token.sub }, studentMaterial: profile.materialId, billTo };
    }
    let accountId: string;
    try {
      accountId = requireAccount(response).accountId;
    } catch (error) {
      if (error instanceof AppError && httpStatusOf(error) === 401) response.set('WWW-Authenticate', 'Bearer');
      throw error;
    }
    return { scope: { kind: 'account', accountId }, billTo: accountId };
  }

  /**
   * The material of a request that names none, as a client written to the seed sends it: a student's is their
   * session's (the class material); an account's is the one it added most recently, else the sample.
   */
  async function defaultMaterial(who: Caller): Promise<string> {
    if (who.studentMaterial !== undefined) return who.studentMaterial;
    if (who.scope.kind === 'account') {
      const [latest] = await latestMaterial(who.scope.accountId);
      if (latest !== undefined) return latest;
    }
    return sampleId();
  }

  /** The material a caller may use: the one it names (checked), else its default. */
  async function usableMaterial(who: Caller, response: Response, named: string | undefined): Promise<string> {
    const materialId = named ?? (await defaultMaterial(who));
    if (who.studentMaterial !== undefined) {
      if (materialId !== who.studentMaterial) throw materialNotFound();
    } else {
      await access.authorizeSessionMaterial(response, materialId);
    }
    return materialId;
  }

  /** `POST /evaluate` with `quiz_data` (SelfQuizEvaluateDataBody): quiz data judged without a served item. */
  async function evaluateData(who: Caller, request: Request, response: Response): Promise<void> {
    const body = parseOrThrow(SelfQuizEvaluateDataBody, request.body);
    const materialId = body.source !== undefined && body.materialId === undefined ? undefined : await usableMaterial(who, response, body.materialId);
    const verdict = await runBilledTo(who.billTo, () =>
      selfStudy.evaluateData(body.quiz_data, body.topic, { materialId, source: body.source, billTo: who.billTo, signal: abortedWith(response) }),
    );
    const reply: SelfQuizEvaluateReply = {
      response: evaluateResponse(verdict),
      agent_type: 'eval',
      metadata: { topic: body.topic, source: body.source === undefined ? 'material' : 'given', ...(materialId === undefined ? {} : { materialId }) },
    };
    response.json(reply);
  }

  router.post(
    '/start',
    route(async (request, response) => {
      const who = await caller(request, response);
      const body = parseOrThrow(SelfQuizStartBody, request.body);
      const materialId = await usableMaterial(who, response, body.materialId);
      const started = await runBilledTo(who.billTo, () =>
        selfStudy.start({
          scope: who.scope,
          materialId,
          topic: body.topic,
          difficulty: body.difficulty ?? undefined,
          chapter: body.chapter,
          billTo: who.billTo,
          signal: abortedWith(response),
        }),
      );
      const reply: SelfQuizStartReply = {
        response: started.items.map((item) => ({ quiz_id: item.quizId, question: item.question, choices: item.choices, difficulty: item.difficulty })),
        agent_type: 'quiz',
        metadata: {
          topic: body.topic,
          difficulty: body.difficulty ?? null,
          count: started.items.length,
          materialId: started.materialId,
          chapter: body.chapter ?? null,
          filters: started.filters,
          ...(started.shortfall === undefined ? {} : { shortfall: started.shortfall }),
        },
      };
      response.json(reply);
    }),
  );

  router.post(
    '/answer',
    route(async (request, response) => {
      const who = await caller(request, response);
      const body = parseOrThrow(SelfQuizAnswerBody, request.body);
      const outcome = isClassItemId(body.quiz_id)
        ? await classItems.answer(who.scope, body.quiz_id, body.answer)
        : await selfStudy.answer(who.scope, body.quiz_id, body.answer);
      const { item } = outcome;
      const reply: SelfQuizAnswerReply = {
        response: {
          quiz_id: outcome.quizId,
          is_correct: outcome.correct,
          user_answer: outcome.answer,
          correct_answer: item.answer,
          correct_choice: item.choices[item.answer] ?? '',
          explanation: item.explanation,
        },
        agent_type: 'quiz',
        metadata: { quiz_id: outcome.quizId, recorded_answer: outcome.recorded.answer, recorded_correct: outcome.recorded.correct, first_attempt: outcome.first },
      };
      response.json(reply);
    }),
  );

  router.post(
    '/evaluate',
    route(async (request, response) => {
      const who = await caller(request, response);
      if (typeof request.body === 'object' && request.body !== null && 'quiz_data' in request.body) {
        await evaluateData(who, request, response);
        return;
      }
      const body = parseOrThrow(SelfQuizEvaluateBody, request.body);
      const options = { billTo: who.billTo, signal: abortedWith(response) };
      const verdict = await runBilledTo(who.billTo, () =>
        isClassItemId(body.quiz_id) ? classItems.evaluate(who.scope, body.quiz_id, body.topic, options) : selfStudy.evaluate(who.scope, body.quiz_id, body.topic, options),
      );
      const reply: SelfQuizEvaluateReply = { response: evaluateResponse(verdict), agent_type: 'eval', metadata: { topic: body.topic } };
      response.json(reply);
    }),
  );

  return router;
}

/** The seed's evaluate response fields from the EvalAgent's verdict (the same for a stored item and given quiz data). */
function evaluateResponse(verdict: SelfStudyVerdict): SelfQuizEvaluateReply['response'] {
  return {
    grounding_score: verdict.grounding,
    educational_score: verdict.educational,
    insight_score: verdict.insight,
    is_passed: verdict.is_passed,
    feedback: verdict.feedback,
  };
}
