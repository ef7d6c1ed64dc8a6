/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SS9 — 혼자 퀴즈 풀기 in the classroom. After a chapter ends the page offers "혼자 퀴즈 풀기" for that chapter; it shows the
 *   items one at a time with four choices (tap targets ≥ 44 px on a phone-width page) …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser, setRange } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { chapterGenerated, generatedChapter } from '../support/lecture-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { quizKeys } from '../../src/quiz/quiz-keys.js';

/**
 * SS9 (test/SPEC.md): 혼자 퀴즈 풀기 in the classroom page, in a real (headless Debian) chromium against the real app
 * (memory store, offline model): a class student on a phone-sized page finishes chapter 1 of the sample, takes the
 * self-study quiz on it through seed 001's API, and the instructor's monitor shows the score.
 */

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp();
  await app.materials.preloadSample();
  browser = await launchBrowser();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** Set LECTERN_SCREENSHOTS=1 to write /tmp/self-quiz-*.png along the way. */
const SCREENSHOTS = process.env.LECTERN_SCREENSHOTS === '1';

interface PageGlobals {
  sessionStorage: { getItem(key: string): string | null };
}

async function openPage(viewport: { width: number; height: number }, problems: string[], name: string, instructor = false): Promise<Page> {
  const context = await browser.newContext({ viewport });
  if (instructor) await signInContext(context, app);
  contexts.push(context);
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${name}: HTTP ${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`${name}: pageerror ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${name}: console ${message.text()}`);
  });
  return page;
}

/**
 * What a student who studied the chapter would answer: the server's own offline model answer for a lecture
 * question, the subconcept's explanation for a subquestion (read from the session record).
 */
async function goodAnswer(page: Page, materialId: string, card: { questionId: string; text: string; sub: boolean }): Promise<string> {
  if (card.sub) {
    const sessionId = await page.evaluate(
      () => (JSON.parse((globalThis as unknown as PageGlobals).sessionStorage.getItem('lectern.classroom') ?? '{}') as { sessionId?: string }).sessionId ?? '',
    );
    const record = await app.lectures.repository.load(sessionId);
    const index = Number(/\.s(\d+)$/.exec(card.questionId)?.[1] ?? 1);
    const state = record?.state;
    const explanation = state?.kind === 'tutoring' ? state.subconcepts?.[index - 1]?.explanation : undefined;
    return (explanation ?? '모르겠어요').slice(0, 2000);
  }
  const chapter = Number(/^c(\d+)q/.exec(card.questionId)?.[1] ?? 0);
  await chapterGenerated(app, materialId, chapter);
  const lecture = (await generatedChapter(app, materialId, chapter)).text;
  const { modelAnswer } = await app.lectures.tutor.modelAnswer({ question: card.text, lecture });
  return modelAnswer.slice(0, 2000);
}

/** Answers every question of the lecture until chapter `chapter` is complete. */
async function finishChapter(page: Page, materialId: string, chapter: number): Promise<void> {
  const done = page.locator(`[data-testid=chapter][data-chapter="${chapter}"][data-state=complete]`);
  const pending = page.locator('[data-testid=question-card][data-state=pending]');
  for (let guard = 0; guard < 30; guard += 1) {
    await Promise.race([done.waitFor(), pending.locator('[data-testid=answer-input]').first().waitFor()]);
    if ((await done.count()) > 0) return;
    const card = pending.first();
    const questionId = (await card.getAttribute('data-question-id')) ?? '';
    const text = (await card.locator('.qcard-text').textContent()) ?? '';
    const sub = (await card.getAttribute('data-kind')) === 'subquestion';
    await fillBox(card.locator('[data-testid=answer-input]'), await goodAnswer(page, materialId, { questionId, text, sub }));
    await card.locator('[data-testid=answer-submit]').click();
    await page.locator(`[data-testid=question-card][data-question-id="${questionId}"][data-state=pending]`).waitFor({ state: 'detached' }).catch(() => undefined);
    await card.locator('[data-testid=answer-input]').waitFor({ state: 'detached' }).catch(() => undefined);
  }
  throw new Error(`chapter ${chapter} did not end`);
}

