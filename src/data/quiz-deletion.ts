import { z } from 'zod';
import { OwnershipRepository } from '../ownership/index.js';
import { keys, type Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';
import { safeJson } from './room-deletion.js';

const StoredQuiz = z.object({ classId: z.string(), items: z.array(z.object({ image: z.string().optional() }).loose()).catch([]) });

/** The pictures a quiz shows (src/quiz/ QuizImages satisfies it): each goes when no other quiz shows it. */
export interface QuizImageParts {
  quizDeleted(quizId: string, imageIds: readonly string[]): Promise<void>;
  /** The class is gone: the pictures its instructor token uploaded that no quiz shows go too. */
  classDeleted(classId: string, accountId: string): Promise<void>;
}

/**
 * Deletion of a quiz: the quiz (items with solutions), its list entry and its class's index entry, and the uploaded
 * pictures its items show that no other quiz shows (their blobs, records and quota bytes). The rooms played
 * with it are not deleted with it: their results carry the questions they asked and stay the class's record until
 * the room (or the class) is deleted or the retention purge takes them.
 */
export class QuizDeletion {
  private readonly ownership: OwnershipRepository;

  constructor(
    private readonly store: Store,
    private readonly quotas?: QuotaReleases,
    private readonly images?: QuizImageParts,
  ) {
    this.ownership = new OwnershipRepository(store);
  }

  private async stored(quizId: string): Promise<z.infer<typeof StoredQuiz> | null> {
    const raw = await this.store.get(keys.quiz(quizId));
    const parsed = raw === null ? null : StoredQuiz.safeParse(safeJson(raw));
    return parsed?.success ? parsed.data : null;
  }

  /** The class of the quiz, or null when there is no such quiz. */
  async owner(quizId: string): Promise<string | null> {
    return (await this.stored(quizId))?.classId ?? null;
  }

  /** Deletes the quiz; false when there was none. `classId` is passed when known (a class deletion). */
  async delete(quizId: string, classId?: string): Promise<boolean> {
    const stored = await this.stored(quizId);
    const owner = classId ?? stored?.classId ?? null;
    const images = [...new Set((stored?.items ?? []).flatMap((item) => (typeof item.image === 'string' ? [item.image] : [])))];
    const removed = await this.store.del(keys.quiz(quizId), keys.quizSummary(quizId));
    if (owner) await this.store.zrem(keys.classQuizzes(owner), quizId);
    if (owner && removed > 0) await this.quotas?.quizDeleted(owner);
    // its owner, the account's list entry and the quiz's room index (the rooms themselves stay, see above).
    await this.ownership.forgetQuiz(quizId);
    if (images.length > 0) await this.images?.quizDeleted(quizId, images);
    return removed > 0;
  }
}
