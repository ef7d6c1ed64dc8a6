import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { LanguageModel } from '../llm/index.js';
import { ItemReview, QuizItem, type Difficulty, type QuizTopicName } from '../protocol/quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Retriever } from '../retrieval/index.js';
import { RETENTION, readJsonRecord, type Store } from '../store/index.js';
import type { GuardReport } from '../guard/index.js';
import { shortfallMessage, type GenerationShortfall } from '../protocol/wire/shortfall.js';
import type { SelfQuizFilterOutcome } from '../protocol/wire/self-quiz.js';
import type { QuizRetrieval } from './quiz-passages.js';
import type { EvalAgent, EvalPassage, EvalVerdict } from './eval-agent.js';
import { heuristicDocumentType } from '../retrieval/index.js';
import { difficultyPlan, newItemId, type QuizMaterialSource } from './quiz-agent.js';
import { generateJudgedQuiz } from './quiz-gate.js';
import { quizKeys } from './quiz-keys.js';

/**
 * Self-study over seed 001's API: five items written by the QuizAgent for one material (a chapter of
 * it, a topic, a difficulty), judged by the EvalAgent gate, and only the items that passed are served. Each served
 * item is its own record in the store with a TTL ({@link SELF_QUIZ_TTL_MS}), never in process memory, so any node
 * answers it: the item with its solution, the material, who asked for it (the scope), and its gate review. The first
 * answer is a fact written once (HSETNX); answering again is allowed (it is self-study) and is graded, but the
 * first answer stays the recorded one. Only the scope that started an item may answer or evaluate it; for anyone
 * else it does not exist.
 */

export const SELF_QUIZ_TTL_MS = RETENTION.selfQuizMs;
const MAX_ID_DRAWS = 20;

/** Who asked: an instructor account, or a student of a class (by their tutoring session). */
export type SelfStudyScope = { kind: 'account'; accountId: string } | { kind: 'student'; classId: string; sessionId: string };

const ScopeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('account'), accountId: z.string() }),
  z.object({ kind: z.literal('student'), classId: z.string(), sessionId: z.string() }),
]);

export const StoredItem = z.object({
  item: QuizItem,
  materialId: z.string(),
  chapter: z.number().int().nullable(),
  topic: z.string(),
  scope: ScopeSchema,
  review: ItemReview,
  createdAt: z.number(),
});
export type StoredItem = z.infer<typeof StoredItem>;

export const StoredAnswer = z.object({ answer: z.number().int().min(0).max(3), correct: z.boolean(), at: z.number() });
export type StoredAnswer = z.infer<typeof StoredAnswer>;

export const StoredVerdict = z.object({
  grounding: z.number(),
  educational: z.number(),
  insight: z.number(),
  is_passed: z.boolean(),
  feedback: z.string(),
});
export type SelfStudyVerdict = z.infer<typeof StoredVerdict>;

/** The verdict a caller is shown; no verdict is QUIZ_NOT_JUDGED (retryable), never a score. */
export function shownVerdict(verdict: EvalVerdict, logger: Logger | undefined, context: Record<string, unknown>, message: string): SelfStudyVerdict {
  if (!verdict.judged) {
    logger?.warn({ ...context, reason: verdict.reason }, message);
    throw new AppError(ErrorCode.QUIZ_NOT_JUDGED, undefined, { retryable: true });
  }
  return { grounding: verdict.grounding, educational: verdict.educational, insight: verdict.insight, is_passed: verdict.is_passed, feedback: verdict.feedback };
}

/**
 * An item's verdict for one topic, judged once and kept in `field` of the item's hash: two evaluations at once keep
 * the first verdict written, which every later request reads.
 */
export async function keptVerdict(store: Store, key: string, field: string, logger: Logger | undefined, judge: () => Promise<SelfStudyVerdict>): Promise<SelfStudyVerdict> {
  const kept = readJsonRecord(await store.hget(key, field), StoredVerdict, { key, logger });
  if (kept) return kept;
  const result = await judge();
  await store.hsetnx(key, field, JSON.stringify(result), { ttlMs: SELF_QUIZ_TTL_MS });
  return readJsonRecord(await store.hget(key, field), StoredVerdict, { key, logger }) ?? result;
}

