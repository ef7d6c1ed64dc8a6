/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - PG8 — "내 퀴즈". The dashboard lists the account's quizzes from `GET /api/quizzes`, 20 newest first, "더 보기" for the
 *   rest; each card shows its title, item count …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUpAccount } from '../support/accounts.js';
import { launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { getJson, postJson, type CreatedClass } from '../support/classroom-client.js';
import { joinRoom, openHost, sampleItems, type CreatedRoom } from '../support/quiz-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * PG8 (test/SPEC.md): "내 퀴즈" on the dashboard in a real chromium against the real app (memory store). An instructor
 * with two classes and 24 quizzes (one outside any class) sees the newest 20 and "더 보기" brings the rest, each card
 * naming its class; a quiz's "방과 결과" lists its ended and its open room with their results as CSV; "퀴즈 진행"
 * opens the host page with the quiz's class and the quiz already picked; another instructor's quizzes never show, and
 * an instructor without quizzes is told so. On a phone every control of the list is at least 44 px tall.
 */

let app: TestApp;
let browser: Browser;
let teacher: SignedUpAccount;
let other: SignedUpAccount;
const contexts: BrowserContext[] = [];
const classes: Array<CreatedClass & { name: string }> = [];
/** The teacher's quiz ids, newest first, as `GET /api/quizzes` lists them. */
let listed: Array<{ quizId: string; classId: string }> = [];
let looseQuiz = '';
let foreignQuiz = '';
/** The quiz with rooms (the newest of the first class), its ended room and its room still in the lobby. */
let played: { quizId: string; ended: CreatedRoom; open: CreatedRoom };
const QUIZZES_PER_CLASS = 12;

async function makeQuiz(headers: Record<string, string>, title: string, classId?: string): Promise<string> {
  const body = { title, items: sampleItems(2), ...(classId === undefined ? {} : { classId }) };
  const made = await postJson<{ quizId: string }>(`${app.url}/api/quizzes`, body, headers);
  if (made.status !== 201) throw new Error(`POST /api/quizzes: ${made.status} ${JSON.stringify(made.body)}`);
  return made.body.quizId!;
}

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
  teacher = await signUp(app);
  other = await signUp(app);
  for (const name of ['통계 1반', '통계 2반']) {
    const made = await postJson<CreatedClass>(`${app.url}/api/classes`, { name }, teacher.bearer);
    classes.push({ ...(made.body as CreatedClass), name });
  }
  const [first, second] = [classes[0]!, classes[1]!];
  looseQuiz = await makeQuiz(teacher.bearer, '수업 밖 퀴즈');
  for (let index = 0; index < QUIZZES_PER_CLASS; index += 1) {
    await makeQuiz(teacher.bearer, `1반 퀴즈 ${index}`, first.classId);
    await makeQuiz(teacher.bearer, `2반 퀴즈 ${index}`, second.classId);
  }
  const otherClass = (await postJson<CreatedClass>(`${app.url}/api/classes`, { name: '남의 반' }, other.bearer)).body as CreatedClass;
  foreignQuiz = await makeQuiz(other.bearer, '남의 퀴즈', otherClass.classId);

  const all = await getJson<{ quizzes: Array<{ quizId: string; classId: string }> }>(`${app.url}/api/quizzes?limit=50`, teacher.bearer);
  listed = all.body.quizzes!;
  expect(listed).toHaveLength(2 * QUIZZES_PER_CLASS + 1);

  // Two rooms of one quiz of the first class: one played by a student and ended, one waiting in its lobby.
  const quizId = listed.find((quiz) => quiz.classId === first.classId)!.quizId;
  const open = async () => (await postJson<CreatedRoom>(`${app.url}/api/rooms`, { quizId }, { authorization: `Bearer ${first.instructorToken}` })).body as CreatedRoom;
  const ended = await open();
  const host = await openHost(app.url, ended.hostToken);
  const student = await joinRoom(app.url, ended.code, '민지');
  expect((await host.emit('room:end')).ok).toBe(true);
  host.close();
  student.client.close();
  played = { quizId, ended, open: await open() };
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

interface Opened {
  page: Page;
  /** Error answers, page errors and requests that left the test server (a CDN): all must stay empty. */
  problems: string[];
}

async function openDashboard(account: SignedUpAccount, phone = false): Promise<Opened> {
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  await signInContext(context, app, account);
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(app.url).origin;
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:') problems.push(`foreign ${request.url()}`);
  });
  await page.goto(`${app.url}/dashboard.html`);
  return { page, problems };
}

const cardIds = (page: Page) => page.locator('[data-testid=dashboard-quiz]').evaluateAll((cards) => cards.map((card) => card.getAttribute('data-quiz-id')));

