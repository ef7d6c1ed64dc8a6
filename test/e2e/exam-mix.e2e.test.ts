/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EP8 — The planner's balance, offered and explained on the pages. (`test/e2e/exam-mix.e2e.test.ts`). The host
 *   page's 시험 만들기 and the classroom's 혼자 시험 보기 offer "유형 비율은 학습 기록에 맞춰 정하기" as the default
 *   choice beside the manual 서술형 수. Chosen, the request carries only the count (the host page adds the class
 *   whose learning records to read, by default a class on the chosen material) and the page shows the reply's
 *   `mix.reason` (문항 구성: …): the class's aggregated profile for the instructor, the student's own for self-study,
 *   and the exam follows that balance. Typing a number of descriptive items chooses the manual balance: the request
 *   carries it and the reason says it was the request's. The choices are ≥ 44 px and axe finds no violation in them.
 */
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LearnerProfile } from '../../src/exams/index.js';
import { examKeys } from '../../src/exams/exam-keys.js';
import { signUp } from '../support/accounts.js';
import { fillBox, launchBrowser, watchPage } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { postJson } from '../support/classroom-client.js';
import { axeViolations } from '../support/quiz-pages.js';
import { uploadPdf } from '../support/data-flow.js';
import { samplePdfBytes } from '../support/lecture-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * EP8 (test/SPEC.md): the real app (memory store, offline model) in a real chromium. The instructor's class has three
 * students whose stored profiles are advanced and aim at deep understanding (the planner's class balance: 4 of 5
 * descriptive); the self-study student is new (the planner's balance for a beginner: short answers only).
 */

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp({ SIGNUP: 'open' });
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await app?.stop();
});

async function newContext(kind: 'desktop' | 'phone', problems: string[]): Promise<BrowserContext> {
  const context = await browser.newContext(
    // bypassCSP only lets the test inject axe-core (an inline script the pages' CSP rightly refuses).
    kind === 'phone'
      ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ko-KR', bypassCSP: true }
      : { viewport: { width: 1280, height: 900 }, locale: 'ko-KR', bypassCSP: true },
  );
  contexts.push(context);
  const origin = new URL(app.url).origin;
  context.on('page', (page) => watchPage(page, origin, problems));
  return context;
}

const advanced = (): LearnerProfile => ({
  learning_goal: { target_depth: 'Deep Understanding', description: '' },
  user_status: { proficiency_level: 'Advanced', weak_topics: [], strong_topics: [] },
  preferred_question_types: ['Short_Keyword', 'Descriptive'],
  exams_taken: [],
  updated_at: 1,
});

/** The bodies the page posts to `path` (parsed JSON), in order. */
function postedBodies(page: Page, path: RegExp): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (request: Request) => {
    if (request.method() === 'POST' && path.test(new URL(request.url()).pathname)) bodies.push(JSON.parse(request.postData() ?? '{}') as Record<string, unknown>);
  });
  return bodies;
}

