/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM4 — Played in the pages. Two phones (390×844) and a desktop play O/X and poll by tapping, multiple correct by
 *   toggles and a send button, ordering with ▲/▼ buttons by keyboard only, numeric typed with its unit; verdicts (정답,
 *   부분 정답 n%, 오답, poll thanks), points without speed bonus, and the projector's summary per type are right
 *   (`test/e2e/quiz-types.e2e.test.ts`).
 * - TM5 — Accessible play. The player and projector pages say each question's opening (with how its type is
 *   answered), each result and each board in one polite live region (`#announcer`); multi, ordering and numeric are
 *   answered by keyboard alone; with reduced motion the screens do not animate; axe-core (WCAG 2.1 A/AA) finds no
 *   violation on either page in the lobby, on each type's question and at each reveal (yellow tiles carry dark ink; a
 *   reveal fades wrong choices by colour, not opacity).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { axeViolations, hostPastedRoom } from '../support/quiz-pages.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * TM4 (test/SPEC.md): the question types played in the real pages by several players at once — two phones (390×844)
 * and a desktop — with the room's speed bonus off: O/X and poll by tapping, multiple correct by toggles and a send
 * button, ordering with the ▲/▼ buttons driven by the keyboard, numeric typed with its unit. Each player's verdict and
 * points, and the projector's summary of each type, are checked.
 */

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

const base = { explanation: '해설입니다.', difficulty: 'easy' };
const ITEMS = [
  { ...base, type: 'truefalse', question: '중앙값은 이상값에 덜 민감하다.', answer: true },
  { ...base, type: 'multi', question: '대푯값을 모두 고르세요.', choices: ['평균', '중앙값', '분산', '최빈값'], answers: [0, 1, 3] },
  { ...base, type: 'ordering', question: '가설 검정의 순서는?', steps: ['가설 세우기', '유의수준 정하기', '검정통계량 계산', '결론 내리기'] },
  { ...base, type: 'numeric', question: '서울–부산 거리는 약 몇 km?', answer: 325, tolerance: 25, range: 125, unit: 'km' },
  { ...base, type: 'poll', question: '오늘 수업은?', explanation: '', choices: ['쉬웠다', '적당했다', '어려웠다'] },
];

async function open(kind: 'host' | 'phone' | 'desktop', reducedMotion: 'reduce' | 'no-preference' = 'no-preference'): Promise<Page> {
  const context = await browser.newContext(
    // bypassCSP only lets the test inject axe-core (an inline script the pages' CSP rightly refuses).
    kind === 'phone'
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, reducedMotion, bypassCSP: true }
      : { viewport: { width: 1280, height: 900 }, reducedMotion, bypassCSP: true },
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

/** Waits until the player's question `n` (1-based) is open for answers. */
async function questionOpen(page: Page, n: number): Promise<void> {
  await page.locator('[data-testid=play-question-text]', { hasText: ITEMS[n - 1]!.question }).waitFor();
  await page.locator('[data-testid=answers] button:enabled, [data-testid=answers] input:enabled').first().waitFor();
}

/** The step list as the player sees it now. */
const steps = (page: Page) => page.locator('[data-testid=ordering] .ordering-text').allTextContents();

/** Puts the ordering list in `wanted` order with the keyboard only (focus a ▲ button, press Enter). */
async function arrange(page: Page, wanted: string[]): Promise<void> {
  for (let target = 0; target < wanted.length; target += 1) {
    for (;;) {
      const current = await steps(page);
      const at = current.indexOf(wanted[target]!);
      if (at === target) break;
      await page.locator('[data-testid=ordering] li').nth(at).locator('[data-testid=ordering-up]').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => steps(page).then((now) => now.indexOf(wanted[target]!))).toBe(at - 1);
    }
  }
}


async function hostRoom(items: unknown[], title: string): Promise<{ host: Page; code: string }> {
  const host = await open('host', 'reduce');
  return { host, code: await hostPastedRoom(host, app.url, { className: `${title}반`, title, items }) };
}

