import { PROTOCOL_VERSION } from '../../src/protocol/wire/ack.js';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect } from 'vitest';
import { startApp, type App, type AppOverrides } from '../../src/app.js';
import { loadConfig } from '../../src/kernel/config.js';
import { createPdfWorkerPool, type PdfWorkerPool } from '../../src/materials/index.js';
import { createLogger } from '../../src/kernel/logger.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import { TEST_REDIS_COMMAND_TIMEOUT_MS } from './redis-server.js';
import { TEST_TIMEOUT_MS, WAIT_TIMEOUT_MS } from './waits.js';


export interface TestApp extends App {
  url: string;
  port: number;
  /**
   * A socket.io-client on a namespace of this server (websocket only, no auto-reconnect unless asked); `auth` gets
   * this build's `protocolVersion` unless it names one.
   */
  socket(namespace: string, auth: Record<string, unknown>, options?: { reconnection?: boolean }): Socket;
  /** Closes the app, every socket made by `socket()` and the temp data dir. */
  stop(): Promise<void>;
}

/**
 * The instant each test's rate and join limits stand at, by test file and name (see {@link frozenLimitsClock}): the
 * files of a worker share this module (vitest.config.ts runs them without isolation), and two files may name a test
 * alike.
 */
const limitsInstants = new Map<string, number>();

/**
 * The rate and join limits count in fixed windows of the clock (60 s and 30 s by default). On the wall clock a test
 * that spends a budget could see its window turn half-way on a busy machine and never reach its 429; so unless a test
 * injects `limitsClock` itself, the limits of every app it boots stand still at the instant its first app booted
 * (one window for all of the test's nodes).
 */
function frozenLimitsClock(): (() => number) | undefined {
  const { currentTestName, testPath } = expect.getState();
  // An app a whole file shares (booted in beforeAll) keeps the wall clock: its windows turn as in production.
  if (currentTestName === undefined) return undefined;
  const test = `${testPath ?? ''} > ${currentTestName}`;
  const instant = limitsInstants.get(test) ?? Date.now();
  limitsInstants.set(test, instant);
  return () => instant;
}

function withFrozenLimits(overrides: AppOverrides): AppOverrides {
  const limitsClock = overrides.limitsClock ?? frozenLimitsClock();
  return limitsClock ? { ...overrides, limitsClock } : overrides;
}

/** One PDF worker pool per time limit for the whole test file (see {@link sharedPdfPool}). */
const pdfPools = new Map<number, PdfWorkerPool>();

/**
 * The apps of a test file share a warm PDF worker pool of their configured time limit (page and budget limits travel
 * with each job): a fresh pool per app started a worker thread through tsx for every first ingest, seconds of each
 * test on a busy machine. The app gets it without its close(); idle workers stop on their own (unref'd) and die with
 * the test process.
 */
function sharedPdfPool(timeoutMs: number): PdfWorkerPool {
  let pool = pdfPools.get(timeoutMs);
  if (!pool) {
    const shared = createPdfWorkerPool({ timeoutMs });
    pool = {
      extract: (bytes, options) => shared.extract(bytes, options),
      slice: (bytes, ranges, options) => shared.slice(bytes, ranges, options),
      sample: () => shared.sample(),
      close: async () => undefined,
    };
    pdfPools.set(timeoutMs, pool);
  }
  return pool;
}

/**
 * Boots the real product on port 0: same composition as main.ts, with an environment the test chooses (memory
 * store and offline model unless REDIS_URL / GEMINI_* are given, no quality sampling unless QUALITY_SAMPLE_RATE is)
 * and a fresh DATA_DIR.
 */
/**
 * The cheapest scrypt cost a stored hash may name (2^10, 1 MiB): what a test checks of passwords (the right one
 * verifies, a wrong one does not, the hash names its cost) holds at any cost, and the real one (2^15) spent about
 * 100 ms of a core per sign-up and sign-in, hundreds of times per run. AC13 checks the real cost itself.
 */
const TEST_PASSWORD_COST = { logN: 10, r: 8, p: 1 } as const;

export async function startTestApp(env: Record<string, string> = {}, overrides: AppOverrides = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-test-'));
  // The quality console samples nothing unless a test asks (QUALITY_SAMPLE_RATE): a random 5 % of every test's model
  // calls writing to the store in the background would make other tests' store and log checks depend on chance.
  // PDF_TIMEOUT_MS: a test's PDF is small, but its first extraction also starts the file's worker (through tsx); on a
  // machine running two suites that took past production's 30 s. Tests of the limit set their own.
  // REDIS_COMMAND_TIMEOUT_MS: at load 12 one command of a live test passed production's 1 s and its request got 503;
  // tests of an unresponsive store set their own (or use a RedisStore of their own).
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PRELOAD_SAMPLE: 'false',
    QUALITY_SAMPLE_RATE: '0',
    PDF_TIMEOUT_MS: String(TEST_TIMEOUT_MS),
    REDIS_COMMAND_TIMEOUT_MS: String(TEST_REDIS_COMMAND_TIMEOUT_MS),
    ...env,
  });
  const app = await startApp(config, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), withFrozenLimits({ pdfPool: sharedPdfPool(config.limits.pdfTimeoutMs), passwordCost: TEST_PASSWORD_COST, ...overrides }));
  await new Promise<void>((resolve) => app.server.httpServer.listen(0, '127.0.0.1', resolve));
  const port = (app.server.httpServer.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const sockets = new Set<Socket>();
  return {
    ...app,
    url,
    port,
    socket(namespace, auth, options = {}) {
      const socket = connect(`${url}${namespace}`, {
        // Every client sends the protocol version; a test of the version check overrides it.
        auth: { protocolVersion: PROTOCOL_VERSION, ...auth },
        transports: ['websocket'],
        reconnection: options.reconnection ?? false,
        forceNew: true,
      });
      sockets.add(socket);
      return socket;
    },
    async stop() {
      for (const socket of sockets) socket.disconnect();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * One memory store and DATA_DIR for the calling test file, like `suiteRedis()` for Redis: each test still boots its
 * own app (`appEnv()` and `appOverrides()` hand it the shared pair), but a material ingested by one test is found by
 * hash in the next instead of parsed again. Tests keep their data apart by their own accounts and classes, as they
 * do on the suite's Redis.
 */
export function suiteMemoryStore(): { appEnv(): Record<string, string>; appOverrides(): AppOverrides } {
  let shared: { store: MemoryStore; dataDir: string } | undefined;
  beforeAll(() => {
    shared = { store: new MemoryStore(), dataDir: mkdtempSync(path.join(tmpdir(), 'lectern-test-')) };
  });
  afterAll(async () => {
    await shared?.store.close();
    if (shared) rmSync(shared.dataDir, { recursive: true, force: true });
  });
  const current = () => {
    if (!shared) throw new Error('the suite memory store is not made yet (use it inside tests)');
    return shared;
  };
  return { appEnv: () => ({ DATA_DIR: current().dataDir }), appOverrides: () => ({ store: current().store }) };
}

/** Resolves with the first `event` payload the socket receives (rejects after `timeoutMs`). */
export function once<T = unknown>(socket: Socket, event: string, timeoutMs = WAIT_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Resolves once the socket is connected, or rejects with the connect_error. */
export function connected(socket: Socket, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (socket.connected) return resolve();
    const timer = setTimeout(() => reject(new Error('timed out connecting')), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
