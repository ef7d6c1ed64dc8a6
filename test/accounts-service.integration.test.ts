/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AC13 — Password hashes. Salted, self-describing scrypt (`scrypt$15$8$1$…`); only the right password verifies
 *   (composed and decomposed Hangul alike); older parameters still verify …
 * - AC14 — Single sign-on (for the OIDC module). `signInWithIdentity` creates an account under `invite`, finds it
 *   again by issuer and subject …
 * - AC15 — Configuration. `SIGNUP` (`open|invite|closed`; default by store), `PUBLIC_URL` (an http(s) URL, trailing
 *   slash dropped) and `SESSION_TTL_DAYS` (1–365, default 30) are parsed in `src/kernel/config.ts` …
 */
import { Redis } from 'ioredis';
import { describe, expect, it, type TestContext } from 'vitest';
import { AccountService, hashPassword, verifyPassword } from '../src/auth/index.js';
import { MemoryStore } from '../src/store/index.js';
import { signUp } from './support/accounts.js';
import { call } from './support/http-call.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The parts of accounts other modules build on (AC13–AC15 of test/SPEC.md): password hashes, single sign-on, configuration. */

const redis = suiteRedis();

async function boot(store: 'memory' | 'redis', context: TestContext, env: Record<string, string> = {}): Promise<TestApp> {
  if (store === 'redis') {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    await client.flushdb();
    client.disconnect();
  }
  const app = await startTestApp({ ...(store === 'redis' ? { REDIS_URL: redis.url } : {}), ...env });
  context.onTestFinished(() => app.stop());
  return app;
}

const ISSUER = 'https://accounts.google.com';

