/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MJ10 — The host page's job view. (`test/e2e/math-maker.e2e.test.ts`, real chromium, Gemini through the fake).
 * - MJ11 — Offline on the page. With the offline model the box shows the server's Korean `MODEL_NOT_CAPABLE` message
 *   and no attempt.
 * - MJ12 — 취소 on the page. 취소 sends `job:cancel`; the box says the job was cancelled, its socket closes and a new job
 *   can be started.
 * - MJ13 — Failure on the page. A job whose problems never all pass ends with the server's Korean error (… N문제 중
 *   n문제뿐) and "통과한 n문제는 아래에 있습니다", the incomplete set listed and its quiz offered.
 * - LB6 — Offline math said before. On the offline model the math box says why it cannot make problems and its start
 *   button is disabled, before any click.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUpAccount } from '../support/accounts.js';
import { fillBox, launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { uploadPdf } from '../support/data-flow.js';
import { samplePdfBytes } from '../support/lecture-client.js';
import { startMathGemini, type MathGemini } from '../support/math-gemini.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * MJ10 / KX2 (test/SPEC.md): the host page's "수학 문제 만들기" box in a real chromium against the real app, with Gemini
 * through the fake server (test/support/math-gemini.ts). The instructor starts a job of 3 problems (2 multiple choice),
 * watches attempt k/3 and passed n/N with every problem's verdict (the judge fails one problem in attempt 1, so attempt
 * 2 rewrites it), sees the finished set typeset, makes a quiz of it, hosts a room with it, and the host's and a phone's
 * question and choices are rendered by the bundled KaTeX. MJ11: with the offline model the box shows the server's
 * MODEL_NOT_CAPABLE message. MJ12: 취소 cancels the watched job. MJ13: a failed job shows its
 * Korean error and the problems that passed. Nothing is loaded from outside the app's origin.
 */

let browser: Browser;
const contexts: BrowserContext[] = [];
const stops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  for (const stop of stops.reverse()) await stop();
});

async function open(app: TestApp, name: string, foreign: string[], phone: boolean, account?: SignedUpAccount): Promise<Page> {
  const context = await browser.newContext(
    phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ko-KR' } : { viewport: { width: 1280, height: 900 }, locale: 'ko-KR' },
  );
  contexts.push(context);
  if (!phone) await signInContext(context, app, account);
  const page = await context.newPage();
  const origin = new URL(app.url).origin;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:') foreign.push(`${name}: ${request.url()}`);
  });
  return page;
}

/** Makes a class on the monitor page and follows its "퀴즈 방 만들기" to the host page. */
async function hostPageWithClass(page: Page, app: TestApp, name: string): Promise<void> {
  await page.goto(`${app.url}/monitor.html`);
  await fillBox(page.locator('[data-testid=class-name]'), name);
  await page.click('[data-testid=create-class]');
  await page.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
  await page.click('[data-testid=quiz-room-new]');
  await page.waitForURL(/\/host\.html\?class=/);
}

const formulas = (page: Page, selector: string) => page.locator(`${selector} .katex`).count();

