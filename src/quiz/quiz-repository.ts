import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { QuizItem, type CreateQuizBody, type Quiz } from '../protocol/quiz.js';
import { keys } from '../store/keys.js';
import type { Store } from '../store/store.js';

/**
 * Quizzes in the store: one JSON value per quiz (title, items with their solutions, owning class), written once and
 * never changed, with no TTL (rooms and results refer to them long after they are made), and a per-class index
 * scored by creation time. What is read back is parsed with the same strict item schema it was written with.
 */

/** Quiz ids: 128 random bits as 32 hex characters (URL-safe, not guessable). */
export const QUIZ_ID = /^[0-9a-f]{32}$/;

const StoredQuiz = z.object({
  quizId: z.string().regex(QUIZ_ID),
  classId: z.string().min(1),
  title: z.string().min(1),
  items: z.array(QuizItem).min(1),
  materialId: z.string().min(1).optional(),
  createdAt: z.number().int(),
});

export interface QuizSummary {
  quizId: string;
  title: string;
  itemCount: number;
  createdAt: number;
}

export class QuizRepository {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  /** Stores a new quiz of the class; the body is already validated (CreateQuizBody). */
  async create(classId: string, body: CreateQuizBody): Promise<Quiz> {
    const quiz: Quiz = {
      quizId: randomUUID().replaceAll('-', ''),
      classId,
      title: body.title,
      items: body.items,
      ...(body.materialId === undefined ? {} : { materialId: body.materialId }),
      createdAt: this.now(),
    };
    // The quiz first, then the index: an index entry always points at a quiz that exists.
    await this.store.set(keys.quiz(quiz.quizId), JSON.stringify(quiz));
    await this.store.zadd(keys.classQuizzes(classId), quiz.createdAt, quiz.quizId);
    return quiz;
  }

  /** The quiz with its solutions, or null when there is none (or what is stored cannot be read). */
  async get(quizId: string): Promise<Quiz | null> {
    if (!QUIZ_ID.test(quizId)) return null;
    const raw = await this.store.get(keys.quiz(quizId));
    if (raw === null) return null;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return null;
    }
    const parsed = StoredQuiz.safeParse(json);
    if (!parsed.success) return null;
    const { materialId, ...rest } = parsed.data;
    return materialId === undefined ? rest : { ...rest, materialId };
  }

  /** The class's quizzes, newest first, without their items. */
  async listByClass(classId: string): Promise<QuizSummary[]> {
    const members = await this.store.zrange(keys.classQuizzes(classId), 0, -1, { reverse: true });
    const quizzes = await Promise.all(members.map(({ member }) => this.get(member)));
    return quizzes
      .filter((quiz): quiz is Quiz => quiz !== null)
      .map((quiz) => ({ quizId: quiz.quizId, title: quiz.title, itemCount: quiz.items.length, createdAt: quiz.createdAt }));
  }
}
