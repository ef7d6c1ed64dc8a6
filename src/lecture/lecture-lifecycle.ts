import { drainIndex, type Store } from '../store/index.js';
import { lectureKeys } from './lecture-keys.js';

/** What the data lifecycle (src/data/: deletion, export) needs of the lecture: a material's generated chapters, tutoring sessions. */
export const lectureLifecycle = {
  /** How many chapter lectures were ever generated from the material (its lecture index). */
  countByMaterial: (store: Store, materialId: string): Promise<number> => store.zcard(lectureKeys.materialLectures(materialId)),

  /** Every generated chapter lecture of the material (text stream, status, generation lease), found through its index: no SCAN. */
  deleteByMaterial: (store: Store, materialId: string): Promise<void> =>
    drainIndex(store, lectureKeys.materialLectures(materialId), async (cacheKeys) => {
      await store.del(...cacheKeys.flatMap((cacheKey) => [lectureKeys.lectureText(cacheKey), lectureKeys.lectureStatus(cacheKey), lectureKeys.lectureLock(cacheKey)]));
    }),

  /** Tutoring sessions: record, event log, transcript (answers, verdicts, hand dialogue), inbox and driver lease. */
  async deleteSessions(store: Store, sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await store.del(
      ...sessionIds.flatMap((sessionId) => [lectureKeys.session(sessionId), lectureKeys.sessionLog(sessionId), lectureKeys.sessionTranscript(sessionId), lectureKeys.sessionInbox(sessionId), lectureKeys.sessionDriver(sessionId)]),
    );
  },

  /** A session's `profile` field (JSON; null when there is no such session). */
  profile: (store: Store, sessionId: string): Promise<string | null> => store.hget(lectureKeys.session(sessionId), 'profile'),

  /** A session's transcript lines, oldest first (the `i` field of each entry; see session-repository.ts). */
  transcript: async (store: Store, sessionId: string): Promise<string[]> =>
    (await store.xread(lectureKeys.sessionTranscript(sessionId), '0')).map((item) => item.fields.i ?? ''),
};
