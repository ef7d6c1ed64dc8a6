/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - PG2 — Invites (SIGNUP=invite). The first sign-up is told it becomes the admin; the admin's invite link signs up a
 *   new instructor in another browser …
 * - PG3 — Single sign-on. Against a real local `oidc-provider`: the sign-in page shows the provider's button, the
 *   provider's login and consent forms lead back to the dashboard signed in …
 * - PG4 — Reset link. An admin's link: mismatched passwords are caught on the page, the new password is set, the used
 *   link is refused in Korean, the session from before the reset has ended …
 * - PG5 — The sign-in gate. Dashboard, monitor, host, upload and account send a signed-out visitor to
 *   `signin.html?return=<path>`; a return path to another site is ignored …
 * - PG6 — Account page. A wrong current password is refused in Korean, the right one changes it; a new API key is
 *   shown once, works as bearer, is listed and revoked (401 after) …
 * - PG7 — Phones. On a 390 px touch screen every button, input and header link of sign-in, sign-up, account and the
 *   dashboard is at least 44 px tall; the body breaks Korean between words (`keep-all`).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../../src/protocol/wire/index.js';
import { sessionCookie, signUp } from '../support/accounts.js';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { startOidcProvider, type TestOidcProvider } from '../support/oidc-provider.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * PG2–PG6 (test/SPEC.md): the account pages in a real chromium against the real app — invites and disabling by the
 * admin, single sign-on against a real local OpenID provider, a password reset link, the sign-in gate of the
 * instructor pages, personal API keys and signing out everywhere. Every step is done through the pages as a person
 * would; the server is asked directly only to check what the page cannot show.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
const apps: TestApp[] = [];
let provider: TestOidcProvider | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await Promise.all(apps.splice(0).map((app) => app.stop()));
  await provider?.stop();
  provider = undefined;
});
afterAll(async () => {
  await browser?.close();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const started = await startTestApp(env);
  apps.push(started);
  return started;
}

/** A fresh browser (its own cookies) that answers every confirm with yes and records page errors. */
async function newPage(problems: string[] = []): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  return { page, context };
}

async function fillSignup(page: Page, email: string, password: string): Promise<void> {
  await fillBox(page.locator('#email'), email);
  await fillBox(page.locator('#password'), password);
  await fillBox(page.locator('#password-again'), password);
  await page.click('#signup-button');
}

const PASSWORD = '안전한-비밀번호-123';

