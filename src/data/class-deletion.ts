import { OwnershipRepository } from '../ownership/index.js';
import { keys, type Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';
import type { CourseParts, ExamParts } from './owner-parts.js';
import { DELETE_BATCH, deleteQualitySamples, drainIndex } from './deletion-batches.js';
import type { QuizDeletion, QuizImageParts } from './quiz-deletion.js';
import { roomLive, type RoomDeletion } from './room-deletion.js';
import { sessionKeys } from './session-keys.js';

/**
 * Deletion of a class and everything that hangs off it: its students (roster entries, and each student's session
 * with its log, transcript, driver lease and usage: their answers, verdicts and hand dialogues), nicknames, join
 * code, record, the index of math sets shared with it (the sets stay: their owner's), and its quizzes and quiz rooms (with their results). A user deleting a class expects its answers
 * and results gone, so quizzes and rooms go too; a material the class used is shared and stays.
 *
 * Sessions driven on this node are stopped first; one driven by another node stops there when its lease renewal
 * fails (it may take the lease once more: a key with a few seconds' TTL, never data).
 *
 * Bounded: students, quizzes and rooms are drained from their indexes a batch at a time. Rooms are checked first,
 * so a class with a room still being played is refused (ROOM_LIVE) before anything is deleted.
 */
/** The lecture's side: stop driving a session on this node before its keys go (else its lease renewal writes one back). */
export interface SessionDrivers {
  end(sessionId: string): Promise<void>;
}

export class ClassDeletion {
  constructor(
    private readonly store: Store,
    private readonly quizzes: QuizDeletion,
    private readonly rooms: RoomDeletion,
    private readonly drivers: SessionDrivers,
    private readonly quotas?: QuotaReleases,
    private readonly exams?: ExamParts,
    private readonly courses?: CourseParts,
    private readonly images?: QuizImageParts,
  ) {}

  /** Deletes the class; false when there was no such class. */
  async delete(classId: string): Promise<boolean> {
    const { store } = this;
    const record = await store.hgetall(keys.classRecord(classId));
    if (record.code === undefined) return false;
    // A live room refuses the whole deletion while nothing is deleted yet (read a batch at a time).
    const rooms = await store.zcard(keys.classRooms(classId));
    for (let start = 0; start < rooms; start += DELETE_BATCH) {
      const batch = await store.zrange(keys.classRooms(classId), start, start + DELETE_BATCH - 1);
      for (const { member } of batch) if (await this.rooms.isLive(member)) throw roomLive();
    }
    await drainIndex(store, keys.classRooms(classId), async (roomIds) => {
      for (const roomId of roomIds) await this.rooms.delete(roomId);
    });
    // The record and the code next: nobody joins any more while the rest goes.
    if ((await store.get(keys.classCode(record.code))) === classId) await store.del(keys.classCode(record.code));
    await store.del(keys.classRecord(classId));
    await drainIndex(store, keys.classStudents(classId), async (sessionIds) => {
      await Promise.all(sessionIds.map((sessionId) => this.drivers.end(sessionId)));
      await store.del(...sessionIds.flatMap((sessionId) => [keys.classStudent(classId, sessionId), ...sessionKeys(sessionId)]));
      for (const sessionId of sessionIds) await deleteQualitySamples(store, 'session', sessionId);
    });
    await drainIndex(store, keys.classQuizzes(classId), async (quizIds) => {
      for (const quizId of quizIds) await this.quizzes.delete(quizId, classId);
    });
    // The self-study items its students were served (with their recorded answers).
    await drainIndex(store, keys.selfQuizIndex('class', classId), async (quizIds) => {
      await store.del(...quizIds.map((quizId) => keys.selfQuizItem(quizId)));
    });
    // The exams published to it, with every student's drafts, submissions, grades and reports, and the learner profiles.
    await this.exams?.deleteForClass(classId);
    // An LMS course's record of the class: its members, passback states and its place in the platform's map.
    await this.courses?.deleteForClass(classId);
    await store.del(keys.classNicknames(classId), keys.classRosterNames(classId), keys.classMathSets(classId));
    await this.quotas?.classDeleted(classId);
    const ownership = new OwnershipRepository(store);
    // The pictures its instructor token uploaded that no quiz shows any more (its quizzes' went with them above).
    const owner = await ownership.ownerOf('class', classId);
    if (owner !== null) await this.images?.classDeleted(classId, owner);
    await ownership.forget('class', classId);
    return true;
  }
}
