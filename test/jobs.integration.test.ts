/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - JOB1 — Progress and result. A job runs on one node; every save reaches the watchers (never the checkpoint); it
 *   ends `succeeded` with its result, leaves the active set and keeps a TTL.
 * - JOB2 — Clean stop. A node that stops leaves its running job active with its checkpoint; another node resumes it
 *   from that checkpoint (`runs` 2).
 * - JOB3 — Dead node. While a dead node's lease holds nobody takes its job; once it lapses another node resumes it.
 * - JOB4 — Cancel. Running here: stops at once; never started: cancelled at once; running on another node: that node
 *   stops at its next lease renewal; the checkpoint is kept.
 * - JOB5 — Failure. A failing handler ends the job `failed` with the error's code and message and the partial result
 *   its error carries.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/kernel/errors.js';
import { JobRepository, JobRunner, jobHandler, type JobView } from '../src/jobs/index.js';
import { createLogger } from '../src/kernel/logger.js';
import { ErrorCode } from '../src/protocol/wire/error-codes.js';
import { MemoryStore, type Store } from '../src/store/index.js';
import { suiteRedis, testRedisStore } from './support/redis-server.js';
import { POLL_TIMEOUT_MS } from './support/poll.js';
import { jobKeys } from '../src/jobs/job-keys.js';

/**
 * JOB1–JOB5 (test/SPEC.md, "Background jobs"): the leased job runner on both stores — progress reaches watchers, a
 * stopped node's job is resumed by another node from its checkpoint, cancellation (running here, running elsewhere,
 * never started), failures keep their partial result. Two runners over one store are two nodes.
 */

const redis = suiteRedis();
const logger = createLogger('silent');

/** A job that counts to `to`, saving each step, and waits for `release()` at step `waitAt`. */
function counter() {
  const gates = new Map<number, () => void>();
  // The n-th arrival at a step (a resumed job arrives again): one promise per (step, n), made on first ask.
  const arrivals = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const arrivalCount = new Map<number, number>();
  const slot = (step: number, nth: number) => {
    const id = `${step}#${nth}`;
    let entry = arrivals.get(id);
    if (!entry) {
      let resolve: () => void = () => undefined;
      const promise = new Promise<void>((done) => (resolve = done));
      entry = { promise, resolve };
      arrivals.set(id, entry);
    }
    return entry;
  };
  const at = (step: number, nth = 1) => slot(step, nth).promise;
  const starts: { checkpoint: number | null; runs: number; node: string }[] = [];
  const handler = (node: string) =>
    jobHandler({
      kind: 'count',
      params: z.object({ to: z.number().int(), waitAt: z.number().int(), failAt: z.number().int().optional() }),
      checkpoint: z.object({ done: z.number().int() }),
      run: async (job, context) => {
        starts.push({ checkpoint: job.checkpoint?.done ?? null, runs: job.runs, node });
        for (let step = (job.checkpoint?.done ?? 0) + 1; step <= job.params.to; step += 1) {
          if (step === job.params.failAt) {
            throw Object.assign(new AppError(ErrorCode.MODEL_UNAVAILABLE, '모델을 쓸 수 없습니다.', { status: 503 }), { partialResult: { done: step - 1 } });
          }
          if (step === job.params.waitAt) {
            const nth = (arrivalCount.get(step) ?? 0) + 1;
            arrivalCount.set(step, nth);
            slot(step, nth).resolve();
            await new Promise<void>((resolve, reject) => {
              gates.set(step, resolve);
              context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
            });
          }
          await context.save({ checkpoint: { done: step }, progress: { step, of: job.params.to } });
        }
        return { counted: job.params.to };
      },
    });
  return { handler, at, release: (step: number) => gates.get(step)?.(), starts };
}

async function storeFor(context: TestContext, kind: 'memory' | 'redis'): Promise<Store> {
  // Redis: the suite's own throwaway redis-server (job keys have the app's fixed prefix), flushed between tests.
  const store = kind === 'memory' ? new MemoryStore() : testRedisStore(redis.url);
  context.onTestFinished(async () => {
    for (const id of await new JobRepository(store).active(100)) await store.del(jobKeys.job(id), jobKeys.jobLease(id), jobKeys.jobCancel(id));
    await store.del(jobKeys.activeJobs());
    await store.close();
  });
  return store;
}

/**
 * A job lease short enough for a dead node's job to move on within a test, long enough that a loaded machine (load
 * 20 on two cores) never lets a living node's lease lapse between renewals (every third of it): 300 ms did, and the
 * job ran again.
 */
const TEST_LEASE_MS = 3_000;

