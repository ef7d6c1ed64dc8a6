/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - M1 — Roster. Students who join in the same millisecond are listed in the order they joined, in the roster and in
 *   its pages, on the memory store and on Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ClassRepository } from '../src/classroom/class-repository.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/index.js';
import { suiteRedis, testRedisStore } from './support/redis-server.js';

const redis = suiteRedis();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** Session ids that sort the other way from the order they join in, all joining at one instant. */
const JOINING = ['session-d', 'session-c', 'session-b', 'session-a'];

async function check(store: Store): Promise<void> {
  const repository = new ClassRepository(store);
  await repository.createClass({ id: 'class-order', name: '순서 반', code: 'ORDER1', materialId: null, createdAt: 1000 });
  for (const [index, sessionId] of JOINING.entries()) {
    await repository.addStudent('class-order', { sessionId, nickname: `학생${index}`, joinedAt: 5000 });
  }
  expect((await repository.roster('class-order')).map((entry) => entry.sessionId)).toEqual(JOINING);
  const first = await repository.rosterPage('class-order', { limit: 3 });
  expect(first.items.map((entry) => entry.sessionId)).toEqual(JOINING.slice(0, 3));
  const rest = await repository.rosterPage('class-order', { limit: 3, cursor: first.nextCursor! });
  expect(rest).toMatchObject({ items: [{ sessionId: 'session-a', nickname: '학생3' }], nextCursor: null });
}

describe('M1 the roster is in join order', () => {
  it('M1 on the memory store: four students joining in one millisecond list in the order they joined', async () => {
    const store = new MemoryStore();
    closers.push(() => store.close());
    await check(store);
  });

  it('M1 on Redis: four students joining in one millisecond list in the order they joined', async () => {
    const store = testRedisStore(redis.url);
    closers.push(() => store.close());
    await check(store);
  });
});
