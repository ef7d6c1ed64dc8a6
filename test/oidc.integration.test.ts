/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - OI1 — Sign-in. Start redirects to the provider with S256 PKCE, state, nonce, `openid email profile` and the
 *   callback as redirect URI …
 * - OI2 — Replay. The same callback again: `/signin.html?error=OIDC_STATE_INVALID`, no cookie, one sign-in.
 * - OI3 — Wrong state. Forged, missing and repeated `state` are refused; the real callback still works afterwards.
 * - OI4 — Expired. A pending login whose TTL ran out in the store is `OIDC_STATE_INVALID`.
 * - OI5 — Provider error. Cancelling at the provider (`error=access_denied`) is `OIDC_DENIED` and uses up the state.
 * - OI6 — Exchange failure / no e-mail. A tampered code is `OIDC_FAILED`; a user without e-mail
 *   `OIDC_EMAIL_REQUIRED`.
 * - OI7 — Accounts refuse. `signIn` throwing an AppError redirects with its code and sets no cookie.
 * - OI8 — Real accounts. With the app's own accounts: a finished sign-in creates the account (the first is the admin)
 *   and a browser session (`GET /api/auth/me` answers), lands on the return path …
 * - OI9 — Button. `GET /api/auth/oidc` is `{enabled: true, name}` when configured, `{enabled: false, name: null}`
 *   otherwise, and then start/callback are 404 `NOT_FOUND`.
 * - OI10 — Issuer down. Start answers 503 `OIDC_UNAVAILABLE` with its Korean message to programs and redirects
 *   browsers to the sign-in page; `/healthz` still answers …
 * - OI11 — Return paths. Absolute, scheme-relative, backslash, control-character, relative and array returns become
 *   `/`; a full sign-in started with `//evil.example/x` ends at `/`.
 * - OI12 — PUBLIC_URL. The redirect URI is built from `PUBLIC_URL` when set.
 * - OI13 — Config. `OIDC_*` all three or none (each missing one named); `http://` issuers only on localhost;
 *   `PUBLIC_URL` must be http(s).
 * - OI14 — One-time claim. Three racing claims (two nodes) of one pending login: exactly one gets it (memory, Redis).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcSignIn, PendingLogins, safeReturnPath } from '../src/auth/oidc/index.js';
import { ConfigError, loadConfig } from '../src/kernel/config.js';
import { AppError } from '../src/kernel/errors.js';
import type { OidcAccounts } from '../src/http/index.js';
import { ErrorCode } from '../src/protocol/wire/error-codes.js';
import { MemoryStore } from '../src/store/index.js';
import type { OidcIdentity } from '../src/auth/index.js';
import { captureLogs } from './support/log-capture.js';
import { CookieJar, startOidcProvider, walkProvider, type TestOidcProvider } from './support/oidc-provider.js';
import { TEST_REDIS_URL, suiteRedis, testRedisStore } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { authKeys } from '../src/auth/auth-keys.js';

const redis = suiteRedis();
const USERS = [
  { sub: 'kim', email: 'kim@school.example', email_verified: true, name: '김선생' },
  { sub: 'nomail', name: '메일없음' },
];

let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startOidcProvider({ users: USERS });
});
afterAll(async () => {
  await provider.stop();
});

/** The accounts side as a test records it: every identity signed in, a cookie per account. */
function recordingAccounts(refuse?: AppError): OidcAccounts & { identities: OidcIdentity[] } {
  const identities: OidcIdentity[] = [];
  return {
    identities,
    signIn: (identity) => {
      identities.push(identity);
      return refuse ? Promise.reject(refuse) : Promise.resolve({ accountId: `account-${identity.subject}` });
    },
    startWebSession: (response, accountId) => {
      response.cookie('lectern_session', `web-${accountId}`, { httpOnly: true, sameSite: 'lax', path: '/' });
      return Promise.resolve();
    },
  };
}

