/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - K2 — Nothing ephemeral lives forever. After a whole lecture with a raised hand, a class with its instructor
 *   watching and a quiz room played to the end …
 */
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RoomOptions } from '../src/protocol/quiz.js';
import { DURABLE_KEYS, isDurableKey } from '../src/store/retention.js';
import { defaultInstructor } from './support/accounts.js';
import { call } from './support/http-call.js';
import { connectInstructor, createClass, joinClass, postJson } from './support/classroom-client.js';
import { askHand, raiseHand, SPECIFIC_QUESTION } from './support/hand-client.js';
import { loadSample, offlineStudent, samplePdfBytes } from './support/lecture-client.js';
import { joinRoom, openHost, sampleItems, type QuizClient } from './support/quiz-client.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * K2 (test/SPEC.md): after a whole product run on a fresh Redis — a class with its instructor watching, a student
 * following the whole lecture with a raised hand on the way, a quiz room played to the end — every `lectern:*` key
 * either has a TTL or is one of the documented durable keys (src/store/retention.ts, docs/ARCHITECTURE.md).
 */

let redis: RedisServer | undefined;
let app: TestApp | undefined;
const closers: (() => void)[] = [];
beforeAll(samplePdfBytes);
afterEach(async () => {
  for (const close of closers.splice(0)) close();
  await app?.stop();
  await redis?.stop();
  app = undefined;
  redis = undefined;
});

interface ScannedKey {
  key: string;
  ttl: number;
}

async function scanKeys(url: string): Promise<ScannedKey[]> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', 'lectern:*', 'COUNT', 500);
      cursor = next;
      found.push(...batch);
    } while (cursor !== '0');
    const unique = [...new Set(found)].sort();
    const ttls = await Promise.all(unique.map((key) => client.pttl(key)));
    return unique.map((key, index) => ({ key, ttl: ttls[index] ?? -2 })).filter((entry) => entry.ttl !== -2);
  } finally {
    client.disconnect();
  }
}

/** The keys that would live forever without being on the durable list. */
const leaks = (scanned: ScannedKey[]) => scanned.filter(({ key, ttl }) => ttl === -1 && !isDurableKey(key)).map(({ key }) => key);

/** A key's shape with its ids folded, to read the scan at a glance in a failure message. */
const shape = (key: string) => key.replace(/[0-9a-f]{8}-[0-9a-f-]{27}|[0-9a-f]{16,}/g, '{id}').replace(/:\d+$/, ':{n}');

