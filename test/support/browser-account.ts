import type { BrowserContext } from 'playwright-core';
import { signUp, type SignedUpAccount, type SignUpOptions } from './accounts.js';
import type { TestApp } from './test-app.js';

/**
 * Signs a browser context in as an instructor without going through the sign-in page: the account is made over
 * the HTTP API (or given) and its session cookie is put in the context, as a browser would hold it after signing in.
 * The pages then read the account and its CSRF token from `GET /api/auth/me` like after a real sign-in.
 */
export async function signInContext(context: BrowserContext, app: Pick<TestApp, 'url'>, account?: SignedUpAccount, options: SignUpOptions = {}): Promise<SignedUpAccount> {
  const signedUp = account ?? (await signUp(app, options));
  const value = signedUp.cookie.slice('lectern_session='.length);
  await context.addCookies([{ name: 'lectern_session', value, url: app.url, httpOnly: true, sameSite: 'Lax' }]);
  return signedUp;
}
