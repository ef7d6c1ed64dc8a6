import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Page, PageRequest } from '../protocol/page.js';
import { ItemReview, RoomItem, type CreateQuizBody, type Quiz } from '../protocol/quiz.js';
import type { QuizSummary as WireQuizSummary } from '../protocol/wire/quiz.js';
import type { Logger } from '../kernel/index.js';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { pageOfIndex, readJsonRecord, type Store } from '../store/index.js';
import { QUIZ_SEED } from './quiz-seed.js';
import { quizKeys } from './quiz-keys.js';

/**
 * Quizzes in the store: one JSON value per quiz (title, items with their solutions, owning class), written once and
 * never changed, with no TTL (rooms and results refer to them long after they are made), its list entry (a small
 * summary, so a list never reads whole quizzes: 1,000 quizzes of 54 KB read at once stalled every other user of the
 * Redis connection) and a per-class index scored by creation time. What is read back is parsed with the same strict
 * item schema it was written with.
 *
 * A list entry names the quiz's class (`classId`, '' outside any class) so "내 퀴즈" can link a quiz to its class.
 * Entries written before that carry no `classId` and still parse: a class's list gives them the class it lists, an
 * account's list reads the quiz once and writes the completed entry back (as for an entry that is missing).
 */

/** Quiz ids: 128 random bits as 32 hex characters (URL-safe, not guessable). */
export const QUIZ_ID = /^[0-9a-f]{32}$/;

/** The per-quiz edit lease: held for one read and one write; a crashed holder frees it after this. */
const EDIT_LOCK_MS = 5_000;
const EDIT_WAIT_MS = 3_000;

const StoredQuiz = z.object({
  quizId: z.string().regex(QUIZ_ID),
  classId: z.string(),
  title: z.string().min(1),
  items: z.array(RoomItem).min(1),
  materialId: z.string().min(1).optional(),
  createdAt: z.number().int(),
  seed: z.string().regex(QUIZ_SEED).optional(),
  reviews: z.record(z.string(), ItemReview).optional(),
});

const QuizSummary = z.object({
  quizId: z.string().regex(QUIZ_ID),
  classId: z.string(),
  title: z.string(),
  itemCount: z.number().int().min(0),
  createdAt: z.number().int(),
}) satisfies z.ZodType<WireQuizSummary>;
export type QuizSummary = z.infer<typeof QuizSummary>;

/** A stored list entry: the current shape, or one written before list entries named the class. */
const StoredSummary = QuizSummary.extend({ classId: z.string().optional() });

const summaryOf = (quiz: Quiz): QuizSummary => ({
  quizId: quiz.quizId,
  classId: quiz.classId,
  title: quiz.title,
  itemCount: quiz.items.length,
  createdAt: quiz.createdAt,
});