describe('K2: every key of a whole run expires or is durable', () => {
  it('K2 a lecture with a raised hand, a class with a monitor and a quiz room leave only TTL keys and documented durable keys', async () => {
    redis = await startRedisServer();
    // Every agent output is sampled for the quality console, and one grading run stores some graded.
    app = await startTestApp({ REDIS_URL: redis.url, QUALITY_SAMPLE_RATE: '1' });
    const material = await loadSample(app);

    // A class with its instructor watching, and a student following the whole lecture.
    const created = await createClass(app, { name: '보존 점검 반', materialId: material.id });
    const { monitor } = await connectInstructor(app, created.instructorToken);
    closers.push(() => monitor.socket.disconnect());
    const { client, sessionId } = await joinClass(app, created.code, '민지', {
      policy: offlineStudent(app, material.id, () => true),
    });
    await client.ok('lecture:speed', { tokensPerSecond: 30 });
    await client.ok('lecture:start');
    await client.waitForText(0, 20);
    // A raised hand on the way: the instructor sees it and acknowledges it (the roster entry's hand fields).
    await raiseHand(client);
    await client.waitForEvent('assistant:prompt');
    await askHand(client, SPECIFIC_QUESTION);
    await monitor.waitFor('hand:raised', (hand) => hand.sessionId === sessionId && hand.question !== undefined);
    expect((await monitor.command('hand:acknowledge', { sessionId })).ok).toBe(true);
    await client.waitForEvent('hand:closed');
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.waitForEvent('lecture:end');

    // A quiz of the class played to the end in a room.
    const auth = { authorization: `Bearer ${created.instructorToken}` };
    const quiz = await postJson<{ quizId: string }>(`${app.url}/api/quizzes`, { title: '보존 퀴즈', items: sampleItems(2) }, auth);
    const options: Partial<RoomOptions> = { questionSeconds: 10, previewSeconds: 0 };
    const room = await postJson<{ roomId: string; code: string; hostToken: string }>(`${app.url}/api/rooms`, { quizId: quiz.body.quizId, options }, auth);
    const host = await openHost(app.url, room.body.hostToken!);
    const players = [await joinRoom(app.url, room.body.code!, '하나'), await joinRoom(app.url, room.body.code!, '두리')];
    const clients: QuizClient[] = [host, ...players.map((player) => player.client)];
    closers.push(() => clients.forEach((quizClient) => quizClient.close()));
    await host.next('room:players', (update: { playerCount: number }) => update.playerCount === 2);
    for (let q = 0; q < 2; q += 1) {
      const opened = players.map((player) => player.client.next('room:question', (payload: { phase: string; question: { index: number } }) => payload.phase === 'open' && payload.question.index === q));
      if (q > 0) await host.emit('room:next'); // reveal -> leaderboard
      expect((await host.emit(q === 0 ? 'room:start' : 'room:next')).ok).toBe(true);
      await Promise.all(opened);
      const reveal = host.next('room:reveal');
      for (const player of players) await player.client.emit('answer:submit', { questionIndex: q, choice: 0 });
      await reveal;
    }
    await host.emit('room:next'); // -> leaderboard
    const ended = players[0]!.client.next('room:ended');
    await host.emit('room:next'); // -> podium
    await host.emit('room:end');
    await ended;

    // A quiz generated by a signed-in account is metered per account and UTC day (usage:account:{id}:{day}).
    // (Redis means SIGNUP=invite: the helpers' instructor, who owns the class, generates it.)
    const teacher = await defaultInstructor(app);
    const generated = await call(`${app.url}/api/materials/${material.id}/quiz`, 'POST', { body: {}, headers: teacher.bearer });
    expect(generated.status).toBe(201);

    await app.quality.sampler.settled();
    expect((await app.quality.grader.runOnce()).graded).toBeGreaterThan(0);

    const running = await scanKeys(redis.url);
    const shapes = [...new Set(running.map(({ key, ttl }) => `${shape(key)}${ttl === -1 ? '' : ' (ttl)'}`))].sort();
    expect(leaks(running), shapes.join('\n')).toEqual([]);
    // The session's log and transcript exist and carry their TTL (they used to be created without one).
    for (const part of ['log', 'transcript']) {
      const entry = running.find(({ key }) => key === `lectern:session:${sessionId}:${part}`);
      expect(entry?.ttl, part).toBeGreaterThan(0);
    }
    // Every part of the run left its ephemeral keys, with a TTL: roster, room state, answers, presence.
    for (const pattern of [/^lectern:class:[^:]+:student:/, /^lectern:class:[^:]+:nicknames$/, /^lectern:room:[^:]+$/, /^lectern:room:[^:]+:answers:1$/, /^lectern:room:[^:]+:events$/, /^lectern:roomcode:/, /^lectern:usage:account:/, /^lectern:quality:interaction:/, /^lectern:quality:all:daily:/, /^lectern:quality:usage:/]) {
      const matching = running.filter(({ key }) => pattern.test(key));
      expect(matching.length, String(pattern)).toBeGreaterThan(0);
      for (const { key, ttl } of matching) expect(ttl, key).toBeGreaterThan(0);
    }
    // What is kept is what a user expects to keep: every durable key seen is on the list, and the run made some.
    const durable = running.filter(({ key }) => isDurableKey(key));
    expect(durable.some(({ key }) => key.startsWith('lectern:room:') && key.endsWith(':results'))).toBe(true);
    expect(durable.some(({ key }) => key.startsWith('lectern:quiz:'))).toBe(true);
    expect(durable.some(({ key }) => key.startsWith('lectern:quota:class:'))).toBe(true);

    // After a graceful stop nothing new is left without a TTL either (leases released, heartbeat gone).
    await app.stop();
    app = undefined;
    expect(leaks(await scanKeys(redis.url))).toEqual([]);
  });

  it('K2 the durable list names distinct patterns', () => {
    const patterns = DURABLE_KEYS.map((entry) => entry.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
  });
});
