/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - KX1 — Math in quiz items. Quiz items with LaTeX in `$…$` are typeset by the bundled KaTeX wherever an item
 *   appears in a live room (host question, choices and reveal explanation; player question …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * KX1 (test/SPEC.md): quiz items with LaTeX (`$…$`, what math problems are written in) are rendered by KaTeX — bundled
 * and served by the app, never a CDN — wherever an item appears in a live room: the host's question and choices, the
 * player's question and choice buttons, the reveal's explanation on both, and the player's result. Markup in an item
 * stays text.
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

const ITEM = {
  question: '$X$가 1, 2, 3을 같은 확률로 가질 때 $E[X]$는? <b>굵게</b>',
  choices: ['$1$', '$2$', '$\\frac{5}{2}$', '$\\sqrt{9}$'],
  answer: 1,
  explanation: '$E[X] = \\frac{1+2+3}{3} = 2$ 입니다.',
  difficulty: 'easy',
};

async function open(name: string, foreign: string[], phone: boolean): Promise<Page> {
  const context = await browser.newContext(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  if (!phone) await signInContext(context, app);
  const page = await context.newPage();
  const origin = new URL(app.url).origin;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:') foreign.push(`${name}: ${request.url()}`);
  });
  return page;
}

/** How many KaTeX formulas an element holds (the `.katex` spans auto-render writes). */
const formulas = (page: Page, selector: string) => page.locator(`${selector} .katex`).count();

describe('math in live quiz pages', () => {
  it('KX1 host and player render the LaTeX of question, choices and explanation with the bundled KaTeX', async () => {
    const foreign: string[] = [];
    const host = await open('host', foreign, false);
    await host.goto(`${app.url}/monitor.html`);
    await fillBox(host.locator('[data-testid=class-name]'), '수학 퀴즈반');
    await host.click('[data-testid=create-class]');
    await host.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await host.click('[data-testid=quiz-room-new]');
    await host.waitForURL(/\/host\.html\?class=/);
    await host.click('[data-testid=paste-box] summary');
    await fillBox(host.locator('[data-testid=paste-title]'), '기댓값');
    await fillBox(host.locator('[data-testid=paste-items]'), JSON.stringify([ITEM]));
    await host.click('[data-testid=paste-save]');
    await host.locator('[data-testid=quiz-status]', { hasText: '저장했습니다' }).waitFor();
    await fillBox(host.locator('[data-testid=preview-seconds]'), '0');
    await host.click('[data-testid=create-room]');
    const code = host.locator('[data-testid=lobby] [data-testid=room-code]');
    await expect.poll(() => code.textContent()).toMatch(/^\d{6}$/);

    const phone = await open('phone', foreign, true);
    await phone.goto(`${app.url}/play.html?code=${(await code.textContent()) ?? ''}`);
    await fillBox(phone.locator('[data-testid=join-nickname]'), '민준');
    await phone.click('[data-testid=join-submit]');
    await phone.locator('[data-testid=play-lobby]').waitFor();
    await host.click('[data-testid=start]');

    await phone.locator('[data-testid=play-question-text] .katex').first().waitFor();
    await host.locator('[data-testid=question-screen] [data-testid=question-text] .katex').first().waitFor();
    // $X$ and $E[X]$ in the question, one formula per choice, on both screens; the tag in the question is text.
    expect(await formulas(phone, '[data-testid=play-question-text]')).toBe(2);
    expect(await formulas(host, '[data-testid=question-screen] [data-testid=question-text]')).toBe(2);
    expect(await formulas(phone, '[data-testid=answers] button')).toBe(4);
    expect(await formulas(host, '[data-testid=question-choices]')).toBe(4);
    expect(await phone.locator('[data-testid=play-question-text] b').count()).toBe(0);
    expect(await phone.locator('[data-testid=play-question-text]').textContent()).toContain('<b>굵게</b>');
    // The fraction is typeset (numerator over denominator), not left as backslash text.
    expect(await phone.locator('[data-testid=answers] button[data-choice="2"] .katex .mfrac').count()).toBe(1);
    // No `$` delimiter is left as text: the formula replaced it.
    expect(await phone.locator('[data-testid=answers] button[data-choice="2"]').textContent()).not.toContain('$');

    await phone.locator('[data-testid=answers] button[data-choice="2"]:enabled').click();
    await host.locator('[data-testid=reveal-screen]').waitFor();
    expect(await formulas(host, '[data-testid=reveal-explanation]')).toBe(1);
    await phone.locator('[data-testid=verdict][data-result=wrong]').waitFor();
    // The player's result names their choice and the correct one, both typeset.
    await expect.poll(() => formulas(phone, '[data-testid=play-reveal]')).toBeGreaterThanOrEqual(3);

    // KaTeX's stylesheet and fonts come from the app itself.
    expect(foreign).toEqual([]);
    expect(await phone.locator('link[rel=stylesheet][href="/vendor/katex/katex.min.css"]').count()).toBe(1);
    expect(await host.locator('link[rel=stylesheet][href="/vendor/katex/katex.min.css"]').count()).toBe(1);
  });
});
