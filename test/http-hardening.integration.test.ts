/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - O4 — Vendor files. A missing file under `/vendor/*` answers `404 NOT_FOUND`; neither the answer nor the logs name
 *   a path on the machine.
 * - O5 — Security headers. Every page, API answer and error answer carries a CSP without inline script (`script-src
 *   'self'`, `script-src-attr 'none'`, `frame-ancestors 'none'` …
 * - O6 — Metrics are not public. With neither `METRICS_TOKEN` nor `METRICS_PORT`, `/metrics` answers 404.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp, type App } from '../src/app.js';
import { loadConfig } from '../src/kernel/config.js';
import { nodeModulesDir } from '../src/kernel/paths.js';
import { signUp } from './support/accounts.js';
import { captureLogs } from './support/log-capture.js';
import { startMain, type MainProcess } from './support/main-process.js';

/** O4–O6 (test/SPEC.md): vendor 404s, security headers on every response, and who may read /metrics. */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** The real app on port 0 with a logger whose output the test reads. */
async function serve(env: Record<string, string> = {}): Promise<{ url: string; app: App; logs: ReturnType<typeof captureLogs> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-hardening-'));
  const logs = captureLogs('debug');
  const app = await startApp(loadConfig({ PORT: '0', LOG_LEVEL: 'debug', DATA_DIR: dataDir, PRELOAD_SAMPLE: 'false', ...env }), logs.logger);
  await new Promise<void>((resolve) => app.server.httpServer.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { url: `http://127.0.0.1:${(app.server.httpServer.address() as AddressInfo).port}`, app, logs };
}

function expectSecurityHeaders(response: Response, what: string): void {
  const csp = response.headers.get('content-security-policy') ?? '';
  const directives = new Map(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...values]) => [name, values] as const));
  expect(directives.get('script-src'), what).toEqual(["'self'"]);
  expect(directives.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(directives.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(directives.get('object-src'), what).toEqual(["'none'"]);
  expect(csp, what).not.toContain('unsafe-inline');
  expect(csp, what).not.toContain('unsafe-eval');
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
}

describe('vendor files', () => {
  it('O4 a missing vendor file answers 404, and neither the answer nor the logs name a path on the machine', async () => {
    const { url, logs } = await serve();
    for (const missing of ['/vendor/katex/no-such-file.js', '/vendor/katex/fonts/nothing.woff2', '/vendor/unknown-library/x.js']) {
      const response = await fetch(`${url}${missing}`);
      expect(response.status, missing).toBe(404);
      const body = await response.text();
      expect(body, missing).toContain('NOT_FOUND');
      expect(body, missing).not.toContain(nodeModulesDir);
    }
    expect((await fetch(`${url}/vendor/katex/katex.min.js`)).status).toBe(200);
    expect(logs.text()).not.toContain(nodeModulesDir);
    expect(logs.lines().filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe('security headers', () => {
  it('O5 a page, an API answer and an error answer carry CSP (no inline script, frame-ancestors none), nosniff and Referrer-Policy', async () => {
    const { url } = await serve();
    for (const page of ['/', '/classroom.html', '/host.html', '/play.html', '/monitor.html', '/upload.html', '/app.css', '/build/classroom.js']) {
      const response = await fetch(`${url}${page}`);
      expect(response.status, page).toBe(200);
      expectSecurityHeaders(response, page);
    }
    const { bearer } = await signUp({ url });
    const created = await fetch(`${url}/api/classes`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer }, body: JSON.stringify({ name: '헤더 반' }) });
    expect(created.status).toBe(201);
    expectSecurityHeaders(created, 'POST /api/classes');
    expectSecurityHeaders(await fetch(`${url}/healthz`), '/healthz');

    const missing = await fetch(`${url}/api/nothing-here`);
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing, '404');
    const malformed = await fetch(`${url}/api/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"materialId": ' });
    expect(malformed.status).toBe(400);
    expectSecurityHeaders(malformed, '400');
    const unauthorized = await fetch(`${url}/api/quizzes`, { headers: { authorization: 'Bearer forged.token' } });
    expect(unauthorized.status).toBe(401);
    expectSecurityHeaders(unauthorized, '401');
  });
});

describe('metrics access', () => {
  it('O6 with neither METRICS_TOKEN nor METRICS_PORT, /metrics answers 404', async () => {
    const { url } = await serve();
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('nodejs_eventloop_lag');
  });

  it('O6 with METRICS_TOKEN, /metrics answers only its bearer (401 otherwise)', async () => {
    const token = 'metrics-token-0123456789';
    const { url } = await serve({ METRICS_TOKEN: token });
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `Basic ${token}`]) {
      const response = await fetch(`${url}/metrics`, authorization === undefined ? {} : { headers: { authorization } });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.text()).not.toContain('process_resident_memory_bytes');
    }
    const allowed = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toContain('text/plain');
    expect(await allowed.text()).toContain('process_resident_memory_bytes');
  });

  it('O6 with METRICS_PORT, /metrics is served on that port bound to 127.0.0.1, and not on the main port', async () => {
    const server: MainProcess = await startMain({ METRICS_PORT: '0', PRELOAD_SAMPLE: 'false' });
    cleanups.push(() => server.stop('SIGKILL'));
    await server.waitForOutput('metrics listening');
    const line = server.output().split('\n').find((candidate) => candidate.includes('metrics listening'))!;
    const { port, host } = JSON.parse(line) as { port: number; host: string };
    expect(host).toBe('127.0.0.1');
    expect(port).not.toBe(server.port);

    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('lectern_http_requests_total');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await server.stop()).code).toBe(0);
  });
});
