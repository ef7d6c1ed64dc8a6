/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - K1 — TTL with the write. A store write asked for a TTL (`{ttlMs}` on `hset`, `hsetnx`, `hsetnxUnless`, `hincrby`,
 *   `zadd`, `zincrby`, `incr` …
 * - K3 — One durable list. The durable keys are listed once (`DURABLE_KEYS` in `src/store/retention.ts`), distinct,
 *   each with what it keeps; `docs/ARCHITECTURE.md` points at that list instead of copying it.
 * - K4 — Class student data lives RETENTION_DAYS. A class session's record, log, transcript and inbox get the
 *   deployment's retention on every write …
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ClassRepository } from '../src/classroom/class-repository.js';
import { StoreUnavailableError } from '../src/kernel/errors.js';
import { SessionRepository } from '../src/lecture/session-repository.js';
import { RoomOptions } from '../src/protocol/quiz.js';
import { RoomPresence } from '../src/quiz/room-presence.js';
import { RoomRepository, type RoomMeta } from '../src/quiz/room-repository.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { DURABLE_KEYS, isDurableKey } from '../src/store/retention.js';
import type { Store } from '../src/store/store.js';
import { SINGLE_NODE } from '../src/store/node-liveness.js';
import { classKeys } from '../src/classroom/class-keys.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { usageKeys } from '../src/llm/usage-keys.js';
import { materialKeys } from '../src/materials/material-keys.js';
import { lectureKeys } from '../src/lecture/lecture-keys.js';

/** K1, K3 (test/SPEC.md): TTLs come with the write itself; the durable list is one list, documented as it is. */

