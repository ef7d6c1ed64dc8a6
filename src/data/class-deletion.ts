import { classLifecycle } from '../classroom/index.js';
import { lectureLifecycle } from '../lecture/index.js';
import { deleteUsage } from '../llm/index.js';
import { mathLifecycle } from '../math-problems/index.js';
import { OwnershipRepository } from '../ownership/index.js';
import { qualityLifecycle } from '../quality/index.js';
import { quizLifecycle } from '../quiz/index.js';
import type { Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';
import type { CourseParts, ExamParts } from './owner-parts.js';
import type { QuizDeletion, QuizImageParts } from './quiz-deletion.js';
import { roomLive, type RoomDeletion } from './room-deletion.js';

/**
 * Deletion of a class and everything that hangs off it: its students (roster entries, and each student's session
 * with its log, transcript, driver lease and usage: their answers, verdicts and hand dialogues), nicknames, join
 * code, record, the index of math sets shared with it (the sets stay: their owner's), and its quizzes and quiz rooms
 * (with their results). A user deleting a class expects its answers and results gone, so quizzes and rooms go too; a
 * material the class used is shared and stays. Each owner deletes its own keys; this file orders the steps.
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
    const record = await classLifecycle.record(store, classId);
    if (record.code === undefined) return false;
    // A live room refuses the whole deletion while nothing is deleted yet (read a batch at a time).
    if (await quizLifecycle.anyLiveRoom(store, classId)) throw roomLive();
    await quizLifecycle.drainClassRooms(store, classId, async (roomIds) => {
      for (const roomId of roomIds) await this.rooms.delete(roomId);
    });
    // The record and the code next: nobody joins any more while the rest goes.
    await classLifecycle.deleteRecord(store, classId, record.code);
    await classLifecycle.drainStudents(store, classId, async (sessionIds) => {
      await Promise.all(sessionIds.map((sessionId) => this.drivers.end(sessionId)));
      await lectureLifecycle.deleteSessions(store, sessionIds);
      await deleteUsage(store, 'session', sessionIds);
      await mathLifecycle.deleteSessions(store, sessionIds);
      for (const sessionId of sessionIds) await qualityLifecycle.deleteBySession(store, sessionId);
    });
    await quizLifecycle.drainClassQuizzes(store, classId, async (quizIds) => {
      for (const quizId of quizIds) await this.quizzes.delete(quizId, classId);
    });
    // The self-study items its students were served (with their recorded answers).
    await quizLifecycle.deleteByClass(store, classId);
    // The exams published to it, with every student's drafts, submissions, grades and reports, and the learner profiles.
    await this.exams?.deleteForClass(classId);
    // An LMS course's record of the class: its members, passback states and its place in the platform's map.
    await this.courses?.deleteForClass(classId);
    await classLifecycle.deleteByClass(store, classId);
    await mathLifecycle.deleteByClass(store, classId);
    await this.quotas?.classDeleted(classId);
    const ownership = new OwnershipRepository(store);
    // The pictures its instructor token uploaded that no quiz shows any more (its quizzes' went with them above).
    const owner = await ownership.ownerOf('class', classId);
    if (owner !== null) await this.images?.classDeleted(classId, owner);
    await ownership.forget('class', classId);
    return true;
  }
}
