/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QT4 — Teams in the pages. The host opens a room with 2 teams and picking allowed (host.html 팀 대항, 참가자가 팀을
 *   고름); two phones (390×844) and two desktops join and each sees 내 팀 in the lobby (1팀, 2팀, 1팀, 2팀 by join
 *   order); one player taps 1팀 and is moved; after a question without speed bonus the players' board and the
 *   projector's and players' podium show the team ranking with the mean of each team's members (2팀 1,000 with 1명
 *   first, 1팀 667 with 3명 second).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { hostPastedRoom } from '../support/quiz-pages.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await app?.stop();
});

const ITEMS = [{ type: 'truefalse', question: '중앙값은 이상값에 덜 민감하다.', answer: true, explanation: '해설입니다.', difficulty: 'easy' }];

async function open(kind: 'host' | 'phone' | 'desktop'): Promise<Page> {
  const context = await browser.newContext(
    kind === 'phone' ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } },
  );
  contexts.push(context);
  if (kind === 'host') await signInContext(context, app);
  return context.newPage();
}

async function join(page: Page, code: string, nickname: string): Promise<void> {
  await page.goto(`${app.url}/play.html?code=${code}`);
  await fillBox(page.locator('[data-testid=join-nickname]'), nickname);
  await page.click('[data-testid=join-submit]');
  await page.locator('[data-testid=play-lobby]').waitFor();
}

const teamRows = (page: Page, within: string) => page.locator(`${within} [data-testid=team-ranking] li`).allTextContents();

describe('team rooms in the live pages', () => {
  it('QT4 two phones and two desktops play a 2-team room to the podium: team shown, picked, ranked by mean', async () => {
    const host = await open('host');
    const code = await hostPastedRoom(host, app.url, {
      className: '팀 퀴즈반',
      title: '팀 대항',
      items: ITEMS,
      configure: async (page) => {
        await page.uncheck('[data-testid=speed-bonus]');
        await page.selectOption('[data-testid=teams]', '2');
        await page.check('[data-testid=team-pick]');
      },
    });

    const players = [await open('phone'), await open('desktop'), await open('phone'), await open('desktop')];
    const names = ['가람', '나래', '다온', '라온'];
    for (const [index, page] of players.entries()) await join(page, code, names[index]!);
    for (const [index, page] of players.entries()) {
      await page.locator('[data-testid=my-team]', { hasText: `내 팀: ${(index % 2) + 1}팀` }).waitFor();
    }
    // 라온 moves to 1팀.
    await players[3]!.locator('[data-testid=team-picks] button', { hasText: '1팀' }).click();
    await players[3]!.locator('[data-testid=my-team]', { hasText: '내 팀: 1팀' }).waitFor();
    await expect.poll(() => players[3]!.locator('[data-testid=team-picks] button[aria-pressed=true]').textContent()).toBe('1팀');

    await host.locator('[data-testid=player-item]').nth(3).waitFor();
    await host.click('[data-testid=start]');
    for (const page of players) await page.locator('[data-testid=answers] button:enabled').first().waitFor();
    // 다온 is wrong: 1팀 (가람 1000, 다온 0, 라온 1000) mean 667; 2팀 (나래 1000) mean 1000.
    for (const [index, page] of players.entries()) await page.locator(`[data-testid=answers] button[data-choice="${index === 2 ? 1 : 0}"]`).click();
    await host.locator('[data-testid=reveal-summary]', { hasText: '정답 3명' }).waitFor();

    await host.click('[data-testid=reveal-next]'); // -> leaderboard
    await players[0]!.locator('[data-testid=play-board]').waitFor();
    await expect.poll(() => teamRows(players[0]!, '[data-screen=leaderboard]')).toEqual(['12팀 (1명)1,000점', '21팀 (3명)667점']);
    await host.click('[data-testid=leaderboard-next]'); // -> podium
    await host.locator('[data-testid=podium-screen] [data-testid=team-ranking]').waitFor();
    expect(await teamRows(host, '[data-testid=podium-screen]')).toEqual(['1팀 (3명)667점2위', '2팀 (1명)1,000점1위']);
    await players[1]!.locator('[data-testid=play-podium-list]').waitFor();
    await expect.poll(() => players[1]!.locator('[data-testid=team-ranking] [data-testid=podium-name]').allTextContents()).toEqual(['1팀 (3명)', '2팀 (1명)']);
  });
});