/** A served item as the student sees it: no answer, no explanation. */
export interface ServedItem {
  quizId: string;
  question: string;
  choices: string[];
  difficulty: Difficulty;
}

/** What `start` served, and what the request did not get: fewer items (and why), filters relaxed or ignored. */
export interface StartResult {
  items: ServedItem[];
  /** The material the items were written from. */
  materialId: string;
  filters: { topic: SelfQuizFilterOutcome; difficulty: SelfQuizFilterOutcome };
  /** Present when fewer than the plan's items are served. */
  shortfall?: GenerationShortfall;
}

/** What became of one filter of the request, from how the passages were found (quiz-passages.ts). */
export function filterOutcome(retrieval: QuizRetrieval, name: 'documentType' | 'level'): SelfQuizFilterOutcome {
  if (retrieval.filters[name] === undefined) return 'none';
  if (!retrieval.relaxed.includes(name)) return 'applied';
  return retrieval.matchedBeforeRelaxing?.[name] === 0 ? 'ignored' : 'relaxed';
}

export interface AnswerOutcome {
  quizId: string;
  answer: number;
  correct: boolean;
  item: QuizItem;
  /** The first answer given to the item (this one when `first`). */
  recorded: StoredAnswer;
  first: boolean;
}

/** Told about every first answer (the class monitor shows a student's self-study score). */
export interface SelfStudyObserver {
  answered(scope: SelfStudyScope, outcome: { quizId: string; correct: boolean }): Promise<void>;
}

export interface SelfStudyOptions {
  store: Store;
  model: LanguageModel;
  materials: QuizMaterialSource;
  retriever: Retriever;
  judge: EvalAgent;
  logger?: Logger | undefined;
  guard?: GuardReport | undefined;
  observer?: SelfStudyObserver | undefined;
  now?: () => number;
  /** Item ids (random 8 hex unless a test forces collisions). */
  newId?: () => string;
}

export interface StartOptions {
  scope: SelfStudyScope;
  materialId: string;
  topic: QuizTopicName;
  difficulty?: Difficulty | undefined;
  chapter?: number | undefined;
  /** the account the model calls are billed to. */
  billTo?: string | undefined;
  signal?: AbortSignal | undefined;
}

const itemNotFound = () => new AppError(ErrorCode.QUIZ_NOT_FOUND, '퀴즈 문항을 찾을 수 없습니다. 시간이 지나 사라졌을 수 있으니 새 퀴즈를 시작해 주세요.');

function sameScope(a: SelfStudyScope, b: SelfStudyScope): boolean {
  if (a.kind === 'account') return b.kind === 'account' && a.accountId === b.accountId;
  return b.kind === 'student' && a.classId === b.classId && a.sessionId === b.sessionId;
}

