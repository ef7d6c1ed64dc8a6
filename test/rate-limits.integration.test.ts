/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - RL1 — HTTP per address. With `RATE_ADDRESS_MAX=3`, the 4th POST from one address is `429 RATE_LIMITED` with a
 *   Korean message and `Retry-After` (1–60 s); another address still writes; GETs …
 * - RL2 — Strict routes by path. `POST /api/auth/signin|signup|reset` share `RATE_AUTH_MAX` per address (400, 400 for
 *   empty bodies, then 429) …
 * - RL3 — Per account, injected clock. On a small express app with a stand-in principal: the account's 3rd write from
 *   a 3rd address is 429 with `Retry-After` computed from the injected clock (20 s left of …
 * - RL4 — Class-code guessing over HTTP. Two wrong codes (class join and `POST /api/sessions` with `classCode`) cost
 *   5 each, two right joins 1 each …
 * - RL5 — Shared across nodes (Redis). Two app instances on one Redis: 4 writes split over both use the whole budget
 *   (the 5th is 429 on both) …
 * - RL6 — Memory is per node. Two memory-store instances count apart.
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import { createRateLimits, errorMiddlewareForTests } from './support/rate-limit-app.js';
import { MemoryStore } from '../src/store/index.js';
import { createClass } from './support/classroom-client.js';
import { loadSample } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** RL1–RL6 (test/SPEC.md): HTTP rate limits and class-join limits, on the real server (memory and Redis). */

const redis = suiteRedis();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/**
 * Each server's instructor account: creating a class needs one. Made through the account service, not
 * over HTTP, so the sign-up spends none of the budgets under test.
 */
const owners = new Map<string, Record<string, string>>();

async function boot(env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp(env);
  cleanups.push(() => app.stop());
  const account = await app.accounts.signUp({ email: `rl-${randomUUID()}@school.example`, password: `비밀번호-${randomUUID()}`, ...(app.config.signup === 'open' ? {} : { invite: (await app.accounts.createInvite('rate-limit-test')).code }) });
  const { token } = await app.accounts.createApiToken(account.accountId, 'rate limits');
  owners.set(new URL(app.url).origin, { authorization: `Bearer ${token}` });
  return app;
}

/** A client address through the trusted loopback proxy (the server trusts X-Forwarded-For from loopback only). */
const from = (address: string) => ({ 'x-forwarded-for': address });

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  // Class creation goes as the server's instructor; the limits under test are per address.
  const owner = new URL(url).pathname === '/api/classes' ? owners.get(new URL(url).origin) : undefined;
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...owner, ...headers }, body: JSON.stringify(body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as { error?: { code: string; message: string } } };
}

