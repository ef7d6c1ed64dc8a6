import { OwnershipRepository } from '../ownership/index.js';
import { quizLifecycle } from '../quiz/index.js';
import type { Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';

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
  owner(quizId: string): Promise<string | null> {
    return quizLifecycle.quizClass(this.store, quizId);
  }

  /** Deletes the quiz; false when there was none. `classId` is passed when known (a class deletion). */
  async delete(quizId: string, classId?: string): Promise<boolean> {
    const owner = classId ?? (await this.owner(quizId));
    const removed = await quizLifecycle.deleteQuiz(this.store, quizId, owner);
    if (owner && removed) await this.quotas?.quizDeleted(owner);
    // its owner, the account's list entry and the quiz's room index (the rooms themselves stay, see above).
    await this.ownership.forgetQuiz(quizId);
    return removed;
  }
}
