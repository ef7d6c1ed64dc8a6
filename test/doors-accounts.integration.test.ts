/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR11 — Reset links void each other. (`test/doors-accounts.integration.test.ts`, memory and Redis).
 * - DR12 — A reset closes the old doors. By default it revokes the API keys and ends both browser sessions and the
 *   class-instructor and host tokens signed before (`{revokedApiKeys: 1, endedSessions: 2}`) …
 * - DR13 — So does a password change. , keeping the browser that asked (its fresh class tokens work); `endSessions:
 *   false` keeps the sessions while the keys go; a non-boolean choice is `400 INVALID_PAYLOAD`.
 */
import { Redis } from 'ioredis';
import { describe, expect, it, type TestContext } from 'vitest';
import { sampleItems } from './support/quiz-client.js';
import { signUp, sessionCookie, type SignedUpAccount } from './support/accounts.js';
import { call } from './support/http-call.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** DR11–DR13 (test/SPEC.md): reset links void each other; a reset or password change closes the old doors. */

const redis = suiteRedis();

async function boot(store: 'memory' | 'redis', context: TestContext): Promise<TestApp> {
  if (store === 'redis') {
    const client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    await client.flushdb();
    client.disconnect();
  }
  const app = await startTestApp({ SIGNUP: 'open', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
  context.onTestFinished(() => app.stop());
  return app;
}

const post = (app: TestApp, path: string, body: unknown, headers: Record<string, string> = {}) => call(`${app.url}${path}`, 'POST', { body, headers });
const get = (app: TestApp, path: string, headers: Record<string, string>) => call(`${app.url}${path}`, 'GET', { headers });
const signIn = (app: TestApp, email: string, password: string) => post(app, '/api/auth/signin', { email, password });

async function resetLink(app: TestApp, admin: SignedUpAccount, accountId: string): Promise<string> {
  const link = await post(app, `/api/admin/accounts/${accountId}/reset-link`, {}, admin.bearer);
  expect(link.status).toBe(201);
  return new URL(link.body.url as string).searchParams.get('code') as string;
}

/** Everything the teacher is signed in with: two browsers, an API key, a class's instructor token and a room's host token. */
async function doors(app: TestApp, teacher: SignedUpAccount) {
  const other = await signIn(app, teacher.email, teacher.password);
  const created = await post(app, '/api/classes', { name: '복구 반' }, teacher.bearer);
  expect(created.status).toBe(201);
  const instructor = { authorization: `Bearer ${created.body.instructorToken as string}` };
  const quiz = await post(app, '/api/quizzes', { title: '퀴즈', items: sampleItems(2) }, instructor);
  const room = await post(app, '/api/rooms', { quizId: quiz.body.quizId }, instructor);
  expect(room.status).toBe(201);
  const host = { authorization: `Bearer ${room.body.hostToken as string}` };
  return {
    /** Which doors still open, in a fixed order: first browser, second browser, API key, instructor token, host token. */
    open: async () => [
      (await get(app, '/api/auth/me', { cookie: teacher.cookie })).status === 200,
      (await get(app, '/api/auth/me', { cookie: sessionCookie(other.headers) as string })).status === 200,
      (await get(app, '/api/auth/me', teacher.bearer)).status === 200,
      (await get(app, `/api/classes/${created.body.classId as string}`, instructor)).status === 200,
      (await get(app, `/api/rooms/${room.body.roomId as string}/results`, host)).status === 200,
    ],
  };
}

describe.each(['memory', 'redis'] as const)('account recovery (%s store)', (store) => {
  it('DR11 using any reset link voids every other: an older one cannot overwrite the password set with a newer one, nor the reverse', async (context) => {
    const app = await boot(store, context);
    const admin = await signUp(app);
    const teacher = await signUp(app);

    const older = await resetLink(app, admin, teacher.accountId);
    const newer = await resetLink(app, admin, teacher.accountId);
    expect((await post(app, '/api/auth/reset', { code: newer, password: '새로 받은 링크로 정한 비밀번호' })).status).toBe(200);
    const stale = await post(app, '/api/auth/reset', { code: older, password: '예전 링크로 덮어쓰려는 비밀번호' });
    expect(stale.status).toBe(400);
    expect(stale.body.error.code).toBe('RESET_INVALID');
    expect(stale.body.error.message).toMatch(/[가-힣]/);
    expect((await signIn(app, teacher.email, '새로 받은 링크로 정한 비밀번호')).status).toBe(200);
    expect((await signIn(app, teacher.email, '예전 링크로 덮어쓰려는 비밀번호')).status).toBe(401);

    // The other way round, and two links used at the same moment: one wins.
    const first = await resetLink(app, admin, teacher.accountId);
    const second = await resetLink(app, admin, teacher.accountId);
    expect((await post(app, '/api/auth/reset', { code: first, password: '첫째 링크의 비밀번호입니다' })).status).toBe(200);
    expect((await post(app, '/api/auth/reset', { code: second, password: '둘째 링크의 비밀번호입니다' })).status).toBe(400);
    const racing = await Promise.all([resetLink(app, admin, teacher.accountId), resetLink(app, admin, teacher.accountId), resetLink(app, admin, teacher.accountId)]);
    const answers = await Promise.all(racing.map((code, index) => post(app, '/api/auth/reset', { code, password: `동시에 쓴 링크 ${index}번 비밀번호` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400]);

    // A password change voids an outstanding link too.
    const outstanding = await resetLink(app, admin, teacher.accountId);
    const winner = answers.findIndex((answer) => answer.status === 200);
    const browser = await signIn(app, teacher.email, `동시에 쓴 링크 ${winner}번 비밀번호`);
    const headers = { cookie: sessionCookie(browser.headers) as string, 'x-csrf-token': browser.body.csrfToken as string };
    expect((await post(app, '/api/auth/password', { current: `동시에 쓴 링크 ${winner}번 비밀번호`, next: '직접 바꾼 비밀번호입니다' }, headers)).status).toBe(200);
    expect((await post(app, '/api/auth/reset', { code: outstanding, password: '바꾼 뒤에 쓰려는 링크입니다' })).status).toBe(400);
    expect((await signIn(app, teacher.email, '직접 바꾼 비밀번호입니다')).status).toBe(200);
  });

  it('DR12 a reset by default revokes the API keys and ends every session (browsers, instructor and host tokens); asked not to, it keeps them', async (context) => {
    const app = await boot(store, context);
    const admin = await signUp(app);
    const teacher = await signUp(app);
    const before = await doors(app, teacher);
    expect(await before.open()).toEqual([true, true, true, true, true]);
    const reset = await post(app, '/api/auth/reset', { code: await resetLink(app, admin, teacher.accountId), password: '복구한 뒤의 새 비밀번호' });
    expect(reset.body).toEqual({ ok: true, email: teacher.email, revokedApiKeys: 1, endedSessions: 2 });
    expect(await before.open()).toEqual([false, false, false, false, false]);
    // The listed keys are gone too.
    const browser = await signIn(app, teacher.email, '복구한 뒤의 새 비밀번호');
    expect((await get(app, '/api/auth/tokens', { cookie: sessionCookie(browser.headers) as string })).body.tokens).toEqual([]);

    const keeper = await signUp(app);
    const kept = await doors(app, keeper);
    const chosen = await post(app, '/api/auth/reset', { code: await resetLink(app, admin, keeper.accountId), password: '아무것도 닫지 않는 재설정', revokeApiKeys: false, endSessions: false });
    expect(chosen.body).toMatchObject({ ok: true, revokedApiKeys: 0, endedSessions: 0 });
    expect(await kept.open()).toEqual([true, true, true, true, true]);
  });

  it('DR13 a password change by default revokes the API keys and ends the other sessions, keeping the browser that asked; each can be declined', async (context) => {
    const app = await boot(store, context);
    await signUp(app);
    const teacher = await signUp(app);
    const before = await doors(app, teacher);
    const changed = await post(app, '/api/auth/password', { current: teacher.password, next: '바꾼 비밀번호는 이것입니다' }, teacher.browser);
    expect(changed.body).toEqual({ ok: true, revokedApiKeys: 1, endedSessions: 1 });
    expect(await before.open()).toEqual([true, false, false, false, false]);
    // Fresh tokens from the kept browser work again.
    const again = await post(app, '/api/classes', { name: '새 반' }, teacher.browser);
    expect((await get(app, `/api/classes/${again.body.classId as string}`, { authorization: `Bearer ${again.body.instructorToken as string}` })).status).toBe(200);

    const other = await signUp(app);
    const kept = await doors(app, other);
    const keysOnly = await post(app, '/api/auth/password', { current: other.password, next: '열쇠만 버리는 새 비밀번호', endSessions: false }, other.browser);
    expect(keysOnly.body).toEqual({ ok: true, revokedApiKeys: 1, endedSessions: 0 });
    expect(await kept.open()).toEqual([true, true, false, true, true]);
    const bad = await post(app, '/api/auth/password', { current: '열쇠만 버리는 새 비밀번호', next: '또 다른 새 비밀번호', revokeApiKeys: 'yes' }, other.browser);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_PAYLOAD');
  });
});
