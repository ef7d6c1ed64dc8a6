/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM11 — Typed answers in the pages. Two phones (390×844) and a desktop type short answers and cloud words; the right
 *   answer shows 정답 and +1,000점 (speed bonus off), an unsure one "선생님이 답을 확인하고 있어요" and +0점; the
 *   projector lists the unsure answer with 정답/오답 buttons, and marking it 정답 turns that phone's verdict to 정답
 *   with +1,000점 without a reload. The projector's word cloud sizes words by count and shows markup typed by a
 *   player as text (no element is made from it). axe finds no violation on the projector's review and cloud, nor on
 *   the phone's text field and its "확인 중" result.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { axeViolations, hostPastedRoom } from '../support/quiz-pages.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { warmShortJudge } from '../../src/quiz/short-answer-judge.js';

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

// The judge's cold start (LaTeX reader, analyzer) is loaded here, not inside a bounded wait for the first reveal.
beforeAll(async () => {
  warmShortJudge();
  app = await startTestApp();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await app?.stop();
});

const UNSURE = '정렬했을 때 가운데 오는 값';
const MARKUP = '<img src=x onerror=alert(1)>';
const ITEMS = [
  { type: 'short', question: '자료의 가운데 값으로, 이상값에 덜 민감한 대푯값은?', answer: '중앙값', accept: ['median'], explanation: '가운데 값입니다.', difficulty: 'easy' },
  { type: 'cloud', question: '오늘 배운 것을 한 단어로?', explanation: '', difficulty: 'easy' },
];

async function open(kind: 'host' | 'phone' | 'desktop'): Promise<Page> {
  const context = await browser.newContext(
    // bypassCSP only lets the test inject axe-core (an inline script the pages' CSP rightly refuses).
    kind === 'phone'
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, bypassCSP: true }
      : { viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce', bypassCSP: true },
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

async function questionOpen(page: Page, n: number): Promise<void> {
  await page.locator('[data-testid=play-question-text]', { hasText: ITEMS[n - 1]!.question }).waitFor();
  await page.locator('[data-testid=text-answer]:enabled').waitFor();
}

async function type(page: Page, text: string): Promise<void> {
  await fillBox(page.locator('[data-testid=text-answer]'), text);
  await page.click('[data-testid=answer-send]');
}


describe('typed answers in the live pages', () => {
  it('TM11 short text with the host reviewing an unsure answer, and a word cloud, on two phones and a desktop', async () => {
    const host = await open('host');
    const code = await hostPastedRoom(host, app.url, {
      className: '단답형반',
      title: '단답과 단어 구름',
      items: ITEMS,
      configure: async (page) => {
        await page.uncheck('[data-testid=speed-bonus]');
      },
    });

    const [first, second, third] = [await open('phone'), await open('phone'), await open('desktop')];
    await join(first, code, '가람');
    await join(second, code, '나래');
    await join(third, code, '다온');
    await host.locator('[data-testid=player-item]').nth(2).waitFor();
    await host.click('[data-testid=start]');

    // 1. Short text: right, unsure (to the host's review), wrong.
    for (const page of [first, second, third]) await questionOpen(page, 1);
    expect(await axeViolations(first)).toEqual([]);
    await type(first, '중앙값');
    await fillBox(second.locator('[data-testid=text-answer]'), UNSURE);
    await second.press('[data-testid=text-answer]', 'Enter');
    await type(third, '평균');
    await first.locator('[data-testid=verdict][data-result=correct]').waitFor();
    expect(await first.locator('[data-testid=points]').textContent()).toBe('+1,000점');
    await second.locator('[data-testid=verdict][data-result=review]').waitFor();
    expect(await second.locator('[data-testid=verdict]').textContent()).toBe('선생님이 답을 확인하고 있어요');
    expect(await second.locator('[data-testid=points]').textContent()).toBe('+0점');
    expect(await axeViolations(second)).toEqual([]);
    await third.locator('[data-testid=verdict][data-result=wrong]').waitFor();
    expect(await third.locator('[data-testid=reveal-correct]').textContent()).toContain('중앙값');

    const row = host.locator('[data-testid=review-answer]');
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.locator('.review-text').textContent()).toBe(UNSURE);
    await host.locator('[data-testid=reveal-summary]', { hasText: '확인할 답 1개' }).waitFor();
    expect(await axeViolations(host)).toEqual([]);
    await row.locator('[data-testid=review-right]').click();
    await host.locator('[data-testid=review-answer][data-verdict=right]').waitFor();
    await second.locator('[data-testid=verdict][data-result=correct]').waitFor();
    expect(await second.locator('[data-testid=points]').textContent()).toBe('+1,000점');

    // 2. Word cloud: sized by count; markup stays text.
    await host.click('[data-testid=reveal-next]');
    await host.click('[data-testid=leaderboard-next]');
    for (const page of [first, second, third]) await questionOpen(page, 2);
    await type(first, '평균');
    await type(second, ' 평균 ');
    await type(third, MARKUP);
    await first.locator('[data-testid=verdict][data-result=poll]').waitFor();
    const words = host.locator('[data-testid=word-cloud] li');
    await expect.poll(() => words.count()).toBe(2);
    expect(await words.allTextContents()).toEqual(['평균', MARKUP]);
    expect(await words.first().getAttribute('data-count')).toBe('2');
    const sizes = await Promise.all([0, 1].map(async (index) => parseFloat(/font-size:\s*([\d.]+)rem/.exec((await words.nth(index).getAttribute('style')) ?? '')?.[1] ?? '0')));
    expect(sizes[0]!).toBeGreaterThan(sizes[1]!);
    expect(await host.locator('[data-testid=word-cloud] img').count()).toBe(0);
    await host.locator('[data-testid=reveal-summary]', { hasText: '단어 구름 · 3명 응답' }).waitFor();
    expect(await host.locator('[data-testid=review-card]').isHidden()).toBe(true);
    expect(await axeViolations(host)).toEqual([]);
  });
});
