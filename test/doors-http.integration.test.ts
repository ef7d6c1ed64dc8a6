/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR1 — Undecodable path parameters. `%ff` in every path parameter of every route the routers declare (listed from
 *   express's own stacks) answers `400 INVALID_PAYLOAD` with a Korean message …
 * - DR2 — Headers on socket.io's answers. `/socket.io/*` answers (long-polling, handshake errors, the client bundle)
 *   carry the same CSP, `nosniff`, `Referrer-Policy` and `X-Frame-Options` as the pages.
 * - DR3 — Slow requests. A half-sent body (`HTTP_REQUEST_TIMEOUT_MS`) or unfinished headers
 *   (`HTTP_HEADERS_TIMEOUT_MS`) get `408` and the connection closed; defaults 120 s and 15 s.
 * - DR7 — Token buckets in the store. (`test/store-contract.ts`, both stores).
 * - DR16 — Download names. (`test/doors-http.integration.test.ts`).
 */
import { connect as connectTcp } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startApp } from '../src/app.js';
import { loadConfig } from '../src/kernel/config.js';
import { signUp } from './support/accounts.js';
import { captureLogs } from './support/log-capture.js';
import { listRoutes } from './support/route-list.js';
import { contentDisposition, safeFileName } from '../src/http/content-disposition.js';
import { sectionedPdf } from '../scripts/pdf-fixtures.js';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * DR1–DR3, DR16 (test/SPEC.md): undecodable path parameters, headers on socket.io's answers, slow request bodies,
 * download names.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function serve(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-doors-'));
  const logs = captureLogs('debug');
  // Limits high enough that a request per route never meets a rate limit first.
  const app = await startApp(
    loadConfig({ PORT: '0', LOG_LEVEL: 'debug', DATA_DIR: dataDir, PRELOAD_SAMPLE: 'false', QUALITY_SAMPLE_RATE: '0', RATE_ADDRESS_MAX: '100000', RATE_ACCOUNT_MAX: '100000', RATE_GENERATION_MAX: '100000', RATE_AUTH_MAX: '100000', ...env }),
    logs.logger,
  );
  await new Promise<void>((resolve) => app.server.httpServer.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const port = (app.server.httpServer.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, app, logs };
}

describe('path parameters', () => {
  it('DR1 `%ff` in the path parameters of every route the routers declare answers 400 INVALID_PAYLOAD and logs no error or stack', async () => {
    const { url, app, logs } = await serve();
    const account = await signUp({ url });
    const routes = listRoutes(app.server.app).filter((route) => /[:*]/.test(route.path));
    const unique = [...new Map(routes.map((route) => [`${route.method} ${route.path}`, route])).values()];
    // The routers really are enumerated (classes, materials, rooms, quizzes, exams, jobs, math sets, admin, tokens...).
    expect(unique.length).toBeGreaterThan(40);
    const answers: string[] = [];
    for (const route of unique) {
      const target = route.path.replace(/\{\*\w+\}|\*\w+/g, '%ff').replace(/:(\w+)/g, '%ff');
      const response = await fetch(`${url}${target}`, {
        method: route.method,
        headers: { ...account.bearer, 'content-type': 'application/json' },
        ...(['GET', 'HEAD'].includes(route.method) ? {} : { body: '{}' }),
      });
      const body = (await response.json()) as { error?: { code?: string; message?: string } };
      answers.push(`${route.method} ${route.path} -> ${response.status} ${body.error?.code}`);
      expect(response.status, `${route.method} ${target}`).toBe(400);
      expect(body.error?.code, `${route.method} ${target}`).toBe('INVALID_PAYLOAD');
      expect(body.error?.message).toMatch(/[가-힣]/);
    }
    expect(answers).toHaveLength(unique.length);
    expect(logs.lines().filter((line) => line.level >= 50)).toEqual([]);
    expect(logs.text()).not.toContain('URIError');
  });
});

describe('socket.io answers', () => {
  it('DR2 long-polling, handshake errors and the client bundle under /socket.io/ carry the security headers', async () => {
    const { url } = await serve();
    const answers = [
      await fetch(`${url}/socket.io/?EIO=4&transport=polling`),
      await fetch(`${url}/socket.io/?EIO=4&transport=nothing`),
      await fetch(`${url}/socket.io/socket.io.min.js`),
    ];
    expect(answers.map((response) => response.status)).toEqual([200, 400, 200]);
    for (const response of answers) {
      expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});

describe('slow requests', () => {
  /** Writes `text` on a raw connection and resolves with everything the server sent once it closes the connection. */
  function sendAndWaitForClose(port: number, text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connectTcp(port, '127.0.0.1', () => socket.write(text));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
  }

  it('DR3 a half-sent body, or headers never finished, get 408 and the connection closed after HTTP_REQUEST_TIMEOUT_MS / HTTP_HEADERS_TIMEOUT_MS', async () => {
    const { port, url } = await serve({ HTTP_REQUEST_TIMEOUT_MS: '1000', HTTP_HEADERS_TIMEOUT_MS: '1000' });
    const halfBody = `POST /api/auth/signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":"a`;
    const halfHeaders = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `;
    const [bodyAnswer, headersAnswer] = await Promise.all([sendAndWaitForClose(port, halfBody), sendAndWaitForClose(port, halfHeaders)]);
    expect(bodyAnswer).toMatch(/^HTTP\/1\.1 408/);
    expect(headersAnswer).toMatch(/^HTTP\/1\.1 408/);
    // The server still serves everyone else.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('DR3 the defaults bound both: 15 s for headers, 120 s for a whole request', () => {
    expect(loadConfig({}).http).toEqual({ headersTimeoutMs: 15_000, requestTimeoutMs: 120_000 });
  });
});

/** The file name a browser would save: `filename*` decoded, else `filename`. */
function savedName(header: string | null): string {
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(header ?? '')?.[1];
  return encoded ? decodeURIComponent(encoded) : (/filename="([^"]*)"/.exec(header ?? '')?.[1] ?? '');
}

/** Right-to-left and left-to-right overrides, embeddings, isolates and marks (what turns "cod.exe" into "exe.doc"). */
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f'];

describe('download names', () => {
  it('DR16 every bidi control, zero-width and control character is dropped from a Content-Disposition name; Korean stays', () => {
    for (const character of BIDI) {
      const header = contentDisposition('attachment', `강의${character}fdp.exe`);
      expect(savedName(header), JSON.stringify(character)).toBe('강의fdp.exe');
      expect(header).not.toContain(character);
    }
    expect(safeFileName('a\u200bb\u0000c\n/d"e.pdf')).toBe('abc d e.pdf');
    expect(safeFileName('\u202e\u202c')).toBe('download');
    expect(contentDisposition('inline', '1장 평균.pdf')).toBe(`inline; filename="1_ __.pdf"; filename*=UTF-8''${encodeURIComponent('1장 평균.pdf')}`);
  });

  it('DR16 a chapter titled with a right-to-left override downloads under a name without it', async () => {
    const { url } = await serve();
    const teacher = await signUp({ url });
    const pdf = await sectionedPdf({ sections: [{ title: '1장 \u202egnp.exe\u202c 평균', pages: 2 }, { title: '2장 \u2067분산\u2069 \u200f정리', pages: 2 }], outline: true, korean: true });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), 'bidi.pdf');
    const uploaded = await fetch(`${url}/api/materials`, { method: 'POST', body: form, headers: teacher.bearer });
    expect(uploaded.status).toBe(201);
    const material = (await uploaded.json()) as { id: string; chapters: { title: string }[] };
    expect(material.chapters[0]?.title).toContain('\u202e');
    const names: string[] = [];
    for (const index of [0, 1]) {
      const response = await fetch(`${url}/api/materials/${material.id}/chapters/${index}.pdf`, { headers: teacher.bearer });
      expect(response.status).toBe(200);
      const header = response.headers.get('content-disposition');
      for (const character of BIDI) expect(header ?? '').not.toContain(encodeURIComponent(character));
      names.push(savedName(header));
    }
    expect(names).toEqual(['1장 gnp.exe 평균.pdf', '2장 분산 정리.pdf']);
  });
});
