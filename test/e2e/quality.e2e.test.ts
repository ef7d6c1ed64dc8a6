/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QC9 — The pages. `quality.html` ("AI 품질", in the instructor header's nav) shows the signed-in instructor's
 *   agents: the window's grade histogram (bars summing to the graded count), failure types …
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signUp, type SignedUpAccount } from '../support/accounts.js';
import { fillBox, launchBrowser, setRange } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * QC9 (test/SPEC.md): the "AI 품질" page and the monitor's "AI 평가" button in a real (headless Debian) chromium
 * against the real app (memory store, offline model, QUALITY_SAMPLE_RATE=1).
 */

/** Set LECTERN_SCREENSHOTS=1 to write /tmp/quality.png and /tmp/monitor-critic.png along the way. */
const SCREENSHOTS = process.env.LECTERN_SCREENSHOTS === '1';

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp({ QUALITY_SAMPLE_RATE: '1' });
  await app.materials.preloadSample();
  // The first account is the deployment's admin; the pages below are an instructor's.
  await signUp(app);
  browser = await launchBrowser();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A page that records anything leaving the test server and any error it shows. */
async function openPage(viewport: { width: number; height: number }, problems: string[], name: string, account?: SignedUpAccount): Promise<{ page: Page; account: SignedUpAccount | undefined }> {
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  const signedIn = account === undefined ? undefined : await signInContext(context, app, account);
  const page = await context.newPage();
  const origin = new URL(app.url).origin;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== 'data:') problems.push(`${name}: foreign request ${request.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${name}: HTTP ${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`${name}: pageerror ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${name}: console ${message.text()}`);
  });
  return { page, account: signedIn };
}

const GOOD = '노트북을 추천해드리겠습니다. 예산 범위를 알려주시면 더 정확한 추천이 가능합니다.';
const BAD = '<b>음식</b> 추천을 도와드리겠습니다. 오늘은 파스타를 추천합니다.';

describe('QC9 the AI 품질 page and the monitor\'s AI 평가', () => {
  it('QC9 the page shows the instructor\'s agents: grade bars, failure types, the worst case with its issues (as text), and an export link that follows the grade filter', async () => {
    const problems: string[] = [];
    const teacher = await signUp(app);
    for (const output of [GOOD, BAD]) {
      app.quality.sampler.offer({ task: 'assistant.answer', system: 'You are a product search agent.', prompt: '질문에 답하세요.', input: { question: '노트북 추천해줘' }, output, accountId: teacher.accountId });
    }
    await app.quality.sampler.settled();
    while ((await app.quality.grader.runOnce()).graded > 0);

    const { page } = await openPage({ width: 390, height: 844 }, problems, 'quality', teacher);
    await page.goto(`${app.url}/quality.html`);
    const card = page.locator('[data-testid=quality-agent][data-agent="assistant.answer"]');
    await card.waitFor();
    expect(await card.locator('h2').textContent()).toBe('손 들기 답변');
    expect(await card.locator('[data-testid=agent-count]').textContent()).toBe('채점 2건');
    expect(await page.locator('[data-testid=quality-scope]').textContent()).toMatch(/^내 수업과 자료에서 나온 답 · 표본 비율 100% · 오늘 채점 토큰 /u);
    const buckets = await card.locator('[data-testid=bucket-count]').allTextContents();
    expect(buckets).toHaveLength(10);
    expect(buckets.reduce((sum, text) => sum + Number.parseInt(text, 10), 0)).toBe(2);
    expect(await card.locator('[data-testid=agent-failures]').textContent()).toContain('유용하지 않음: 1건');
    // The worst case first, its model text shown as text (never markup), with what cannot be fixed.
    const worst = card.locator('[data-testid=worst-case]').first();
    expect(Number.parseFloat((await worst.locator('[data-testid=worst-grade]').textContent()) ?? '1')).toBeLessThan(0.5);
    expect(await worst.locator('.worst-excerpt').textContent()).toBe(BAD);
    expect(await worst.locator('b').count()).toBe(0);
    expect(await worst.textContent()).toContain('수정 불가: ');

    // The export link follows the filter, and what it downloads respects it.
    await page.selectOption('[data-testid=export-agent]', 'assistant.answer');
    await fillBox(page.locator('[data-testid=export-min]'), '0.7');
    await fillBox(page.locator('[data-testid=export-max]'), '1');
    const href = await page.locator('[data-testid=export-link]').getAttribute('href');
    expect(href).toBe('/api/quality/export.jsonl?agent=assistant.answer&minGrade=0.7&maxGrade=1');
    const body = await page.evaluate(async (path) => (await fetch(path)).text(), href ?? '');
    const lines = body.trim().split('\n').map((line) => JSON.parse(line) as { output: string; grade: number });
    expect(lines.map((line) => line.output)).toEqual([GOOD]);

    // A phone: the link and the filters are at least 44 px tall.
    for (const selector of ['[data-testid=export-link]', '[data-testid=export-min]', '[data-testid=export-agent]', '[data-testid=quality-days]']) {
      expect((await page.locator(selector).boundingBox())?.height ?? 0, selector).toBeGreaterThanOrEqual(44);
    }
    if (SCREENSHOTS) await page.screenshot({ path: '/tmp/quality.png', fullPage: true });
    // The header's nav leads here.
    expect(await page.locator('header nav a[aria-current=page]').textContent()).toBe('AI 품질');
    expect(problems).toEqual([]);
  });

  it('QC9 on the monitor, "AI 평가" of the tutor\'s verdict in a student\'s record shows the critic\'s report under it', async () => {
    const problems: string[] = [];
    const { page: teacher } = await openPage({ width: 1280, height: 900 }, problems, 'monitor', await signUp(app));
    const { page: student } = await openPage({ width: 1280, height: 900 }, problems, 'classroom');

    await teacher.goto(`${app.url}/monitor.html`);
    await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).waitFor({ state: 'attached' });
    await fillBox(teacher.locator('[data-testid=class-name]'), '평가 반');
    const materialId = await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).getAttribute('value');
    await teacher.selectOption('[data-testid=class-material]', materialId ?? '');
    await teacher.click('[data-testid=create-class]');
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const code = (await teacher.locator('[data-testid=join-code]').textContent())?.trim() ?? '';

    await student.goto(`${app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '하윤');
    await fillBox(student.locator('[data-testid=class-code]'), code);
    await student.click('[data-testid=join-class]');
    await student.locator('[data-testid=connection][data-state=connected]').waitFor();
    await setRange(student, '[data-testid=speed]', 200);
    const firstQuestion = student.locator('[data-testid=question-card][data-kind=question][data-state=pending]');
    await fillBox(firstQuestion.locator('[data-testid=answer-input]'), '잘 모르겠어요');
    await firstQuestion.locator('[data-testid=answer-submit]').click();

    const entry = teacher.locator('[data-testid=roster-entry]', { hasText: '하윤' });
    await entry.locator('[data-testid=student-verdict][data-verdict]').waitFor();
    await entry.locator('[data-testid=student-open]').click();
    const transcript = teacher.locator('[data-testid=transcript-panel]');
    const verdict = transcript.locator('[data-testid=transcript-item][data-type=verdict]').first();
    await verdict.waitFor();
    // Only what an agent wrote can be graded: the student's own answer has no button.
    expect(await transcript.locator('[data-testid=transcript-item][data-type=answer] [data-testid=critic-send]').count()).toBe(0);
    const button = verdict.locator('[data-testid=critic-send]');
    expect(await button.textContent()).toBe('AI 평가');
    await button.click();
    const report = verdict.locator('[data-testid=critic-report]');
    await report.waitFor();
    expect(await report.locator('[data-testid=critic-grade]').textContent()).toMatch(/^[01]\.\d\d$/u);
    expect(await report.locator('dt').allTextContents()).toEqual(['완전성', '정확성', '일관성', '안전성', '유용성']);
    expect(await report.locator('.critic-text').textContent()).toMatch(/^\[휴리스틱 채점\] 전체 점수: /u);
    expect(await button.textContent()).toBe('다시 평가');
    if (SCREENSHOTS) await transcript.screenshot({ path: '/tmp/monitor-critic.png' });
    expect(problems).toEqual([]);
  });
});
