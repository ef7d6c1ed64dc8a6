/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MN8 — Nodes. With two nodes on one Redis: a reply from node A reaches the session driven on node B; a reply sent
 *   while no node drives the session arrives when the student comes back on node A …
 */
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { afterEach, expect, it } from 'vitest';
import { connectInstructor, createClass, joinClass, postJson, storeReady, waitForNotice } from './support/classroom-client.js';
import { raiseHand } from './support/hand-client.js';
import { connectedOrThrow, loadSample, offlineStudent } from './support/lecture-client.js';
import { startRedisServer } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * MN8 (test/SPEC.md): the instructor's reply and class:close across two nodes on one Redis (streams adapter, as in
 * main.ts). The instructor is on node A; the student's session is driven on node B, then, after B has stopped, by
 * no node at all until the student comes back to A.
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

it('MN8: a reply from node A reaches the session driven on node B, and one sent while no node drives it arrives on the next attach', async () => {
  const redis = await startRedisServer();
  cleanups.push(() => redis.stop());
  const nodeA = await startNode(redis.url);
  const nodeB = await startNode(redis.url);
  const material = await loadSample(nodeA);
  await loadSample(nodeB);

  const created = await createClass(nodeA, { name: '두 노드 답장', materialId: material.id });
  const { monitor } = await connectInstructor(nodeA, created.instructorToken);
  const { client, sessionId, token } = await joinClass(nodeB, created.code, '노드비', { policy: offlineStudent(nodeB, material.id, () => false) });
  await client.ok('lecture:speed', { tokensPerSecond: 200 });
  await client.ok('lecture:start');
  await client.waitForEvent('lecture:delta');
  await client.waitForEvent('tutor:verdict');
  // The hand goes up at the next question, which nobody answers (raised on the way to it, a loaded machine can let
  // the student answer first, and the tutor judging refuses a hand: HAND_NOT_NOW).
  await client.waitForEvent('lecture:delta', { from: client.events.length });
  client.policy = undefined;
  await client.waitForEvent('lecture:question', { from: client.events.length });
  await raiseHand(client);
  await monitor.waitFor('hand:raised', (hand) => hand.sessionId === sessionId);

  // Node A holds no actor of the session: the reply crosses to node B, which numbers and sends it.
  const first = await monitor.command('hand:reply', { sessionId, text: '노드 A에서 답합니다' });
  expect(first.ok).toBe(true);
  expect(await client.waitForEvent('hand:instructor-reply')).toMatchObject({ text: '노드 A에서 답합니다' });

  // Node B goes away (its actor closes and lets go of the lease); a reply now waits in the store.
  client.socket.disconnect();
  await monitor.waitFor('student:left', (left) => left.sessionId === sessionId);
  await nodeB.stop();
  const second = await monitor.command('hand:reply', { sessionId, text: '돌아오면 읽어 주세요' });
  expect(second.ok).toBe(true);

  // The student comes back on node A: the waiting reply follows the events it had, in seq order, exactly once.
  const from = client.events.length;
  client.use(nodeA.socket('/tutor', { token }));
  await connectedOrThrow(client.socket);
  await client.ok('session:resume', { lastSeq: client.lastSeq });
  expect(await client.waitForEvent('hand:instructor-reply', { from })).toMatchObject({ text: '돌아오면 읽어 주세요' });
  expect(client.all('hand:instructor-reply').map((reply) => reply.text)).toEqual(['노드 A에서 답합니다', '돌아오면 읽어 주세요']);
  expect(client.seqErrors).toEqual([]);

  // Closing on node A: the student (now on A) hears it; the code refuses joins on every node.
  const closed = await monitor.command('class:close', {});
  expect(closed.ok).toBe(true);
  expect(await waitForNotice(client, 'class:closed')).toEqual({ at: closed.ok ? closed.closedAt : 0 });
  expect((await postJson(`${nodeA.url}/api/classes/${created.code}/join`, { nickname: '늦음' })).status).toBe(410);
});
