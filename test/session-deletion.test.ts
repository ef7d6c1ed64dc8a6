/**
 * DL6 — A deleted session leaves nothing: its record, event log, transcript, driver lease and the instructor's replies
 * waiting in its inbox (replies name the student and what they asked) go with it, whether the class, the material or
 * the retention purge deletes it.
 */
import { describe, expect, it } from 'vitest';
import { lectureLifecycle } from '../src/lecture/lecture-lifecycle.js';
import { lectureKeys } from '../src/lecture/lecture-keys.js';
import { SessionRepository } from '../src/lecture/session-repository.js';
import { MemoryStore } from '../src/store/memory-store.js';

describe('DL6 session deletion', () => {
  it('DL6 deleting a class session also deletes the instructor replies in its inbox', async () => {
    const store = new MemoryStore();
    const sessions = new SessionRepository(store);
    await sessions.create({ id: 's1', materialId: 'm1', nickname: '민지', classId: 'c1', createdAt: 1 }, 25);
    await sessions.appendTranscript('s1', { type: 'student', chapter: 0, at: 0, text: '질문' });
    await sessions.postInstructorReply('s1', { text: '민지 학생, 좋은 질문이에요', sentAt: 2 });
    const keys = [lectureKeys.session('s1'), lectureKeys.sessionTranscript('s1'), lectureKeys.sessionInbox('s1')];
    for (const key of keys) expect(await store.exists(key), key).toBe(true);
    await lectureLifecycle.deleteSessions(store, ['s1']);
    for (const key of keys) expect(await store.exists(key), key).toBe(false);
    await store.close();
  });
});