describe('account pages', () => {
  it('PG2 admin invite flow (SIGNUP=invite): first sign-up is the admin, an invite link signs up a new instructor, no invite is refused in Korean, a disabled account is signed out', async () => {
    const lectern = await app({ SIGNUP: 'invite' });
    const problems: string[] = [];
    const { page: admin } = await newPage(problems);
    await admin.goto(`${lectern.url}/signup.html`);
    await admin.locator('#signup-note', { hasText: '첫 계정' }).waitFor();
    await fillSignup(admin, 'admin@school.example', PASSWORD);
    await admin.waitForURL(/\/dashboard\.html$/);
    expect(await admin.locator('[data-testid=account-email]').textContent()).toBe('admin@school.example');

    await admin.goto(`${lectern.url}/account.html`);
    await admin.locator('#admin:not([hidden])').waitFor();
    await admin.click('[data-testid=invite-button]');
    // The link arrives with the POST's answer: wait for the box it is shown in, not for the click.
    await admin.locator('#invite-box:not([hidden])').waitFor();
    const inviteUrl = (await admin.locator('[data-testid=invite-url]').textContent()) ?? '';
    expect(inviteUrl).toMatch(new RegExp(`^${lectern.url}/signup\\?invite=[A-Za-z0-9_-]{43}$`));

    // The invitee opens the link in another browser and signs up.
    const { page: invitee } = await newPage(problems);
    await invitee.goto(inviteUrl);
    await invitee.locator('#signup-note', { hasText: '초대 링크로 가입합니다' }).waitFor();
    await fillSignup(invitee, 'kim@school.example', PASSWORD);
    await invitee.waitForURL(/\/dashboard\.html$/);
    expect(await invitee.locator('[data-testid=account-email]').textContent()).toBe('kim@school.example');

    // Someone without an invite is refused with the server's Korean sentence.
    const { page: stranger } = await newPage(problems);
    await stranger.goto(`${lectern.url}/signup.html`);
    await stranger.locator('#signup-note', { hasText: '초대받은 강사만' }).waitFor();
    await fillSignup(stranger, 'stranger@school.example', PASSWORD);
    const refusal = await fetch(`${lectern.url}/api/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'other@school.example', password: PASSWORD }) });
    const { error } = (await refusal.json()) as { error: { code: string; message: string } };
    await stranger.locator('#signup-error', { hasText: error.message }).waitFor();
    expect(error.message).toMatch(/[가-힣]/);
    expect(stranger.url()).toContain('/signup.html');

    // The admin disables the new account: its session stops at once (its pages send it to sign-in).
    await admin.reload();
    const row = admin.locator('[data-testid=account-row][data-email="kim@school.example"]');
    await row.locator('[data-testid=disable-account]').click();
    await row.locator('[data-testid=account-status]', { hasText: '사용 중지됨' }).waitFor();
    expect((await invitee.request.get(`${lectern.url}/api/auth/me`)).status()).toBe(401);
    await invitee.goto(`${lectern.url}/account.html`);
    await invitee.waitForURL(/\/signin\.html\?return=%2Faccount\.html$/);
    // And signing in again is refused with the Korean message for a disabled account.
    await fillBox(invitee.locator('#email'), 'kim@school.example');
    await fillBox(invitee.locator('#password'), PASSWORD);
    await invitee.click('#signin-button');
    await invitee.locator('#signin-error', { hasText: ERROR_MESSAGES.ACCOUNT_DISABLED }).waitFor();
    expect(problems).toEqual([]);
  });

  it('PG3 single sign-on against a local OpenID provider: the button appears, the provider login and consent forms lead back signed in', async () => {
    provider = await startOidcProvider({ users: [{ sub: 'kim', email: 'kim@school.example', email_verified: true, name: '김선생' }] });
    const lectern = await app(provider.env);
    provider.allowRedirect(`${lectern.url}/api/auth/oidc/callback`);
    const { page } = await newPage();
    await page.goto(`${lectern.url}/signin.html`);
    const button = page.locator('[data-testid=oidc-button]:not([hidden])');
    await button.waitFor();
    expect(await button.textContent()).toBe('Test SSO(으)로 로그인');
    await button.click();
    // The provider's development login form, then its consent form.
    await page.waitForURL((url) => url.origin === provider?.issuer);
    await fillBox(page.locator('input[name=login]'), 'kim');
    await fillBox(page.locator('input[name=password]'), 'any password');
    await page.click('button[type=submit]');
    await page.locator('button[type=submit]', { hasText: /continue/i }).click();
    await page.waitForURL(`${lectern.url}/dashboard.html`);
    await page.locator('[data-testid=account-email]', { hasText: 'kim@school.example' }).waitFor();

    // A failed single sign-on lands on the sign-in page with the code's Korean message.
    await page.goto(`${lectern.url}/signin.html?error=OIDC_DENIED`);
    expect(await page.locator('#signin-error').textContent()).toBe(ERROR_MESSAGES.OIDC_DENIED);
  });

  it('PG4 a password reset link: the new password signs in, the old one is refused, earlier sessions end', async () => {
    const lectern = await app();
    const admin = await signUp(lectern);
    const teacher = await signUp(lectern, { email: 'park@school.example', password: PASSWORD });
    const link = await fetch(`${lectern.url}/api/admin/accounts/${teacher.accountId}/reset-link`, { method: 'POST', headers: admin.bearer });
    const { url } = (await link.json()) as { url: string };
    expect(url).toMatch(/\/reset-password\?code=/);

    const { page, context } = await newPage();
    await signInContext(context, lectern, teacher);
    const { page: fresh } = await newPage();
    await fresh.goto(url);
    const next = '새로-바꾼-비밀번호-456';
    await fillBox(fresh.locator('#password'), next);
    await fillBox(fresh.locator('#password-again'), '다른-비밀번호-7890');
    await fresh.click('#reset-button');
    expect(await fresh.locator('#reset-error').textContent()).toBe('두 비밀번호가 서로 다릅니다.');
    await fillBox(fresh.locator('#password-again'), next);
    await fresh.click('#reset-button');
    await fresh.locator('#reset-done [data-email]', { hasText: 'park@school.example' }).waitFor();
    // The link is used up: the same page again is refused in Korean.
    await fresh.reload();
    await fillBox(fresh.locator('#password'), next);
    await fillBox(fresh.locator('#password-again'), next);
    await fresh.click('#reset-button');
    await fresh.locator('#reset-error', { hasText: '비밀번호 재설정 링크가 올바르지 않거나 만료되었거나 이미 사용되었습니다.' }).waitFor();

    // The session that was open before the reset has ended.
    await page.goto(`${lectern.url}/account.html`);
    await page.waitForURL(/\/signin\.html\?return=/);
    await fillBox(page.locator('#email'), 'park@school.example');
    await fillBox(page.locator('#password'), PASSWORD);
    await page.click('#signin-button');
    await page.locator('#signin-error', { hasText: ERROR_MESSAGES.INVALID_CREDENTIALS }).waitFor();
    await fillBox(page.locator('#password'), next);
    await page.click('#signin-button');
    await page.waitForURL(`${lectern.url}/account.html`);
    await page.locator('[data-testid=account-email]', { hasText: 'park@school.example' }).waitFor();
  });

  it('PG5 instructor pages send a signed-out visitor to sign-in and back (no SSO button without OIDC); the landing page links sign-in, sign-up and the student entry', async () => {
    const lectern = await app();
    const teacher = await signUp(lectern, { email: 'lee@school.example', password: PASSWORD });
    const { page } = await newPage();
    await page.goto(`${lectern.url}/`);
    expect(await page.locator('[data-testid=instructor-signin]').getAttribute('href')).toBe('/signin.html');
    expect(await page.locator('[data-testid=instructor-signup]').getAttribute('href')).toBe('/signup.html');
    expect(await page.locator('#links a[href="/classroom.html"]').count()).toBe(1);
    for (const path of ['/dashboard.html', '/monitor.html', '/host.html', '/upload.html', '/account.html']) {
      await page.goto(`${lectern.url}${path}`);
      await page.waitForURL(`${lectern.url}/signin.html?return=${encodeURIComponent(path)}`);
    }
    // A return path to another site is ignored: sign-in goes to the dashboard.
    await page.goto(`${lectern.url}/signin.html?return=${encodeURIComponent('//evil.example/x')}`);
    // Without OIDC_* there is no SSO button (a hidden control stays hidden whatever its display style).
    await page.locator('#signin-button').waitFor();
    expect(await page.getByTestId('oidc-button').isVisible()).toBe(false);
    await fillBox(page.locator('#email'), teacher.email);
    await fillBox(page.locator('#password'), PASSWORD);
    await page.click('#signin-button');
    await page.waitForURL(`${lectern.url}/dashboard.html`);
    // Signed in, the sign-in page goes straight on; 로그아웃 ends the session.
    await page.goto(`${lectern.url}/signin.html?return=%2Fupload.html`);
    await page.waitForURL(`${lectern.url}/upload.html`);
    await page.click('[data-testid=sign-out]');
    await page.waitForURL(`${lectern.url}/signin.html`);
    expect((await page.request.get(`${lectern.url}/api/auth/me`)).status()).toBe(401);
  });

  it('PG6 account page: change the password, an API key shown once then revoked, sign out everywhere', async () => {
    const lectern = await app();
    const { page, context } = await newPage();
    const teacher = await signInContext(context, lectern, await signUp(lectern, { password: PASSWORD }));
    await page.goto(`${lectern.url}/account.html`);
    await page.locator('[data-testid=account-email]', { hasText: teacher.email }).waitFor();

    await fillBox(page.locator('#current-password'), '틀린-비밀번호-0000');
    await fillBox(page.locator('#next-password'), '새-비밀번호-0123456');
    await page.click('#password-button');
    await page.locator('#password-status', { hasText: '현재 비밀번호가 올바르지 않습니다.' }).waitFor();
    await fillBox(page.locator('#current-password'), PASSWORD);
    await page.click('#password-button');
    await page.locator('#password-status', { hasText: '비밀번호를 바꾸었습니다' }).waitFor();

    // The password change revoked the "test" key of signUp() (the default, DR14); a new one shows its secret once,
    // and it works until revoked.
    await page.locator('[data-testid=key-row]').first().waitFor({ state: 'detached' });
    await fillBox(page.locator('#key-name'), '성적 내보내기');
    await page.click('#key-button');
    await page.locator('[data-testid=key-secret]', { hasText: /^lct_/ }).waitFor();
    const secret = (await page.locator('[data-testid=key-secret]').textContent()) ?? '';
    expect(secret).toMatch(/^lct_[A-Za-z0-9_-]{43}$/);
    const row = page.locator('[data-testid=key-row]', { hasText: '성적 내보내기' });
    await row.waitFor();
    expect(await page.locator('[data-testid=key-row]').count()).toBe(1);
    const asKey = () => fetch(`${lectern.url}/api/auth/me`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await asKey()).status).toBe(200);
    await row.locator('button').click();
    await expect.poll(async () => page.locator('[data-testid=key-row]').count()).toBe(0);
    expect((await asKey()).status).toBe(401);
    await page.reload();
    expect(await page.locator('[data-testid=key-secret]').isHidden()).toBe(true);

    // Signing out everywhere ends this browser's session and another browser's (signed in after the change).
    const signedIn = await fetch(`${lectern.url}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: teacher.email, password: '새-비밀번호-0123456' }) });
    const { context: other } = await newPage();
    await signInContext(other, lectern, { ...teacher, cookie: sessionCookie(signedIn.headers) ?? '' });
    expect((await other.request.get(`${lectern.url}/api/auth/me`)).status()).toBe(200);
    await page.click('[data-testid=signout-all]');
    await page.waitForURL(`${lectern.url}/signin.html`);
    expect((await other.request.get(`${lectern.url}/api/auth/me`)).status()).toBe(401);
    expect((await page.request.get(`${lectern.url}/api/auth/me`)).status()).toBe(401);
  });

  it('PG7 on a phone every control of the account pages and the instructor header is at least 44 px tall, and Korean breaks between words', async () => {
    const lectern = await app();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    contexts.push(context);
    const page = await context.newPage();
    const tooSmall = async (path: string, selector: string): Promise<string[]> => {
      await page.goto(`${lectern.url}${path}`);
      await page.locator(selector).first().waitFor({ state: 'attached' });
      const boxes = await page.locator(selector).evaluateAll((nodes) =>
        nodes
          .filter((node) => (node as unknown as { offsetParent: unknown }).offsetParent !== null)
          .map((node) => ({ id: `${node.tagName} ${node.textContent?.trim() ?? ''}`, height: node.getBoundingClientRect().height })),
      );
      return boxes.filter((box) => box.height < 44).map((box) => `${path} ${box.id} ${box.height}px`);
    };
    const small = [
      ...(await tooSmall('/signin.html', 'main button, main input, main .button')),
      ...(await tooSmall('/signup.html', 'main button, main input')),
    ];
    await signInContext(context, lectern);
    small.push(...(await tooSmall('/account.html', 'main button, main input, header button, header nav a')));
    small.push(...(await tooSmall('/dashboard.html', 'main button, main input, main select, header button')));
    expect(small).toEqual([]);
    expect(await page.locator('body').evaluate((body) => (globalThis as unknown as { getComputedStyle(node: unknown): { wordBreak: string } }).getComputedStyle(body).wordBreak)).toBe('keep-all');
  });
});
