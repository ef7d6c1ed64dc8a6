/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR14 — The pages. (`test/e2e/account-doors.e2e.test.ts`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie, signUp } from '../support/accounts.js';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** DR14 (test/SPEC.md): the account and reset pages offer what a password change or reset closes, in Korean. */

let browser: Browser;
let app: TestApp;
const contexts: BrowserContext[] = [];

let admin: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  browser = await launchBrowser();
  app = await startTestApp({ SIGNUP: 'open' });
  // The deployment's first account is its admin (it makes the reset link).
  admin = await signUp(app);
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function newPage(): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  contexts.push(context);
  return { page: await context.newPage(), context };
}

const me = (headers: Record<string, string>) => fetch(`${app.url}/api/auth/me`, { headers }).then((response) => response.status);

describe('closing the old doors from the pages', () => {
  it('DR14 the account page offers both (checked by default); unticking the API keys keeps them while the other sign-ins end', async () => {
    const { page, context } = await newPage();
    const teacher = await signInContext(context, app);
    const elsewhere = await fetch(`${app.url}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: teacher.email, password: teacher.password }) });
    const otherCookie = sessionCookie(elsewhere.headers) as string;

    await page.goto(`${app.url}/account.html`);
    const keys = page.getByTestId('password-revoke-keys');
    const sessions = page.getByTestId('password-end-sessions');
    expect([await keys.isChecked(), await sessions.isChecked()]).toEqual([true, true]);
    expect(await page.getByTestId('password-doors').textContent()).toContain('API 키를 모두 폐기합니다');
    expect(await page.getByTestId('password-doors').textContent()).toContain('로그인');

    await keys.uncheck();
    await fillBox(page.locator('#current-password'), teacher.password);
    await fillBox(page.locator('#next-password'), '계정 화면에서 바꾼 비밀번호');
    await page.click('#password-button');
    await page.getByTestId('password-status').filter({ hasText: 'API 키는 그대로 두었고 다른 로그인 1곳을 끝냈습니다.' }).waitFor();
    expect(await me(teacher.bearer)).toBe(200);
    expect(await me({ cookie: otherCookie })).toBe(401);
    expect(await me({ cookie: teacher.cookie })).toBe(200);
  });

  it('DR14 the reset page closes both by default and says so', async () => {
    const teacher = await signUp(app);
    const link = await fetch(`${app.url}/api/admin/accounts/${teacher.accountId}/reset-link`, { method: 'POST', headers: admin.bearer });
    const { url } = (await link.json()) as { url: string };
    const { page } = await newPage();
    await page.goto(url.replace(/^https?:\/\/[^/]+/, app.url));
    expect([await page.getByTestId('reset-revoke-keys').isChecked(), await page.getByTestId('reset-end-sessions').isChecked()]).toEqual([true, true]);
    await fillBox(page.locator('#password'), '재설정 화면의 새 비밀번호');
    await fillBox(page.locator('#password-again'), '재설정 화면의 새 비밀번호');
    await page.click('#reset-button');
    await page.locator('#reset-done [data-closed]', { hasText: 'API 키 1개를 폐기했고 다른 로그인 1곳을 끝냈습니다.' }).waitFor();
    expect(await me(teacher.bearer)).toBe(401);
    expect(await me({ cookie: teacher.cookie })).toBe(401);
  });
});