describe('the durable key list', () => {
  it('K3 the durable keys are one list of distinct patterns, each saying what it keeps, and the map points at it', () => {
    const patterns = DURABLE_KEYS.map((entry) => entry.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    for (const entry of DURABLE_KEYS) expect(entry.what.trim().length, entry.pattern).toBeGreaterThan(10);
    const doc = readFileSync(new URL('../docs/ARCHITECTURE.md', import.meta.url), 'utf8');
    expect(doc).toContain('`DURABLE_KEYS` (`src/store/retention.ts`)');
  });

  it('K3 matches whole keys segment by segment', () => {
    expect(isDurableKey(classKeys.classRecord('c1'))).toBe(true);
    expect(isDurableKey(quizKeys.roomResults('r1'))).toBe(true);
    expect(isDurableKey(quizKeys.quiz('q1'))).toBe(true);
    expect(isDurableKey(usageKeys.usage('material', 'm1'))).toBe(true);
    expect(isDurableKey(materialKeys.blob('abc.chapter-1.pdf'))).toBe(true);
    // Ephemeral neighbours of durable keys are not durable.
    expect(isDurableKey(classKeys.classStudents('c1'))).toBe(false);
    expect(isDurableKey(classKeys.classStudent('c1', 's1'))).toBe(false);
    expect(isDurableKey(quizKeys.room('r1'))).toBe(false);
    expect(isDurableKey(quizKeys.roomAnswers('r1', 0))).toBe(false);
    expect(isDurableKey(usageKeys.usage('session', 's1'))).toBe(false);
    expect(isDurableKey(lectureKeys.sessionLog('s1'))).toBe(false);
    expect(isDurableKey(lectureKeys.lectureLock('k'))).toBe(false);
    expect(isDurableKey('other:class:c1')).toBe(false);
  });
});

/**
 * A store whose EXPIRE always fails (a stalled connection between two commands): a write path that gave its key a
 * TTL with a separate EXPIRE would leave the key without one. It records every key written.
 */
function expireFails(inner: MemoryStore): { store: Store; written: Set<string> } {
  const written = new Set<string>();
  const writes = new Set(['set', 'incr', 'hset', 'hsetnx', 'hsetnxUnless', 'hincrby', 'zadd', 'zincrby', 'xadd', 'setBytes']);
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'expire') return () => Promise.reject(new StoreUnavailableError());
      if (typeof property === 'string' && writes.has(property) && typeof value === 'function') {
        return (key: string, ...rest: unknown[]) => {
          written.add(key);
          return (value as (...args: unknown[]) => unknown).call(target, key, ...rest);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store, written };
}

describe('K1: a key gets its TTL with the write that creates it', () => {
  it('K1 sessions, rosters, rooms, players, answers and presence keep their TTL when EXPIRE fails', async () => {
    const memory = new MemoryStore();
    const { store, written } = expireFails(memory);
    const sessions = new SessionRepository(store);
    await sessions.create({ id: 's1', materialId: 'm1', nickname: '민지', classId: 'c1', createdAt: 1 }, 25);
    await sessions.appendLog('s1', { seq: 1, event: { event: 'lecture:chapter-start', payload: { chapter: 0, title: '1장' } } });
    await sessions.appendTranscript('s1', { type: 'student', chapter: 0, at: 0, text: '질문' });
    await sessions.saveState('s1', { kind: 'idle' });

    const classes = new ClassRepository(store, SINGLE_NODE);
    await classes.reserveNickname('c1', '민지', 's1');
    await classes.addStudent('c1', { sessionId: 's1', nickname: '민지', joinedAt: 1 });
    await classes.update('c1', 's2', { percent: 10 });
    await classes.addSockets('c1', 's1', 1);

    const rooms = new RoomRepository(store);
    const meta: RoomMeta = {
      roomId: 'r1',
      classId: 'c1',
      quizId: 'q1',
      code: '123456',
      title: '퀴즈',
      options: RoomOptions.parse({}),
      items: [],
      createdAt: 1,
    };
    await rooms.reserveCode('123456', 'r1');
    await rooms.create(meta, { phase: 'lobby', v: 0 });
    await rooms.claimNickname('r1', '하나', 'p1');
    await rooms.savePlayer('r1', { playerId: 'p1', nickname: '하나', joinedAt: 1 });
    await rooms.addPlayerCount('r1', 1);
    await rooms.openAnswers('r1', 0);
    await rooms.recordAnswer('r1', 1, 'p1', { choice: 0, responseMs: 10 });
    await rooms.closeAnswers('r1', 2);
    await rooms.markActive('r1', 1);
    await new RoomPresence(store, SINGLE_NODE).add('r1', 'socket-1', 'p1');

    const ephemeral = [...written].filter((key) => !isDurableKey(key));
    expect(ephemeral.length).toBeGreaterThan(15);
    const withoutTtl: string[] = [];
    for (const key of ephemeral) if ((await memory.pttl(key)) <= 0) withoutTtl.push(key);
    expect(withoutTtl).toEqual([]);
    await memory.close();
  });
});

describe('K4: a class student data lives RETENTION_DAYS, self-study a week', () => {
  const day = 24 * 60 * 60_000;
  const year = 365 * day;
  /** Remaining TTL in whole days (rounded up: a write just happened). */
  const daysLeft = async (store: Store, key: string) => Math.ceil((await store.pttl(key)) / day);

  it('K4 a class session keeps its record, log, transcript and inbox for RETENTION_DAYS on every write, from any node; a self-study session 7 days', async () => {
    const store = new MemoryStore();
    const driver = new SessionRepository(store, undefined, year);
    await driver.create({ id: 'class-s', materialId: 'm1', nickname: '민지', classId: 'c1', createdAt: 1 }, 25);
    await driver.create({ id: 'alone-s', materialId: 'm1', nickname: '혼자', createdAt: 1 }, 25);
    for (const id of ['class-s', 'alone-s']) {
      await driver.appendLog(id, { seq: 1, event: { event: 'lecture:chapter-start', payload: { chapter: 0, title: '1장' } } });
      await driver.appendTranscript(id, { type: 'student', chapter: 0, at: 0, text: '질문' });
    }
    // Another node (a fresh repository that never created or loaded the session) writes to it: an instructor's reply.
    const monitorNode = new SessionRepository(store, undefined, year);
    await monitorNode.postInstructorReply('class-s', { text: '좋은 질문이에요', sentAt: 2 });
    await monitorNode.markDelivered('class-s', '0-1');
    for (const key of [lectureKeys.session('class-s'), lectureKeys.sessionLog('class-s'), lectureKeys.sessionTranscript('class-s'), lectureKeys.sessionInbox('class-s')]) {
      expect(await daysLeft(store, key)).toBe(365);
    }
    for (const key of [lectureKeys.session('alone-s'), lectureKeys.sessionLog('alone-s'), lectureKeys.sessionTranscript('alone-s')]) {
      expect(await daysLeft(store, key)).toBe(7);
    }
    // A node that loads the session keeps the class's keep-time when it saves the state.
    const resumingNode = new SessionRepository(store, undefined, year);
    expect((await resumingNode.load('class-s'))?.profile.classId).toBe('c1');
    await resumingNode.saveState('class-s', { kind: 'idle' });
    await resumingNode.touch('class-s');
    expect(await daysLeft(store, lectureKeys.session('class-s'))).toBe(365);
    await store.close();
  });

  it('K4 the roster of a class lives as long as its students data (never less than 30 days)', async () => {
    const store = new MemoryStore();
    const classes = new ClassRepository(store, SINGLE_NODE, year);
    await classes.reserveNickname('c1', '민지', 's1');
    await classes.addStudent('c1', { sessionId: 's1', nickname: '민지', joinedAt: 1 });
    for (const key of [classKeys.classNicknames('c1'), classKeys.classStudents('c1'), classKeys.classStudent('c1', 's1')]) {
      expect(await daysLeft(store, key)).toBe(365);
    }
    const short = new ClassRepository(store, SINGLE_NODE, 3 * day);
    await short.addStudent('c2', { sessionId: 's2', nickname: '하나', joinedAt: 1 });
    expect(await daysLeft(store, classKeys.classStudent('c2', 's2'))).toBe(30);
    await store.close();
  });
});
