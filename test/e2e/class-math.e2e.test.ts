/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MS13 — In the classroom. A class student on a phone-sized classroom page sees the shared problem under 수학 문제 풀기
 *   (question typeset, no solution), answers `0.5` for `\frac{1}{2}` and sees 정답, 식이 같음 …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstructor } from '../support/accounts.js';
import { fillBox, launchBrowser } from '../support/browser.js';
import { createClass, postJson } from '../support/classroom-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * MS13 (test/SPEC.md): 수학 문제 풀기 in the classroom page, in a real (headless Debian) chromium against the real app
 * (memory store, offline model): the instructor shares a math set with the class, and a student on a phone-sized
 * page answers its short-answer problem and sees 정답, how it was decided and the answer typeset by KaTeX.
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

async function openPage(viewport: { width: number; height: number }, problems: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console ${message.text()}`);
  });
  return page;
}

describe('수학 문제 풀기', () => {
  it('MS13 a class student answers a shared short math problem on a phone and sees 정답 with the KaTeX-typeset answer', async () => {
    const problems: string[] = [];
    const material = await app.materials.preloadSample();
    const instructor = await defaultInstructor(app);
    const created = await createClass(app, { name: '수학 3반', materialId: material.id });
    const set = await app.mathSets.create({
      materialId: material.id,
      accountId: instructor.accountId,
      request: { count: 1, multipleChoice: 0 },
      problems: [
        {
          problemId: 'short-1',
          type: 'short_answer',
          question: '$\\frac{1}{4} + \\frac{1}{4}$의 값은?',
          correct_answer: '\\frac{1}{2}',
          explanation: '분모가 같으므로 $\\frac{1+1}{4} = \\frac{1}{2}$입니다.',
          final_answer: '\\frac{1}{2}',
          difficulty: 'easy',
          sources: [],
          judgement: { judged: true, passed: true, scores: null, feedback: '', model: 'judge', attempt: 1 },
        },
      ],
      rejected: [],
      attempts: 1,
      jobId: 'job',
      judgeModel: 'judge',
      complete: true,
    });
    const shared = await postJson(`${app.url}/api/math-sets/${set.setId}/share`, { classId: created.classId }, instructor.bearer);
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);

    const student = await openPage({ width: 390, height: 844 }, problems);
    await student.goto(`${app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '민지');
    await fillBox(student.locator('[data-testid=class-code]'), created.code);
    await student.click('[data-testid=join-class]');

    const panel = student.locator('[data-testid=class-math]');
    await panel.getByRole('heading', { name: '수학 문제 풀기' }).waitFor();
    const item = panel.locator('[data-testid=class-math-problem]');
    expect(await item.count()).toBe(1);
    // The question is typeset; the answer is nowhere before an answer.
    expect(await item.locator('[data-testid=class-math-question] .katex').count()).toBeGreaterThan(0);
    expect(await panel.textContent()).not.toContain('분모가 같으므로');
    const input = item.locator('[data-testid=class-math-input]');
    expect(await input.getAttribute('placeholder')).toContain('1/2');

    await fillBox(input, '0.5');
    const submit = item.locator('[data-testid=class-math-submit]');
    const box = await submit.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
    await submit.click();
    await expect.poll(() => item.locator('[data-testid=class-math-verdict]').textContent()).toBe('정답');
    expect(await item.locator('[data-testid=class-math-method]').textContent()).toContain('식이 같음');
    expect(await item.locator('[data-testid=class-math-answer] .katex').count()).toBe(1);
    expect(await item.locator('[data-testid=class-math-explanation]').textContent()).toContain('분모가 같으므로');

    // A wrong answer afterwards is 오답, and the first answer stays recorded.
    await fillBox(input, '1/3');
    await submit.click();
    await expect.poll(() => item.locator('[data-testid=class-math-verdict]').textContent()).toBe('오답');
    expect(await item.locator('[data-testid=class-math-first]').textContent()).toContain('정답으로 기록');
    expect(problems).toEqual([]);
  });
});