describe('PG8 "내 퀴즈" on the dashboard', () => {
  it('PG8 lists the newest 20 quizzes, "더 보기" the rest, each with its class; never another instructor\'s', async () => {
    const { page, problems } = await openDashboard(teacher);
    const cards = page.locator('[data-testid=dashboard-quizzes] [data-testid=dashboard-quiz]');
    await expect.poll(() => cards.count()).toBe(20);
    expect(await cardIds(page)).toEqual(listed.slice(0, 20).map((quiz) => quiz.quizId));
    const more = page.locator('#quizzes-more');
    expect(await more.isVisible()).toBe(true);
    await more.click();
    await expect.poll(() => cards.count()).toBe(listed.length);
    expect(await more.isVisible()).toBe(false);
    expect(await cardIds(page)).toEqual(listed.map((quiz) => quiz.quizId));
    expect(await cardIds(page)).not.toContain(foreignQuiz);
    expect(await page.locator('#quiz-list-empty').isVisible()).toBe(false);

    // Each card: its title, item count, its class by name (or "수업 없음") and when it was made.
    const names = new Map(classes.map((entry) => [entry.classId, entry.name]));
    for (const quiz of listed) {
      const card = page.locator(`[data-testid=dashboard-quiz][data-quiz-id="${quiz.quizId}"]`);
      const expected = quiz.classId === '' ? '수업 없음' : `수업: ${names.get(quiz.classId)}`;
      expect(await card.locator('[data-testid=quiz-class]').textContent()).toBe(expected);
    }
    const loose = page.locator(`[data-testid=dashboard-quiz][data-quiz-id="${looseQuiz}"]`);
    expect(await loose.locator('h3').textContent()).toBe('수업 밖 퀴즈');
    expect(await loose.textContent()).toContain('2문제');
    expect(await loose.textContent()).toMatch(/20\d\d\./);
    // A quiz outside any class cannot be played from the host page (it opens rooms with a class's token).
    expect(await loose.locator('[data-testid=quiz-host]').count()).toBe(0);
    expect(problems).toEqual([]);

    // The other instructor sees their one quiz only; an instructor without quizzes is told so.
    const foreign = await openDashboard(other);
    await expect.poll(() => cardIds(foreign.page)).toEqual([foreignQuiz]);
    const fresh = await openDashboard(await signUp(app));
    await fresh.page.locator('#quiz-list-empty', { hasText: '아직 만든 퀴즈가 없습니다.' }).waitFor();
    expect(await fresh.page.locator('[data-testid=dashboard-quiz]').count()).toBe(0);
    expect([...foreign.problems, ...fresh.problems]).toEqual([]);
  });

  it('PG8 a quiz\'s "방과 결과" lists its ended and open rooms with results as CSV; "퀴즈 진행" opens the host ready', async () => {
    const { page, problems } = await openDashboard(teacher);
    const card = page.locator(`[data-testid=dashboard-quiz][data-quiz-id="${played.quizId}"]`);
    const rooms = card.locator('[data-testid=quiz-rooms]');
    await rooms.locator('summary', { hasText: '방과 결과' }).click();
    const entries = rooms.locator('[data-testid=dashboard-room]');
    await expect.poll(() => entries.count()).toBe(2);
    const ended = rooms.locator(`[data-testid=dashboard-room][data-room-id="${played.ended.roomId}"]`);
    expect(await ended.textContent()).toContain(`코드 ${played.ended.code}`);
    expect(await ended.textContent()).toContain('끝남');
    expect(await ended.textContent()).toContain('참가 1명');
    const open = rooms.locator(`[data-testid=dashboard-room][data-room-id="${played.open.roomId}"]`);
    expect(await open.textContent()).toContain(`코드 ${played.open.code}`);
    expect(await open.textContent()).toContain('대기실');
    const csv = ended.locator('[data-testid=room-csv]');
    expect(await csv.textContent()).toBe('결과 CSV');
    const href = (await csv.getAttribute('href')) ?? '';
    expect(href).toBe(`/api/rooms/${played.ended.roomId}/results.csv`);
    // The link works with the page's own session.
    const download = await page.request.get(`${app.url}${href}`);
    expect(download.status()).toBe(200);
    expect(await download.text()).toContain('민지');
    // A quiz without rooms says so.
    // Neither the first class of the picker (the newest, 통계 2반) nor the first quiz of its class (the newest): what the
    // host page would pick by itself.
    const target = listed.filter((quiz) => quiz.classId === classes[0]!.classId)[1]!;
    const quiet = page.locator(`[data-testid=dashboard-quiz][data-quiz-id="${target.quizId}"] [data-testid=quiz-rooms]`);
    await quiet.locator('summary').click();
    await quiet.getByText('이 퀴즈로 연 방이 없습니다.').waitFor();

    // Its "퀴즈 진행": the host page with that class and that quiz picked.
    const link = page.locator(`[data-testid=dashboard-quiz][data-quiz-id="${target.quizId}"] [data-testid=quiz-host]`);
    expect(await link.textContent()).toBe('퀴즈 진행');
    await link.click();
    await page.waitForURL(`${app.url}/host.html?class=${target.classId}&quiz=${target.quizId}`);
    await expect.poll(() => page.locator('#class-select').inputValue()).toBe(target.classId);
    await expect.poll(() => page.locator('#quiz-select').inputValue()).toBe(target.quizId);
    expect(await page.locator('#room-form').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('PG8 on a phone the quiz cards\' links, room lists and "더 보기" are at least 44 px tall, and Korean breaks between words', async () => {
    const { page, problems } = await openDashboard(teacher, true);
    await expect.poll(() => page.locator('[data-testid=dashboard-quiz]').count()).toBe(20);
    const card = page.locator(`[data-testid=dashboard-quiz][data-quiz-id="${played.quizId}"]`);
    await card.locator('[data-testid=quiz-rooms] summary').click();
    await card.locator('[data-testid=room-csv]').first().waitFor();
    const tooSmall = await page
      .locator('[data-testid=dashboard-quizzes] a, [data-testid=dashboard-quizzes] summary, [data-testid=dashboard-quizzes] button, #quizzes-more')
      .evaluateAll((nodes) =>
        nodes
          .filter((node) => (node as unknown as { offsetParent: unknown }).offsetParent !== null)
          .map((node) => ({ id: `${node.tagName} ${node.textContent?.trim() ?? ''}`, height: node.getBoundingClientRect().height }))
          .filter((box) => box.height < 44),
      );
    expect(tooSmall).toEqual([]);
    const wordBreak = await card.evaluate((node) => (globalThis as unknown as { getComputedStyle(node: unknown): { wordBreak: string } }).getComputedStyle(node).wordBreak);
    expect(wordBreak).toBe('keep-all');
    expect(problems).toEqual([]);
  });
});