describe('AC13: password hashes', () => {
  it('AC13 are salted, self-describing scrypt (N=2^15, r=8, p=1) and verify only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('같은 비밀번호입니다'), hashPassword('같은 비밀번호입니다')]);
    expect(a).toMatch(/^scrypt\$15\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('같은 비밀번호입니다', a)).toBe(true);
    // Composed and decomposed Hangul are one password.
    expect(await verifyPassword('같은 비밀번호입니다'.normalize('NFD'), a)).toBe(true);
    expect(await verifyPassword('같은 비밀번호입니다 ', a)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$40$8$1$AAAA$AAAA')).toBe(false);
    // Older, cheaper parameters still verify (the format names them), so the cost can be raised later.
    const cheap = await hashPassword('옛날 비밀번호', { logN: 14, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$14$8$1$')).toBe(true);
    expect(await verifyPassword('옛날 비밀번호', cheap)).toBe(true);
  });

  it('AC13 an account service hashes at its configured cost (tests run at 2^10), and the default service replaces such a weaker hash with 2^15 at the next sign-in', async () => {
    const store = new MemoryStore();
    const fast = new AccountService({ store, signup: 'open', sessionTtlMs: 60_000, passwordCost: { logN: 10, r: 8, p: 1 } });
    const password = '비밀번호는 길게 씁니다';
    const made = await fast.signUp({ email: 'cost@school.example', password });
    expect(made.passwordHash).toMatch(/^scrypt\$10\$8\$1\$/);
    const real = new AccountService({ store, signup: 'open', sessionTtlMs: 60_000 });
    await real.signIn({ email: 'cost@school.example', password });
    expect((await real.get(made.accountId))?.passwordHash).toMatch(/^scrypt\$15\$8\$1\$/);
    await expect(real.signIn({ email: 'cost@school.example', password: '틀린 비밀번호입니다' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });
});

describe.each(['memory', 'redis'] as const)('AC14: single sign-on identities (%s store)', (store) => {
  it('AC14 an identity creates an account under SIGNUP=invite, is found again, and its web session works over HTTP', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'invite' });
    const admin = await signUp(app);
    const identity = { issuer: ISSUER, subject: 'sub-1', email: 'Lee@School.example', emailVerified: true, name: '이선생' };
    const created = await app.accounts.signInWithIdentity(identity);
    expect(created).toMatchObject({ email: 'lee@school.example', role: 'instructor', status: 'active' });
    expect((await app.accounts.signInWithIdentity({ ...identity, email: 'changed@school.example' })).accountId).toBe(created.accountId);
    const session = await app.accounts.createWebSession(created.accountId);
    const cookie = `lectern_session=${session.cookieValue}`;
    const me = await call(`${app.url}/api/auth/me`, 'GET', { headers: { cookie } });
    expect(me.body).toEqual({ account: expect.objectContaining({ accountId: created.accountId }), csrfToken: session.csrfToken });
    // No password was ever set: password sign-in is refused like a wrong password.
    expect((await call(`${app.url}/api/auth/signin`, 'POST', { body: { email: 'lee@school.example', password: '0123456789' } })).status).toBe(401);

    // Disabled by the admin: single sign-on is refused too.
    await call(`${app.url}/api/admin/accounts/${created.accountId}/disable`, 'POST', { body: {}, headers: admin.bearer });
    await expect(app.accounts.signInWithIdentity(identity)).rejects.toMatchObject({ code: 'ACCOUNT_DISABLED' });
    await expect(app.accounts.createWebSession(created.accountId)).rejects.toMatchObject({ code: 'ACCOUNT_DISABLED' });
  });

  it('AC14 links to a password account only by a verified email; SIGNUP=closed creates none', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'closed' });
    const admin = await signUp(app, { email: 'park@school.example' });
    await expect(app.accounts.signInWithIdentity({ issuer: ISSUER, subject: 'p', email: 'PARK@school.example', emailVerified: false })).rejects.toMatchObject({ code: 'EMAIL_TAKEN' });
    const linked = await app.accounts.signInWithIdentity({ issuer: ISSUER, subject: 'p', email: 'PARK@school.example', emailVerified: true });
    expect(linked.accountId).toBe(admin.accountId);
    await expect(app.accounts.signInWithIdentity({ issuer: ISSUER, subject: 'q', email: 'new@school.example', emailVerified: true })).rejects.toMatchObject({ code: 'SIGNUP_CLOSED' });
    // The same subject at another issuer is another identity.
    await expect(app.accounts.signInWithIdentity({ issuer: 'https://login.microsoftonline.com/x/v2.0', subject: 'p', email: 'other@school.example', emailVerified: true })).rejects.toMatchObject({ code: 'SIGNUP_CLOSED' });
  });

  it('AC14 the first account of an empty deployment may come from single sign-on, even under SIGNUP=closed', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'closed' });
    const first = await app.accounts.signInWithIdentity({ issuer: ISSUER, subject: 'first', email: 'first@school.example', emailVerified: true });
    expect(first.role).toBe('admin');
  });
});

describe('AC15: account configuration', () => {
  it('AC15 SIGNUP, PUBLIC_URL and SESSION_TTL_DAYS are parsed and checked, naming the variable', async () => {
    const { loadConfig } = await import('../src/kernel/config.js');
    expect(loadConfig({})).toMatchObject({ signup: 'open', publicUrl: undefined, sessionTtlMs: 30 * 24 * 3_600_000 });
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/3' }).signup).toBe('invite');
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/3', SIGNUP: 'open' }).signup).toBe('open');
    expect(loadConfig({ PUBLIC_URL: 'https://lectern.example/', SESSION_TTL_DAYS: '7' })).toMatchObject({ publicUrl: 'https://lectern.example', sessionTtlMs: 7 * 24 * 3_600_000 });
    for (const [variable, value] of [['SIGNUP', 'sometimes'], ['PUBLIC_URL', 'ftp://lectern.example'], ['PUBLIC_URL', 'lectern.example'], ['SESSION_TTL_DAYS', '0']] as const) {
      expect(() => loadConfig({ [variable]: value }), `${variable}=${value}`).toThrow(new RegExp(`^Invalid configuration: ${variable}:`));
    }
  });
});