function node(context: TestContext, store: Store, name: string, job: ReturnType<typeof counter>, seen?: JobView[]) {
  const runner = new JobRunner({
    repository: new JobRepository(store),
    store,
    nodeId: name,
    logger,
    handlers: [job.handler(name)],
    onChange: (view) => seen?.push(view),
    pollMs: 20,
    leaseMs: TEST_LEASE_MS,
  });
  context.onTestFinished(() => runner.stop());
  return runner;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = POLL_TIMEOUT_MS): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each(['memory', 'redis'] as const)('background jobs (%s store)', (kind) => {
  it('JOB1 a job runs on a node, its progress reaches the watchers, and it ends with its result', async (context) => {
    const store = await storeFor(context, kind);
    const job = counter();
    const seen: JobView[] = [];
    const runner = node(context, store, 'a', job, seen);
    const repository = new JobRepository(store);
    const created = await repository.create('count', 'acct', { to: 3, waitAt: 0 });
    runner.start();
    const done = await until(() => repository.get(created.jobId), (record) => record?.status === 'succeeded');
    expect(done?.result).toEqual({ counted: 3 });
    expect(done?.runs).toBe(1);
    // The watchers hear of the end right after the record is written.
    await until(async () => seen.at(-1)?.status, (status) => status === 'succeeded');
    expect(seen.map((view) => view.status)).toEqual(['running', 'running', 'running', 'running', 'succeeded']);
    expect(seen.map((view) => view.progress)).toContainEqual({ step: 2, of: 3 });
    // The watchers never see the checkpoint; the finished job leaves the active set and keeps a TTL.
    expect(seen.every((view) => !('checkpoint' in view))).toBe(true);
    expect(await repository.active(10)).toEqual([]);
    expect(await store.pttl(jobKeys.job(created.jobId))).toBeGreaterThan(0);
  });

  it('JOB2 a job left by a stopping node is resumed by another node from its checkpoint', async (context) => {
    const store = await storeFor(context, kind);
    const job = counter();
    const first = node(context, store, 'a', job);
    const repository = new JobRepository(store);
    const created = await repository.create('count', 'acct', { to: 5, waitAt: 3 });
    first.start();
    await job.at(3);
    await first.stop();
    const left = await repository.get(created.jobId);
    expect(left?.status).toBe('running');
    expect(left?.checkpoint).toEqual({ done: 2 });
    expect(await repository.active(10)).toEqual([created.jobId]);

    const second = node(context, store, 'b', job);
    second.start();
    await job.at(3, 2);
    job.release(3);
    const done = await until(() => repository.get(created.jobId), (record) => record?.status === 'succeeded');
    expect(done?.runs).toBe(2);
    expect(job.starts).toEqual([
      { checkpoint: null, runs: 1, node: 'a' },
      { checkpoint: 2, runs: 2, node: 'b' },
    ]);
  });

  it('JOB3 a node that dies without a word: its lease lapses and another node resumes the job from its checkpoint', async (context) => {
    const store = await storeFor(context, kind);
    const job = counter();
    const repository = new JobRepository(store);
    const created = await repository.create('count', 'acct', { to: 3, waitAt: 0 });
    // What a node leaves when its process dies mid-job: the record it wrote, and a lease nobody renews.
    await repository.write({ ...created, status: 'running', runs: 1, checkpoint: { done: 1 } });
    expect(await store.acquireLease(jobKeys.jobLease(created.jobId), 'dead', TEST_LEASE_MS)).toBe(true);
    const survivor = node(context, store, 'b', job);
    // While the dead node's lease holds, nobody takes the job.
    await survivor.tick();
    expect(job.starts).toEqual([]);
    await until(() => store.leaseOwner(jobKeys.jobLease(created.jobId)), (owner) => owner === null);
    survivor.start();
    const done = await until(() => repository.get(created.jobId), (record) => record?.status === 'succeeded');
    expect(done?.runs).toBe(2);
    expect(job.starts).toEqual([{ checkpoint: 1, runs: 2, node: 'b' }]);
  });

  it('JOB4 cancellation: a job running here stops at once, one running elsewhere at its next renewal, one never started at once', async (context) => {
    const store = await storeFor(context, kind);
    const job = counter();
    const repository = new JobRepository(store);
    const a = node(context, store, 'a', job);
    const b = node(context, store, 'b', job);

    const here = await repository.create('count', 'acct', { to: 5, waitAt: 2 });
    a.start();
    await job.at(2);
    expect((await a.cancel(here.jobId))?.status).toBe('cancelled');
    await a.stop();

    const waiting = await repository.create('count', 'acct', { to: 5, waitAt: 2 });
    expect((await b.cancel(waiting.jobId))?.status).toBe('cancelled');
    expect(await repository.active(10)).toEqual([]);

    const job2 = counter();
    const c = node(context, store, 'c', job2);
    const d = node(context, store, 'd', job2);
    const elsewhere = await repository.create('count', 'acct', { to: 5, waitAt: 3 });
    c.start();
    await job2.at(3);
    // Asked on node d, which does not run it (and cannot take its lease): c sees the flag when it renews its lease —
    // which may already have happened by the time d reads the record back.
    expect(['running', 'cancelled']).toContain((await d.cancel(elsewhere.jobId))?.status);
    expect(job2.starts.map((start) => start.node)).toEqual(['c']);
    const cancelled = await until(() => repository.get(elsewhere.jobId), (record) => record?.status === 'cancelled');
    expect(cancelled?.checkpoint).toEqual({ done: 2 });
  });

  it('JOB5 a failing job ends failed with its error code and the partial result its error carries', async (context) => {
    const store = await storeFor(context, kind);
    const job = counter();
    const repository = new JobRepository(store);
    node(context, store, 'a', job).start();
    const created = await repository.create('count', 'acct', { to: 5, waitAt: 0, failAt: 3 });
    const failed = await until(() => repository.get(created.jobId), (record) => record?.status === 'failed');
    expect(failed?.error).toEqual({ code: ErrorCode.MODEL_UNAVAILABLE, message: '모델을 쓸 수 없습니다.' });
    expect(failed?.result).toEqual({ done: 2 });
    expect(await repository.active(10)).toEqual([]);
  });
});
