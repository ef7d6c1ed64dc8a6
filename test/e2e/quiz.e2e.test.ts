import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { sampleItems } from '../support/quiz-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * A live quiz room through its pages in a real (headless Debian) chromium against the real app (memory store,
 * offline model): the instructor makes a class on the monitor, pastes a quiz and opens a room on the host page; three
 * phones (separate browser contexts) join with the code and play three questions to the podium; the results are
 * downloaded from the host page and the monitor's room list.
 */

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Set LECTERN_SCREENSHOTS=1 to write /tmp/quiz-*.png along the way. */
const SCREENSHOTS = process.env.LECTERN_SCREENSHOTS === '1';

interface Recorder {
  foreign: string[];
  problems: string[];
}

/** A page (in its own context) that records anything leaving the test server and any error it shows. */
async function openPage(name: string, recorder: Recorder, phone: boolean): Promise<Page> {
  const context = await browser.newContext(
    phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, acceptDownloads: true } : { viewport: { width: 1280, height: 900 }, acceptDownloads: true },
  );
  contexts.push(context);
  // The host (an instructor) holds an account's session; the players are guests.
  if (name === 'host') await signInContext(context, app);
  const page = await context.newPage();
  const origin = new URL(app.url);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin.origin && url.protocol !== 'data:' && url.protocol !== 'blob:') recorder.foreign.push(`${name}: ${request.url()}`);
  });
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).host !== origin.host) recorder.foreign.push(`${name}: ${socket.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) recorder.problems.push(`${name}: HTTP ${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => recorder.problems.push(`${name}: pageerror ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') recorder.problems.push(`${name}: console ${message.text()}`);
  });
  return page;
}

async function join(page: Page, nickname: string, code?: string): Promise<void> {
  if (code !== undefined) await fillBox(page.locator('[data-testid=join-code]'), code);
  await fillBox(page.locator('[data-testid=join-nickname]'), nickname);
  await page.click('[data-testid=join-submit]');
}

/**
 * Taps a choice on a phone and waits for "답을 보냈습니다" — or for the result, when this was the last answer and
 * the question closed at once (the confirmation is then replaced before a loaded machine gets to see it).
 */
async function answer(page: Page, choice: number): Promise<void> {
  await page.locator(`[data-testid=answers] button[data-choice="${choice}"]:enabled`).click();
  await page.locator(`[data-testid=answer-sent][data-choice="${choice}"]:visible, [data-testid=verdict]:visible`).first().waitFor();
}

/** The host's answer distribution, in choice order. */
async function distribution(host: Page): Promise<number[]> {
  const rows = host.locator('[data-testid=reveal-screen] [data-testid=dist-row]');
  const counts: number[] = [];
  for (let index = 0; index < (await rows.count()); index += 1) counts.push(Number(await rows.nth(index).getAttribute('data-count')));
  return counts;
}

describe('live quiz pages', () => {
  it('runs a 3-question game from room creation to the podium: host page, three phones, a reload mid-question, results', async () => {
    const recorder: Recorder = { foreign: [], problems: [] };
    const items = sampleItems(3);
    const host = await openPage('host', recorder, false);

    // The instructor makes a class on the monitor and follows its "새 퀴즈 방 열기" link to the host page.
    await host.goto(`${app.url}/monitor.html`);
    await fillBox(host.locator('[data-testid=class-name]'), '퀴즈 3반');
    await host.click('[data-testid=create-class]');
    await host.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await host.locator('[data-testid=quiz-rooms-empty]').waitFor();
    await host.click('[data-testid=quiz-room-new]');
    await host.waitForURL(/\/host\.html\?class=/);

    // A quiz pasted as JSON, then a room with no preview time.
    await host.locator('[data-testid=quiz-select] option', { hasText: '아직 퀴즈가 없습니다' }).waitFor({ state: 'attached' });
    await host.click('[data-testid=paste-box] summary');
    await fillBox(host.locator('[data-testid=paste-title]'), '통계 복습');
    await fillBox(host.locator('[data-testid=paste-items]'), JSON.stringify(items));
    await host.click('[data-testid=paste-save]');
    await host.locator('[data-testid=quiz-status]', { hasText: '저장했습니다' }).waitFor();
    expect(await host.locator('[data-testid=quiz-select] option:checked').textContent()).toBe('통계 복습 (3문제)');
    await fillBox(host.locator('[data-testid=question-seconds]'), '30');
    await fillBox(host.locator('[data-testid=preview-seconds]'), '0');
    await host.click('[data-testid=create-room]');

    // The lobby: the big code, the join link and its QR code.
    await host.locator('[data-testid=host-connection][data-state=connected]').waitFor();
    const codeNode = host.locator('[data-testid=lobby] [data-testid=room-code]');
    await expect.poll(() => codeNode.textContent()).toMatch(/^\d{6}$/);
    const code = (await codeNode.textContent()) ?? '';
    const joinUrl = (await host.locator('[data-testid=join-url]').textContent()) ?? '';
    expect(joinUrl).toBe(`${app.url}/play.html?code=${code}`);
    const qr = host.locator('[data-testid=join-qr]');
    await expect.poll(() => qr.evaluate((image) => (image as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    expect(await qr.getAttribute('src')).toBe(`/api/rooms/join-qr.svg?code=${code}`);
    expect(await host.locator('[data-testid=game-title]').textContent()).toBe('통계 복습');

    // Three phones: one from the QR link (code prefilled), two typing the code; a taken nickname is refused.
    const [minjun, seoyeon, jiho] = await Promise.all(['민준', '서연', '지호'].map((name) => openPage(name, recorder, true)));
    await minjun!.goto(joinUrl);
    expect(await minjun!.inputValue('[data-testid=join-code]')).toBe(code);
    await join(minjun!, '민준');
    await seoyeon!.goto(`${app.url}/play.html`);
    await join(seoyeon!, '서연', code);
    await jiho!.goto(`${app.url}/play.html`);
    await join(jiho!, '민준', code);
    await jiho!.locator('[data-testid=join-error]', { hasText: '이미 쓰이는 닉네임' }).waitFor();
    await join(jiho!, '지호');
    const phones = [minjun!, seoyeon!, jiho!];
    for (const phone of phones) await phone.locator('[data-testid=play-lobby]').waitFor();
    expect(await jiho!.locator('[data-testid=me-name]').textContent()).toBe('지호');

    const playerNames = host.locator('[data-testid=players] [data-testid=player-name]');
    await expect.poll(() => playerNames.allTextContents()).toEqual(['민준', '서연', '지호']);
    expect(await host.locator('[data-testid=player-count]').textContent()).toBe('3');
    if (SCREENSHOTS) await host.screenshot({ path: '/tmp/quiz-host-lobby.png', fullPage: true });

    // A host reload keeps the room: the same code and players come back from the snapshot.
    await host.reload();
    await host.locator('[data-testid=host-connection][data-state=connected]').waitFor();
    await expect.poll(() => playerNames.allTextContents()).toEqual(['민준', '서연', '지호']);
    expect(await codeNode.textContent()).toBe(code);

    // Question 1: pause freezes the phones, resume lets them answer; all three answered closes it early.
    await host.click('[data-testid=start]');
    for (const phone of phones) await phone.locator('[data-testid=play-question-text]', { hasText: items[0]!.question }).waitFor();
    await host.locator('[data-testid=question-screen] [data-testid=question-text]', { hasText: items[0]!.question }).waitFor();
    expect(await minjun!.locator('[data-testid=answers] button').allTextContents()).toEqual(items[0]!.choices.map((choice, index) => `${['▲', '◆', '●', '■'][index]}${choice}`));
    await host.click('[data-testid=pause]');
    await minjun!.locator('[data-testid=play-paused]').waitFor();
    expect(await minjun!.locator('[data-testid=answers] button:enabled').count()).toBe(0);
    const frozen = await minjun!.locator('[data-testid=play-timer-seconds]').textContent();
    await host.locator('[data-testid=pause][data-paused=true]').click();
    await minjun!.locator('[data-testid=play-paused]').waitFor({ state: 'hidden' });
    expect(Number(frozen)).toBeGreaterThan(25);
    await answer(minjun!, 0);
    await answer(seoyeon!, 0);
    await answer(jiho!, 1);
    await host.locator('[data-testid=reveal-screen]').waitFor();
    expect(await host.locator('[data-testid=reveal-choices] [data-correct=true]').getAttribute('data-choice')).toBe('0');
    expect(await distribution(host)).toEqual([2, 1, 0, 0]);
    expect(await host.locator('[data-testid=reveal-explanation]').textContent()).toBe(items[0]!.explanation);
    await minjun!.locator('[data-testid=verdict][data-result=correct]').waitFor();
    await jiho!.locator('[data-testid=verdict][data-result=wrong]').waitFor();
    expect(await jiho!.locator('[data-testid=points]').textContent()).toBe('+0점');
    await host.click('[data-testid=reveal-next]');
    await expect.poll(() => host.locator('[data-testid=leaderboard] [data-testid=rank-row]').count()).toBe(3);
    await host.click('[data-testid=leaderboard-next]');

    // Question 2: the host sees the count; 서연 reloads after answering and gets the question and her answer back.
    for (const phone of phones) await phone.locator('[data-testid=play-question-text]', { hasText: items[1]!.question }).waitFor();
    await answer(minjun!, 1);
    await answer(seoyeon!, 1);
    await host.locator('[data-testid=answer-count][data-answered="2"]', { hasText: '2 / 3명 응답' }).waitFor();
    if (SCREENSHOTS) {
      await host.screenshot({ path: '/tmp/quiz-host-question.png' });
      await jiho!.screenshot({ path: '/tmp/quiz-player-question.png' });
      await seoyeon!.screenshot({ path: '/tmp/quiz-player-answered.png' });
    }
    await seoyeon!.reload();
    await seoyeon!.locator('[data-testid=play-question-text]', { hasText: items[1]!.question }).waitFor();
    await seoyeon!.locator('[data-testid=answer-sent][data-choice="1"]', { hasText: '답을 보냈습니다' }).waitFor();
    expect(await seoyeon!.locator('[data-testid=answers] button[data-chosen=true]').getAttribute('data-choice')).toBe('1');
    expect(await seoyeon!.locator('[data-testid=answers] button:enabled').count()).toBe(0);
    expect(await seoyeon!.locator('[data-testid=me-name]').textContent()).toBe('서연');
    expect(Number(await seoyeon!.locator('[data-testid=play-timer-seconds]').textContent())).toBeGreaterThan(0);
    await answer(jiho!, 0);
    await host.locator('[data-testid=reveal-screen]').waitFor();
    expect(await host.locator('[data-testid=reveal-choices] [data-correct=true]').getAttribute('data-choice')).toBe('1');
    expect(await distribution(host)).toEqual([1, 2, 0, 0]);
    await seoyeon!.locator('[data-testid=verdict][data-result=correct]').waitFor();
    if (SCREENSHOTS) {
      await host.screenshot({ path: '/tmp/quiz-host-reveal.png' });
      await seoyeon!.screenshot({ path: '/tmp/quiz-player-reveal.png' });
    }
    await host.click('[data-testid=reveal-next]');
    await host.locator('[data-testid=leaderboard-screen]').waitFor();
    await host.click('[data-testid=leaderboard-next]');

    // Question 3: only 민준 is right.
    for (const phone of phones) await phone.locator('[data-testid=play-question-text]', { hasText: items[2]!.question }).waitFor();
    await answer(minjun!, 2);
    await answer(seoyeon!, 0);
    await answer(jiho!, 3);
    await host.locator('[data-testid=reveal-screen]').waitFor();
    expect(await distribution(host)).toEqual([1, 0, 1, 1]);
    await seoyeon!.locator('[data-testid=verdict][data-result=wrong]').waitFor();
    await minjun!.locator('[data-testid=verdict][data-result=correct]').waitFor();
    expect(await minjun!.locator('[data-testid=points]').textContent()).toContain('연속 정답 보너스 +200');

    // The last leaderboard, then the podium in the order the answers make.
    await host.click('[data-testid=reveal-next]');
    await host.locator('[data-testid=leaderboard] [data-testid=rank-row]').first().waitFor();
    expect(await host.locator('[data-testid=leaderboard] .rank-name').allTextContents()).toEqual(['민준', '서연', '지호']);
    expect(await host.locator('[data-testid=leaderboard-next]').textContent()).toBe('최종 순위 보기');
    await seoyeon!.locator('[data-testid=board-rank]', { hasText: '2위' }).waitFor();
    await host.click('[data-testid=leaderboard-next]');
    await host.locator('[data-testid=podium-screen]').waitFor();
    const podium = host.locator('[data-testid=podium]');
    for (const [place, name] of [[1, '민준'], [2, '서연'], [3, '지호']] as const) {
      expect(await podium.locator(`[data-place="${place}"] [data-testid=podium-name]`).textContent()).toBe(name);
    }
    await minjun!.locator('[data-testid=podium-rank]', { hasText: /^1위/ }).waitFor();
    await jiho!.locator('[data-testid=podium-rank]', { hasText: /^3위/ }).waitFor();

    // The end: the phones say so; the host downloads the results (a bearer-token fetch saved as a blob).
    await host.click('[data-testid=podium-next]');
    await host.locator('[data-testid=ended-screen]').waitFor();
    for (const phone of phones) await phone.locator('[data-testid=play-ended]').waitFor();
    const [csv] = await Promise.all([host.waitForEvent('download'), host.click('[data-testid=download-csv]')]);
    expect(csv.suggestedFilename()).toBe(`quiz-${code}-results.csv`);
    const lines = (await readFile(await csv.path(), 'utf8')).replace(/^\ufeff/, '').trim().split('\r\n');
    expect(lines).toHaveLength(1 + 3 + 1 + 1 + 3);
    expect(lines[1]).toMatch(/^1,민준,/);

    // The monitor lists the room with its results and a link back to the host page.
    const monitor = await host.context().newPage();
    await monitor.goto(`${app.url}/monitor.html`);
    const listed = monitor.locator('[data-testid=quiz-room][data-phase=ended]', { hasText: code });
    await listed.waitFor();
    expect(await listed.textContent()).toContain('참가자 3명');
    expect(await listed.locator('[data-testid=quiz-room-host]').getAttribute('href')).toMatch(/^\/host\.html#room=/);
    const [json] = await Promise.all([monitor.waitForEvent('download'), listed.locator('[data-testid=quiz-room-json]').click()]);
    const results = JSON.parse(await readFile(await json.path(), 'utf8')) as { phase: string; players: { nickname: string; rank: number }[] };
    expect(results.phase).toBe('ended');
    expect(results.players.map((player) => player.nickname)).toEqual(['민준', '서연', '지호']);

    expect(recorder.foreign).toEqual([]);
    expect(recorder.problems).toEqual([]);
  });
});
