/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - IN2 — A start that says what it waits for. `npm start` prints a line before building the pages, one before
 *   loading the server's modules, one when they are loaded …
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeGemini } from './support/fake-gemini.js';
import { FakeOpenAI } from './support/fake-openai.js';
import { suiteRedis } from './support/redis-server.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';

/** The real entry point, run exactly as `npm start` runs it (src/main.ts through tsx). */
function startMain(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function waitForHealth(url: string, timeoutMs = WAIT_TIMEOUT_MS): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return await response.json();
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const redis = suiteRedis();
const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the entry point', () => {
  it('IN2 starts with no configuration (memory store, offline model), says what it loads, answers /healthz, and exits 0 on SIGTERM', async () => {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-main-'));
    dirs.push(dataDir);
    const { child, output } = startMain({ PORT: String(port), DATA_DIR: dataDir });
    children.push(child);
    const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`);
    expect(health).toMatchObject({
      status: 'ok',
      store: 'memory',
      model: 'offline',
      models: { generation: 'offline-v1', judge: 'offline-v1', embedding: 'offline-v1' },
    });

    // IN2: what it waits for is said before it waits: the first line comes before the modules load, then the store
    // and model, then the address.
    const messages = output()
      .split('\n')
      .flatMap((line) => (line.startsWith('{') ? [(JSON.parse(line) as { msg: string }).msg] : []));
    const at = (start: string) => messages.findIndex((message) => message.startsWith(start));
    expect(at('starting lectern: loading the server modules')).toBe(0);
    expect(at('modules loaded; preparing the store and the model')).toBeGreaterThan(0);
    expect(at('lectern listening on')).toBeGreaterThan(at('modules loaded'));

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(output()).toContain('shutting down');
  });

  it('uses Redis when REDIS_URL is set', async () => {
    const port = await freePort();
    const { child } = startMain({ PORT: String(port), REDIS_URL: redis.url, PRELOAD_SAMPLE: 'false' });
    children.push(child);
    const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`);
    expect(health).toMatchObject({ store: 'redis', model: 'offline' });
    child.kill('SIGTERM');
    expect(((await once(child, 'exit')) as [number | null])[0]).toBe(0);
  });

  it('uses Gemini when GEMINI_API_KEY is set, through GEMINI_BASE_URL', async () => {
    const fake = await FakeGemini.start();
    try {
      const port = await freePort();
      const { child } = startMain({
        PORT: String(port),
        GEMINI_API_KEY: 'test-key',
        GEMINI_BASE_URL: fake.baseUrl,
        PRELOAD_SAMPLE: 'false',
      });
      children.push(child);
      const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`);
      expect(health).toMatchObject({ store: 'memory', model: 'gemini' });
      child.kill('SIGTERM');
      expect(((await once(child, 'exit')) as [number | null])[0]).toBe(0);
    } finally {
      await fake.close();
    }
  });

  it('OA6 uses an OpenAI-compatible server when OPENAI_BASE_URL is set, and /healthz names the provider and models', async () => {
    const fake = await FakeOpenAI.start();
    try {
      const port = await freePort();
      const { child } = startMain({
        PORT: String(port),
        OPENAI_BASE_URL: fake.baseUrl,
        OPENAI_MODEL: 'qwen3:8b',
        OPENAI_JUDGE_MODEL: 'qwen3:32b',
        OPENAI_EMBEDDING_MODEL: 'nomic-embed-text',
        PRELOAD_SAMPLE: 'false',
      });
      children.push(child);
      const health = await waitForHealth(`http://127.0.0.1:${port}/healthz`);
      expect(health).toMatchObject({
        status: 'ok',
        store: 'memory',
        model: 'openai',
        models: { generation: 'qwen3:8b', judge: 'qwen3:32b', embedding: 'nomic-embed-text' },
      });
      child.kill('SIGTERM');
      expect(((await once(child, 'exit')) as [number | null])[0]).toBe(0);
    } finally {
      await fake.close();
    }
  });

  it('OA6 refuses to start when the chosen provider misses a setting, naming the variable', async () => {
    const { child, output } = startMain({ LLM_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_EMBEDDING_MODEL: 'e' });
    children.push(child);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(output()).toContain('OPENAI_MODEL');
  });

  it('refuses to start on an invalid variable and names it', async () => {
    const { child, output } = startMain({ PORT: 'not-a-port' });
    children.push(child);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(output()).toContain('PORT');
  });
});
