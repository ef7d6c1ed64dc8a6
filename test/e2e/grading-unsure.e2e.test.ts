/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GR15 — In the browser. (`test/e2e/grading-unsure.e2e.test.ts`). The classroom page shows an unsure verdict as the
 *   tutor's doubt, the model answer and 비슷하게 답했어요 / 다시 볼래요; the choice shows as the student's own comparison, also
 *   after a reload.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser, setRange } from '../support/browser.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GR15 (test/SPEC.md, "Grading: …"): the unsure lecture verdict in the classroom page (Debian chromium through
 * playwright-core, the offline tutor on the sample material): the tutor says it is not sure, shows the model answer
 * and the two choices; a click records the student's own comparison, shown as such, and a reload shows the same.
 */

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

describe('classroom page, unsure verdict', () => {
  it('GR15 an unsure answer shows the model answer with 비슷하게 답했어요 / 다시 볼래요; the choice is shown as the student\'s own comparison, after a reload too', async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    await page.goto(`${app.url}/classroom.html`);
    await page.locator('[data-testid=material-option]', { hasText: '기초 통계' }).click();
    await fillBox(page.locator('[data-testid=nickname]'), '하늘');
    await page.click('[data-testid=start]');
    await page.locator('[data-testid=connection][data-state=connected]').waitFor();
    await setRange(page, '[data-testid=speed]', 200);

    const question = page.locator('[data-testid=question-card][data-kind=question]').first();
    await question.locator('[data-testid=answer-input]').waitFor();
    expect(await question.locator('.qcard-text').textContent()).toContain('평균');
    await fillBox(question.locator('[data-testid=answer-input]'), '자료를 대표하는 가운데 값이에요.');
    await question.locator('[data-testid=answer-submit]').click();

    const unsure = question.locator('[data-testid=unsure]');
    await unsure.waitFor();
    expect(await unsure.textContent()).toContain('확실하게 판단하기 어려워요');
    expect(await unsure.locator('[data-testid=unsure-model-answer]').textContent()).toContain('개수로 나눈');
    expect(await unsure.locator('[data-testid=self-assess-similar]').textContent()).toBe('비슷하게 답했어요');
    expect(await unsure.locator('[data-testid=self-assess-review]').textContent()).toBe('다시 볼래요');
    // No verdict is shown before the choice.
    expect(await question.locator('[data-testid=verdict][data-verdict]').count()).toBe(0);

    await unsure.locator('[data-testid=self-assess-similar]').click();
    const verdict = question.locator('[data-testid=verdict][data-verdict=good]');
    await verdict.waitFor();
    expect(await verdict.textContent()).toContain('스스로 비교');

    await page.reload();
    const restored = page.locator('[data-testid=question-card][data-kind=question]').first().locator('[data-testid=verdict][data-verdict=good]');
    await restored.waitFor();
    expect(await restored.textContent()).toContain('스스로 비교');
    expect(problems).toEqual([]);
  });
});
