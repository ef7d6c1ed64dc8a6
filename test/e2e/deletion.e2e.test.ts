/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DL5 — The pages ask first. In chromium (`test/e2e/deletion.e2e.test.ts`): the monitor page's "수업 삭제", the host
 *   setup's "선택한 퀴즈 삭제" and the upload page's "삭제" show a confirm naming what goes and that it …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { signUp, type SignedUpAccount } from '../support/accounts.js';
import { signInContext } from '../support/browser-account.js';
import { postJson, type CreatedClass } from '../support/classroom-client.js';
import { madePdf } from '../support/data-flow.js';
import { sampleItems } from '../support/quiz-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { classKeys } from '../../src/classroom/class-keys.js';
import { quizKeys } from '../../src/quiz/quiz-keys.js';

/**
 * DL5 (test/SPEC.md): the pages' delete buttons in a real chromium — the instructor is asked first (a dismissed
 * confirm deletes nothing), and an accepted one deletes on the server: a class on the monitor page, a quiz on the
 * host setup, a material on the upload page.
 */

let app: TestApp;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A class of `owner`, made over the HTTP API with their API key. */
async function classOf(owner: SignedUpAccount, name: string): Promise<CreatedClass> {
  const response = await postJson<CreatedClass>(`${app.url}/api/classes`, { name }, owner.bearer);
  if (response.status !== 201) throw new Error(`POST /api/classes: ${response.status}`);
  return response.body as CreatedClass;
}

/** A page of this app in a browser signed in as `owner` (the pages read the account's lists from the server). */
async function pageAs(owner: SignedUpAccount, path: string): Promise<Page> {
  context = await browser.newContext();
  await signInContext(context, app, owner);
  const page = await context.newPage();
  await page.goto(`${app.url}${path}`);
  return page;
}

/** Clicks `selector` answering the confirm dialog with `accept`; resolves with the dialog's text. */
async function clickConfirming(page: Page, selector: string, accept: boolean): Promise<string> {
  const dialog = page.waitForEvent('dialog');
  const click = page.click(selector);
  const shown = await dialog;
  const text = shown.message();
  await (accept ? shown.accept() : shown.dismiss());
  await click;
  return text;
}

describe('DL5: delete buttons ask first', () => {
  it('DL5 monitor page: 수업 삭제 deletes the class after the confirm', async () => {
    const owner = await signUp(app);
    const created = await classOf(owner, '지울 반');
    const page = await pageAs(owner, '/monitor.html');
    await page.waitForSelector('[data-testid=delete-class]');
    expect(await clickConfirming(page, '[data-testid=delete-class]', false)).toContain('되돌릴 수 없습니다');
    expect(await app.store.exists(classKeys.classRecord(created.classId))).toBe(true);
    await clickConfirming(page, '[data-testid=delete-class]', true);
    await page.waitForSelector('[data-testid=delete-class]', { state: 'detached' });
    expect(await app.store.exists(classKeys.classRecord(created.classId))).toBe(false);
  });

  it('DL5 host setup: 선택한 퀴즈 삭제 deletes the chosen quiz after the confirm', async () => {
    const owner = await signUp(app);
    const created = await classOf(owner, '퀴즈 반');
    const quiz = await postJson<{ quizId: string }>(`${app.url}/api/quizzes`, { title: '지울 퀴즈', items: sampleItems(1) }, { authorization: `Bearer ${created.instructorToken}` });
    const page = await pageAs(owner, `/host.html?class=${created.classId}`);
    await page.waitForSelector(`[data-testid=quiz-select] option[value="${quiz.body.quizId!}"]`, { state: 'attached' });
    await clickConfirming(page, '[data-testid=delete-quiz]', false);
    expect(await app.store.exists(quizKeys.quiz(quiz.body.quizId!))).toBe(true);
    expect(await clickConfirming(page, '[data-testid=delete-quiz]', true)).toContain('지울 퀴즈');
    await page.waitForSelector(`[data-testid=quiz-select] option[value="${quiz.body.quizId!}"]`, { state: 'detached' });
    expect(await app.store.exists(quizKeys.quiz(quiz.body.quizId!))).toBe(false);
  });

  it('DL5 upload page: 삭제 deletes the material after the confirm', async () => {
    const owner = await signUp(app);
    const form = new FormData();
    // Not the built-in sample's bytes: the sample is everyone's and is never deleted.
    form.append('file', new Blob([Buffer.from(await madePdf('지울 자료'))], { type: 'application/pdf' }), 'sample.pdf');
    const material = (await (await fetch(`${app.url}/api/materials`, { method: 'POST', body: form, headers: owner.bearer })).json()) as { id: string };
    const page = await pageAs(owner, '/upload.html');
    await page.waitForSelector('[data-testid=delete-material]');
    await clickConfirming(page, '[data-testid=delete-material]', false);
    expect(await app.materials.get(material.id)).not.toBeNull();
    expect(await clickConfirming(page, '[data-testid=delete-material]', true)).toContain('원본 PDF');
    await page.waitForSelector('#status:has-text("삭제했습니다")');
    expect(await app.materials.get(material.id)).toBeNull();
  });
});
