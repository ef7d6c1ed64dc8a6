import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { freePort } from '../../scripts/bench-support.js';
import { projectRoot } from '../../src/kernel/paths.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * The real entry point (src/main.ts through tsx, as `npm start` runs it) in a child process whose output the test
 * reads: for what only a process shows (exit codes, signals, startup, logs).
 */
export interface MainProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr: pino lines and crash traces). */
  output(): string;
  /** Resolves when `text` appears in the output, or matches it (rejects after `timeoutMs` or when the process exits first). */
  waitForOutput(text: string | RegExp, timeoutMs?: number): Promise<void>;
  /** The exit, whenever it comes. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends the signal (SIGTERM by default) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();
// A failed test must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * src/ transpiled once by esbuild (what tsx does at every start, file by file) into a temporary folder inside the
 * repository, so paths.ts still finds the project root and node_modules: the compiled entry `npm run start:dist`
 * runs, for tests that start the server many times (a start through tsx costs about half a CPU-second more).
 */
export async function compileMain(): Promise<{ entry: string; remove(): void }> {
  const cache = path.join(projectRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(path.join(cache, 'lectern-main-'));
  const sources: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (file.endsWith('.ts')) sources.push(file);
    }
  };
  walk(path.join(projectRoot, 'src'));
  await build({ entryPoints: sources, outdir: path.join(outdir, 'src'), outbase: path.join(projectRoot, 'src'), format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });
  return { entry: path.join(outdir, 'src', 'main.js'), remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

/**
 * Starts src/main.ts (through tsx, or the `entry` compileMain made) on a free port with `env` (plus PATH, HOST
 * 127.0.0.1, a fresh DATA_DIR, LOG_LEVEL info) and resolves once it logged that it listens (or when `wait` is
 * 'none', at once).
 */
export async function startMain(
  env: Record<string, string> = {},
  options: { wait?: 'listening' | 'none'; timeoutMs?: number; entry?: string } = {},
): Promise<MainProcess> {
  // The free port is found before the child binds it: another process may take it in between (O7 starts fifty
  // nodes beside the rest of the suite; CI once saw EADDRINUSE). That is the test's race, not the product's: start
  // again on another port.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnce(env, options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnce(env: Record<string, string>, options: { wait?: 'listening' | 'none'; timeoutMs?: number; entry?: string }): Promise<MainProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-main-'));
  const child = spawn(process.execPath, options.entry ? [options.entry] : ['--import', 'tsx', 'src/main.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const listeners = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of [...listeners]) listener();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      running.delete(child);
      rmSync(dataDir, { recursive: true, force: true });
      for (const listener of [...listeners]) listener();
      resolve({ code, signal });
    });
  });

  const waitForOutput = (text: string | RegExp, timeoutMs = WAIT_TIMEOUT_MS) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (typeof text === 'string' ? output.includes(text) : text.test(output)) finish();
        else if (child.exitCode !== null || child.signalCode !== null) finish(new Error(`exited before "${text}":\n${output.slice(-2_000)}`));
      };
      const finish = (error?: Error) => {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(() => finish(new Error(`no "${text}" within ${timeoutMs} ms:\n${output.slice(-2_000)}`)), timeoutMs);
      listeners.add(check);
      check();
    });

  const started: MainProcess = {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    output: () => output,
    waitForOutput,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (options.wait !== 'none') {
    try {
      await waitForOutput('lectern listening', options.timeoutMs ?? WAIT_TIMEOUT_MS);
    } catch (error) {
      child.kill('SIGKILL');
      throw error;
    }
  }
  return started;
}