describe('math problems from the host page', () => {
  it('MJ10 KX2 MS14 an instructor generates math problems, watches attempt and passed counts with per-problem verdicts, makes a quiz, shares the short answers with the class and hosts a room rendered in KaTeX', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The second problem written fails the judge: attempt 1 passes 2 of 3, attempt 2 rewrites that one.
    const math: MathGemini = await startMathGemini({ passes: (question) => !question.startsWith('문제 2호'), hold: (write) => (write === 1 ? gate : undefined) });
    stops.push(() => math.fake.close());
    const app = await startTestApp({ SIGNUP: 'open', GEMINI_API_KEY: 'test', GEMINI_BASE_URL: math.fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
    stops.push(() => app.stop());
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;

    const foreign: string[] = [];
    const host = await open(app, 'host', foreign, false, teacher);
    const errors: string[] = [];
    host.on('pageerror', (error) => errors.push(error.message));
    await hostPageWithClass(host, app, '확률 1반');

    await host.click('[data-testid=math-box] summary');
    await host.getByTestId('math-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await host.selectOption('[data-testid=math-material]', materialId);
    await fillBox(host.locator('[data-testid=math-count]'), '3');
    await fillBox(host.locator('[data-testid=math-choices]'), '2');
    await host.selectOption('[data-testid=math-difficulty]', 'easy');
    // Every control of the box is a finger's size.
    for (const testId of ['math-start', 'math-count', 'math-choices', 'math-difficulty', 'math-material']) {
      expect((await host.getByTestId(testId).boundingBox())?.height ?? 0, testId).toBeGreaterThanOrEqual(44);
    }
    await host.getByTestId('math-start').click();
    await host.locator('[data-testid=math-box][data-socket=connected]').waitFor();
    release();

    // Attempt 1: two passed, the second problem 미통과 with its four scores and the judge's feedback.
    const first = host.locator('[data-testid=math-attempt][data-attempt="1"]');
    await first.waitFor();
    expect(await first.locator('h4').textContent()).toBe('시도 1: 3문제 중 2문제 통과');
    expect(await first.getByTestId('math-verdict').allTextContents()).toEqual(['통과', '미통과', '통과']);
    const failed = first.getByTestId('math-item').nth(1);
    expect(await failed.getByTestId('math-scores').textContent()).toBe('수학적 정확성 4/5일관성 2/5완전성 4/5논리 흐름 4/5');
    expect(await failed.getByTestId('math-feedback').textContent()).toBe('풀이의 답과 정답이 다릅니다.');
    // The questions are typeset ($X$ and $E[X]$).
    expect(await formulas(host, '[data-testid=math-attempt][data-attempt="1"] [data-testid=math-question]')).toBe(6);

    // Attempt 2 rewrites the one that failed; the job then ends with the set.
    const second = host.locator('[data-testid=math-attempt][data-attempt="2"]');
    await second.waitFor();
    expect(await second.getByTestId('math-verdict').allTextContents()).toEqual(['통과']);
    await expect.poll(() => host.getByTestId('math-progress').textContent()).toBe('시도 2/3 · 통과 3/3');
    await expect.poll(() => host.getByTestId('math-status').textContent()).toBe('수학 문제 3개를 만들었습니다. 아래에서 확인하고 퀴즈로 만들 수 있어요.');
    await host.locator('[data-testid=math-box][data-socket=closed]').waitFor();
    expect(await host.getByTestId('math-cancel').isVisible()).toBe(false);

    // The finished set: three problems, multiple choice first, with choices, answer and explanation typeset.
    const problems = host.getByTestId('math-problem');
    await expect.poll(() => problems.count()).toBe(3);
    expect(await problems.nth(0).getByTestId('math-problem-question').textContent()).toContain('문제 1호');
    expect(await formulas(host, '[data-testid=math-problem]:nth-child(1) [data-testid=math-problem-choices]')).toBe(4);
    expect(await host.locator('[data-testid=math-problem]:nth-child(1) [data-testid=math-problem-choices] .katex .mfrac').count()).toBe(1);
    expect(await host.locator('[data-testid=math-problem]:nth-child(1) [data-testid=math-problem-answer]').textContent()).toBe('정답: B');
    expect(await formulas(host, '[data-testid=math-problem]:nth-child(1) [data-testid=math-problem-explanation]')).toBe(2);
    expect(await problems.nth(2).getByTestId('math-problem-choices').count()).toBe(0);
    expect(await formulas(host, '[data-testid=math-problem]:nth-child(3) [data-testid=math-problem-answer]')).toBe(1);

    // "퀴즈로 만들기" picks the new quiz (its two multiple-choice problems) for "방 만들기".
    await host.getByTestId('math-quiz').click();
    await expect.poll(() => host.getByTestId('math-status').textContent()).toMatch(/퀴즈를 만들었습니다 \(객관식 2문제\)/u);
    await expect.poll(() => host.locator('[data-testid=quiz-select] option:checked').textContent()).toMatch(/\(2문제\)$/u);

    // "수업에 공유" gives the set's short-answer problem to the selected class (its students' 수학 문제 풀기).
    expect((await host.getByTestId('math-share').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await host.getByTestId('math-share').click();
    await expect.poll(() => host.getByTestId('math-status').textContent()).toBe('수업에 공유했습니다. 학생들은 강의실의 "수학 문제 풀기"에서 단답형 1문제를 풀 수 있어요.');

    await fillBox(host.locator('[data-testid=preview-seconds]'), '0');
    await host.click('[data-testid=create-room]');
    const code = host.locator('[data-testid=lobby] [data-testid=room-code]');
    await expect.poll(() => code.textContent()).toMatch(/^\d{6}$/);

    const phone = await open(app, 'phone', foreign, true);
    await phone.goto(`${app.url}/play.html?code=${(await code.textContent()) ?? ''}`);
    await fillBox(phone.locator('[data-testid=join-nickname]'), '서연');
    await phone.click('[data-testid=join-submit]');
    await phone.locator('[data-testid=play-lobby]').waitFor();
    await host.click('[data-testid=start]');

    await phone.locator('[data-testid=play-question-text] .katex').first().waitFor();
    await host.locator('[data-testid=question-screen] [data-testid=question-text] .katex').first().waitFor();
    expect(await phone.locator('[data-testid=play-question-text]').textContent()).toContain('문제 1호');
    expect(await formulas(phone, '[data-testid=play-question-text]')).toBe(2);
    expect(await formulas(host, '[data-testid=question-screen] [data-testid=question-text]')).toBe(2);
    expect(await formulas(phone, '[data-testid=answers] button')).toBe(4);
    expect(await formulas(host, '[data-testid=question-choices]')).toBe(4);

    expect(errors).toEqual([]);
    expect(foreign).toEqual([]);
  });

  it('MJ12 취소 cancels the job being watched: the box says so and closes its socket', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const math = await startMathGemini({ hold: () => gate });
    stops.push(() => math.fake.close());
    const app = await startTestApp({ SIGNUP: 'open', GEMINI_API_KEY: 'test', GEMINI_BASE_URL: math.fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
    stops.push(() => app.stop());
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const host = await open(app, 'host', [], false, teacher);
    await hostPageWithClass(host, app, '취소 반');
    await host.click('[data-testid=math-box] summary');
    await host.getByTestId('math-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await host.getByTestId('math-start').click();
    await host.locator('[data-testid=math-box][data-socket=connected]').waitFor();
    await expect.poll(() => math.writes().length).toBe(1);
    await host.getByTestId('math-cancel').click();
    await expect.poll(() => host.getByTestId('math-status').textContent()).toMatch(/^문제 만들기를 취소했습니다\./u);
    await host.locator('[data-testid=math-box][data-socket=closed]').waitFor();
    expect(await host.getByTestId('math-start').isEnabled()).toBe(true);
    release();
  });

  it('MJ13 a job that fails after three attempts shows the Korean error and the problems that passed', async () => {
    // The short-answer problem never passes: attempts 1–3 each fail it, the multiple-choice one passed in attempt 1.
    const math = await startMathGemini({ question: (n, type) => `문제 ${n}호 ${type === 'short_answer' ? '[약함]' : ''}: $E[X]$는?`, passes: (question) => !question.includes('[약함]') });
    stops.push(() => math.fake.close());
    const app = await startTestApp({ SIGNUP: 'open', GEMINI_API_KEY: 'test', GEMINI_BASE_URL: math.fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
    stops.push(() => app.stop());
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const host = await open(app, 'host', [], false, teacher);
    await hostPageWithClass(host, app, '실패 반');
    await host.click('[data-testid=math-box] summary');
    await host.getByTestId('math-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await fillBox(host.locator('[data-testid=math-count]'), '2');
    await fillBox(host.locator('[data-testid=math-choices]'), '1');
    await host.getByTestId('math-start').click();
    await expect.poll(() => host.getByTestId('math-status').textContent()).toMatch(/2문제 중 1문제뿐.* 통과한 1문제는 아래에 있습니다\.$/u);
    expect(await host.getByTestId('math-status').getAttribute('class')).toContain('error');
    await expect.poll(() => host.getByTestId('math-problem').count()).toBe(1);
    expect(await host.getByTestId('math-problem-question').textContent()).toContain('문제 1호');
    expect(await host.getByTestId('math-quiz').isVisible()).toBe(true);
    expect(await host.getByTestId('math-start').isEnabled()).toBe(true);
  });

  it('MJ11 LB6 with the offline model the box says before anything that it cannot make math problems, and its start button is disabled', async () => {
    const app = await startTestApp();
    stops.push(() => app.stop());
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const foreign: string[] = [];
    const host = await open(app, 'host', foreign, false, teacher);
    await hostPageWithClass(host, app, '오프라인 반');
    await host.click('[data-testid=math-box] summary');
    await host.getByTestId('math-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await host.getByTestId('math-offline').waitFor();
    expect(await host.getByTestId('math-offline').textContent()).toMatch(/오프라인 모드.*수학 문제를 만들 수 없습니다/u);
    expect(await host.getByTestId('math-start').isDisabled()).toBe(true);
    expect(await host.getByTestId('math-start').getAttribute('aria-describedby')).toBe('math-offline');
    expect(await host.getByTestId('math-status').textContent()).toBe('');
    expect(await host.getByTestId('math-attempt').count()).toBe(0);
    expect(await host.getByTestId('math-cancel').isVisible()).toBe(false);
    expect(foreign).toEqual([]);
  });
});
