/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AC1 — Sign-up. `POST /api/auth/signup` answers 201 `{account, csrfToken}` and sets `lectern_session` (HttpOnly,
 *   SameSite=Lax, Path=/, an expiry; Secure only behind https or an https `PUBLIC_URL`) …
 * - AC2 — One account per email. Case, full/half width and surrounding spaces do not make another address (409
 *   `EMAIL_TAKEN`); sign-in accepts any of those spellings.
 * - AC3 — Sign-in and sign-out. A wrong password and an unknown email answer the same 401 `INVALID_CREDENTIALS` and
 *   set no cookie; sign-out ends that session only and clears the cookie …
 * - AC4 — SIGNUP modes. `closed` admits only the first account; `invite` needs an admin's invite, which works once
 *   (not used up by a refused sign-up) and is reported by `GET /api/auth/invites/:code` …
 * - AC5 — The first admin, once. Simultaneous first sign-ups make exactly one admin (under `closed` the others are
 *   refused; under `open` they become instructors).
 * - AC6 — Reset links. An admin's reset link (24 h) sets a new password once and ends every session of the account.
 * - AC7 — Disabling. A disabled account's sessions and API keys stop at once (401 / 403 `ACCOUNT_DISABLED`), its
 *   sign-in is refused (only after the right password); enabling restores it …
 * - AC8 — Sign out everywhere; password change. Sign out everywhere ends every browser session and keeps API keys; a
 *   password change needs the current password and ends every other session.
 * - AC9 — CSRF. A cookie-authorised POST/DELETE without the session's `X-CSRF-Token`, with a wrong one, or with a
 *   foreign or `null` Origin is 403 `CSRF_INVALID`; bearer calls and reads are exempt …
 * - AC10 — Personal API keys. Shown once (`lct_…`), listed without the secret with `lastUsedAt`, usable as bearer,
 *   revocable only by their owner …
 * - AC11 — Bad payloads. Short or long passwords, bad emails, empty names, malformed codes and broken JSON answer 400
 *   `INVALID_PAYLOAD` with Korean messages.
 * - AC12 — Admin list. Accounts page by page in order of creation with their status, never a password hash.
 */
import { Redis } from 'ioredis';
import { describe, expect, it, type TestContext } from 'vitest';
import { signUp, sessionCookie } from './support/accounts.js';
import { call } from './support/http-call.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Instructor accounts over HTTP (rules AC1–AC12 of test/SPEC.md), on the memory store and on Redis. */

const redis = suiteRedis();
const HANGUL = /[가-힣]/;

async function boot(store: 'memory' | 'redis', context: TestContext, env: Record<string, string> = {}): Promise<TestApp> {
  if (store === 'redis') {
    // The suite's own throwaway redis-server: emptied so every test starts as a fresh deployment (no admin yet).
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    await client.flushdb();
    client.disconnect();
  }
  const app = await startTestApp({ ...(store === 'redis' ? { REDIS_URL: redis.url } : {}), ...env });
  context.onTestFinished(() => app.stop());
  return app;
}

const me = (app: TestApp, headers: Record<string, string>) => call(`${app.url}/api/auth/me`, 'GET', { headers });
const post = (app: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) => call(`${app.url}${path}`, 'POST', { body, headers });
const signIn = (app: TestApp, email: string, password: string, headers: Record<string, string> = {}) =>
  post(app, '/api/auth/signin', { email, password }, headers);
const browserOf = (cookie: string, csrfToken: string) => ({ cookie, 'x-csrf-token': csrfToken });

