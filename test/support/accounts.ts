import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app.js';

/** An instructor account made through the real HTTP API, with every way a test may call as it. */
export interface SignedUpAccount {
  accountId: string;
  email: string;
  password: string;
  role: 'admin' | 'instructor';
  /** `lectern_session=…`, as a browser would send it. */
  cookie: string;
  csrfToken: string;
  /** A personal API token (`lct_…`) made right after sign-up. */
  apiToken: string;
  /** Headers of an API client: `{authorization: 'Bearer lct_…'}`. */
  bearer: { authorization: string };
  /** Headers of a browser: the session cookie and its CSRF token (enough for POST/PUT/PATCH/DELETE). */
  browser: { cookie: string; 'x-csrf-token': string };
}

export interface SignUpOptions {
  email?: string;
  password?: string;
  /** An invite code (from `POST /api/admin/invites`), for SIGNUP=invite. */
  invite?: string;
}

/**
 * Signs up over `POST /api/auth/signup` (the first account of a fresh app is its admin), keeps the session cookie,
 * and creates a personal API token over `POST /api/auth/tokens`. Throws with the server's answer when either fails.
 */
export async function signUp(app: Pick<TestApp, 'url'>, options: SignUpOptions = {}): Promise<SignedUpAccount> {
  const email = options.email ?? `teacher-${randomUUID().slice(0, 8)}@school.example`;
  const password = options.password ?? `비밀번호-${randomUUID()}`;
  const response = await fetch(`${app.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, ...(options.invite ? { invite: options.invite } : {}) }),
  });
  const body = (await response.json()) as { account?: { accountId: string; email: string; role: 'admin' | 'instructor' }; csrfToken?: string };
  if (response.status !== 201 || !body.account || !body.csrfToken) throw new Error(`POST /api/auth/signup: ${response.status} ${JSON.stringify(body)}`);
  const cookie = sessionCookie(response.headers);
  if (!cookie) throw new Error('POST /api/auth/signup set no lectern_session cookie');
  const browser = { cookie, 'x-csrf-token': body.csrfToken };
  const created = await fetch(`${app.url}/api/auth/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...browser },
    body: JSON.stringify({ name: 'test' }),
  });
  const token = (await created.json()) as { token?: string };
  if (created.status !== 201 || !token.token) throw new Error(`POST /api/auth/tokens: ${created.status} ${JSON.stringify(token)}`);
  return {
    accountId: body.account.accountId,
    email: body.account.email,
    password,
    role: body.account.role,
    cookie,
    csrfToken: body.csrfToken,
    apiToken: token.token,
    bearer: { authorization: `Bearer ${token.token}` },
    browser,
  };
}

/** `lectern_session=<value>` from a response's Set-Cookie headers, or undefined when it sets none (or clears it). */
export function sessionCookie(headers: Headers): string | undefined {
  for (const line of headers.getSetCookie()) {
    const match = /^lectern_session=([^;]*)/.exec(line);
    if (match?.[1]) return `lectern_session=${match[1]}`;
  }
  return undefined;
}

/**
 * The default instructor of each server, by the server's object (the TestApp, MainProcess or whatever the test holds
 * for it), not by its URL: ports come back, and the files of a worker share this module (vitest.config.ts runs them
 * without isolation), so a URL may name a server that has never seen the account signed up on an earlier one.
 */
const defaultInstructors = new WeakMap<object, Promise<SignedUpAccount>>();

/**
 * The instructor account the shared helpers act as on one server (signed up once per server): classes, quizzes,
 * uploads and preview sessions belong to an account. A test that cares who owns what signs up its
 * own accounts with {@link signUp}.
 */
export function defaultInstructor(app: Pick<TestApp, 'url'> | Pick<TestApp, 'url' | 'accounts' | 'config'>): Promise<SignedUpAccount> {
  let account = defaultInstructors.get(app);
  if (!account) {
    // Under SIGNUP=invite (the default on Redis, whose store a suite's tests share) the helper brings its own invite.
    account = 'accounts' in app && app.config.signup !== 'open'
      ? app.accounts.createInvite('test-helper').then(({ code }) => signUp(app, { invite: code }))
      : signUp(app);
    defaultInstructors.set(app, account);
    account.catch(() => defaultInstructors.delete(app));
  }
  return account;
}

/**
 * Makes the account an owner of a material the test put in the store directly (`app.materials.ingest`), as an
 * upload through `POST /api/materials` would have. Needs the app itself (its ownership repository).
 */
export async function ownMaterial(app: Pick<TestApp, 'url'> | Pick<TestApp, 'url' | 'ownership' | 'accounts' | 'config'>, materialId: string, account?: SignedUpAccount): Promise<SignedUpAccount> {
  const owner = account ?? (await defaultInstructor(app));
  if ('ownership' in app) await app.ownership.addMaterialOwner(materialId, owner.accountId, Date.now());
  return owner;
}
