/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LT20 — The container's start without the container. (`test/deployment-start.integration.test.ts`).
 */
import { execFile, spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../scripts/bench-support.js';
import { projectRoot } from '../src/kernel/paths.js';

/**
 * LT20 (test/SPEC.md): the container's start, without a container (none runs on these machines). The server is built
 * as the image's build stage builds it (tsc into dist/, the pages' bundles), laid out as the image's /app (package.json,
 * dist/src, public, prompts, node_modules), and the Dockerfile's own runtime ENV and CMD are run there — as an
 * unprivileged user (nobody) when the test runs as root, like the image's `node` — with a fresh DATA_DIR only that
 * user may write. It must answer /readyz, serve a page and its bundle, write its data into DATA_DIR only, and stop
 * cleanly on SIGTERM (the image's STOPSIGNAL).
 */

const dockerfile = readFileSync(path.join(projectRoot, 'Dockerfile'), 'utf8');
const runtimeStage = dockerfile.split(/^FROM .* AS runtime$/m)[1] ?? '';
const NOBODY = 65_534;
const asRoot = process.getuid?.() === 0;

/** The runtime stage's `ENV A=1 \ B=2` as a record. */
function imageEnvironment(): Record<string, string> {
  const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtimeStage)?.[1] ?? '';
  return Object.fromEntries([...block.replace(/\\\n/g, ' ').matchAll(/([A-Z_]+)=(\S+)/g)].map((match) => [match[1]!, match[2]!]));
}

const imageCommand = (): string[] => JSON.parse(/^CMD (\[.*\])$/m.exec(runtimeStage)?.[1] ?? '[]') as string[];

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the container start command, without the container', () => {
  it('LT20 `node dist/src/main.js` with the image’s environment, as an unprivileged user, answers /readyz and stops on SIGTERM', async () => {
    const app = mkdtempSync(path.join(tmpdir(), 'lectern-image-'));
    scratch.push(app);
    // The build stage: `npm run build` is tsc (the type check is `npm run typecheck`'s job, so emit only here) and the
    // pages' bundles, which the test suite's global setup has built into public/build.
    await promisify(execFile)(process.execPath, [path.join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--noCheck', '--outDir', path.join(app, 'dist')], {
      cwd: projectRoot,
    });
    cpSync(path.join(projectRoot, 'package.json'), path.join(app, 'package.json'));
    cpSync(path.join(projectRoot, 'public'), path.join(app, 'public'), { recursive: true });
    cpSync(path.join(projectRoot, 'prompts'), path.join(app, 'prompts'), { recursive: true });
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(app, 'node_modules'));
    expect(readdirSync(path.join(app, 'public', 'build'))).toContain('classroom.js');
    // /app is the image's: readable by all, writable by nobody but root; /data is the server user's own.
    chmodSync(app, 0o755);
    const data = mkdtempSync(path.join(tmpdir(), 'lectern-data-'));
    scratch.push(data);
    chmodSync(data, 0o755);
    mkdirSync(path.join(data, 'data'));
    const dataDir = path.join(data, 'data');
    if (asRoot) chownSync(dataDir, NOBODY, NOBODY);
    chmodSync(dataDir, 0o700);

    const environment = imageEnvironment();
    expect(environment).toMatchObject({ NODE_ENV: 'production', DATA_DIR: '/data', PORT: '3000' });
    const [command, ...args] = imageCommand();
    expect([command, ...args]).toEqual(['node', 'dist/src/main.js']);
    const port = await freePort();
    const child = spawn(command === 'node' ? process.execPath : command!, args, {
      cwd: app,
      env: { ...environment, PATH: process.env.PATH ?? '', HOME: dataDir, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
    });
    let output = '';
    const listening = new Promise<void>((resolve, reject) => {
      const check = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (output.includes('lectern listening')) resolve();
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      child.once('exit', (code) => reject(new Error(`exited ${code} before listening:\n${output.slice(-3000)}`)));
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await listening;
      const base = `http://127.0.0.1:${port}`;
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      expect((await fetch(`${base}/classroom.html`)).status).toBe(200);
      expect((await fetch(`${base}/build/classroom.js`)).status).toBe(200);
      expect((await fetch(`${base}/lti/jwks`)).status).toBe(200);
      // The built-in sample is ingested into DATA_DIR (the memory store keeps blobs on disk).
      await expect.poll(async () => ((await fetch(`${base}/api/materials`)).ok ? ((await (await fetch(`${base}/api/materials`)).json()) as { materials: unknown[] }).materials.length : 0)).toBeGreaterThan(0);
      expect(readdirSync(dataDir).length).toBeGreaterThan(0);
    } catch (error) {
      throw new Error(`${String(error)}\n${output.slice(-3000)}`);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    // Production logs are JSON lines (pino), none at error level.
    const lines = output.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { level: number });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});