describe('HTTP rate limits', () => {
  it('RL1 state-changing requests per address: 429 RATE_LIMITED in Korean with Retry-After; other addresses, reads and /healthz go on', async () => {
    const app = await boot({ RATE_ADDRESS_MAX: '3' });
    for (let index = 0; index < 3; index += 1) {
      expect((await post(`${app.url}/api/classes`, { name: `반 ${index}` }, from('203.0.113.7'))).status).toBe(201);
    }
    const refused = await post(`${app.url}/api/classes`, { name: '넘침' }, from('203.0.113.7'));
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('RATE_LIMITED');
    expect(refused.body.error?.message).toMatch(/[가-힣]/);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    // Another address has its own budget; reads, health checks and static files are never limited.
    expect((await post(`${app.url}/api/classes`, { name: '다른 주소' }, from('203.0.113.8'))).status).toBe(201);
    for (let index = 0; index < 5; index += 1) {
      expect((await fetch(`${app.url}/api/materials`, { headers: from('203.0.113.7') })).status).toBe(200);
      expect((await fetch(`${app.url}/healthz`, { headers: from('203.0.113.7') })).status).toBe(200);
      expect((await fetch(`${app.url}/`, { headers: from('203.0.113.7') })).status).toBe(200);
    }
  });

  it('RL2 stricter limits for sign-in/sign-up/reset, uploads and quiz generation, by path', async () => {
    const app = await boot({ RATE_AUTH_MAX: '2', RATE_GENERATION_MAX: '1' });
    const auth = ['/api/auth/signin', '/api/auth/signup', '/api/auth/reset'];
    const statuses: number[] = [];
    for (const path of auth) statuses.push((await post(`${app.url}${path}`, {}, from('198.51.100.1'))).status);
    // Empty bodies: the first two are refused by their schema (400), the third is over the shared sign-in limit.
    expect(statuses).toEqual([400, 400, 429]);
    expect((await post(`${app.url}/api/auth/signin`, {}, from('198.51.100.2'))).status).toBe(400);

    const upload = (address: string) => fetch(`${app.url}/api/materials`, { method: 'POST', headers: { ...from(address), 'content-type': 'application/pdf' }, body: 'not a pdf' });
    expect((await upload('198.51.100.3')).status).not.toBe(429);
    const second = await upload('198.51.100.3');
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).not.toBeNull();
    expect((await post(`${app.url}/api/materials/missing/quiz`, {}, from('198.51.100.4'))).status).not.toBe(429);
    expect((await post(`${app.url}/api/materials/missing/quiz`, {}, from('198.51.100.4'))).status).toBe(429);
    // The general limit is separate: other writes from that address still pass.
    expect((await post(`${app.url}/api/classes`, { name: '반' }, from('198.51.100.4'))).status).toBe(201);
  });

  it('RL3 per-account limits key on response.locals.principal across addresses; windows turn on the injected clock', async () => {
    let now = 1_000_000;
    const limits = { ...loadConfig({}).rateLimits, addressMax: 100, accountMax: 2, windowMs: 60_000 };
    const app = express();
    app.set('trust proxy', 'loopback');
    // Stands in for the auth middleware (another helper's): an account named by a header.
    app.use((request, response, next) => {
      const account = request.get('x-account');
      if (account) response.locals.principal = { accountId: account };
      next();
    });
    app.use('/api', createRateLimits({ store: new MemoryStore(), limits, now: () => now }));
    app.post('/api/thing', (_request, response) => {
      response.status(201).json({ ok: true });
    });
    app.use(errorMiddlewareForTests());
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/thing`;

    expect((await post(url, {}, { ...from('192.0.2.1'), 'x-account': 'acc-1' })).status).toBe(201);
    expect((await post(url, {}, { ...from('192.0.2.2'), 'x-account': 'acc-1' })).status).toBe(201);
    const refused = await post(url, {}, { ...from('192.0.2.3'), 'x-account': 'acc-1' });
    expect(refused.status).toBe(429);
    // 1,000,000 ms is 40 s into its 60 s window: 20 s left.
    expect(refused.retryAfter).toBe('20');
    expect((await post(url, {}, { ...from('192.0.2.3'), 'x-account': 'acc-2' })).status).toBe(201);
    // Without an account only the address limit applies.
    for (let index = 0; index < 4; index += 1) expect((await post(url, {}, from('192.0.2.3'))).status).toBe(201);
    now += 20_000;
    expect((await post(url, {}, { ...from('192.0.2.3'), 'x-account': 'acc-1' })).status).toBe(201);
  });
});

describe('class-code guessing', () => {
  it('RL4 join attempts per address: failures cost JOIN_FAILURE_COST, successes 1; refusal is 429 with Retry-After', async () => {
    const app = await boot({ JOIN_ATTEMPT_POINTS: '12', JOIN_FAILURE_COST: '5' });
    const material = await loadSample(app);
    const created = await createClass(app, { name: '추측 방지', materialId: material.id });
    const join = (code: string, address: string) => post(`${app.url}/api/classes/${code}/join`, { nickname: `학생${Math.random().toString(36).slice(2, 6)}` }, from(address));
    const sessions = (code: string, address: string) => post(`${app.url}/api/sessions`, { classCode: code, nickname: `학생${Math.random().toString(36).slice(2, 6)}` }, from(address));

    // Two wrong codes (10 points), one right (11), one more right (12): the next attempt is over.
    expect((await join('AAAAAA', '10.1.0.1')).status).toBe(404);
    expect((await sessions('CCCCCC', '10.1.0.1')).status).toBe(404);
    expect((await join(created.code, '10.1.0.1')).status).toBe(201);
    expect((await sessions(created.code, '10.1.0.1')).status).toBe(201);
    const refused = await join(created.code, '10.1.0.1');
    expect(refused.status).toBe(429);
    expect(refused.body.error?.code).toBe('RATE_LIMITED');
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);

    // A classroom behind one address: 12 right codes in a row all get in.
    for (let index = 0; index < 12; index += 1) expect((await join(created.code, '10.1.0.2')).status).toBe(201);
    // POST /api/sessions without a class code is not a join attempt.
    expect((await post(`${app.url}/api/sessions`, { materialId: 'missing', nickname: '혼자' }, from('10.1.0.1'))).status).not.toBe(429);
  });

  it('RL5 two app instances on one Redis share the limits (general and join)', async () => {
    const env = { REDIS_URL: redis.url, TOKEN_SECRET: 'rl5-shared-secret', RATE_ADDRESS_MAX: '4', JOIN_ATTEMPT_POINTS: '10', JOIN_FAILURE_COST: '5' };
    const nodeA = await boot(env);
    const nodeB = await boot(env);
    const address = `10.5.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    expect((await post(`${nodeA.url}/api/classes`, { name: 'A1' }, from(address))).status).toBe(201);
    expect((await post(`${nodeB.url}/api/classes`, { name: 'B1' }, from(address))).status).toBe(201);
    expect((await post(`${nodeA.url}/api/classes`, { name: 'A2' }, from(address))).status).toBe(201);
    expect((await post(`${nodeB.url}/api/classes`, { name: 'B2' }, from(address))).status).toBe(201);
    expect((await post(`${nodeA.url}/api/classes`, { name: 'A3' }, from(address))).status).toBe(429);
    expect((await post(`${nodeB.url}/api/classes`, { name: 'B3' }, from(address))).status).toBe(429);

    const guesser = `10.6.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    expect((await post(`${nodeA.url}/api/classes/AAAAAA/join`, { nickname: '추측' }, from(guesser))).status).toBe(404);
    expect((await post(`${nodeB.url}/api/classes/CCCCCC/join`, { nickname: '추측' }, from(guesser))).status).toBe(404);
    expect((await post(`${nodeA.url}/api/classes/DDDDDD/join`, { nickname: '추측' }, from(guesser))).status).toBe(429);
    expect((await post(`${nodeB.url}/api/classes/DDDDDD/join`, { nickname: '추측' }, from(guesser))).status).toBe(429);
  });

  it('RL6 on memory two instances count apart (the store is the shared part)', async () => {
    const nodeA = await boot({ RATE_ADDRESS_MAX: '1' });
    const nodeB = await boot({ RATE_ADDRESS_MAX: '1' });
    expect((await post(`${nodeA.url}/api/classes`, { name: 'A' }, from('10.7.0.1'))).status).toBe(201);
    expect((await post(`${nodeB.url}/api/classes`, { name: 'B' }, from('10.7.0.1'))).status).toBe(201);
    expect((await post(`${nodeA.url}/api/classes`, { name: 'A2' }, from('10.7.0.1'))).status).toBe(429);
  });
});
