import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../support/browser.js';
import { signUp, type SignedUpAccount } from '../support/accounts.js';
import { signInContext } from '../support/browser-account.js';
import { postJson, type CreatedClass } from '../support/classroom-client.js';
import { sampleItems } from '../support/quiz-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * P1 in the pages (real chromium, memory store): the monitor's room list shows a page and "더 보기" appends the next;
 * the host page's quiz picker follows the cursors until it offers every quiz of the class.
 */

let app: TestApp;
let browser: Browser;
let owner: CreatedClass;
let teacher: SignedUpAccount;
const QUIZZES = 55;
const ROOMS = 23;

beforeAll(async () => {
  // 23 rooms of one class open at once: more than the open-rooms quota's default (10).
  app = await startTestApp({ MAX_OPEN_ROOMS_PER_ACCOUNT: String(ROOMS) });
  browser = await launchBrowser();
  teacher = await signUp(app);
  owner = (await postJson<CreatedClass>(`${app.url}/api/classes`, { name: '목록 반' }, teacher.bearer)).body as CreatedClass;
  const auth = { authorization: `Bearer ${owner.instructorToken}` };
  let quizId = '';
  for (let index = 0; index < QUIZZES; index += 1) {
    quizId = (await postJson<{ quizId: string }>(`${app.url}/api/quizzes`, { title: `퀴즈 ${index}`, items: sampleItems(1) }, auth)).body.quizId!;
  }
  for (let index = 0; index < ROOMS; index += 1) {
    expect((await postJson(`${app.url}/api/rooms`, { quizId }, auth)).status).toBe(201);
  }
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A page of this app signed in as the class's owner (the page reads the class and its token from the server). */
async function openWithClass(path: string): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signInContext(context, app, teacher);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  await page.goto(`${app.url}${path}`);
  return { page, problems };
}

describe('lists in the pages', () => {
  it('P1 the monitor shows the newest 20 rooms and "더 보기" appends the rest', async () => {
    const { page, problems } = await openWithClass(`/monitor.html?class=${owner.classId}`);
    const rooms = page.locator('[data-testid=quiz-room]');
    await expect.poll(() => rooms.count()).toBe(20);
    const more = page.locator('[data-testid=quiz-rooms-more]');
    expect(await more.isVisible()).toBe(true);
    await more.click();
    await expect.poll(() => rooms.count()).toBe(ROOMS);
    expect(await more.isVisible()).toBe(false);
    const ids = await rooms.evaluateAll((items) => items.map((item) => item.getAttribute('data-room-id')));
    expect(new Set(ids).size).toBe(ROOMS);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('P1 the host page offers every quiz of the class, over several pages', async () => {
    const { page, problems } = await openWithClass(`/host.html?class=${owner.classId}`);
    const options = page.locator('#quiz-select option[value]:not([value=""])');
    await expect.poll(() => options.count()).toBe(QUIZZES);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
