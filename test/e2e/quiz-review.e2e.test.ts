/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GATE7 — The host page. After generating, and when a stored generated quiz is chosen, the host page lists each
 *   item with 통과 / 미통과 / 검증 못 함, its three scores (근거/교육/실무 n/10) and the judge's feedback …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ItemReview } from '../../src/protocol/quiz.js';
import { signUp, type SignedUpAccount } from '../support/accounts.js';
import { launchBrowser } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { getJson, postJson, type CreatedClass } from '../support/classroom-client.js';
import { uploadPdf } from '../support/data-flow.js';
import { samplePdfBytes } from '../support/lecture-client.js';
import { sampleItems } from '../support/quiz-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * GATE7 (test/SPEC.md): the host page in a real chromium against the real app (memory store, offline model). A quiz
 * generated on the page lists its five items with 통과 and their three scores and the judge's feedback; a stored
 * generated quiz with an item that never passed shows it 미통과 with its scores and feedback, and "그래도 사용" keeps it
 * (the stored review says so, and the page says the room will play it).
 */

let app: TestApp;
let browser: Browser;
let teacher: SignedUpAccount;
let classroom: CreatedClass;
let materialId = '';
const contexts: BrowserContext[] = [];

/** The review of an item that failed every round: grounding 9, the judge's feedback (as the gate stores it). */
function failedReview(question: string): ItemReview {
  const attempt = { judged: true, grounding: 9, educational: 10, insight: 10, is_passed: false, feedback: '용어 하나가 자료와 다릅니다: <b>분산</b>이 아니라 표준편차입니다.' };
  return {
    is_passed: false,
    judged: true,
    grounding: 9,
    educational: 10,
    insight: 10,
    feedback: attempt.feedback,
    rounds: 3,
    kept: false,
    attempts: [1, 2, 3].map((round) => ({ round, question, ...attempt })),
  };
}

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
  teacher = await signUp(app);
  classroom = (await postJson<CreatedClass>(`${app.url}/api/classes`, { name: '통계 1반' }, teacher.bearer)).body as CreatedClass;
  materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function openHostPage(query = ''): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ locale: 'ko-KR' });
  contexts.push(context);
  await signInContext(context, app, teacher);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror ${error.message}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} ${response.url()}`);
  });
  await page.goto(`${app.url}/host.html?class=${classroom.classId}${query}`);
  return { page, problems };
}

describe('GATE7 the host page shows the EvalAgent gate', () => {
  it('GATE7 a quiz generated on the page lists every item as 통과 with its three scores and the judge\'s feedback', async () => {
    const { page, problems } = await openHostPage(`&material=${materialId}`);
    await page.getByTestId('material-select').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await page.getByTestId('generate-quiz').click();
    await expect.poll(() => page.getByTestId('quiz-status').textContent()).toMatch(/퀴즈를 만들었습니다 \(5문제\)\. AI 검증 통과 5\/5문항\./u);

    const items = page.locator('[data-testid=quiz-review-list] [data-testid=review-item]');
    await expect.poll(() => items.count()).toBe(5);
    const quizId = await page.getByTestId('quiz-select').inputValue();
    const stored = await getJson<{ items: { quizId: string; question: string }[]; reviews: Record<string, ItemReview> }>(`${app.url}/api/quizzes/${quizId}`, teacher.bearer);
    const quiz = stored.body as { items: { quizId: string; question: string }[]; reviews: Record<string, ItemReview> };
    for (const [index, item] of quiz.items.entries()) {
      const review = quiz.reviews[item.quizId] as ItemReview;
      const row = items.nth(index);
      expect(await row.textContent()).toContain(item.question);
      expect(await row.getByTestId('review-badge').textContent()).toBe('통과');
      expect(await row.getByTestId('review-scores').textContent()).toBe(`근거 ${review.grounding}/10교육 ${review.educational}/10실무 ${review.insight}/10`);
      expect(await row.getByTestId('review-feedback').textContent()).toBe(review.feedback);
      expect(review.feedback.length).toBeGreaterThan(0);
      // Nothing to keep: every item passed.
      expect(await row.getByTestId('review-keep').count()).toBe(0);
    }
    expect(await page.getByTestId('quiz-review-summary').textContent()).toBe('AI 검증 통과 5/5문항 · 퀴즈 방에서는 5문항을 냅니다.');
    expect(problems).toEqual([]);
  });

  it('GATE7 a stored quiz with an item that never passed shows it 미통과; "그래도 사용" keeps it', async () => {
    // A generated quiz as the gate stores it when one slot failed all three rounds (the fake-Gemini case is GATE2).
    const items = sampleItems(3).map((item, index) => ({ ...item, quizId: `0000000${index + 1}` }));
    const pass = (question: string): ItemReview => ({
      is_passed: true,
      judged: true,
      grounding: 10,
      educational: 9,
      insight: 8,
      feedback: '자료와 일치합니다.',
      rounds: 1,
      kept: false,
      attempts: [{ round: 1, question, judged: true, grounding: 10, educational: 9, insight: 8, is_passed: true, feedback: '자료와 일치합니다.' }],
    });
    const reviews = { '00000001': pass(items[0]!.question), '00000002': failedReview(items[1]!.question), '00000003': pass(items[2]!.question) };
    const quiz = await app.quizzes.create(classroom.classId, { title: '검증 퀴즈', items, materialId }, { seed: 'a'.repeat(32), reviews });
    await app.ownership.setOwner('quiz', quiz.quizId, teacher.accountId, quiz.createdAt);

    const { page, problems } = await openHostPage(`&quiz=${quiz.quizId}`);
    const rows = page.locator('[data-testid=quiz-review-list] [data-testid=review-item]');
    await expect.poll(() => rows.count()).toBe(3);
    const failed = rows.nth(1);
    expect(await failed.getByTestId('review-badge').textContent()).toBe('미통과');
    expect(await failed.getByTestId('review-scores').textContent()).toBe('근거 9/10교육 10/10실무 10/10');
    // Model text is text: the markup in the feedback is shown, not rendered.
    expect(await failed.getByTestId('review-feedback').textContent()).toBe('용어 하나가 자료와 다릅니다: <b>분산</b>이 아니라 표준편차입니다.');
    expect(await failed.locator('b').count()).toBe(0);
    expect(await rows.nth(0).getByTestId('review-badge').textContent()).toBe('통과');
    expect(await page.getByTestId('quiz-review-summary').textContent()).toBe('AI 검증 통과 2/3문항 · 퀴즈 방에서는 2문항을 냅니다.');

    await failed.getByTestId('review-keep').check();
    await expect.poll(() => page.getByTestId('quiz-review-summary').textContent()).toBe('AI 검증 통과 2/3문항 · 그래도 사용 1문항 · 퀴즈 방에서는 3문항을 냅니다.');
    const read = await getJson<{ reviews: Record<string, ItemReview> }>(`${app.url}/api/quizzes/${quiz.quizId}`, teacher.bearer);
    expect(read.body.reviews?.['00000002']?.kept).toBe(true);
    expect(await failed.getByTestId('review-keep').isChecked()).toBe(true);
    expect(problems).toEqual([]);
  });
});
