import { afterEach, describe, expect, it } from 'vitest';
import { createClass } from './support/classroom-client.js';
import { playQuizRoom, type PlayedRoom } from './support/data-flow.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/**
 * DL4 (test/SPEC.md): the retention purge with an injected clock. Two rooms are played; the clock is put just past
 * RETENTION_DAYS after the first room's last results write and before the second's: a run deletes the first room
 * whole and leaves the second. On Redis two app instances share the store and only one of them purges.
 */

const DAY_MS = 24 * 60 * 60_000;
const apps: TestApp[] = [];
let redis: RedisServer | undefined;
afterEach(async () => {
  for (const app of apps.splice(0)) await app.stop();
  await redis?.stop();
  redis = undefined;
});

async function roomKeys(app: TestApp, room: PlayedRoom): Promise<boolean[]> {
  return Promise.all([quizKeys.roomResults(room.roomId), quizKeys.roomSummary(room.roomId)].map((key) => app.store.exists(key)));
}

/** Two rooms played in one class, the second after the first's results were written; a clock between them. */
async function twoRooms(app: TestApp) {
  const created = await createClass(app, { name: '보존 반' });
  const old = await playQuizRoom(app, created, '오래된');
  const oldAt = (await app.store.zscore(quizKeys.retentionRooms(), old.roomId))!;
  // Results writes are timed to the millisecond: the second room's last write is strictly later.
  while (Date.now() <= oldAt) await new Promise((resolve) => setTimeout(resolve, 2));
  const fresh = await playQuizRoom(app, created, '새로운');
  const freshAt = (await app.store.zscore(quizKeys.retentionRooms(), fresh.roomId))!;
  expect(freshAt).toBeGreaterThan(oldAt);
  return { created, old, fresh };
}

describe('DL4: the retention purge', () => {
  it('DL4 deletes quiz rooms older than RETENTION_DAYS (memory store) and nothing younger', async () => {
    const offset = { ms: 0 };
    const app = await startTestApp({ RETENTION_DAYS: '365' }, { retentionClock: () => Date.now() + offset.ms });
    apps.push(app);
    const { created, old, fresh } = await twoRooms(app);
    // Today: nothing is due.
    expect(await app.data.purge.runOnce()).toEqual({ ran: true, purged: 0 });
    offset.ms = await twoRoomsClock(app, old);
    expect(await app.data.purge.runOnce()).toEqual({ ran: true, purged: 1 });
    expect(await roomKeys(app, old)).toEqual([false, false]);
    expect(await roomKeys(app, fresh)).toEqual([true, true]);
    const listed = (await app.store.zrange(quizKeys.classRooms(created.classId), 0, -1)).map((entry) => entry.member);
    expect(listed).toEqual([fresh.roomId]);
    expect((await app.store.zrange(quizKeys.retentionRooms(), 0, -1)).map((entry) => entry.member)).toEqual([fresh.roomId]);
    // Idempotent: a second run finds nothing more.
    expect(await app.data.purge.runOnce()).toEqual({ ran: true, purged: 0 });
  });

  it('DL4 two app instances on one Redis: only the lease holder purges', async () => {
    redis = await startRedisServer();
    const offset = { ms: 0 };
    const clock = () => Date.now() + offset.ms;
    const first = await startTestApp({ REDIS_URL: redis.url, RETENTION_DAYS: '365' }, { retentionClock: clock });
    apps.push(first);
    const second = await startTestApp({ REDIS_URL: redis.url, RETENTION_DAYS: '365' }, { retentionClock: clock });
    apps.push(second);
    const { old, fresh } = await twoRooms(first);
    offset.ms = await twoRoomsClock(first, old);
    const runs = await Promise.all([first.data.purge.runOnce(), second.data.purge.runOnce()]);
    expect(runs.filter((run) => run.ran)).toHaveLength(1);
    expect(runs.reduce((sum, run) => sum + run.purged, 0)).toBe(1);
    // The holder keeps the lease across runs; the other keeps skipping.
    const holder = runs[0]!.ran ? first : second;
    const other = holder === first ? second : first;
    expect((await other.data.purge.runOnce()).ran).toBe(false);
    expect((await holder.data.purge.runOnce()).ran).toBe(true);
    expect(await roomKeys(first, old)).toEqual([false, false]);
    expect(await roomKeys(first, fresh)).toEqual([true, true]);
    // A graceful stop hands the purge over at once.
    apps.splice(apps.indexOf(holder), 1);
    await holder.stop();
    expect((await other.data.purge.runOnce()).ran).toBe(true);
  });
});

/** The clock offset at which the old room is just past the 365 days (its last results write + 365 days). */
async function twoRoomsClock(app: TestApp, old: PlayedRoom): Promise<number> {
  const oldAt = (await app.store.zscore(quizKeys.retentionRooms(), old.roomId))!;
  return oldAt + 365 * DAY_MS - Date.now();
}
