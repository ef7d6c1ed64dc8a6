/**
 * The instructor's account as the pages see it (`/api/auth`, docs/PROTOCOL.md "Accounts"): who is signed in, and the
 * calls that sign in, up and out. Every answer that carries the session's CSRF token hands it to net/http.ts, which
 * adds it to every state-changing request the pages make.
 */
import type { AccountView, SignedIn } from '../../src/protocol/wire/index.js';
import { ApiError, apiJson, setCsrfToken } from './http.js';

export type { AccountView };

/** The signed-in account (and its CSRF token remembered), or null for a visitor without a session. */
export async function me(): Promise<AccountView | null> {
  try {
    const body = await apiJson<SignedIn>('/api/auth/me');
    setCsrfToken(body.csrfToken);
    return body.account;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      setCsrfToken(null);
      return null;
    }
    throw error;
  }
}

export async function signIn(email: string, password: string): Promise<AccountView> {
  const body = await apiJson<SignedIn>('/api/auth/signin', { method: 'POST', body: { email, password }, fallback: '로그인하지 못했습니다.', credentials: 'same-origin' });
  setCsrfToken(body.csrfToken);
  return body.account;
}

export async function signUp(email: string, password: string, invite: string | null): Promise<AccountView> {
  const body = await apiJson<SignedIn>('/api/auth/signup', { method: 'POST', body: { email, password, ...(invite ? { invite } : {}) }, fallback: '가입하지 못했습니다.', credentials: 'same-origin' });
  setCsrfToken(body.csrfToken);
  return body.account;
}

/** Ends this browser's session (`everywhere`: every browser session of the account). */
export async function signOut(everywhere = false): Promise<void> {
  await apiJson(everywhere ? '/api/auth/signout-all' : '/api/auth/signout', { method: 'POST', fallback: '로그아웃하지 못했습니다.' });
  setCsrfToken(null);
}

/**
 * A path on this site to come back to after signing in (`?return=`), or the dashboard. Only `/x…` paths: never
 * `//host` or a backslash, so a crafted link cannot send the instructor to another site after sign-in.
 */
export function returnPath(search = location.search): string {
  const wanted = new URLSearchParams(search).get('return');
  const safe = wanted && wanted.startsWith('/') && !wanted.startsWith('//') && ![...wanted].some((char) => char === '\\' || char.charCodeAt(0) < 0x20);
  if (wanted && safe) return wanted;
  return '/dashboard.html';
}

/** The sign-in page with a way back here: where a signed-out visitor of an instructor page is sent. */
export function signInUrl(): string {
  return `/signin.html?return=${encodeURIComponent(location.pathname + location.search + location.hash)}`;
}

/** What a password change or reset closed, in a sentence for the person who asked. */
export function closedDoorsText(closed: { revokedApiKeys: number; endedSessions: number }): string {
  const keys = closed.revokedApiKeys > 0 ? `API 키 ${closed.revokedApiKeys}개를 폐기했고` : 'API 키는 그대로 두었고';
  const sessions = closed.endedSessions > 0 ? `다른 로그인 ${closed.endedSessions}곳을 끝냈습니다.` : '다른 로그인은 끝내지 않았습니다.';
  return `${keys} ${sessions}`;
}
