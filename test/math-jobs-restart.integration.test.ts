import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobState, MathJobProgress, MathJobResult } from '../src/protocol/wire/jobs.js';
import { signUp } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { call } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { plannedSlots, startMathGemini, type MathGemini } from './support/math-gemini.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { connected, startTestApp, type TestApp } from './support/test-app.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';

/**
 * MJ7 (test/SPEC.md): a math problem job survives a node restart on Redis. The first node runs attempt 1 (two of three
 * problems pass) and stops while attempt 2's writing is still unanswered; a second node on the same redis-server takes
 * the job, resumes from the stored checkpoint (the passed problems kept, attempt 2 next, no first attempt written
 * again) and finishes; the owner's job token still opens `/jobs` on the new node. With the Redis streams adapter, the
 * owner's sockets on two running nodes both hear every change, whichever node runs the job.
 */

let redisServer: RedisServer;
let math: MathGemini;
let phase: 'first node' | 'second node' = 'first node';
beforeAll(async () => {
  await samplePdfBytes();
  redisServer = await startRedisServer();
  math = await startMathGemini({
    passes: (question) => !question.startsWith('문제 2호'),
    // On the first node attempt 2's writing never answers: the node is stopped while it waits.
    hold: (write) => (phase === 'first node' && write === 2 ? new Promise<never>(() => undefined) : undefined),
  });
});
afterAll(async () => {
  await math?.fake.close();
  await redisServer?.stop();
});

const node = (nodeId: string) =>
  startTestApp({
    SIGNUP: 'open',
    REDIS_URL: redisServer.url,
    TOKEN_SECRET: 'math-restart-secret',
    NODE_ID: nodeId,
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: math.fake.baseUrl,
    GEMINI_MAX_ATTEMPTS: '1',
  });

function states(app: TestApp, jobToken: string, until: (state: JobState) => boolean): Promise<JobState[]> {
  const socket = app.socket('/jobs', { token: jobToken });
  const seen: JobState[] = [];
  return new Promise<JobState[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out (saw ${seen.map((state) => state.status).join(', ')})`)), WAIT_TIMEOUT_MS);
    socket.on('job:state', (state: JobState) => {
      seen.push(state);
      if (until(state)) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
    connected(socket).catch(reject);
  });
}

describe('MJ7: a math problem job across a node restart', () => {
  it('MJ7 the second node resumes from the checkpoint: problems passed on the first node are kept, attempt 1 is not written again', async () => {
    let first: TestApp | undefined = await node('node-a');
    let second: TestApp | undefined;
    try {
      await storeReady(first);
      const material = await loadSample(first);
      const teacher = await signUp(first);
      const started = await call(`${first.url}/api/materials/${material.id}/math-problems`, 'POST', {
        headers: teacher.bearer,
        body: { count: 3, multipleChoice: 2, difficulty: 'easy' },
      });
      expect(started.status, JSON.stringify(started.body)).toBe(202);
      const { job, jobToken } = started.body as { job: JobState; jobToken: string };

      // Attempt 1 is saved (2 of 3 passed), and attempt 2's writing has been asked for: then the node stops.
      const before = await states(first, jobToken, (state) => (state.progress as MathJobProgress | null)?.attempt === 1);
      const attempt1 = before.at(-1)?.progress as MathJobProgress;
      expect([attempt1.passed, attempt1.wanted]).toEqual([2, 3]);
      const passedFirst = attempt1.items.filter((item) => item.passed).map((item) => item.problemId);
      while (math.writes().length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      await first.stop();
      first = undefined;

      phase = 'second node';
      second = await node('node-b');
      const after = await states(second, jobToken, (state) => state.status === 'succeeded' || state.status === 'failed' || state.status === 'cancelled');
      const done = after.at(-1) as JobState;
      expect([done.jobId, done.status, done.runs]).toEqual([job.jobId, 'succeeded', 2]);
      // Writing requests: attempt 1 (3 slots) and attempt 2 (1 slot) on the first node, attempt 2 again on the second.
      expect(math.writes().map((request) => plannedSlots(request).length)).toEqual([3, 1, 1]);

      const set = await call(`${second.url}/api/math-sets/${(done.result as MathJobResult).setId}`, 'GET', { headers: teacher.bearer });
      expect(set.status).toBe(200);
      expect(set.body.attempts).toBe(2);
      const kept = set.body.problems as { problemId: string; judgement: { attempt: number } }[];
      expect(kept).toHaveLength(3);
      expect(passedFirst.every((problemId) => kept.some((problem) => problem.problemId === problemId && problem.judgement.attempt === 1))).toBe(true);
      expect(kept.filter((problem) => problem.judgement.attempt === 2)).toHaveLength(1);
    } finally {
      await first?.stop();
      await second?.stop();
    }
  });
});

describe('MJ7: /jobs across nodes', () => {
  it('MJ7 sockets on two nodes (Redis streams adapter) both get every attempt and the end, whichever node runs the job', async (context) => {
    // Attempt 1 waits until both sockets have their snapshot, so every progress they get is a live change.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const own = await startMathGemini({ passes: (question) => !question.startsWith('문제 1호'), hold: (write) => (write === 1 ? gate : undefined) });
    context.onTestFinished(() => own.fake.close());
    const nodes: TestApp[] = [];
    for (const nodeId of ['node-c', 'node-d']) {
      const adapterClient = new Redis(redisServer.url, { maxRetriesPerRequest: null });
      const app = await startTestApp(
        { SIGNUP: 'open', REDIS_URL: redisServer.url, TOKEN_SECRET: 'math-restart-secret', NODE_ID: nodeId, GEMINI_API_KEY: 'test', GEMINI_BASE_URL: own.fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' },
        { socketAdapter: createAdapter(adapterClient) },
      );
      context.onTestFinished(async () => {
        await app.stop();
        await adapterClient.quit();
      });
      await storeReady(app);
      nodes.push(app);
    }
    const [nodeC, nodeD] = nodes as [TestApp, TestApp];
    const material = await loadSample(nodeC);
    const teacher = await signUp(nodeC);
    const started = await call(`${nodeC.url}/api/materials/${material.id}/math-problems`, 'POST', { headers: teacher.bearer, body: { count: 2, multipleChoice: 1, difficulty: 'easy' } });
    expect(started.status).toBe(202);
    const { jobToken } = started.body as { jobToken: string };
    const finished = (state: JobState) => state.status === 'succeeded' || state.status === 'failed';
    const snapshotted = new Set<TestApp>();
    const watched = [nodeC, nodeD].map((node) =>
      states(node, jobToken, (state) => {
        snapshotted.add(node);
        if (snapshotted.size === 2) release();
        return finished(state);
      }),
    );
    const [onC, onD] = await Promise.all(watched);
    for (const seen of [onC, onD] as JobState[][]) {
      expect(seen[0]?.progress).toBeNull();
      expect(seen.at(-1)?.status).toBe('succeeded');
      expect(seen.some((state) => (state.progress as MathJobProgress | null)?.attempt === 1)).toBe(true);
      // Attempt 2 came from whichever node ran the job; one of the two sockets heard it through the adapter.
      expect(seen.some((state) => (state.progress as MathJobProgress | null)?.attempt === 2)).toBe(true);
    }
  });
});