export class QuizRepository {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
    private readonly logger?: Logger,
  ) {}

  /**
   * Stores a new quiz of the class; the body is already validated (CreateQuizBody). A generated quiz keeps the seed
   * it was generated with (quiz-seed.ts).
   */
  async create(classId: string, body: CreateQuizBody, generated?: { seed: string; reviews?: Record<string, ItemReview> }): Promise<Quiz> {
    const quiz: Quiz = {
      quizId: randomUUID().replaceAll('-', ''),
      classId,
      title: body.title,
      items: body.items,
      ...(body.materialId === undefined ? {} : { materialId: body.materialId }),
      createdAt: this.now(),
      ...(generated ? { seed: generated.seed } : {}),
      ...(generated?.reviews === undefined ? {} : { reviews: generated.reviews }),
    };
    // The quiz and its list entry first, then the index: an index entry always points at a quiz that exists.
    await this.store.set(quizKeys.quiz(quiz.quizId), JSON.stringify(quiz));
    await this.store.set(quizKeys.quizSummary(quiz.quizId), JSON.stringify(summaryOf(quiz)));
    if (classId !== '') await this.store.zadd(quizKeys.classQuizzes(classId), quiz.createdAt, quiz.quizId);
    return quiz;
  }

  /** The quiz with its solutions, or null when there is none (or what is stored cannot be read). */
  async get(quizId: string): Promise<Quiz | null> {
    if (!QUIZ_ID.test(quizId)) return null;
    const stored = readJsonRecord(await this.store.get(quizKeys.quiz(quizId)), StoredQuiz, { key: quizKeys.quiz(quizId), logger: this.logger });
    if (!stored) return null;
    const { materialId, seed, reviews, ...rest } = stored;
    return {
      ...rest,
      ...(materialId === undefined ? {} : { materialId }),
      ...(seed === undefined ? {} : { seed }),
      ...(reviews === undefined ? {} : { reviews }),
    };
  }

  /**
   * Marks a generated item the gate did not pass as kept by its instructor (or no longer kept), rewriting the stored
   * quiz. Returns the updated review, or null when the quiz or the item's review does not exist. The rewrite holds a
   * short per-quiz lease, so two instructors' tabs keeping two items at once do not lose one another's change.
   */
  async setKept(quizId: string, itemId: string, kept: boolean): Promise<ItemReview | null> {
    const lock = quizKeys.quizEditLock(quizId);
    const owner = randomUUID();
    const giveUpAt = Date.now() + EDIT_WAIT_MS;
    let delay = 2;
    while (!(await this.store.acquireLease(lock, owner, EDIT_LOCK_MS))) {
      if (Date.now() > giveUpAt) throw new AppError(ErrorCode.SERVER_BUSY, '퀴즈를 고치는 중입니다. 잠시 후 다시 시도해 주세요.', { retryable: true });
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 50);
    }
    try {
      const quiz = await this.get(quizId);
      const review = quiz?.reviews?.[itemId];
      if (!quiz || review === undefined) return null;
      const updated: ItemReview = { ...review, kept };
      await this.store.set(quizKeys.quiz(quizId), JSON.stringify({ ...quiz, reviews: { ...quiz.reviews, [itemId]: updated } }));
      return updated;
    } finally {
      await this.store.releaseLease(lock, owner).catch((error: unknown) => {
        this.logger?.warn({ err: error, quizId }, 'quiz edit lease release failed; it expires by itself');
      });
    }
  }

  /**
   * One page of the class's quizzes, newest first, as list entries: three store calls whatever the class holds
   * (ZRANK, ZRANGE, one MGET of at most 50 small summaries). A quiz stored before summaries existed is read whole once
   * and gets its summary written (bounded by the page size); an old entry without its class gets this class.
   */
  async listByClass(classId: string, page: PageRequest): Promise<Page<QuizSummary>> {
    const { members, nextCursor } = await pageOfIndex(this.store, quizKeys.classQuizzes(classId), page, { reverse: true });
    return { items: await this.summaries(members, { classId }), nextCursor };
  }

  /**
   * List entries of quizzes by id, in the order asked (one MGET); quizzes that no longer exist are skipped. `known`
   * names the class all of them belong to, when the caller knows it (an entry written before entries named their
   * class is then completed without reading the quiz).
   */
  async summaries(members: readonly string[], known: { classId?: string } = {}): Promise<QuizSummary[]> {
    const raw = await this.store.mget(members.map((quizId) => quizKeys.quizSummary(quizId)));
    const items: QuizSummary[] = [];
    for (const [index, quizId] of members.entries()) {
      const stored = readJsonRecord(raw[index], StoredSummary, { key: quizKeys.quizSummary(quizId), logger: this.logger });
      const summary = stored ? await this.completed(stored, known.classId) : await this.backfillSummary(quizId);
      if (summary) items.push(summary);
    }
    return items;
  }

  /**
   * A stored entry with its class. One that predates `classId` takes the class being listed (nothing written), or
   * else is rebuilt from the quiz and written back, so an account's list reads each old quiz whole only once.
   */
  private async completed(stored: z.infer<typeof StoredSummary>, knownClassId: string | undefined): Promise<QuizSummary | null> {
    const classId = stored.classId ?? knownClassId;
    if (classId === undefined) return this.backfillSummary(stored.quizId);
    return { quizId: stored.quizId, classId, title: stored.title, itemCount: stored.itemCount, createdAt: stored.createdAt };
  }

  private async backfillSummary(quizId: string): Promise<QuizSummary | null> {
    const quiz = await this.get(quizId);
    if (!quiz) return null;
    const summary = summaryOf(quiz);
    await this.store.set(quizKeys.quizSummary(quizId), JSON.stringify(summary));
    return summary;
  }
}
