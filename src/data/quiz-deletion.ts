import { z } from 'zod';
import { OwnershipRepository } from '../ownership/index.js';
import { keys, type Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';
import { safeJson } from './room-deletion.js';

const StoredQuiz = z.object({ classId: z.string() });

/**
 * Deletion of a quiz: the quiz (items with solutions), its list entry, its class's index entry and the answers and
 * verdicts of seed 001's API on its items. The rooms played with it are not deleted with it: their results carry the
 * questions they asked and stay the class's record until the room (or the class) is deleted or the retention purge
 * takes them.
 */
export class QuizDeletion {
  private readonly ownership: OwnershipRepository;

  constructor(
    private readonly store: Store,
    private readonly quotas?: QuotaReleases,
  ) {
    this.ownership = new OwnershipRepository(store);
  }

  /** The class of the quiz, or null when there is no such quiz. */
  async owner(quizId: string): Promise<string | null> {
    const raw = await this.store.get(keys.quiz(quizId));
    const parsed = raw === null ? null : StoredQuiz.safeParse(safeJson(raw));
    return parsed?.success ? parsed.data.classId : null;
  }

  /** Deletes the quiz; false when there was none. `classId` is passed when known (a class deletion). */
  async delete(quizId: string, classId?: string): Promise<boolean> {
    const owner = classId ?? (await this.owner(quizId));
    const removed = await this.store.del(keys.quiz(quizId), keys.quizSummary(quizId), keys.classQuizItems(quizId));
    if (owner) await this.store.zrem(keys.classQuizzes(owner), quizId);
    if (owner && removed > 0) await this.quotas?.quizDeleted(owner);
    // its owner, the account's list entry and the quiz's room index (the rooms themselves stay, see above).
    await this.ownership.forgetQuiz(quizId);
    return removed > 0;
  }
}
