import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { RedisStore } from '../../src/store/redis-store.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * The shared Redis the store contract runs on (every test keeps to its own random key prefix, see uniquePrefix, and
 * deletes its keys). Never database 0, which belongs to whoever else uses that Redis: `TEST_REDIS_URL` overrides the
 * default, and a URL naming database 0 (or none) is refused. Tests that boot the app use a throwaway server instead
 * (startRedisServer / suiteRedis), so its `lectern:*` keys never meet anyone else's.
 */
export const TEST_REDIS_URL = nonZeroDatabase(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/9');
/** The same URL under its older name. */
export const SHARED_REDIS_URL = TEST_REDIS_URL;

/** A test's Redis command limit: ten times production's, so a loaded machine's slow reply is no outage. */
export const TEST_REDIS_COMMAND_TIMEOUT_MS = 10_000;

/** A RedisStore as a test opens one: with the test's command limit (production's 1 s default is for production). */
export function testRedisStore(url: string): RedisStore {
  return new RedisStore({ url, commandTimeoutMs: TEST_REDIS_COMMAND_TIMEOUT_MS });
}

function nonZeroDatabase(url: string): string {
  const database = new URL(url).pathname.replace(/^\//, '') || '0';
  if (database === '0') throw new Error(`TEST_REDIS_URL must name a Redis database other than 0 (got ${url})`);
  return url;
}

/** A key prefix no other test (or test run) uses, so tests can share one Redis and clean up after themselves. */
export function uniquePrefix(label = 'test'): string {
  return `${label}:${randomUUID()}:`;
}

export interface RedisServer {
  port: number;
  url: string;
  /** Graceful stop (SIGTERM); resolves when the process has exited. */
  stop(): Promise<void>;
  /** Starts the server again on the same port (stopping it first if it still runs). */
  restart(): Promise<void>;
  /** Abrupt death (SIGKILL), like a crashed or unplugged server. */
  kill(): Promise<void>;
}

const READY_TIMEOUT_MS = WAIT_TIMEOUT_MS;
const START_ATTEMPTS = 3;

/** Every child we started; killed when the worker exits, so a failing test cannot leak a redis-server. */
const running = new Set<ChildProcess>();
/** Data directories of persistent servers; removed when the worker exits (a stopped server may be restarted). */
const dataDirs = new Set<string>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
  for (const directory of dataDirs) rmSync(directory, { recursive: true, force: true });
});

export interface RedisServerOptions {
  /**
   * Keep the data across stop/restart (an append-only file fsynced on every write, in a temp dir removed when the
   * test worker exits): an outage the data survives, like a production Redis restarting. Off by default.
   */
  persistent?: boolean;
}

/** A throwaway redis-server on a free port, answering PING when this resolves. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  let lastError: unknown;
  const dataDir = options.persistent ? mkdtempSync(path.join(tmpdir(), 'lectern-redis-')) : undefined;
  if (dataDir) dataDirs.add(dataDir);
  // The free port can be taken between our probe and redis binding it; pick another one then.
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt += 1) {
    const port = await freePort();
    try {
      let child = await spawnRedis(port, dataDir);
      return {
        port,
        url: `redis://127.0.0.1:${port}`,
        stop: () => terminate(child, 'SIGTERM'),
        kill: () => terminate(child, 'SIGKILL'),
        restart: async () => {
          await terminate(child, 'SIGTERM');
          child = await spawnRedis(port, dataDir);
        },
      };
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`could not start redis-server after ${START_ATTEMPTS} attempts`, { cause: lastError });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no TCP address for the probe server');
  return address.port;
}

async function spawnRedis(port: number, dataDir: string | undefined): Promise<ChildProcess> {
  const persistence = dataDir
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--dir', dataDir]
    : ['--appendonly', 'no'];
  const child = spawn('redis-server', ['--port', String(port), '--save', '', ...persistence, '--bind', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  // Keep the tail of the output for the error message; reading the pipes also keeps them from filling up.
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-4_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  child.once('exit', () => running.delete(child));

  const exited = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) => reject(new Error(`redis-server failed to spawn: ${error.message}`)));
    child.once('exit', (code, signal) => reject(new Error(`redis-server exited early (${code ?? signal}):\n${output}`)));
  });
  // Only the readiness race below looks at `exited`; later exits are expected (stop/kill) and must not surface.
  exited.catch(() => {});
  try {
    await Promise.race([waitForOwnServer(port, child.pid), exited]);
  } catch (error) {
    await terminate(child, 'SIGKILL');
    throw error;
  }
  return child;
}

/**
 * Waits until the redis-server on `port` answers and is this child (its process id): the port was only probed free,
 * and another test's server may have bound it first. Then this child exits (address in use) and the caller starts
 * again on another port, instead of handing out a server some other test owns.
 */
async function waitForOwnServer(port: number, pid: number | undefined): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await answersAs(port, pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`redis-server on port ${port} did not answer within ${READY_TIMEOUT_MS} ms`);
}

function answersAs(port: number, pid: number | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    let reply = '';
    const finish = (result: boolean) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once('error', () => finish(false));
    socket.once('connect', () => socket.write('INFO server\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      // "-LOADING ..." and friends mean not ready yet.
      if (reply.startsWith('-')) finish(false);
      else if (/process_id:\d+\r\n/.test(reply)) finish(reply.includes(`process_id:${pid}\r\n`));
    });
  });
}

async function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  // A graceful stop that hangs is escalated, so teardown never waits forever.
  const escalate = setTimeout(() => child.kill('SIGKILL'), 5_000);
  try {
    await exited;
  } finally {
    clearTimeout(escalate);
  }
}

/** A throwaway redis-server for the calling test file: started before its tests, stopped after them. */
export function suiteRedis(): { readonly url: string } {
  let server: RedisServer | undefined;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get url() {
      if (!server) throw new Error('the suite redis-server is not started yet (use it inside tests)');
      return server.url;
    },
  };
}