export class SelfStudy {
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: SelfStudyOptions) {
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? (() => newItemId(new Set()));
  }

  /**
   * Writes and judges five items (the gate writes again only the ones it refused, three rounds at most) and stores
   * those that passed. Fewer than five is not an error: the result's `shortfall` says how many and why — the
   * material bears fewer (`too-little-material`) or the gate kept refusing some (`items-refused`). None at all is
   * 422 TOO_LITTLE_MATERIAL from a deterministic model that judged every item, else 502 QUIZ_GATE_FAILED. Errors of
   * the generation (404 MATERIAL_NOT_FOUND, 400 for a chapter the material lacks, model errors) pass through.
   */
  async start(request: StartOptions): Promise<StartResult> {
    const { store, logger } = this.options;
    const judged = await generateJudgedQuiz({
      model: this.options.model,
      materials: this.options.materials,
      retriever: this.options.retriever,
      judge: this.options.judge,
      materialId: request.materialId,
      chapter: request.chapter,
      topic: request.topic,
      difficulty: request.difficulty,
      accountId: request.billTo,
      signal: request.signal,
      logger,
      guard: this.options.guard,
    });
    const passed = judged.items.filter((item) => item.quizId !== undefined && judged.reviews[item.quizId]?.is_passed === true);
    const judgedAll = Object.values(judged.reviews).every((review) => review.judged);
    if (passed.length === 0 && this.options.model.capabilities.deterministic && judgedAll) {
      // Every item judged and failed, by a model that writes the same again: not a server error to retry, but a
      // material (or chapter) that gives no sound item. A judge that gave no verdict is still 502 below.
      throw new AppError(ErrorCode.TOO_LITTLE_MATERIAL, '이 자료(또는 장)에서는 검증을 통과하는 퀴즈 문항을 만들 수 없습니다. 다른 장이나 주제를 골라 주세요.');
    }
    if (passed.length === 0) {
      throw new AppError(ErrorCode.QUIZ_GATE_FAILED, '검증을 통과한 문제가 없어 퀴즈를 내지 못했습니다. 잠시 후 다시 시도하거나 다른 주제를 골라 주세요.', { retryable: true });
    }
    const served: ServedItem[] = [];
    const createdAt = this.now();
    for (const item of passed) {
      const review = judged.reviews[item.quizId as string] as ItemReview;
      const stored = (quizId: string): StoredItem => ({
        item: { ...item, quizId },
        materialId: judged.source.materialId,
        chapter: request.chapter ?? null,
        topic: request.topic,
        scope: request.scope,
        review,
        createdAt,
      });
      // The id is 8 hex characters (drawn here, unique in the store rather than only within the quiz): another
      // user's item may hold it. HSETNX never overwrites; draw again instead.
      let quizId = this.newId();
      let draws = 1;
      while (!(await store.hsetnx(quizKeys.selfQuizItem(quizId), 'record', JSON.stringify(stored(quizId)), { ttlMs: SELF_QUIZ_TTL_MS }))) {
        // 2^32 ids: many collisions in a row mean a broken id source, not bad luck.
        if (draws >= MAX_ID_DRAWS) throw new Error(`self-study: ${MAX_ID_DRAWS} quiz ids in a row were taken`);
        quizId = this.newId();
        draws += 1;
      }
      // Indexed by material (and class) so their deletion finds the items before the items expire by themselves.
      await store.zadd(quizKeys.selfQuizIndex('material', judged.source.materialId), createdAt, quizId, { ttlMs: SELF_QUIZ_TTL_MS });
      if (request.scope.kind === 'student') await store.zadd(quizKeys.selfQuizIndex('class', request.scope.classId), createdAt, quizId, { ttlMs: SELF_QUIZ_TTL_MS });
      served.push({ quizId, question: item.question, choices: [...item.choices], difficulty: item.difficulty });
    }
    const requested = difficultyPlan(request.difficulty).length;
    const scopeLabel = request.chapter === undefined ? '이 자료' : '이 장';
    // The writer's own shortfall is the material's; otherwise the gate refused what is missing.
    const materialShort = judged.shortfall !== undefined;
    const shortfall: GenerationShortfall | undefined =
      served.length >= requested
        ? undefined
        : {
            requested,
            made: served.length,
            reason: materialShort ? 'too-little-material' : 'items-refused',
            message: materialShort
              ? shortfallMessage(scopeLabel, served.length, requested)
              : `${scopeLabel}에서 검증을 통과한 문항은 ${served.length}개입니다(요청 ${requested}개). 통과하지 못한 문항은 세 번까지 다시 써 보았지만 내지 않았습니다.`,
          };
    if (shortfall) logger?.info({ materialId: judged.source.materialId, ...shortfall }, 'self-study quiz served short');
    const { retrieval } = judged.source;
    return {
      items: served,
      materialId: judged.source.materialId,
      filters: { topic: filterOutcome(retrieval, 'documentType'), difficulty: filterOutcome(retrieval, 'level') },
      ...(shortfall === undefined ? {} : { shortfall }),
    };
  }

  /** Grades an answer by index on the server; the first answer to the item is recorded once (first write wins). */
  async answer(scope: SelfStudyScope, quizId: string, answer: number): Promise<AnswerOutcome> {
    const { store } = this.options;
    const stored = await this.load(scope, quizId);
    const correct = answer === stored.item.answer;
    const mine: StoredAnswer = { answer, correct, at: this.now() };
    const key = quizKeys.selfQuizItem(quizId);
    // The TTL goes with the write: an item that expired just now leaves an `answer` field that expires too.
    const first = await store.hsetnx(key, 'answer', JSON.stringify(mine), { ttlMs: SELF_QUIZ_TTL_MS });
    const recorded = first ? mine : (readJsonRecord(await store.hget(key, 'answer'), StoredAnswer, { key, logger: this.options.logger }) ?? mine);
    if (first) {
      try {
        await this.options.observer?.answered(scope, { quizId, correct });
      } catch (error) {
        // The answer is recorded; a monitor that cannot be told must not turn it into an error for the student.
        this.options.logger?.warn({ err: error, quizId }, 'self-study answer not reported to the monitor');
      }
    }
    return { quizId, answer, correct, item: stored.item, recorded, first };
  }

  /**
   * Seed 001 §3 for a served item and a topic: the gate's own verdict when it judged for this topic, else one the
   * EvalAgent gives now (kept with the item, so asking again costs nothing). No verdict is 502 QUIZ_NOT_JUDGED,
   * never a score.
   */
  async evaluate(scope: SelfStudyScope, quizId: string, topic: QuizTopicName, options: { billTo?: string | undefined; signal?: AbortSignal | undefined } = {}): Promise<SelfStudyVerdict> {
    const { store, logger } = this.options;
    const stored = await this.load(scope, quizId);
    const { review } = stored;
    if (stored.topic === topic && review.judged && review.grounding !== null && review.educational !== null && review.insight !== null) {
      return { grounding: review.grounding, educational: review.educational, insight: review.insight, is_passed: review.is_passed, feedback: review.feedback };
    }
    return keptVerdict(store, quizKeys.selfQuizItem(quizId), `eval:${topic}`, logger, async () =>
      shownVerdict(await this.options.judge.judge(stored.item, { materialId: stored.materialId, topic, accountId: options.billTo, signal: options.signal }), logger, { quizId, topic }, 'self-study item not judged'),
    );
  }

  /**
   * Seed 001's code-level EvalAgent call: quiz data the caller wrote, judged against the passage it sends (`source`)
   * or the passages its question retrieves from `materialId`. Nothing is stored. Quiz data that is no sound item
   * (repeated choices) is 400 INVALID_PAYLOAD; no verdict is 502 QUIZ_NOT_JUDGED, never a score.
   */
  async evaluateData(
    data: { question: string; choices: string[]; answer: number; explanation: string; difficulty?: Difficulty | undefined },
    topic: QuizTopicName,
    options: { materialId?: string | undefined; source?: string | undefined; billTo?: string | undefined; signal?: AbortSignal | undefined },
  ): Promise<SelfStudyVerdict> {
    const parsed = QuizItem.safeParse({ ...data, difficulty: data.difficulty ?? 'medium' });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError(ErrorCode.INVALID_PAYLOAD, `요청 형식이 올바르지 않습니다. quiz_data: ${issue?.message ?? '문항이 올바르지 않습니다.'}`);
    }
    const passages: EvalPassage[] | undefined =
      options.source === undefined
        ? undefined
        : [{ chunkId: 'given', text: options.source, chapter: 0, chapterTitle: '', startPage: 1, endPage: 1, documentType: heuristicDocumentType(options.source), level: 'working', given: true }];
    const verdict = await this.options.judge.judge(parsed.data, { materialId: options.materialId, passages, topic, accountId: options.billTo, signal: options.signal });
    return shownVerdict(verdict, this.options.logger, { topic }, 'quiz data not judged');
  }

  /** The item for the scope that started it; 404 for a missing, expired or someone else's item alike. */
  private async load(scope: SelfStudyScope, quizId: string): Promise<StoredItem> {
    const key = quizKeys.selfQuizItem(quizId);
    const stored = readJsonRecord(await this.options.store.hget(key, 'record'), StoredItem, { key, logger: this.options.logger });
    if (!stored || !sameScope(stored.scope, scope)) throw itemNotFound();
    return stored;
  }
}
