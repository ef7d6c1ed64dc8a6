import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Shared helpers of the benchmark scripts: argument parsing, a server child process, percentiles. */

export function numberArg(name: string, fallback: number, allowZero = false): number {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = Number(process.argv[index + 1]);
  if (!Number.isFinite(value) || value < 0 || (value === 0 && !allowZero)) {
    throw new Error(`--${name} needs a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The METRICS_TOKEN every benchmark server gets, so the scripts can read /metrics (it is not public). */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-not-secret';

/** A benchmark server's Prometheus text. */
export async function readMetrics(serverUrl: string): Promise<string> {
  return (await fetch(`${serverUrl}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The limits a benchmark of `clients` sockets from this one address needs raised above its load: the per-address
 * HTTP budget (each client makes a request or two), the join attempts of class joins, and the per-address socket
 * cap. Without them a run past the defaults measures 429s, not the server.
 */
export function limitsFor(clients: number): Record<string, string> {
  const headroom = (value: number) => String(Math.min(value, 1_000_000));
  return {
    RATE_ADDRESS_MAX: headroom(clients * 4 + 200),
    JOIN_ATTEMPT_POINTS: headroom(clients * 2 + 200),
    MAX_SOCKETS_PER_ADDRESS: headroom(clients + 100),
  };
}

/** Throws unless a socket.io acknowledgement says `ok: true`. */
export function expectAck(ack: unknown, event: string): void {
  if ((ack as { ok?: unknown } | null)?.ok !== true) throw new Error(`${event}: ${JSON.stringify(ack)}`);
}

/** Reads a JSON reply and throws (with the status and body) unless its status is the expected one. */
export async function expectJson<T>(response: Response, expected: number, what: string): Promise<T> {
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${what}: ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

/**
 * Runs the real server (src/main.ts) in its own process, so client load does not share its event loop. The server
 * binds a port of its own choosing (PORT=0) and tells it over the IPC channel: a port probed free here first could be
 * taken by another process (a parallel test's server) before the child binds it, and this side would then talk to
 * that other server.
 */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  // BENCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the server side of a run; with
  // BENCH_SERVER_STDOUT set the server's standard output is shown (what "--trace-gc" prints goes there).
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'lectern-bench-')),
      METRICS_TOKEN: BENCH_METRICS_TOKEN,
      ...env,
    },
    stdio: ['ignore', process.env.BENCH_SERVER_STDOUT ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  // tsx compiles src/main.ts at start: on a machine busy with the test suite (the benches' smoke test) that is slow.
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('server did not start within 90 s'));
    }, 90_000);
    child.on('message', (message: unknown) => {
      const listening = message as { type?: unknown; port?: unknown } | null;
      if (listening?.type !== 'listening' || typeof listening.port !== 'number') return;
      clearTimeout(timer);
      // The channel's only use is this message; an open one would keep this process alive.
      child.disconnect();
      resolve(listening.port);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`server exited before listening (${code ?? signal})`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Reads one metric's value from a Prometheus text body (first sample without labels, or with `labels`). */
export function metricValue(body: string, name: string, labels = ''): number | undefined {
  const line = body.split('\n').find((candidate) => candidate.startsWith(`${name}${labels} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? 0;
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Connects `count` students in batches of 50, so the handshake storm does not dominate the measurement. */
export async function connectInBatches(count: number, connect: (index: number) => Promise<void>): Promise<void> {
  for (let index = 0; index < count; index += 50) {
    await Promise.all(Array.from({ length: Math.min(50, count - index) }, (_, offset) => connect(index + offset)));
  }
}

/** Starts every socket's lecture, spread evenly over `rampSeconds`, as a class would. */
export async function startLecturesOverRamp(
  sockets: readonly { emitWithAck(event: string, payload: object): Promise<unknown> }[],
  rampSeconds: number,
): Promise<void> {
  await Promise.all(
    sockets.map(async (socket, index) => {
      await new Promise((resolve) => setTimeout(resolve, (index / sockets.length) * rampSeconds * 1000));
      expectAck(await socket.emitWithAck('lecture:start', {}), 'lecture:start');
    }),
  );
}

/**
 * Warms up for 2 s, resets the server's event-loop lag maximum (read on every /metrics), then runs `measure` for
 * `seconds` and returns this process's CPU use over that window.
 */
export async function measureWindow(
  serverUrl: string,
  seconds: number,
  measuring: (on: boolean) => void,
): Promise<{ clientCpuPct: number }> {
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  await readMetrics(serverUrl);
  measuring(true);
  const cpuBefore = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const cpu = process.cpuUsage(cpuBefore);
  measuring(false);
  return { clientCpuPct: Math.round(((cpu.user + cpu.system) / 1000 / (seconds * 1000)) * 100) };
}

/** A string option (`--name value`), or `fallback` when absent. */
export function stringArg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  if (index === -1) return fallback;
  const value = process.argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}

/** Waits until the server's store answers (`/readyz`): a Redis store's first connection can lag behind listen. */
export async function waitForReady(serverUrl: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${serverUrl}/readyz`)).ok) return;
    } catch {
      // not answering yet
    }
    if (Date.now() > deadline) throw new Error(`${serverUrl} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A throwaway redis-server (no persistence) on a free port, so the benchmark never touches a shared Redis. The port
 * is only probed free: the server that answers must be this child (its process id), else another process took the
 * port first and this starts again on another one.
 */
export async function startRedisProcess(): Promise<{ url: string; stop(): Promise<void> }> {
  for (let attempt = 1; ; attempt += 1) {
    const started = await startRedisOnce();
    if (started) return started;
    if (attempt >= 5) throw new Error('redis-server did not start');
  }
}

async function startRedisOnce(): Promise<{ url: string; stop(): Promise<void> } | null> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'], {
    stdio: 'ignore',
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  };
  const url = `redis://127.0.0.1:${port}`;
  const { Redis } = await import('ioredis');
  const deadline = Date.now() + 10_000;
  while (child.exitCode === null && Date.now() <= deadline) {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => undefined);
    const info = await probe.connect().then(
      () => probe.info('server'),
      () => null,
    );
    probe.disconnect();
    if (info?.includes(`process_id:${child.pid}\r\n`)) return { url, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  return null;
}

/**
 * Signs a bench instructor up on a fresh server (its first account may sign up whatever SIGNUP says) and answers a
 * personal API token (`lct_…`) for `Authorization: Bearer`: classes, quizzes and uploads belong to an
 * account.
 */
export async function benchInstructorToken(serverUrl: string): Promise<string> {
  const email = `bench-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@bench.example`;
  const signup = await fetch(`${serverUrl}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: `bench-password-${Math.random().toString(36)}` }),
  });
  const body = (await signup.json()) as { csrfToken?: string };
  const cookie = /lectern_session=[^;]+/.exec(signup.headers.get('set-cookie') ?? '')?.[0];
  if (signup.status !== 201 || !cookie || !body.csrfToken) throw new Error(`POST /api/auth/signup: ${signup.status} ${JSON.stringify(body)}`);
  const created = await fetch(`${serverUrl}/api/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': body.csrfToken },
    body: JSON.stringify({ name: 'bench' }),
  });
  const token = (await created.json()) as { token?: string };
  if (created.status !== 201 || !token.token) throw new Error(`POST /api/auth/tokens: ${created.status}`);
  return token.token;
}