describe('question types in the live pages', () => {
  it('TM4 O/X, multiple correct, ordering (keyboard), numeric with unit and poll on two phones and a desktop, without speed bonus', async () => {
    const host = await open('host');
    const code = await hostPastedRoom(host, app.url, {
      className: '유형 퀴즈반',
      title: '여러 유형',
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

    // 1. O/X: 참 and 거짓 are the two buttons.
    for (const page of [first, second, third]) await questionOpen(page, 1);
    expect(await first.locator('[data-testid=answers] button').allTextContents()).toEqual(['▲참', '◆거짓']);
    await first.locator('[data-testid=answers] button[data-choice="0"]').click();
    await second.locator('[data-testid=answers] button[data-choice="1"]').click();
    await third.locator('[data-testid=answers] button[data-choice="0"]').click();
    await first.locator('[data-testid=verdict][data-result=correct]').waitFor();
    await second.locator('[data-testid=verdict][data-result=wrong]').waitFor();
    expect(await first.locator('[data-testid=points]').textContent()).toBe('+1,000점');
    await host.locator('[data-testid=reveal-summary]', { hasText: '정답 2명' }).waitFor();

    // 2. Multi: toggles, then send; two of three right is partial (667), all three is 1000.
    await host.click('[data-testid=reveal-next]');
    await host.click('[data-testid=leaderboard-next]');
    for (const page of [first, second, third]) await questionOpen(page, 2);
    for (const choice of [0, 1, 3]) await first.locator(`[data-testid=answers] button[data-choice="${choice}"]`).click();
    await expect.poll(() => first.locator('[data-testid=answers] button[aria-pressed=true]').count()).toBe(3);
    await first.click('[data-testid=answer-send]');
    for (const choice of [0, 1]) await second.locator(`[data-testid=answers] button[data-choice="${choice}"]`).click();
    await second.click('[data-testid=answer-send]');
    await third.locator('[data-testid=answers] button[data-choice="2"]').click();
    await third.click('[data-testid=answer-send]');
    await second.locator('[data-testid=verdict][data-result=partial]').waitFor();
    expect(await second.locator('[data-testid=verdict]').textContent()).toBe('부분 정답 (67%)');
    expect(await second.locator('[data-testid=points]').textContent()).toBe('+667점');
    await first.locator('[data-testid=verdict][data-result=correct]').waitFor();
    await third.locator('[data-testid=verdict][data-result=wrong]').waitFor();

    // 3. Ordering by keyboard on a phone: the right order is full marks; the desktop player sends the shown order.
    await host.click('[data-testid=reveal-next]');
    await host.click('[data-testid=leaderboard-next]');
    for (const page of [first, second, third]) await questionOpen(page, 3);
    const right = (ITEMS[2] as { steps: string[] }).steps;
    expect(await steps(first)).not.toEqual(right);
    await arrange(first, right);
    await first.click('[data-testid=answer-send]');
    await arrange(second, [right[0]!, right[1]!, right[3]!, right[2]!]);
    await second.click('[data-testid=answer-send]');
    await third.click('[data-testid=answer-send]');
    await first.locator('[data-testid=verdict][data-result=correct]').waitFor();
    await second.locator('[data-testid=verdict][data-result=partial]').waitFor();
    expect(await second.locator('[data-testid=points]').textContent()).toBe('+833점');
    await host.locator('[data-testid=reveal-summary]', { hasText: `정답 순서: ${right.join(' → ')}` }).waitFor();

    // 4. Numeric with its unit.
    await host.click('[data-testid=reveal-next]');
    await host.click('[data-testid=leaderboard-next]');
    for (const page of [first, second, third]) await questionOpen(page, 4);
    await fillBox(first.locator('[data-testid=numeric-answer]'), '340 km');
    await first.press('[data-testid=numeric-answer]', 'Enter');
    await fillBox(second.locator('[data-testid=numeric-answer]'), '375');
    await second.click('[data-testid=answer-send]');
    await fillBox(third.locator('[data-testid=numeric-answer]'), '1000');
    await third.click('[data-testid=answer-send]');
    await first.locator('[data-testid=verdict][data-result=correct]').waitFor();
    expect(await second.locator('[data-testid=points]').textContent()).toBe('+750점');
    await third.locator('[data-testid=verdict][data-result=wrong]').waitFor();
    await host.locator('[data-testid=reveal-summary]', { hasText: '정답 325 km' }).waitFor();

    // 5. Poll: no right answer, no points.
    await host.click('[data-testid=reveal-next]');
    await host.click('[data-testid=leaderboard-next]');
    for (const page of [first, second, third]) await questionOpen(page, 5);
    for (const page of [first, second, third]) await page.locator('[data-testid=answers] button[data-choice="1"]').click();
    await first.locator('[data-testid=verdict][data-result=poll]').waitFor();
    expect(await first.locator('[data-testid=points]').textContent()).toBe('+0점');
    await host.locator('[data-testid=reveal-summary]', { hasText: '설문 · 3명 응답' }).waitFor();
    expect(await host.locator('[data-testid=dist-row][data-choice="1"]').getAttribute('data-count')).toBe('3');
  });

  it('TM5 player and projector announce phases and results in a live region, honour reduced motion, and pass axe on every type', async () => {
    const { host, code } = await hostRoom([ITEMS[1], ITEMS[2], ITEMS[3]], '접근성');
    const phone = await open('phone', 'reduce');
    await join(phone, code, '라온');
    await host.locator('[data-testid=player-item]').first().waitFor();
    expect(await axeViolations(host)).toEqual([]);
    expect(await axeViolations(phone)).toEqual([]);
    await host.click('[data-testid=start]');

    const said = (page: Page) => page.locator('[data-testid=announcer]').textContent();
    const kinds = ['맞는 보기를 모두 고른 뒤 보내세요', '위로, 아래로 버튼으로 순서를 맞춘 뒤 보내세요', '수를 입력해 보내세요'];
    for (let q = 0; q < 3; q += 1) {
      await phone.locator('[data-testid=play-question-text]', { hasText: ITEMS[q + 1]!.question }).waitFor();
      await expect.poll(() => said(phone)).toContain(`문제 ${q + 1} / 3, ${kinds[q]}`);
      await expect.poll(() => said(host)).toContain(`문제 ${q + 1} / 3, 답을 받는 중`);
      expect(await axeViolations(phone)).toEqual([]);
      expect(await axeViolations(host)).toEqual([]);
      // Reduced motion: the screens do not animate.
      expect(await phone.evaluate(`getComputedStyle(document.querySelector('[data-testid=answers]').closest('.screen')).animationName`)).toBe('none');
      if (q === 0) {
        // Keyboard only: Tab to a choice, Space toggles it, then to the send button.
        await phone.locator('[data-testid=answers] button[data-choice="0"]').focus();
        await phone.keyboard.press('Space');
        await phone.locator('[data-testid=answer-send]').focus();
        await phone.keyboard.press('Enter');
      } else if (q === 1) {
        await phone.locator('[data-testid=answer-send]').focus();
        await phone.keyboard.press('Enter');
      } else {
        await phone.locator('[data-testid=numeric-answer]').focus();
        await phone.keyboard.type('310km');
        await phone.keyboard.press('Enter');
      }
      await phone.locator('[data-testid=play-reveal]').waitFor();
      await expect.poll(() => said(phone)).toMatch(new RegExp(`^문제 ${q + 1} 결과: `));
      await expect.poll(() => said(host)).toContain(`문제 ${q + 1} 정답 공개.`);
      expect(await axeViolations(phone)).toEqual([]);
      expect(await axeViolations(host)).toEqual([]);
      if (q < 2) {
        await host.click('[data-testid=reveal-next]');
        await expect.poll(() => said(phone)).toMatch(/^순위: 1명 중 /);
        await host.click('[data-testid=leaderboard-next]');
      }
    }
    expect(await said(phone)).toContain('정답!');
  });
});