describe('the exam balance on the pages', () => {
  it('EP8 host page: 학습 기록에 맞춰 is the default, sends only the count and the class, shows the class profile\'s reason and the exam follows it; a typed number is the manual balance', async () => {
    const problems: string[] = [];
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const created = await postJson<{ classId: string; code: string }>(`${app.url}/api/classes`, { name: '심화반', materialId }, teacher.bearer);
    expect(created.status).toBe(201);
    const classId = created.body.classId ?? '';
    for (const nickname of ['가람', '나래', '다온']) {
      const joined = await postJson<{ sessionId: string }>(`${app.url}/api/classes/${created.body.code}/join`, { nickname });
      expect(joined.status).toBe(201);
      await app.store.zadd(examKeys.classProfiles(classId), 1, joined.body.sessionId ?? '');
      await app.store.set(examKeys.classProfile(classId, joined.body.sessionId ?? ''), JSON.stringify(advanced()));
    }

    const instructor = await newContext('desktop', problems);
    await signInContext(instructor, app, teacher);
    const host = await instructor.newPage();
    const posted = postedBodies(host, /^\/api\/materials\/[^/]+\/exams$/u);
    await host.goto(`${app.url}/host.html`);
    await host.click('[data-testid=exam-box] summary');
    await host.getByTestId('exam-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await host.selectOption('[data-testid=exam-material]', materialId);
    // The planner's balance is the default, read from the class on this material.
    expect(await host.getByTestId('exam-mix-planner').isChecked()).toBe(true);
    await expect.poll(() => host.getByTestId('exam-mix-class').inputValue()).toBe(classId);
    for (const testId of ['exam-mix-planner', 'exam-mix-manual', 'exam-mix-class']) {
      expect((await host.getByTestId(testId).boundingBox())?.height ?? 0, testId).toBeGreaterThanOrEqual(44);
    }
    expect(await axeViolations(host, '[data-testid=exam-mix]')).toEqual([]);
    await fillBox(host.locator('[data-testid=exam-count]'), '5');
    await host.getByTestId('exam-start').click();
    await expect.poll(() => host.getByTestId('exam-mix-reason').textContent()).toMatch(/^문항 구성: 수업 학생 3명의 종합 프로필의 숙련도 심화, 목표 깊이 깊은 이해.*단답형 1문항, 서술형 4문항/u);
    expect(posted[0]).toEqual({ count: 5, classId });
    await expect.poll(() => host.getByTestId('exam-status').textContent()).toMatch(/시험을 만들었습니다|지적이 남은 문항이 있습니다/u);
    await expect.poll(() => host.getByTestId('exam-edit-item').count()).toBe(5);
    const heads = await host.locator('[data-testid=exam-edit-item] .exam-edit-head strong').allTextContents();
    expect(heads.filter((text) => text.includes('서술형'))).toHaveLength(4);

    // Typing a number of descriptive items is the manual balance: sent, and the reason says it was asked.
    await fillBox(host.locator('[data-testid=exam-count]'), '2');
    await fillBox(host.locator('[data-testid=exam-descriptive]'), '1');
    expect(await host.getByTestId('exam-mix-manual').isChecked()).toBe(true);
    await host.getByTestId('exam-start').click();
    await expect.poll(() => host.getByTestId('exam-mix-reason').textContent()).toBe('문항 구성: 요청한 구성: 단답형 1문항, 서술형 1문항.');
    expect(posted[1]).toEqual({ count: 2, descriptive: 1 });
    await expect.poll(() => host.getByTestId('exam-status').textContent()).toMatch(/시험을 만들었습니다|지적이 남은 문항이 있습니다/u);
    expect(problems).toEqual([]);
  }, 120_000);

  it('EP8 classroom 혼자 시험 보기: 학습 기록에 맞춰 is the default, sends only the count, shows the student\'s own reason while the exam is made, and the exam follows it', async () => {
    const problems: string[] = [];
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const created = await postJson<{ classId: string; code: string }>(`${app.url}/api/classes`, { name: '혼자 시험 반', materialId }, teacher.bearer);
    expect(created.status).toBe(201);
    const context = await newContext('phone', problems);
    const student = await context.newPage();
    const posted = postedBodies(student, /^\/api\/class-exams\/self-study$/u);
    // The job's progress is held until the reason has been read (the exam opens as soon as the job ends).
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await student.route('**/api/class-exams/self-study/jobs/**', async (route) => {
      await held;
      await route.continue();
    });
    await student.goto(`${app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '하준');
    await fillBox(student.locator('[data-testid=class-code]'), created.body.code ?? '');
    await student.click('[data-testid=join-class]');
    await student.locator('[data-testid=classroom]').waitFor();
    await student.getByTestId('exam-none').waitFor();
    await student.getByTestId('self-exam-open').click();
    expect(await student.getByTestId('self-exam-mix-planner').isChecked()).toBe(true);
    for (const testId of ['self-exam-mix-planner', 'self-exam-mix-manual']) {
      const label = student.locator(`label:has([data-testid=${testId}])`);
      expect((await label.boundingBox())?.height ?? 0, testId).toBeGreaterThanOrEqual(44);
    }
    expect(await axeViolations(student, '[data-testid=self-exam-form]')).toEqual([]);
    await fillBox(student.locator('[data-testid=self-exam-count]'), '2');
    await student.getByTestId('self-exam-start').click();
    await expect.poll(() => student.getByTestId('self-exam-mix-reason').textContent()).toMatch(/^문항 구성: 학습자 프로필의 선호 문항 유형이 단답형뿐\(숙련도 기초\).*단답형 2문항, 서술형 0문항/u);
    expect(posted).toEqual([{ count: 2 }]);
    release();
    await student.getByTestId('exam-sheet').waitFor();
    expect(await student.getByTestId('exam-item').count()).toBe(2);
    expect(await student.locator('[data-testid=exam-item][data-type=Descriptive]').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});
