/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - M9 — Nodes. With two nodes on one Redis (streams adapter), an instructor on one node sees students of the other
 *   join, answer and progress …
 */
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { afterEach, expect, it } from 'vitest';
import { connectInstructor, createClass, joinClass, playSessionEvent, storeReady, waitForNotice } from './support/classroom-client.js';
import { loadSample, offlineStudent } from './support/lecture-client.js';
import { startRedisServer } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * M9 (test/SPEC.md): two nodes on one Redis, socket.io rooms crossing them through the Redis streams adapter (as
 * in main.ts). The instructor is on node A, the student on node B.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function startNode(redisUrl: string): Promise<TestApp> {
  const adapterClient = new Redis(redisUrl, { maxRetriesPerRequest: null });
  cleanups.push(() => adapterClient.quit());
  const app = await startTestApp({ REDIS_URL: redisUrl, TOKEN_SECRET: 'two-node-secret' }, { socketAdapter: createAdapter(adapterClient) });
  cleanups.push(() => app.stop());
  await storeReady(app);
  return app;
}

it('M9: an instructor on node A sees a student on node B join and answer; announcements and acknowledgements cross back', async () => {
  const redis = await startRedisServer();
  cleanups.push(() => redis.stop());
  const nodeA = await startNode(redis.url);
  const nodeB = await startNode(redis.url);
  const material = await loadSample(nodeA);
  expect((await loadSample(nodeB)).id).toBe(material.id);

  const created = await createClass(nodeA, { name: '두 노드', materialId: material.id });
  const { monitor, roster } = await connectInstructor(nodeA, created.instructorToken);
  expect(roster.students).toEqual([]);

  // The student joins through node B's HTTP and connects to node B's /tutor.
  const { client, sessionId } = await joinClass(nodeB, created.code, '노드비', { policy: offlineStudent(nodeB, material.id, () => false) });
  expect(await monitor.waitFor('student:joined', ({ student }) => student.sessionId === sessionId && student.connected)).toMatchObject({
    student: { nickname: '노드비' },
  });

  await client.ok('lecture:speed', { tokensPerSecond: 200 });
  await client.ok('lecture:start');
  const verdict = await client.waitForEvent('tutor:verdict');
  expect(await monitor.waitFor('student:answered')).toEqual({ sessionId, questionId: verdict.questionId, verdict: 'bad', badStreak: 1 });
  expect(await monitor.waitFor('student:progress', (progress) => progress.sessionId === sessionId)).toMatchObject({ chapter: 0 });

  // Node A's instructor announces: the student on node B hears it.
  const announced = await monitor.command('class:announce', { text: '노드 A에서 알립니다' });
  expect(announced.ok).toBe(true);
  expect(await waitForNotice(client, 'class:announcement')).toEqual({ text: '노드 A에서 알립니다', at: announced.ok ? announced.at : 0 });

  // The hand goes up on node B (where the session runs); node A acknowledges; node B's student sees it.
  await playSessionEvent(nodeB, sessionId, 'assistant:prompt', { text: '무엇이 궁금한가요?' });
  await monitor.waitFor('hand:raised', (payload) => payload.sessionId === sessionId);
  const acknowledged = await monitor.command('hand:acknowledge', { sessionId });
  expect(acknowledged).toMatchObject({ ok: true });
  expect(await waitForNotice(client, 'hand:acknowledged')).toEqual({ at: acknowledged.ok ? acknowledged.at : 0 });

  // The roster both nodes read is the same one.
  expect((await nodeB.classes.info(created.classId)).students).toEqual((await nodeA.classes.info(created.classId)).students);
  client.socket.disconnect();
  expect(await monitor.waitFor('student:left')).toEqual({ sessionId });
});