describe.each(['memory', 'redis'] as const)('accounts (%s store)', (store) => {
  it('AC1: sign-up sets an httpOnly SameSite=Lax cookie, answers the account and a CSRF token; the first account is the admin', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const reply = await post(app, '/api/auth/signup', { email: '  Kim.Teacher@School.Example ', password: '열 글자 이상의 비밀번호' });
    expect(reply.status).toBe(201);
    expect(reply.body.account).toEqual({ accountId: expect.stringMatching(/^[0-9a-f]{32}$/), email: 'kim.teacher@school.example', role: 'admin', createdAt: expect.any(Number) });
    expect(reply.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [line] = reply.headers.getSetCookie();
    expect(line).toMatch(/^lectern_session=[A-Za-z0-9_-]{43}; /);
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Expires=/);
    expect(line).not.toMatch(/; Secure/);
    const cookie = sessionCookie(reply.headers) as string;
    expect((await me(app, { cookie })).body).toEqual({ account: reply.body.account, csrfToken: reply.body.csrfToken });
    const second = await signUp(app);
    expect(second.role).toBe('instructor');
    expect((await me(app, {})).status).toBe(401);
  });

  it('AC1: behind PUBLIC_URL https the cookie is Secure', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open', PUBLIC_URL: 'https://lectern.school.example/' });
    const reply = await post(app, '/api/auth/signup', { email: 'a@school.example', password: '0123456789' });
    expect(reply.headers.getSetCookie()[0]).toMatch(/; Secure/);
    expect(app.config.publicUrl).toBe('https://lectern.school.example');
  });

  it('AC2: one account per email whatever its case, width or spaces', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const first = await signUp(app, { email: 'Kim@School.example', password: '0123456789' });
    for (const variant of ['kim@school.example', ' KIM@SCHOOL.EXAMPLE ', 'ｋｉｍ＠ｓｃｈｏｏｌ．ｅｘａｍｐｌｅ']) {
      const reply = await post(app, '/api/auth/signup', { email: variant, password: 'another password' });
      expect(reply.status, variant).toBe(409);
      expect(reply.body.error.code).toBe('EMAIL_TAKEN');
      expect(reply.body.error.message).toMatch(HANGUL);
    }
    const signedIn = await signIn(app, 'ＫＩＭ@school.example', '0123456789');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.account.accountId).toBe(first.accountId);
  });

  it('AC3: wrong password and unknown email answer the same 401; sign-out ends the session and clears the cookie', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const account = await signUp(app);
    const wrong = await signIn(app, account.email, 'not the password');
    const unknown = await signIn(app, 'nobody@school.example', 'not the password');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    expect(wrong.headers.getSetCookie()).toEqual([]);

    const signedIn = await signIn(app, account.email, account.password);
    expect(signedIn.status).toBe(200);
    const cookie = sessionCookie(signedIn.headers) as string;
    expect(cookie).not.toBe(account.cookie);
    const out = await post(app, '/api/auth/signout', {}, browserOf(cookie, signedIn.body.csrfToken));
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()[0]).toMatch(/^lectern_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await me(app, { cookie })).status).toBe(401);
    // The session from sign-up is another one and still works.
    expect((await me(app, { cookie: account.cookie })).status).toBe(200);
  });

  it('AC3: an unknown or forged cookie is anonymous and cleared', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const reply = await me(app, { cookie: 'lectern_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(reply.status).toBe(401);
    expect(reply.body.error.code).toBe('UNAUTHORIZED');
    expect(reply.headers.getSetCookie()[0]).toMatch(/^lectern_session=;/);
  });

  it('AC4: SIGNUP=closed admits only the first account; the default is open on memory and invite on Redis', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'closed' });
    const admin = await signUp(app);
    expect(admin.role).toBe('admin');
    const refused = await post(app, '/api/auth/signup', { email: 'second@school.example', password: '0123456789' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('SIGNUP_CLOSED');
    expect(refused.body.error.message).toMatch(HANGUL);
    // The refused sign-up left no reservation behind: the address still signs in as nobody.
    expect((await signIn(app, 'second@school.example', '0123456789')).status).toBe(401);
    expect((await call(`${app.url}/api/auth/signup`, 'GET')).body).toEqual({ mode: 'closed', open: false, firstAccount: false });
    const fresh = await boot(store, context);
    expect(fresh.config.signup).toBe(store === 'redis' ? 'invite' : 'open');
  });

  it('AC4 AC5: SIGNUP=invite: an admin invite works once; without one sign-up is closed', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'invite' });
    expect((await call(`${app.url}/api/auth/signup`, 'GET')).body).toEqual({ mode: 'invite', open: true, firstAccount: true });
    const admin = await signUp(app);
    const refused = await post(app, '/api/auth/signup', { email: 'b@school.example', password: '0123456789' });
    expect(refused.body.error.code).toBe('SIGNUP_CLOSED');
    const created = await post(app, '/api/admin/invites', {}, admin.browser);
    expect(created.status).toBe(201);
    expect(created.body.url).toBe(`${app.url}/signup?invite=${created.body.code}`);
    expect(created.body.expiresAt - Date.now()).toBeGreaterThan(7 * 24 * 3_600_000 - 60_000);
    const code = created.body.code as string;
    expect((await call(`${app.url}/api/auth/invites/${code}`, 'GET')).body).toEqual({ valid: true, expiresAt: created.body.expiresAt });

    // Taken email with a valid invite: refused, and the invite is not used up.
    const taken = await post(app, '/api/auth/signup', { email: admin.email, password: '0123456789', invite: code });
    expect(taken.body.error.code).toBe('EMAIL_TAKEN');
    const invited = await signUp(app, { invite: code });
    expect(invited.role).toBe('instructor');
    const again = await post(app, '/api/auth/signup', { email: 'c@school.example', password: '0123456789', invite: code });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('INVITE_INVALID');
    const checked = await call(`${app.url}/api/auth/invites/${code}`, 'GET');
    expect(checked.status).toBe(404);
    expect(checked.body.error.code).toBe('INVITE_INVALID');
    expect((await call(`${app.url}/api/auth/invites/not-a-code`, 'GET')).status).toBe(404);
  });

  it('AC5: two simultaneous first sign-ups make exactly one admin', async (context) => {
    for (const signup of ['open', 'closed'] as const) {
      const app = await boot(store, context, { SIGNUP: signup });
      const replies = await Promise.all(
        ['one', 'two', 'three'].map((name) => post(app, '/api/auth/signup', { email: `${name}@school.example`, password: '0123456789' })),
      );
      const admins = replies.filter((reply) => reply.status === 201 && reply.body.account.role === 'admin');
      expect(admins, signup).toHaveLength(1);
      if (signup === 'open') expect(replies.map((reply) => reply.status)).toEqual([201, 201, 201]);
      else expect(replies.filter((reply) => reply.body.error?.code === 'SIGNUP_CLOSED')).toHaveLength(2);
      const list = await call(`${app.url}/api/admin/accounts`, 'GET', { headers: { cookie: sessionCookie(admins[0]?.headers as Headers) as string } });
      expect(list.body.accounts).toHaveLength(signup === 'open' ? 3 : 1);
    }
  });

  it('AC6: a reset link sets a new password once and ends every session of the account', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const admin = await signUp(app);
    const teacher = await signUp(app);
    const second = sessionCookie((await signIn(app, teacher.email, teacher.password)).headers) as string;
    const link = await post(app, `/api/admin/accounts/${teacher.accountId}/reset-link`, {}, admin.bearer);
    expect(link.status).toBe(201);
    const code = new URL(link.body.url as string).searchParams.get('code') as string;
    expect(link.body.url).toBe(`${app.url}/reset-password?code=${code}`);
    expect(link.body.expiresAt - Date.now()).toBeGreaterThan(24 * 3_600_000 - 60_000);

    const reset = await post(app, '/api/auth/reset', { code, password: '새 비밀번호는 충분히 길다' });
    expect(reset.status).toBe(200);
    expect((await me(app, { cookie: teacher.cookie })).status).toBe(401);
    expect((await me(app, { cookie: second })).status).toBe(401);
    expect((await signIn(app, teacher.email, teacher.password)).status).toBe(401);
    expect((await signIn(app, teacher.email, '새 비밀번호는 충분히 길다')).status).toBe(200);
    const reused = await post(app, '/api/auth/reset', { code, password: '또 다른 비밀번호입니다' });
    expect(reused.status).toBe(400);
    expect(reused.body.error.code).toBe('RESET_INVALID');
    expect(reused.body.error.message).toMatch(HANGUL);
  });

  it('AC7: disabling an account stops its sessions and API tokens at once; enabling lets it sign in again', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const admin = await signUp(app);
    const teacher = await signUp(app);
    expect((await me(app, teacher.bearer)).status).toBe(200);
    const disabled = await post(app, `/api/admin/accounts/${teacher.accountId}/disable`, {}, admin.browser);
    expect(disabled.status).toBe(200);
    expect(disabled.body.account).toMatchObject({ accountId: teacher.accountId, status: 'disabled' });
    expect((await me(app, { cookie: teacher.cookie })).status).toBe(401);
    const byToken = await me(app, teacher.bearer);
    expect(byToken.status).toBe(403);
    expect(byToken.body.error.code).toBe('ACCOUNT_DISABLED');
    const signInDisabled = await signIn(app, teacher.email, teacher.password);
    expect(signInDisabled.status).toBe(403);
    expect(signInDisabled.body.error.code).toBe('ACCOUNT_DISABLED');
    // A wrong password does not reveal that the account is disabled.
    expect((await signIn(app, teacher.email, 'wrong password')).body.error.code).toBe('INVALID_CREDENTIALS');

    expect((await post(app, `/api/admin/accounts/${teacher.accountId}/enable`, {}, admin.bearer)).status).toBe(200);
    expect((await me(app, teacher.bearer)).status).toBe(200);
    expect((await signIn(app, teacher.email, teacher.password)).status).toBe(200);

    const self = await post(app, `/api/admin/accounts/${admin.accountId}/disable`, {}, admin.bearer);
    expect(self.status).toBe(403);
    expect(self.body.error.code).toBe('FORBIDDEN');
    expect((await post(app, `/api/admin/accounts/${'0'.repeat(32)}/disable`, {}, admin.bearer)).status).toBe(404);
    expect((await post(app, '/api/admin/accounts/nope/disable', {}, admin.bearer)).status).toBe(404);
  });

  it('AC7: admin routes answer 401 to anonymous callers and 403 to instructors', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    await signUp(app);
    const teacher = await signUp(app);
    for (const [method, path] of [['GET', '/api/admin/accounts'], ['POST', '/api/admin/invites'], ['POST', `/api/admin/accounts/${teacher.accountId}/reset-link`]] as const) {
      const body = method === 'POST' ? { body: {} } : {};
      expect((await call(`${app.url}${path}`, method, body)).status, path).toBe(401);
      const forbidden = await call(`${app.url}${path}`, method, { ...body, headers: teacher.bearer });
      expect(forbidden.status, path).toBe(403);
      expect(forbidden.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('AC8: sign out everywhere ends every browser session but keeps API tokens; a password change ends the others', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const teacher = await signUp(app);
    const other = await signIn(app, teacher.email, teacher.password);
    const otherCookie = sessionCookie(other.headers) as string;
    const third = await signIn(app, teacher.email, teacher.password);
    const thirdBrowser = browserOf(sessionCookie(third.headers) as string, third.body.csrfToken);

    const wrong = await post(app, '/api/auth/password', { current: 'not it at all', next: 'a brand new password' }, thirdBrowser);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    // Keeping the API keys (the default revokes them, DR11) so the sign-out-everywhere check below can use one.
    const changed = await post(app, '/api/auth/password', { current: teacher.password, next: 'a brand new password', revokeApiKeys: false }, thirdBrowser);
    expect(changed.status).toBe(200);
    expect((await me(app, { cookie: teacher.cookie })).status).toBe(401);
    expect((await me(app, { cookie: otherCookie })).status).toBe(401);
    expect((await me(app, { cookie: thirdBrowser.cookie })).status).toBe(200);

    const fourth = await signIn(app, teacher.email, 'a brand new password');
    const fourthCookie = sessionCookie(fourth.headers) as string;
    const all = await post(app, '/api/auth/signout-all', {}, thirdBrowser);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ ok: true, ended: 2 });
    expect((await me(app, { cookie: thirdBrowser.cookie })).status).toBe(401);
    expect((await me(app, { cookie: fourthCookie })).status).toBe(401);
    expect((await me(app, teacher.bearer)).status).toBe(200);
  });

  it('AC9: a cookie-authorised POST needs the session CSRF token and a same-site Origin; bearer calls are exempt', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const teacher = await signUp(app);
    const tokens = `/api/auth/tokens`;
    const refusals = [
      { cookie: teacher.cookie },
      { cookie: teacher.cookie, 'x-csrf-token': 'wrong' },
      { cookie: teacher.cookie, 'x-csrf-token': teacher.csrfToken.replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')) },
      { ...teacher.browser, origin: 'https://evil.example' },
      { ...teacher.browser, origin: 'null' },
    ];
    for (const headers of refusals) {
      const reply = await post(app, tokens, { name: 'csrf' }, headers);
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.body.error.code).toBe('CSRF_INVALID');
      expect(reply.body.error.message).toMatch(HANGUL);
    }
    expect((await call(`${app.url}${tokens}/${'0'.repeat(32)}`, 'DELETE', { headers: { cookie: teacher.cookie } })).body.error.code).toBe('CSRF_INVALID');
    expect((await post(app, '/api/auth/signout', {}, { cookie: teacher.cookie })).body.error.code).toBe('CSRF_INVALID');
    expect((await post(app, tokens, { name: 'ok' }, { ...teacher.browser, origin: app.url })).status).toBe(201);
    expect((await post(app, tokens, { name: 'bearer' }, teacher.bearer)).status).toBe(201);
    // Reads need no token.
    expect((await call(`${app.url}${tokens}`, 'GET', { headers: { cookie: teacher.cookie } })).status).toBe(200);
    // Sign-in from another site is refused (no login CSRF); the same origin is fine.
    expect((await signIn(app, teacher.email, teacher.password, { origin: 'https://evil.example' })).body.error.code).toBe('CSRF_INVALID');
    expect((await signIn(app, teacher.email, teacher.password, { origin: app.url })).status).toBe(200);
    // Owner-checked routes refuse a cookie without its CSRF proof too; a student's join, which never asks who is
    // calling, works with any cookie.
    expect((await post(app, '/api/classes', { name: '쿠키 반' }, { cookie: teacher.cookie })).body.error.code).toBe('CSRF_INVALID');
    const created = await post(app, '/api/classes', { name: '쿠키 반' }, teacher.browser);
    expect(created.status).toBe(201);
    // (The class has no material: the join reaches the class and asks for one, CSRF never comes into it.)
    expect((await post(app, `/api/classes/${created.body.code}/join`, { nickname: '쿠키 학생' }, { cookie: teacher.cookie })).body.error.code).toBe('MATERIAL_REQUIRED');
  });

  it('AC9: PUBLIC_URL names the accepted Origin behind a proxy', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open', PUBLIC_URL: 'http://lectern.school.example' });
    const teacher = await signUp(app);
    expect((await post(app, '/api/auth/tokens', { name: 'proxy' }, { ...teacher.browser, origin: 'http://lectern.school.example' })).status).toBe(201);
    expect((await post(app, '/api/auth/tokens', { name: 'other' }, { ...teacher.browser, origin: 'http://other.school.example' })).status).toBe(403);
  });

  it('AC10: personal API tokens: shown once, listed without the secret, used as bearer, revoked by their owner only', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const teacher = await signUp(app);
    const other = await signUp(app);
    const created = await post(app, '/api/auth/tokens', { name: ' 채점 스크립트 ' }, teacher.browser);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ tokenId: expect.stringMatching(/^[0-9a-f]{32}$/), name: '채점 스크립트', createdAt: expect.any(Number), lastUsedAt: null, token: expect.stringMatching(/^lct_[A-Za-z0-9_-]{43}$/) });
    const bearer = { authorization: `Bearer ${created.body.token}` };
    const viaToken = await me(app, bearer);
    expect(viaToken.body).toEqual({ account: expect.objectContaining({ accountId: teacher.accountId }), csrfToken: null });

    const listed = await call(`${app.url}/api/auth/tokens`, 'GET', { headers: teacher.bearer });
    expect(listed.body.tokens).toHaveLength(2);
    expect(JSON.stringify(listed.body)).not.toContain('lct_');
    const entry = listed.body.tokens.find((token: { tokenId: string }) => token.tokenId === created.body.tokenId);
    expect(entry.lastUsedAt).toEqual(expect.any(Number));

    const foreign = await call(`${app.url}/api/auth/tokens/${created.body.tokenId}`, 'DELETE', { headers: other.bearer });
    expect(foreign.status).toBe(404);
    expect((await me(app, bearer)).status).toBe(200);
    const revoked = await call(`${app.url}/api/auth/tokens/${created.body.tokenId}`, 'DELETE', { headers: teacher.browser });
    expect(revoked.status).toBe(200);
    const after = await me(app, bearer);
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer');
    expect((await me(app, { authorization: 'Bearer lct_nonsense' })).status).toBe(401);
    // A bearer that is not ours (a signed class token) is left to the routes that read it: anonymous here.
    expect((await me(app, { authorization: 'Bearer abc.def' })).body.error.code).toBe('UNAUTHORIZED');
  });

  it('AC11: bad payloads answer INVALID_PAYLOAD with Korean messages', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const teacher = await signUp(app);
    const cases: [string, unknown, Record<string, string>][] = [
      ['/api/auth/signup', { email: 'kim@school.example', password: 'short' }, {}],
      ['/api/auth/signup', { email: 'not an email', password: '0123456789' }, {}],
      ['/api/auth/signup', { email: 'x@school.example', password: 'p'.repeat(201) }, {}],
      ['/api/auth/signup', {}, {}],
      ['/api/auth/signup', { email: 'kim@school.example', password: '0123456789', invite: 'bad' }, {}],
      ['/api/auth/signin', { email: 'kim@school.example' }, {}],
      ['/api/auth/password', { current: teacher.password, next: 'short' }, teacher.browser],
      ['/api/auth/tokens', { name: '   ' }, teacher.browser],
      ['/api/auth/reset', { code: 'x', password: '0123456789' }, {}],
    ];
    for (const [path, body, headers] of cases) {
      const reply = await post(app, path, body, headers);
      expect(reply.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(reply.body.error.code).toBe('INVALID_PAYLOAD');
      expect(reply.body.error.message).toMatch(HANGUL);
      expect(reply.body.error.message).not.toMatch(/토큰|\^|\$\/|Invalid|Too small/);
    }
    expect((await post(app, '/api/auth/signin', '{"email":', {})).body.error.code).toBe('INVALID_PAYLOAD');
  });

  it('AC12: the admin lists accounts page by page, without password hashes', async (context) => {
    const app = await boot(store, context, { SIGNUP: 'open' });
    const admin = await signUp(app);
    const others = [await signUp(app), await signUp(app)];
    await post(app, `/api/admin/accounts/${others[1]?.accountId}/disable`, {}, admin.bearer);
    const first = await call(`${app.url}/api/admin/accounts?limit=2`, 'GET', { headers: admin.bearer });
    expect(first.status).toBe(200);
    expect(first.body.accounts.map((entry: { email: string }) => entry.email)).toEqual([admin.email, others[0]?.email]);
    expect(first.body.nextCursor).toBe(others[0]?.accountId);
    expect(JSON.stringify(first.body)).not.toContain('scrypt');
    const second = await call(`${app.url}/api/admin/accounts?limit=2&cursor=${first.body.nextCursor}`, 'GET', { headers: admin.bearer });
    expect(second.body).toEqual({
      accounts: [{ accountId: others[1]?.accountId, email: others[1]?.email, role: 'instructor', createdAt: expect.any(Number), status: 'disabled' }],
      nextCursor: null,
    });
    expect((await call(`${app.url}/api/admin/accounts?limit=999`, 'GET', { headers: admin.bearer })).status).toBe(400);
  });
});