async function oidcApp(
  store: 'memory' | 'redis',
  accounts: OidcAccounts | undefined,
  options: { pendingTtlMs?: number; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const app = await startTestApp(
    { ...provider.env, ...(store === 'redis' ? { REDIS_URL: redis.url } : {}), ...options.env },
    { ...(accounts ? { oidcAccounts: accounts } : {}), ...(options.pendingTtlMs ? { oidcPendingTtlMs: options.pendingTtlMs } : {}) },
  );
  provider.allowRedirect(`${app.url}/api/auth/oidc/callback`);
  return app;
}

function location(response: Response): string {
  return response.headers.get('location') ?? '';
}

describe.each(['memory', 'redis'] as const)('OIDC sign-in against a real provider (%s store)', (store) => {
  it('OI1 start -> provider login and consent -> callback: signIn gets the identity, the session cookie is set, 302 to the return path', async (context) => {
    const accounts = recordingAccounts();
    const app = await oidcApp(store, accounts);
    context.onTestFinished(() => app.stop());
    const jar = new CookieJar();

    const start = await jar.fetch(`${app.url}/api/auth/oidc/start?return=${encodeURIComponent('/monitor.html?class=1')}`);
    expect(start.status).toBe(302);
    const authorize = new URL(location(start));
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('scope')).toBe('openid email profile');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${app.url}/api/auth/oidc/callback`);
    const state = authorize.searchParams.get('state') ?? '';
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    // The pending login lives in the store under the state, with its 10-minute TTL.
    const ttl = await app.store.pttl(authKeys.oidcPendingLogin(state));
    expect(ttl).toBeGreaterThan(9 * 60_000);
    expect(ttl).toBeLessThanOrEqual(10 * 60_000);

    const { callbackUrl } = await walkProvider(jar, authorize.href, { login: 'kim' });
    expect(callbackUrl.searchParams.get('state')).toBe(state);
    const callback = await jar.fetch(callbackUrl);
    expect(callback.status).toBe(302);
    expect(location(callback)).toBe('/monitor.html?class=1');
    expect(callback.headers.get('cache-control')).toBe('no-store');
    expect(jar.get('lectern_session')).toBe('web-account-kim');
    expect(accounts.identities).toEqual([
      { issuer: provider.issuer, subject: 'kim', email: 'kim@school.example', emailVerified: true, name: '김선생' },
    ]);
    // One-time: the pending login is gone.
    expect(await app.store.exists(authKeys.oidcPendingLogin(state))).toBe(false);
  });

  it('OI2 the same callback twice (a replay): the second is refused with OIDC_STATE_INVALID and signs nobody in', async (context) => {
    const accounts = recordingAccounts();
    const app = await oidcApp(store, accounts);
    context.onTestFinished(() => app.stop());
    const jar = new CookieJar();
    const { callbackUrl } = await walkProvider(jar, `${app.url}/api/auth/oidc/start`, { login: 'kim' });
    expect(location(await jar.fetch(callbackUrl))).toBe('/');

    const replay = await new CookieJar().fetch(callbackUrl);
    expect(replay.status).toBe(302);
    expect(location(replay)).toBe('/signin.html?error=OIDC_STATE_INVALID');
    expect(replay.headers.getSetCookie().some((line) => line.startsWith('lectern_session='))).toBe(false);
    expect(accounts.identities).toHaveLength(1);
  });

  it('OI3 a wrong or missing state is refused and leaves the real pending login usable', async (context) => {
    const accounts = recordingAccounts();
    const app = await oidcApp(store, accounts);
    context.onTestFinished(() => app.stop());
    const jar = new CookieJar();
    const { callbackUrl } = await walkProvider(jar, `${app.url}/api/auth/oidc/start`, { login: 'kim' });

    const forged = new URL(callbackUrl);
    forged.searchParams.set('state', 'not-the-state-lectern-made');
    expect(location(await jar.fetch(forged))).toBe('/signin.html?error=OIDC_STATE_INVALID');
    const stateless = new URL(callbackUrl);
    stateless.searchParams.delete('state');
    expect(location(await jar.fetch(stateless))).toBe('/signin.html?error=OIDC_STATE_INVALID');
    const repeated = new URL(callbackUrl);
    repeated.searchParams.append('state', 'second');
    expect(location(await jar.fetch(repeated))).toBe('/signin.html?error=OIDC_STATE_INVALID');
    expect(accounts.identities).toEqual([]);

    expect(location(await jar.fetch(callbackUrl))).toBe('/');
    expect(accounts.identities).toHaveLength(1);
  });

  it('OI4 a pending login that expired in the store is refused with OIDC_STATE_INVALID', async (context) => {
    const accounts = recordingAccounts();
    const app = await oidcApp(store, accounts, { pendingTtlMs: 300 });
    context.onTestFinished(() => app.stop());
    const jar = new CookieJar();
    const { callbackUrl } = await walkProvider(jar, `${app.url}/api/auth/oidc/start`, { login: 'kim' });
    const key = authKeys.oidcPendingLogin(callbackUrl.searchParams.get('state') ?? '');
    // Waits for the store to expire the key (its own TTL), whatever the machine's speed.
    await expect.poll(() => app.store.exists(key), { interval: 50 }).toBe(false);

    expect(location(await jar.fetch(callbackUrl))).toBe('/signin.html?error=OIDC_STATE_INVALID');
    expect(accounts.identities).toEqual([]);
  });

  it('OI5 the person cancels at the provider: its error answer becomes OIDC_DENIED and uses up the pending login', async (context) => {
    const accounts = recordingAccounts();
    const app = await oidcApp(store, accounts);
    context.onTestFinished(() => app.stop());
    const jar = new CookieJar();
    const { callbackUrl } = await walkProvider(jar, `${app.url}/api/auth/oidc/start`, { login: 'kim', cancel: true });
    expect(callbackUrl.searchParams.get('error')).toBe('access_denied');

    expect(location(await jar.fetch(callbackUrl))).toBe('/signin.html?error=OIDC_DENIED');
    expect(await app.store.exists(authKeys.oidcPendingLogin(callbackUrl.searchParams.get('state') ?? ''))).toBe(false);
    expect(accounts.identities).toEqual([]);
  });
});

describe('OIDC sign-in: refusals and wiring (memory store)', () => {
  it('OI6 a code that fails the exchange (tampered) gives OIDC_FAILED; a user without e-mail gives OIDC_EMAIL_REQUIRED', async (context) => {
    const accounts = recordingAccounts();
    const app = await oidcApp('memory', accounts);
    context.onTestFinished(() => app.stop());
    const tampered = await walkProvider(new CookieJar(), `${app.url}/api/auth/oidc/start`, { login: 'kim' });
    tampered.callbackUrl.searchParams.set('code', 'forged-code');
    expect(location(await new CookieJar().fetch(tampered.callbackUrl))).toBe('/signin.html?error=OIDC_FAILED');

    const nomail = await walkProvider(new CookieJar(), `${app.url}/api/auth/oidc/start`, { login: 'nomail' });
    expect(location(await new CookieJar().fetch(nomail.callbackUrl))).toBe('/signin.html?error=OIDC_EMAIL_REQUIRED');
    expect(accounts.identities).toEqual([]);
  });

  it('OI7 signIn refusing (e.g. a disabled account) sends the browser to the sign-in page with its code and no cookie', async (context) => {
    const accounts = recordingAccounts(new AppError(ErrorCode.FORBIDDEN, '사용이 중지된 계정입니다.', { status: 403 }));
    const app = await oidcApp('memory', accounts);
    context.onTestFinished(() => app.stop());
    const jar = new CookieJar();
    const { callbackUrl } = await walkProvider(jar, `${app.url}/api/auth/oidc/start`, { login: 'kim' });
    expect(location(await jar.fetch(callbackUrl))).toBe('/signin.html?error=FORBIDDEN');
    expect(jar.get('lectern_session')).toBeUndefined();
    expect(accounts.identities).toHaveLength(1);
  });

  it('OI8 with the real accounts: a finished sign-in creates the account and a browser session; the same person signs in to it again; SIGNUP=closed refuses newcomers', async (context) => {
    const app = await oidcApp('memory', undefined);
    context.onTestFinished(() => app.stop());
    const me = async (jar: CookieJar) => {
      const response = await jar.fetch(`${app.url}/api/auth/me`, { headers: { accept: 'application/json' } });
      return { status: response.status, body: (await response.json()) as { account?: { accountId: string; email: string; role: string } } };
    };
    const first = new CookieJar();
    const walked = await walkProvider(first, `${app.url}/api/auth/oidc/start?return=/monitor.html`, { login: 'kim' });
    expect(location(await first.fetch(walked.callbackUrl))).toBe('/monitor.html');
    const signedIn = await me(first);
    expect(signedIn.status).toBe(200);
    // The first account of an empty deployment is its admin, whichever way it signed in.
    expect(signedIn.body.account).toMatchObject({ email: 'kim@school.example', role: 'admin' });

    const again = new CookieJar();
    const second = await walkProvider(again, `${app.url}/api/auth/oidc/start`, { login: 'kim' });
    expect(location(await again.fetch(second.callbackUrl))).toBe('/');
    expect((await me(again)).body.account?.accountId).toBe(signedIn.body.account?.accountId);

    const closed = await oidcApp('memory', undefined, { env: { SIGNUP: 'closed' } });
    context.onTestFinished(() => closed.stop());
    const password = await fetch(`${closed.url}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@school.example', password: 'correct horse battery' }),
    });
    expect(password.status).toBe(201);
    const newcomer = new CookieJar();
    const refused = await walkProvider(newcomer, `${closed.url}/api/auth/oidc/start`, { login: 'kim' });
    expect(location(await newcomer.fetch(refused.callbackUrl))).toBe('/signin.html?error=SIGNUP_CLOSED');
    expect((await me(newcomer)).status).toBe(401);
  });

  it('OI9 GET /api/auth/oidc tells pages whether to show the button; without OIDC_* the other routes are 404', async (context) => {
    const configured = await oidcApp('memory', recordingAccounts());
    context.onTestFinished(() => configured.stop());
    expect(await (await fetch(`${configured.url}/api/auth/oidc`)).json()).toEqual({ enabled: true, name: 'Test SSO' });

    const plain = await startTestApp();
    context.onTestFinished(() => plain.stop());
    expect(await (await fetch(`${plain.url}/api/auth/oidc`)).json()).toEqual({ enabled: false, name: null });
    for (const path of ['/api/auth/oidc/start', '/api/auth/oidc/callback?state=x&code=y']) {
      const response = await fetch(`${plain.url}${path}`, { redirect: 'manual' });
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
  });

  it('OI10 an unreachable issuer at start: 503 OIDC_UNAVAILABLE in Korean for programs, the sign-in page for browsers, a log line; no crash', async (context) => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadIssuer = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const app = await startTestApp({ ...provider.env, OIDC_ISSUER: deadIssuer });
    context.onTestFinished(() => app.stop());

    const api = await fetch(`${app.url}/api/auth/oidc/start`, { headers: { accept: 'application/json' }, redirect: 'manual' });
    expect(api.status).toBe(503);
    const body = (await api.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('OIDC_UNAVAILABLE');
    expect(body.error.message).toBe('로그인 제공자에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.');

    const browser = await new CookieJar().fetch(`${app.url}/api/auth/oidc/start?return=/monitor.html`);
    expect(browser.status).toBe(302);
    expect(location(browser)).toBe('/signin.html?error=OIDC_UNAVAILABLE');
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);

    // The log line, and a failed discovery is not cached: the next sign-in tries the provider again.
    const logs = captureLogs();
    const signIn = new OidcSignIn({ config: { ...loadConfig(provider.env).oidc!, issuer: deadIssuer }, store: new MemoryStore(), logger: logs.logger });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(signIn.begin('http://127.0.0.1/api/auth/oidc/callback', '/')).rejects.toMatchObject({ code: 'OIDC_UNAVAILABLE' });
    }
    const failures = logs.lines().filter((line) => line.msg === 'oidc discovery failed');
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatchObject({ level: 50, issuer: deadIssuer });
  });

  it('OI11 return paths stay on this site: absolute, scheme-relative and backslash returns become /', async (context) => {
    for (const unsafe of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/\t/evil.example', 'monitor.html', '']) {
      expect(safeReturnPath(unsafe)).toBe('/');
    }
    expect(safeReturnPath('/monitor.html?class=a#top')).toBe('/monitor.html?class=a#top');
    expect(safeReturnPath(['/a', '/b'])).toBe('/');

    const app = await oidcApp('memory', recordingAccounts());
    context.onTestFinished(() => app.stop());
    const jar = new CookieJar();
    const { callbackUrl } = await walkProvider(jar, `${app.url}/api/auth/oidc/start?return=${encodeURIComponent('//evil.example/x')}`, { login: 'kim' });
    expect(location(await jar.fetch(callbackUrl))).toBe('/');
  });

  it('OI12 with PUBLIC_URL the redirect URI is built from it, not from the request host', async (context) => {
    const app = await oidcApp('memory', recordingAccounts(), { env: { PUBLIC_URL: 'https://lectern.school.example/' } });
    context.onTestFinished(() => app.stop());
    const start = await fetch(`${app.url}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(new URL(location(start)).searchParams.get('redirect_uri')).toBe('https://lectern.school.example/api/auth/oidc/callback');
  });
});

describe('OIDC configuration and pending logins', () => {
  it('OI13 OIDC_* are all three or none (the error names each missing variable); http:// issuers only on localhost', () => {
    const error = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (caught) {
        if (caught instanceof ConfigError) return caught.issues.map((issue) => issue.variable);
        throw caught;
      }
      return [];
    };
    expect(error({ OIDC_ISSUER: 'https://accounts.google.com' })).toEqual(['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']);
    expect(error({ OIDC_CLIENT_SECRET: 's' })).toEqual(['OIDC_ISSUER', 'OIDC_CLIENT_ID']);
    expect(error({ OIDC_ISSUER: 'http://idp.example', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' })).toEqual(['OIDC_ISSUER']);
    expect(error({ PUBLIC_URL: 'ftp://x.example' })).toEqual(['PUBLIC_URL']);
    const config = loadConfig({ OIDC_ISSUER: 'https://login.microsoftonline.com/tenant/v2.0', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's', OIDC_NAME: 'Microsoft Entra' });
    expect(config.oidc).toEqual({ issuer: 'https://login.microsoftonline.com/tenant/v2.0', clientId: 'c', clientSecret: 's', name: 'Microsoft Entra' });
    expect(loadConfig({}).oidc).toBeUndefined();
  });

  it.each(['memory', 'redis'] as const)('OI14 a pending login is claimed once, by one of two racing nodes (%s)', async (kind) => {
    // Two nodes: two connections to one Redis, or one memory store seen twice.
    const memory = new MemoryStore();
    const stores = kind === 'memory' ? [memory, memory] : [testRedisStore(TEST_REDIS_URL), testRedisStore(TEST_REDIS_URL)];
    try {
      const [nodeA, nodeB] = [new PendingLogins(stores[0]!), new PendingLogins(stores[1]!)];
      const state = `oi14-${crypto.randomUUID()}`;
      const login = { codeVerifier: 'v'.repeat(43), nonce: 'n', returnPath: '/x', redirectUri: 'http://127.0.0.1/api/auth/oidc/callback' };
      await nodeA.save(state, login);
      const claims = await Promise.all([nodeA.claim(state), nodeB.claim(state), nodeB.claim(state)]);
      expect(claims.filter((claim) => claim !== null)).toEqual([login]);
      expect(await stores[0]!.exists(authKeys.oidcPendingLogin(state))).toBe(false);
    } finally {
      if (kind === 'redis') await Promise.all(stores.map((store) => store.close()));
    }
  });
});