describe('혼자 퀴즈 풀기', () => {
  it('SS9 after chapter 1 ends a class student takes a five-item self-study quiz on a phone and sees the score; the monitor shows it', async () => {
    const problems: string[] = [];
    const teacher = await openPage({ width: 1280, height: 900 }, problems, 'monitor', true);
    const student = await openPage({ width: 390, height: 844 }, problems, 'classroom');

    await teacher.goto(`${app.url}/monitor.html`);
    await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).waitFor({ state: 'attached' });
    await fillBox(teacher.locator('[data-testid=class-name]'), '통계 1반');
    const materialId = (await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).getAttribute('value')) ?? '';
    await teacher.selectOption('[data-testid=class-material]', materialId);
    await teacher.click('[data-testid=create-class]');
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const code = (await teacher.locator('[data-testid=join-code]').textContent())?.trim() ?? '';

    await student.goto(`${app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '민지');
    await fillBox(student.locator('[data-testid=class-code]'), code);
    await student.click('[data-testid=join-class]');
    await student.locator('[data-testid=connection][data-state=connected]').waitFor();
    await setRange(student, '[data-testid=speed]', 200);

    // No quiz button before the chapter ends; one on the chapter once it has.
    expect(await student.locator('[data-testid=self-quiz-start]').count()).toBe(0);
    await finishChapter(student, materialId, 0);
    const start = student.locator('[data-testid=chapter][data-chapter="0"] [data-testid=self-quiz-start]');
    await start.waitFor();
    expect(await start.textContent()).toBe('혼자 퀴즈 풀기');
    expect((await start.boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await start.click();

    const panel = student.locator('[data-testid=self-quiz]');
    await panel.locator('[data-testid=self-quiz-question]').waitFor();
    const total = Number(/\/(\d)번$/.exec((await panel.locator('[data-testid=self-quiz-progress]').textContent()) ?? '')?.[1]);
    expect(total).toBe(5);
    let right = 0;
    for (let index = 0; index < total; index += 1) {
      // 다음 문제 renders the next item after its click returns: wait for it instead of reading at once.
      await panel.locator('[data-testid=self-quiz-progress]', { hasText: new RegExp(`^1장 · ${index + 1}/${total}번$`) }).waitFor();
      const choices = panel.locator('[data-testid=self-quiz-choice]');
      expect(await choices.count()).toBe(4);
      for (const box of await Promise.all((await choices.all()).map((choice) => choice.boundingBox()))) {
        expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
      }
      // Right on odd-numbered items, wrong on the others (the solution is read where only the server keeps it).
      const quizId = (await panel.locator('[data-testid=self-quiz-question]').getAttribute('data-quiz-id')) ?? '';
      const record = JSON.parse((await app.store.hget(quizKeys.selfQuizItem(quizId), 'record')) ?? '{}') as { item: { answer: number } };
      await choices.nth(index % 2 === 0 ? record.item.answer : (record.item.answer + 1) % 4).click();
      const verdict = panel.locator('[data-testid=self-quiz-verdict]');
      await verdict.waitFor();
      const good = ((await verdict.getAttribute('class')) ?? '').includes('good');
      if (SCREENSHOTS && index === 0) await student.screenshot({ path: '/tmp/self-quiz-answered.png' });
      expect(good).toBe(index % 2 === 0);
      if (good) right += 1;
      expect(await verdict.textContent()).toMatch(good ? /정답이에요/ : /아쉬워요\. 정답은 [①②③④] /);
      expect(((await panel.locator('[data-testid=self-quiz-explanation]').textContent()) ?? '').length).toBeGreaterThan(0);
      expect(await panel.locator('.self-quiz-choice.right').count()).toBe(1);
      const next = panel.locator('[data-testid=self-quiz-next]');
      expect(await next.textContent()).toBe(index + 1 < total ? '다음 문제' : '결과 보기');
      await next.click();
    }
    const score = panel.locator('[data-testid=self-quiz-score]');
    await score.waitFor();
    if (SCREENSHOTS) await student.screenshot({ path: '/tmp/self-quiz-score.png' });
    expect(right).toBe(3);
    expect(await score.textContent()).toBe(`1장 퀴즈 결과: ${total}문제 중 ${right}문제 정답 (${right}/${total})`);

    // The instructor's roster shows the student's self-study score.
    const entry = teacher.locator('[data-testid=roster-entry]', { hasText: '민지' });
    await entry.locator('[data-testid=student-self-quiz]', { hasText: `혼자 퀴즈 ${right}/${total} 정답` }).waitFor();
    if (SCREENSHOTS) await teacher.screenshot({ path: '/tmp/self-quiz-monitor.png' });
    expect(problems).toEqual([]);
  }, 120_000);
});
