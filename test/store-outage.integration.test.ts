/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SO1 — Told, then continued. When Redis goes away while a student's lecture streams, the student receives
 *   `session:error {seq: 0, code: "STORE_UNAVAILABLE", retryable: true}` at once …
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from '../src/kernel/errors.js';
import { RedisStore } from '../src/store/redis-store.js';
import type { Store } from '../src/store/store.js';
import { startTail } from './store-contract.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { lectureBefore } from './support/hand-client.js';
import { joinLecture, loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { POLL_TIMEOUT_MS } from './support/poll.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';

/**
 * Redis going away must not take the process down: calls fail fast with STORE_UNAVAILABLE, tails wait, and
 * everything heals when Redis is back. Each case runs against its own redis-server, which it kills or stops.
 */
describe('RedisStore when Redis goes away', () => {
  let server: RedisServer;
  const stores: RedisStore[] = [];
  const admins: Redis[] = [];
  const unhandled: unknown[] = [];
  const record = (error: unknown) => unhandled.push(error);

  const open = () => {
    const store = new RedisStore({ url: server.url });
    stores.push(store);
    return store;
  };
  /** A plain client for test-side commands (CLIENT PAUSE, CLIENT LIST); it must not throw on the outage either. */
  const admin = async () => {
    const client = new Redis(server.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    admins.push(client);
    await client.connect();
    return client;
  };

  beforeAll(() => {
    process.on('unhandledRejection', record);
    process.on('uncaughtException', record);
  });
  afterAll(() => {
    process.off('unhandledRejection', record);
    process.off('uncaughtException', record);
  });
  beforeEach(async () => {
    server = await startRedisServer();
    unhandled.length = 0;
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const client of admins.splice(0)) client.disconnect();
    await server.stop();
  });

  it.each(['kill', 'stop'] as const)('fails fast while down (%s), keeps tails alive and recovers', async (how) => {
    const store = open();
    await store.set('k', 'before');
    expect(await store.get('k')).toBe('before');
    const tail = startTail(store, 'stream', '0');
    await store.xadd('stream', { n: '1' });
    await tail.waitFor(1);

    await server[how]();

    const calls: [string, () => Promise<unknown>][] = [
      ['ping', () => store.ping()],
      ['get', () => store.get('k')],
      ['set', () => store.set('k', 'during')],
      ['incr', () => store.incr('counter')],
      ['getBytes', () => store.getBytes('blob')],
      ['hgetall', () => store.hgetall('hash')],
      ['hsetnx', () => store.hsetnx('hash', 'f', 'v')],
      ['zrange', () => store.zrange('zset', 0, -1)],
      ['xadd', () => store.xadd('stream', { n: 'lost' })],
      ['xread', () => store.xread('stream', '0')],
      ['acquireLease', () => store.acquireLease('lease', 'me', 1_000)],
      ['renewLease', () => store.renewLease('lease', 'me', 1_000)],
    ];
    for (const [name, call] of calls) {
      const started = performance.now();
      const error: unknown = await call().then(
        () => new Error(`${name} resolved while Redis was down`),
        (caught: unknown) => caught,
      );
      const elapsed = performance.now() - started;
      expect(error, name).toBeInstanceOf(StoreUnavailableError);
      expect((error as StoreUnavailableError).code).toBe('STORE_UNAVAILABLE');
      expect(elapsed, `${name} took ${Math.round(elapsed)} ms`).toBeLessThan(1_000);
    }
    expect(tail.ended).toBe(false);

    await server.restart();
    await untilAvailable(store);
    await store.set('k', 'after');
    expect(await store.get('k')).toBe('after');
    // The restarted server has no data (no persistence); the tail continues with what is added now.
    await store.xadd('stream', { n: '2' });
    await tail.waitFor(2);
    expect(tail.entries.map((entry) => entry.fields.n)).toEqual(['1', '2']);
    await tail.stop();
    expect(unhandled).toEqual([]);
  });

  it('rejects a command that is in flight when the connection dies', async () => {
    const store = open();
    await store.ping();
    // Paused clients get no replies, so the GET below is still waiting when the server dies.
    await (await admin()).call('CLIENT', 'PAUSE', '5000', 'ALL');
    const pending = store.get('k');
    pending.catch(() => {});
    const killed = performance.now();
    await server.kill();
    await expect(pending).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(performance.now() - killed).toBeLessThan(1_000);
    expect(unhandled).toEqual([]);
  });

  it('times out a call to a server that stopped answering', async () => {
    const store = open();
    await store.ping();
    await (await admin()).call('CLIENT', 'PAUSE', '3000', 'ALL');
    const started = performance.now();
    await expect(store.get('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    // The command timeout is 1 s; the margin is for a loaded machine.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('waits as long as its command timeout says on a server that stopped answering (REDIS_COMMAND_TIMEOUT_MS)', async () => {
    const patient = new RedisStore({ url: server.url, commandTimeoutMs: 20_000 });
    stores.push(patient);
    await patient.set('k', 'kept');
    const hasty = open();
    await hasty.ping();
    // Past the default 1 s: the default store gives up, the patient one gets its reply once the pause ends.
    await (await admin()).call('CLIENT', 'PAUSE', '1500', 'ALL');
    await expect(hasty.get('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(await patient.get('k')).toBe('kept');
  });

  it('starts while Redis is down and works once it is up', async () => {
    await server.kill();
    const store = open();
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    const tail = startTail(store, 'stream', '0');
    await server.restart();
    await untilAvailable(store);
    await store.xadd('stream', { n: '1' });
    await tail.waitFor(1);
    await tail.stop();
    expect(unhandled).toEqual([]);
  });

  it('serves hundreds of tails over two connections, one subscription per key', async () => {
    const store = open();
    const streamKeys = ['s1', 's2', 's3'];
    const tails = streamKeys.flatMap((key) => Array.from({ length: 100 }, () => startTail(store, key, '0')));
    for (const key of streamKeys) await store.xadd(key, { n: '1' });
    await Promise.all(tails.map((tail) => tail.waitFor(1)));

    const inspector = await admin();
    const clients = String(await inspector.call('CLIENT', 'LIST'))
      .split('\n')
      .filter((line) => line.includes(' name=lectern'));
    expect(clients).toHaveLength(2);
    const channels = streamKeys.map((key) => `${key}:notify`);
    expect(await inspector.call('PUBSUB', 'NUMSUB', ...channels)).toEqual(channels.flatMap((channel) => [channel, 1]));

    await Promise.all(tails.map((tail) => tail.stop()));
    // Unsubscribing follows the last tail of each key, asynchronously.
    await vi.waitFor(
      async () =>
        expect(await inspector.call('PUBSUB', 'NUMSUB', ...channels)).toEqual(channels.flatMap((channel) => [channel, 0])),
      { timeout: WAIT_TIMEOUT_MS, interval: 20 },
    );
  });
});

/** Polls ping (bounded) until the store reconnected; reconnect backoff is capped at about a second. */
async function untilAvailable(store: Store, timeoutMs = POLL_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await store.ping();
      return;
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * SO1 (test/SPEC.md): a student streaming a lecture while Redis goes away is told at once, with a retryable
 * STORE_UNAVAILABLE, and the lecture goes on by itself with exact text when Redis is back. The redis-server keeps its
 * data across the restart (append-only file), like a production Redis that restarts.
 */
describe('SO1: a streaming student during a Redis outage', () => {
  let redis: RedisServer | undefined;
  let app: TestApp | undefined;
  const unhandledDuring: unknown[] = [];
  const note = (error: unknown) => unhandledDuring.push(error);
  beforeAll(async () => {
    process.on('unhandledRejection', note);
    await samplePdfBytes();
  });
  afterAll(() => {
    process.off('unhandledRejection', note);
  });
  afterEach(async () => {
    await app?.stop();
    await redis?.stop();
    app = undefined;
    redis = undefined;
  });

  it('SO1 gets session:error STORE_UNAVAILABLE (retryable) while Redis is down, then a snapshot and the rest of the lecture with exact text', async () => {
    redis = await startRedisServer({ persistent: true });
    app = await startTestApp({ REDIS_URL: redis.url });
    const server = app;
    const material = await loadSample(server);
    const { client } = await joinLecture(server, material.id);
    await client.ok('lecture:speed', { tokensPerSecond: 20 });
    await client.ok('lecture:start');
    await client.waitForText(0, 30);

    const before = client.events.length;
    await redis.stop();
    const error = await client.waitForEvent('session:error', { from: before });
    expect(error).toEqual({ seq: 0, code: 'STORE_UNAVAILABLE', message: expect.any(String), retryable: true });
    expect(client.all('lecture:question')).toEqual([]);
    // While the store is away the session holds: commands answer the same retryable code and change nothing.
    expect(await client.command('lecture:pause')).toMatchObject({ ok: false, error: { code: 'STORE_UNAVAILABLE' } });
    const held = client.events.length;

    await redis.restart();
    // Back: one snapshot of what the student had, then the lecture goes on by itself, with no command sent.
    await client.waitForEvent('session:state', { from: held });
    await client.waitForEvent('lecture:question', { from: held });
    expect(client.text.get(0)).toBe(await lectureBefore(server, material.id, 0, 1));
    expect(client.seqErrors).toEqual([]);
    expect(unhandledDuring).toEqual([]);
  });
});
