/**
 * Hostile-PDF benchmark: the real app in this process (memory store, offline model), one account uploading
 * `--bombs` flate bombs (~712 KB, ~490 MB inflated, each different) at once, and another instructor uploading a
 * small lecture PDF while they are queued. Prints one JSON line:
 *   {"bombs","bombBytes","bombAnswers","smallUploadMs","smallStatus","bombsDoneMs","baselineRssMb","peakRssMb","rssAfterMb"}
 * The pool's workers are warmed first; `rssAfterMb` is read `--settle` seconds (5) after the last answer. Aim: the small upload unaffected (a second or two), the bombs
 * refused quickly, RSS back near its baseline.
 *
 * Usage: tsx scripts/bench-pdf-bombs.ts [--bombs 4] [--inflated-mb 490] [--settle 5]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApp } from '../src/app.js';
import { loadConfig } from '../src/kernel/config.js';
import { createLogger } from '../src/kernel/logger.js';
import { numberArg } from './bench-support.js';
import { flateBombPdf } from './pdf-bombs.js';
import { plainPdf } from './pdf-fixtures.js';

const bombCount = numberArg('bombs', 4);
const inflatedMb = numberArg('inflated-mb', 490);
const settleSeconds = numberArg('settle', 5, true);

const bombs = await Promise.all(Array.from({ length: bombCount }, (_, index) => flateBombPdf({ inflatedMb, label: `bomb ${index + 1}` })));
const lecture = await plainPdf(20, true);

const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-bombs-'));
const app = await startApp(loadConfig({ PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PRELOAD_SAMPLE: 'false', SIGNUP: 'open', QUALITY_SAMPLE_RATE: '0' }), createLogger('silent'));
await new Promise<void>((resolve) => app.server.httpServer.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(app.server.httpServer.address() as AddressInfo).port}`;

async function bearerOf(name: string): Promise<Record<string, string>> {
  const account = await app.accounts.signUp({ email: `${name}@bench.example`, password: `bench-password-${name}-0123` });
  const { token } = await app.accounts.createApiToken(account.accountId, 'bench');
  return { authorization: `Bearer ${token}` };
}
const attacker = await bearerOf('attacker');
const teacher = await bearerOf('teacher');
const colleague = await bearerOf('colleague');

async function upload(bearer: Record<string, string>, bytes: Uint8Array, filename: string): Promise<{ status: number; code: string | undefined }> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), filename);
  const response = await fetch(`${url}/api/materials`, { method: 'POST', body: form, headers: bearer });
  const body = (await response.json()) as { error?: { code?: string } };
  return { status: response.status, code: body.error?.code };
}

// Warm workers first, one per core's worth (starting a worker is not what is measured), then the baseline.
await Promise.all([upload(teacher, await plainPdf(2), 'warm.pdf'), upload(colleague, await plainPdf(3), 'warm-too.pdf')]);
await sleep(1_000);
const baselineRss = process.memoryUsage.rss();
let peakRss = baselineRss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
}, 25);

const started = performance.now();
const bombAnswers = Promise.all(bombs.map((bytes, index) => upload(attacker, bytes, `bomb-${index + 1}.pdf`)));
// The small upload arrives while the bombs are queued or being read.
await sleep(200);
const smallStarted = performance.now();
const small = await upload(teacher, lecture, 'lecture.pdf');
const smallUploadMs = performance.now() - smallStarted;
const answers = await bombAnswers;
const bombsDoneMs = performance.now() - started;
await sleep(settleSeconds * 1000);
clearInterval(sampler);
const rssAfter = process.memoryUsage.rss();

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));
process.stdout.write(
  `${JSON.stringify({
    bombs: bombCount,
    bombBytes: bombs[0]?.byteLength,
    bombAnswers: answers.map((answer) => `${answer.status} ${answer.code ?? ''}`.trim()),
    smallUploadMs: Math.round(smallUploadMs),
    smallStatus: small.status,
    bombsDoneMs: Math.round(bombsDoneMs),
    baselineRssMb: mb(baselineRss),
    peakRssMb: mb(peakRss),
    rssAfterMb: mb(rssAfter),
  })}\n`,
);
await app.close();
await rm(dataDir, { recursive: true, force: true });
