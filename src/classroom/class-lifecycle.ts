import { drainIndex, readIndex, type Store } from '../store/index.js';
import { classKeys } from './class-keys.js';

/** What the data lifecycle (src/data/: deletion, export) needs of the classroom: a class's record, code and roster. */
export const classLifecycle = {
  /** The class's record (hash: name, code, materialId?, createdAt); empty when there is no such class. */
  record: (store: Store, classId: string): Promise<Record<string, string>> => store.hgetall(classKeys.classRecord(classId)),

  /** The material a class uses; null when it uses none or there is no such class. */
  material: (store: Store, classId: string): Promise<string | null> => store.hget(classKeys.classRecord(classId), 'materialId'),

  /** The record and the join code (the code only while it still names this class): nobody joins any more. */
  async deleteRecord(store: Store, classId: string, code: string): Promise<void> {
    if ((await store.get(classKeys.classCode(code))) === classId) await store.del(classKeys.classCode(code));
    await store.del(classKeys.classRecord(classId));
  },

  /** Drains the roster a batch of session ids at a time: `each` deletes what hangs off them, then their entries go. */
  drainStudents: (store: Store, classId: string, each: (sessionIds: string[]) => Promise<void>): Promise<void> =>
    drainIndex(store, classKeys.classStudents(classId), async (sessionIds) => {
      await each(sessionIds);
      await store.del(...sessionIds.map((sessionId) => classKeys.classStudent(classId, sessionId)));
    }),

  /** The roster in order, a batch at a time: each student's session id, join score and entry (hash of scalar fields). */
  readRoster: (store: Store, classId: string, each: (student: { sessionId: string; score: number; entry: Record<string, string> }) => Promise<void>): Promise<void> =>
    readIndex(store, classKeys.classStudents(classId), async (batch) => {
      for (const { member: sessionId, score } of batch) await each({ sessionId, score, entry: await store.hgetall(classKeys.classStudent(classId, sessionId)) });
    }),

  /** What is left once the roster is gone: taken nicknames and a roster class's names. */
  deleteByClass: async (store: Store, classId: string): Promise<void> => {
    await store.del(classKeys.classNicknames(classId), classKeys.classRosterNames(classId));
  },
};
