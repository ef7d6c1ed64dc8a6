import { OwnershipRepository } from '../ownership/index.js';
import { quizLifecycle } from '../quiz/index.js';
import type { Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';

/** The pictures a quiz shows (src/quiz/ QuizImages satisfies it): each goes when no other quiz shows it. */
export interface QuizImageParts {
  quizDeleted(quizId: string, imageIds: readonly string[]): Promise<void>;
  /** The class is gone: the pictures its instructor token uploaded that no quiz shows go too. */
  classDeleted(classId: string, accountId: string): Promise<void>;
  /**
   * The retention purge: of the `limit` oldest pictures queued, those uploaded at or before `before` that no quiz
   * shows are deleted (their bytes credited back); `more` when the batch was all due.
   */
  purgeUnused(before: number, limit: number): Promise<{ purged: number; more: boolean }>;
  /** Queues, once, the pictures uploaded before the purge's queue existed (from these accounts' lists). */
  queueEarlierUploads?(accountIds: AsyncIterable<string>): Promise<number>;
}

/**
 * Deletion of a quiz: the quiz (items with solutions), its list entry, its class's index entry, the answers and
 * verdicts of seed 001's API on its items, and the uploaded pictures its items show that no other quiz shows (their
 * blobs, records and quota bytes). The rooms played with it are not deleted with it: their results carry the
 * questions they asked and stay the class's record until the room (or the class) is deleted or the retention purge
 * takes them.
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

  /** The class of the quiz, or null when there is no such quiz. */
  owner(quizId: string): Promise<string | null> {
    return quizLifecycle.quizClass(this.store, quizId);
  }

  /** Deletes the quiz; false when there was none. `classId` is passed when known (a class deletion). */
  async delete(quizId: string, classId?: string): Promise<boolean> {
    const images = await quizLifecycle.quizImages(this.store, quizId);
    const owner = classId ?? (await this.owner(quizId));
    const removed = await quizLifecycle.deleteQuiz(this.store, quizId, owner);
    if (owner && removed) await this.quotas?.quizDeleted(owner);
    // its owner, the account's list entry and the quiz's room index (the rooms themselves stay, see above).
    await this.ownership.forgetQuiz(quizId);
    if (images.length > 0) await this.images?.quizDeleted(quizId, images);
    return removed;
  }
}
