import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SessionSnapshot as Snapshot } from '../../src/protocol/wire/tutor.js';
import { fillBox, launchBrowser, setRange } from '../support/browser.js';
import { connected, startTestApp, type TestApp } from '../support/test-app.js';

/** The classroom page in a real (headless Debian) chromium against the real app (memory store, offline model). */

let app: TestApp;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  app = await startTestApp();
  await app.materials.preloadSample();
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

/** Browser globals used inside page functions (the project compiles without DOM types). */
interface PageGlobals {
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document: { querySelectorAll(selector: string): Iterable<{ textContent: string | null; source?: string }> };
}

/** Everything the page shows as lecture text (not questions or replies), in order. */
const lectureText = (page: Page) =>
  page.$$eval('[data-testid=lecture-text]', (blocks) => blocks.map((block) => block.textContent ?? '').join('\n'));

const storedSession = (page: Page) =>
  page.evaluate(
    () => JSON.parse((globalThis as unknown as PageGlobals).sessionStorage.getItem('lectern.classroom') ?? 'null') as { sessionId: string; token: string; lastSeq: number } | null,
  );

describe('classroom page', () => {
  it('LO5 streams the sample lecture (its chapter title shown once), takes an answer, shows the verdict, and resumes after a reload', async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== app.url) foreign.push(request.url());
    });
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).host !== new URL(app.url).host) foreign.push(socket.url());
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });

    // Choose the sample, a nickname, start.
    await page.goto(`${app.url}/classroom.html`);
    await page.locator('[data-testid=material-option]', { hasText: '기초 통계' }).click();
    await fillBox(page.locator('[data-testid=nickname]'), '민지');
    await page.click('[data-testid=start]');
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    // The slowest pace (one piece a second) keeps the first question tens of seconds away while the test pauses and
    // resumes, however slow the machine: at the default 25 a second a loaded run reached it first.
    await setRange(page, '[data-testid=speed]', 1);
    await page.locator('[data-testid=chapter][data-chapter="0"]', { hasText: '평균의 의미' }).waitFor();
    expect(await page.locator('[data-testid=progress-label]').textContent()).toContain('1/3장');

    // The text streams in and grows.
    await page.locator('[data-testid=lecture-text]').first().waitFor();
    const early = (await lectureText(page)).length;
    await page.waitForFunction(
      (length) =>
        [...(globalThis as unknown as PageGlobals).document.querySelectorAll('[data-testid=lecture-text]')].map((block) => block.textContent).join('\n').length > length,
      early,
    );

    // Pause and resume.
    await page.click('[data-testid=pause]');
    await page.locator('[data-testid=lecture][data-phase=paused]').waitFor();
    expect(await page.locator('[data-testid=pause]').textContent()).toBe('계속');
    await page.click('[data-testid=pause]');
    await page.locator('[data-testid=lecture][data-phase=streaming]').waitFor();

    // Full speed keeps the test short.
    await setRange(page, '[data-testid=speed]', 200);
    expect(await page.locator('[data-testid=speed-value]').textContent()).toBe('200');

    // The first question: answer it (vaguely, so the tutor takes the remediation path).
    const question = page.locator('[data-testid=question-card][data-kind=question]').first();
    await question.locator('[data-testid=answer-input]').waitFor();
    // The chapter's title is shown once, in its head: the lecture's own "# 평균의 의미" is not repeated below it.
    const firstChapter = page.locator('[data-testid=chapter][data-chapter="0"]');
    expect(await firstChapter.locator('h1, h2, h3', { hasText: /^평균의 의미$/u }).count()).toBe(1);
    expect(await firstChapter.locator('[data-testid=lecture-text]').first().textContent()).not.toContain('평균의 의미');
    expect(await question.locator('.qcard-text').textContent()).toContain('평균');
    await fillBox(question.locator('[data-testid=answer-input]'), '잘 모르겠어요');
    await question.locator('[data-testid=answer-submit]').click();
    await question.locator('[data-testid=answer]', { hasText: '잘 모르겠어요' }).waitFor();
    await question.locator('[data-testid=verdict][data-verdict=bad]', { hasText: '다시 살펴봐요' }).waitFor();
    expect(await question.locator('[data-testid=answer-input]').count()).toBe(0);

    // Remediation: the first subconcept is asked, with its concept and "1/N"; the session now waits for it.
    const subquestion = page.locator('[data-testid=question-card][data-kind=subquestion]').first();
    await subquestion.locator('[data-testid=answer-input]').waitFor();
    expect(await subquestion.locator('.qcard-label').textContent()).toMatch(/^개념 점검 1\/[23]$/);
    const subquestionText = await subquestion.textContent();
    const before = await lectureText(page);
    const stored = await storedSession(page);
    expect(stored?.lastSeq).toBeGreaterThan(0);

    // Reload: the same session comes back from the snapshot, with the same text and the answered question.
    await page.reload();
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    const resumedSub = page.locator('[data-testid=question-card][data-kind=subquestion][data-state=pending]');
    await resumedSub.locator('[data-testid=answer-input]').waitFor();
    expect(await resumedSub.textContent()).toBe(subquestionText);
    expect((await storedSession(page))?.sessionId).toBe(stored?.sessionId);
    const after = await lectureText(page);
    expect(after.startsWith(before)).toBe(true);
    expect(after).toBe(before);
    const answered = page.locator('[data-testid=question-card][data-kind=question]');
    expect(await answered.count()).toBe(1);
    expect(await answered.getAttribute('data-state')).toBe('answered');
    expect(await answered.locator('[data-testid=answer-input]').count()).toBe(0);
    expect(await answered.locator('[data-testid=answer]').textContent()).toContain('잘 모르겠어요');
    expect(await answered.locator('[data-testid=verdict]').textContent()).toContain('다시 살펴봐요');
    expect(await page.locator('[data-testid=speed-value]').textContent()).toBe('200');

    // The dialogue goes on from the reloaded page, and survives a network drop.
    await fillBox(resumedSub.locator('[data-testid=answer-input]'), '잘 모르겠어요');
    await resumedSub.locator('[data-testid=answer-submit]').click();
    await page.locator('[data-testid=question-card][data-kind=subquestion]').first().locator('[data-testid=verdict]').waitFor();
    for (const socket of app.server.io.of('/tutor').sockets.values()) socket.conn.close();
    await page.locator('[data-testid=connection][data-state=reconnecting]').waitFor();
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    const next = page.locator('[data-testid=question-card][data-state=pending]');
    await next.locator('[data-testid=answer-input]').waitFor();
    expect(await next.getAttribute('data-kind')).toBe('subquestion');

    // What the page shows is exactly what the server says was shown: no gaps, no duplicates.
    const shown = await page.evaluate(() => {
      const { document } = globalThis as unknown as PageGlobals;
      return {
        text: [...document.querySelectorAll('[data-testid=lecture-text]')].map((block) => block.source ?? '').join(''),
        replies: [...document.querySelectorAll('[data-testid=reply-text]')].map((block) => block.source ?? ''),
        cards: [...document.querySelectorAll('[data-testid=question-card]')].length,
      };
    });
    const probe = app.socket('/tutor', { token: stored?.token ?? '' });
    const snapshot = new Promise<{ state: Snapshot }>((resolve) => probe.once('session:state', resolve));
    await connected(probe);
    await probe.emitWithAck('session:resume', { lastSeq: 0 });
    const { state } = await snapshot;
    probe.disconnect();
    expect(shown.text).toBe(state.chapters.map((chapter) => chapter.text).join(''));
    expect(shown.replies).toEqual(state.transcript.filter((item) => item.type === 'reply').map((item) => item.text));
    expect(shown.cards).toBe(state.transcript.filter((item) => item.type === 'question' || item.type === 'subquestion').length);

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('SC3 H13: a raised hand that names nothing is offered the chapter\'s concepts; a click asks about one, explained with its sources', async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    await page.goto(`${app.url}/classroom.html`);
    await page.locator('[data-testid=material-option]', { hasText: '기초 통계' }).click();
    await fillBox(page.locator('[data-testid=nickname]'), '서연');
    await page.click('[data-testid=start]');
    await page.locator('[data-testid=lecture-text]').first().waitFor();

    await page.click('[data-testid=raise-hand]');
    await page.locator('[data-testid=hand-input]').waitFor({ state: 'visible' });
    await fillBox(page.locator('[data-testid=hand-input]'), '잘 모르겠어요');
    await page.click('[data-testid=hand-send]');
    const choice = page.locator('[data-testid=hand-choice]', { hasText: '표본평균' });
    await choice.waitFor();
    expect(await page.locator('[data-testid=hand-choice]').allTextContents()).toContain('모평균');
    await choice.click();
    await page.locator('[data-testid=hand-student]', { hasText: '표본평균' }).waitFor();
    await page.locator('[data-testid=hand-check][data-state=pending]').waitFor();
    expect(await page.locator('[data-testid=hand-choice]:enabled').count()).toBe(0);
    // The explanation names where it comes from: the current chapter first (chapter 1, pages 2–4 of the sample; its
    // cover, page 1, is front matter and never a source).
    const sources = await page.locator('#hand-panel [data-testid=reply] [data-testid=reply-sources]').first().textContent();
    expect(sources).toMatch(/^출처: 1장 「평균의 의미」 p\.2–4/u);
    expect(problems).toEqual([]);
  });

  it('shows why a session cannot be resumed and lets the student start over', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${app.url}/classroom.html`);
    await page.evaluate(() =>
      (globalThis as unknown as PageGlobals).sessionStorage.setItem(
        'lectern.classroom',
        JSON.stringify({ sessionId: 'x', token: 'not-a-token', lastSeq: 3, started: true, nickname: '민지', material: { id: 'm', title: '기초 통계', chapters: [] } }),
      ),
    );
    await page.reload();
    await page.locator('[data-testid=session-error]', { hasText: '다시 들어갈 수 없습니다' }).waitFor();
    expect(await page.locator('[data-testid=connection]').getAttribute('data-state')).toBe('offline');
    await page.getByRole('button', { name: '새로 시작' }).click();
    await page.locator('[data-testid=material-option]', { hasText: '기초 통계' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).sessionStorage.getItem('lectern.classroom'))).toBeNull();
  });
});
