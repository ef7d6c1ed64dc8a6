/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - XA8 — Live sheets. (`test/e2e/exams.e2e.test.ts`, 390×844 phone).
 * - XA10 — The editor is bound to one exam. (`test/e2e/exams.e2e.test.ts`, desktop).
 * - EP1 — Generate, edit, publish. In the host page's "시험 만들기" (controls ≥ 44 px) the instructor asks for 5 items, 2
 *   of them descriptive …
 * - EP2 — Taking it on a desktop and a phone. Each class student (desktop, 390×844 phone) opens the exam from the
 *   classroom's 시험 panel: 5 questions (the edited one as edited; 단답형 a one-line input …
 * - EP3 — Submit and results. A per-item 제출 (after a confirm) locks that item; 전체 제출 ends the student's exam, whose
 *   page then waits for the end (results are never revealed at a student's own submission) …
 * - EP4 — The monitor's 시험 진행 shows each student live (답한 문항 5/5 and 3/5, 응시 중 then 제출, the time left) without any
 *   answer text; reloaded, it shows both rows again at once (read from the server …
 * - EP6 — The server's clock on the page. With the server's exam clock moved past the deadline (the browser's is
 *   not), the next autosave is refused (409 `EXAM_CLOSED`, the only error on the page …
 * - EP7 — A self-study exam. A class student with no class exam sees 혼자 시험 보기 in the 시험 panel, picks a chapter, 2
 *   items (1 서술형) and 기초 (controls ≥ 44 px on a phone); a lost look at the job's progress (503) is looked at again …
 * - GR16 — Needs_Review in the browser. (`test/e2e/exams.e2e.test.ts`). The student's exam result shows an item the
 *   grader was not sure of as 검토 중 with the reason and no provisional status, pending; the teacher's override updates
 *   it live.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/accounts.js';
import { fillBox, launchBrowser, watchPage as watch } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { getJson, postJson } from '../support/classroom-client.js';
import { madePdf, uploadPdf } from '../support/data-flow.js';
import { samplePdfBytes } from '../support/lecture-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * EP1–EP4, EP6, EP7 (test/SPEC.md): exams in a real chromium against the real app (memory store, offline model).
 * The instructor generates a 5-item exam on the host page, edits an item, publishes it to a class; two students take it
 * in the classroom (desktop and a 390×844 phone), the phone reloads mid-exam and finds its drafts (also one typed just
 * before the reload, kept in sessionStorage and sent again); both submit, wait for the end (the instructor's 시험 종료)
 * and see their results and reports; the
 * instructor sees the results, overrides a status with a reason and sees a regrade request; the monitor shows the
 * progress live without answers, and the instructor sets a learning goal that the student's profile shows. No page
 * error, console error or HTTP error answer on any page, and nothing is loaded from outside the app's origin. EP6: with
 * the server's exam clock moved past the deadline, the sheet locks on the refused save and the drafts saved before the
 * deadline are graded. EP7: a class student makes their own self-study exam (혼자 시험 보기; the form outlives a lost
 * look at the job), takes it with no time limit and sees the result at their own submission.
 */

interface ExamProblemView {
  id: number;
  type: 'Short_Keyword' | 'Descriptive';
  question_content: string;
  model_answer: string;
  key_keywords: string[];
}

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

async function newContext(kind: 'desktop' | 'phone', problems: string[], dialogs?: (message: string) => boolean): Promise<BrowserContext> {
  const context = await browser.newContext(
    kind === 'phone' ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ko-KR' } : { viewport: { width: 1280, height: 900 }, locale: 'ko-KR' },
  );
  contexts.push(context);
  const origin = new URL(app.url).origin;
  context.on('page', (page) => watch(page, origin, problems, dialogs));
  return context;
}

async function joinClass(page: Page, code: string, nickname: string): Promise<void> {
  await page.goto(`${app.url}/classroom.html`);
  await fillBox(page.locator('[data-testid=nickname]'), nickname);
  await fillBox(page.locator('[data-testid=class-code]'), code);
  await page.click('[data-testid=join-class]');
  await page.locator('[data-testid=classroom]').waitFor();
}

/** The answer box of item `id` on a student's exam sheet. */
const answerBox = (page: Page, id: number) => page.locator(`[data-testid=exam-item][data-id="${id}"] [data-testid=exam-answer]`);

const savedClock = /^저장됨 \d\d:\d\d:\d\d$/u;

describe('exams in the browser', () => {
  it('EP1 EP2 EP3 EP4 an instructor generates, edits and publishes a 5-item exam; two students take it on desktop and phone (one reloads mid-exam); results, feedback and live progress appear', async () => {
    const problems: string[] = [];
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const instructor = await newContext('desktop', problems);
    await signInContext(instructor, app, teacher);

    // The class, made on the monitor, which stays open to watch the exam.
    const monitor = await instructor.newPage();
    await monitor.goto(`${app.url}/monitor.html`);
    await fillBox(monitor.locator('[data-testid=class-name]'), '시험 1반');
    await monitor.getByTestId('class-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await monitor.selectOption('[data-testid=class-material]', materialId);
    await monitor.click('[data-testid=create-class]');
    await monitor.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const classId = new URL(monitor.url()).searchParams.get('class') ?? '';
    const code = (await monitor.getByTestId('join-code').textContent()) ?? '';
    expect(code).toMatch(/^[A-Z0-9]{6}$/u);

    // EP1: generate (5 items, 2 descriptive), watch the job end, see the items with the validator's verdicts.
    const host = await instructor.newPage();
    await host.goto(`${app.url}/host.html?class=${classId}`);
    await host.click('[data-testid=exam-box] summary');
    await host.getByTestId('exam-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await host.selectOption('[data-testid=exam-material]', materialId);
    await fillBox(host.locator('[data-testid=exam-count]'), '5');
    await fillBox(host.locator('[data-testid=exam-descriptive]'), '2');
    for (const testId of ['exam-start', 'exam-count', 'exam-descriptive', 'exam-difficulty', 'exam-material']) {
      expect((await host.getByTestId(testId).boundingBox())?.height ?? 0, testId).toBeGreaterThanOrEqual(44);
    }
    await host.getByTestId('exam-start').click();
    await expect.poll(() => host.getByTestId('exam-status').textContent()).toMatch(/시험을 만들었습니다|지적이 남은 문항이 있습니다/u);
    await host.locator('[data-testid=exam-box][data-socket=closed]').waitFor({ state: 'attached' });
    expect(await host.getByTestId('exam-round').count()).toBeGreaterThan(0);
    const items = host.getByTestId('exam-edit-item');
    await expect.poll(() => items.count()).toBe(5);
    const examId = (await host.getByTestId('exam-view').getAttribute('data-exam-id')) ?? '';
    expect(examId).not.toBe('');
    // The listing: 3 short-answer and 2 descriptive items.
    const heads = await host.locator('[data-testid=exam-edit-item] .exam-edit-head strong').allTextContents();
    expect(heads.filter((text) => text.includes('단답형'))).toHaveLength(3);
    expect(heads.filter((text) => text.includes('서술형'))).toHaveLength(2);

    // Edit item 1 (question and keywords as a comma/line list) and save it.
    const first = items.first();
    const editedQuestion = '자료에서 설명한 핵심 개념의 이름은 무엇인가요? (수정함)';
    await fillBox(first.getByTestId('exam-edit-question'), editedQuestion);
    const keywordsBefore = (await first.getByTestId('exam-edit-keywords').inputValue()).trim();
    await fillBox(first.getByTestId('exam-edit-keywords'), `${keywordsBefore}\n추가 키워드, 추가 키워드`);
    await first.getByTestId('exam-edit-save').click();
    await expect.poll(() => first.getByTestId('exam-edit-status').textContent()).toBe('저장했습니다.');
    const stored = await getJson<{ problems: ExamProblemView[] }>(`${app.url}/api/exams/${examId}`, teacher.bearer);
    expect(stored.status).toBe(200);
    const exam = stored.body.problems ?? [];
    expect(exam[0]?.question_content).toBe(editedQuestion);
    expect(exam[0]?.key_keywords.filter((word) => word === '추가 키워드')).toHaveLength(1);

    // The validator's complaints left (the offline one may leave some) are read and accepted; 게시 waits for that.
    const accepts = host.locator('[data-testid=exam-complaint-accept]:visible');
    for (let left = await accepts.count(); left > 0; left -= 1) {
      await accepts.first().click();
      await expect.poll(() => accepts.count()).toBe(left - 1);
    }
    await expect.poll(() => host.getByTestId('exam-publish').isEnabled()).toBe(true);

    // Publish to the class for 30 minutes.
    await host.selectOption('[data-testid=exam-class]', classId);
    await fillBox(host.locator('[data-testid=exam-minutes]'), '30');
    await host.getByTestId('exam-publish').click();
    await host.getByTestId('exam-published').waitFor();
    expect(await host.getByTestId('exam-edit-question').first().getAttribute('readonly')).not.toBeNull();

    // EP2: two students take it: 민지 on a desktop, 서연 on a phone.
    const desktop = await (await newContext('desktop', problems)).newPage();
    const phoneContext = await newContext('phone', problems);
    const phone = await phoneContext.newPage();
    await joinClass(desktop, code, '민지');
    await joinClass(phone, code, '서연');
    for (const page of [desktop, phone]) {
      await page.locator('[data-testid=exam-listing][data-state=open] [data-testid=exam-open]').click();
      await expect.poll(() => page.getByTestId('exam-item').count()).toBe(5);
      // Questions only: no model answer reaches a student's page.
      const text = (await page.getByTestId('exam-sheet').textContent()) ?? '';
      for (const problem of exam) if (problem.type === 'Descriptive') expect(text).not.toContain(problem.model_answer);
      expect(await page.getByTestId('exam-question').first().textContent()).toBe(editedQuestion);
      expect(await page.locator('[data-testid=exam-item][data-type=Descriptive] textarea[data-testid=exam-answer]').count()).toBe(2);
      expect(await page.locator('[data-testid=exam-item][data-type=Short_Keyword] input[data-testid=exam-answer]').count()).toBe(3);
      await expect.poll(() => page.getByTestId('exam-countdown').textContent()).toMatch(/^(29|30):\d\d$/u);
    }
    expect((await phone.getByTestId('exam-submit-all').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    expect((await phone.getByTestId('exam-item-submit').first().boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);

    // 민지 answers every item with its model answer; the autosave says when the server has it.
    for (const problem of exam) await fillBox(answerBox(desktop, problem.id), problem.model_answer);
    await expect.poll(() => desktop.getByTestId('exam-saved').textContent()).toMatch(savedClock);

    // EP4: the monitor shows 민지's progress live, never her answers.
    const minjiRow = monitor.locator('[data-testid=exam-progress-row]', { hasText: '민지' });
    await expect.poll(() => minjiRow.getByTestId('exam-progress-answered').textContent()).toBe('5/5');
    expect(await minjiRow.getByTestId('exam-progress-submitted').textContent()).toBe('응시 중');
    expect(await minjiRow.getByTestId('exam-progress-left').textContent()).toMatch(/^\d+분 \d\d초$/u);
    const monitorText = (await monitor.getByTestId('exam-progress').textContent()) ?? '';
    for (const problem of exam) expect(monitorText).not.toContain(problem.model_answer);

    // 서연 answers two items, waits for the save, types a third and reloads at once (before the debounce).
    const [one, two, three] = exam;
    await fillBox(answerBox(phone, one!.id), '모르겠어요');
    await fillBox(answerBox(phone, two!.id), '잘 모르겠습니다');
    await expect.poll(() => phone.getByTestId('exam-saved').textContent()).toMatch(savedClock);
    await fillBox(answerBox(phone, three!.id), '기억나지 않아요');
    await phone.reload();
    await phone.getByTestId('exam-sheet').waitFor();
    expect(await answerBox(phone, one!.id).inputValue()).toBe('모르겠어요');
    expect(await answerBox(phone, two!.id).inputValue()).toBe('잘 모르겠습니다');
    expect(await answerBox(phone, three!.id).inputValue()).toBe('기억나지 않아요');
    // The third was sent again after the reload: the server (and so the monitor) has three answers.
    await expect.poll(() => phone.getByTestId('exam-saved').textContent()).toMatch(savedClock);
    const seoyeonRow = monitor.locator('[data-testid=exam-progress-row]', { hasText: '서연' });
    await expect.poll(() => seoyeonRow.getByTestId('exam-progress-answered').textContent()).toBe('3/5');
    // The instructor reloads the monitor: the table comes back from the server at once, before any new event.
    await monitor.reload();
    await monitor.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await expect.poll(() => minjiRow.getByTestId('exam-progress-answered').textContent()).toBe('5/5');
    expect(await seoyeonRow.getByTestId('exam-progress-answered').textContent()).toBe('3/5');
    expect(await monitor.getByTestId('exam-progress-row').count()).toBe(2);

    // EP3: 민지 submits item 1 alone (it locks), then everything; 서연 submits everything.
    const minjiFirst = desktop.locator(`[data-testid=exam-item][data-id="${one!.id}"]`);
    await minjiFirst.getByTestId('exam-item-submit').click();
    await expect.poll(() => minjiFirst.getByTestId('exam-item-state').textContent()).toBe('제출함');
    expect(await answerBox(desktop, one!.id).getAttribute('readonly')).not.toBeNull();
    await desktop.getByTestId('exam-submit-all').click();
    await phone.getByTestId('exam-submit-all').click();
    await expect.poll(() => minjiRow.getByTestId('exam-progress-submitted').textContent()).toMatch(/^제출/u);
    await expect.poll(() => seoyeonRow.getByTestId('exam-progress-submitted').textContent()).toMatch(/^제출/u);

    // Results are revealed when the exam ends, never at a student's own submission: the instructor ends it now.
    for (const page of [desktop, phone]) await page.getByTestId('exam-waiting').waitFor();
    // The host's results panel draws 시험 종료 once it has read the exam's state: measure it when it shows.
    await host.getByTestId('exam-end').waitFor();
    expect((await host.getByTestId('exam-end').boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(44);
    await host.getByTestId('exam-end').click();
    await expect.poll(() => host.getByTestId('exam-results-state').textContent()).toBe('마감됨');

    // Results for each student: graded, a status and feedback per item, a score and the report.
    for (const page of [desktop, phone]) {
      await page.locator('[data-testid=exam-result][data-status=graded]').waitFor();
      expect(await page.getByTestId('exam-result-item').count()).toBe(5);
      const statuses = await page.getByTestId('exam-status').allTextContents();
      expect(statuses.every((status) => ['정답', '부분 정답', '오답'].includes(status))).toBe(true);
      expect(await page.getByTestId('exam-feedback').count()).toBeGreaterThan(0);
      await page.getByTestId('exam-report').waitFor();
      expect(((await page.getByTestId('exam-report-summary').textContent()) ?? '').length).toBeGreaterThan(0);
    }
    const score = async (page: Page) => Number(/^점수 ([\d.]+) \/ 5/u.exec((await page.getByTestId('exam-score').textContent()) ?? '')?.[1] ?? 'NaN');
    const minjiScore = await score(desktop);
    const seoyeonScore = await score(phone);
    expect(minjiScore).toBeGreaterThan(seoyeonScore);
    // A give-up is never credited.
    const phoneStatuses = await phone.getByTestId('exam-status').allTextContents();
    expect(phoneStatuses.filter((status) => status === '오답').length).toBeGreaterThanOrEqual(3);

    // 민지 asks for a regrade of item 2 with a comment.
    const regradeItem = desktop.locator(`[data-testid=exam-result-item][data-id="${two!.id}"]`);
    await regradeItem.getByTestId('exam-regrade').click();
    await fillBox(regradeItem.getByTestId('exam-regrade-comment'), '모범 답안과 같은 뜻으로 썼어요.');
    await regradeItem.getByTestId('exam-regrade-send').click();
    await expect.poll(() => regradeItem.getByTestId('exam-regrade-note').textContent()).toBe('재채점을 요청했어요. 선생님이 확인할 거예요.');

    // The instructor's results: both students with scores, the regrade request, the per-item distribution.
    await host.getByTestId('exam-results-refresh').click();
    const students = host.getByTestId('exam-result-student');
    await expect.poll(() => students.count()).toBe(2);
    const minjiResult = students.filter({ hasText: '민지' });
    await expect.poll(() => minjiResult.locator('[data-testid=exam-regrade-request]').count()).toBe(1);
    expect(await minjiResult.getByTestId('exam-result-score').textContent()).toBe(` · ${minjiScore} / 5점`);
    expect(await host.getByTestId('exam-distribution-row').count()).toBe(5);
    expect(await host.getByTestId('exam-results-csv').getAttribute('href')).toBe(`/api/exams/${examId}/results.csv`);
    // The links download with the instructor's cookie: the CSV names both students.
    const csv = await host.request.get(`${app.url}/api/exams/${examId}/results.csv`);
    expect(csv.status()).toBe(200);
    const csvText = await csv.text();
    expect(csvText).toContain('민지');
    expect(csvText).toContain('서연');
    expect((await host.request.get(`${app.url}${(await host.getByTestId('exam-results-json').getAttribute('href')) ?? ''}`)).status()).toBe(200);

    // Override 서연's first item to 부분 정답 with a reason: the audit line shows it, and her page shows the new status
    // and the reason.
    const seoyeonResult = students.filter({ hasText: '서연' });
    await seoyeonResult.locator('summary').click();
    const overrideRow = seoyeonResult.locator(`[data-testid=exam-result-row][data-id="${one!.id}"]`);
    await overrideRow.getByTestId('override-status').selectOption('Partial_Correct');
    await fillBox(overrideRow.getByTestId('override-reason'), '질문의 의도를 부분적으로 이해함');
    await overrideRow.getByTestId('override-apply').click();
    const audit = host.locator(`[data-testid=exam-result-student]:has-text("서연") [data-testid=exam-result-row][data-id="${one!.id}"] [data-testid=override-audit]`);
    await expect.poll(() => audit.textContent()).toContain('질문의 의도를 부분적으로 이해함');
    expect(await audit.textContent()).toContain('바꾼 판정: 부분 정답');
    // The teacher's decision is labelled data (§5): the results' link downloads it with the instructor's cookie.
    const decisions = await host.request.get(`${app.url}${(await host.getByTestId('exam-decisions-jsonl').getAttribute('href')) ?? ''}`);
    expect(decisions.status()).toBe(200);
    const decided = (await decisions.text()).trim().split('\n').map((line) => JSON.parse(line) as { teacherStatus: string; reason: string; answer: string });
    expect(decided).toContainEqual(expect.objectContaining({ teacherStatus: 'Partial_Correct', reason: '질문의 의도를 부분적으로 이해함' }));
    await phone.reload();
    await phone.locator('[data-testid=exam-listing][data-state=closed] [data-testid=exam-open]').click();
    const overridden = phone.locator(`[data-testid=exam-result-item][data-id="${one!.id}"]`);
    await expect.poll(() => overridden.getByTestId('exam-status').textContent()).toBe('부분 정답');
    // …with the instructor's reason, from the grader's own status.
    expect(await overridden.getByTestId('exam-review').textContent()).toMatch(/^선생님이 채점을 바꿨어요 \((오답|부분 정답|정답) → 부분 정답\): 질문의 의도를 부분적으로 이해함$/u);

    // The learner profile: the instructor sets 민지's goal on the monitor; her 나의 학습 프로필 shows it.
    await minjiRow.getByTestId('exam-progress-profile').click();
    await monitor.getByTestId('learner-profile').waitFor();
    await monitor.selectOption('[data-testid=goal-depth]', 'Deep Understanding');
    await fillBox(monitor.locator('[data-testid=goal-description]'), '핵심 개념을 자기 말로 설명하기');
    await monitor.getByTestId('goal-save').click();
    await expect.poll(() => monitor.getByTestId('goal-note').textContent()).toContain('학습 목표를 저장했습니다');
    await desktop.locator('[data-testid=exam-profile] summary').click();
    await expect.poll(() => desktop.locator('[data-testid=exam-profile] [data-testid=profile-goal]').textContent()).toBe('깊은 이해 · 핵심 개념을 자기 말로 설명하기');

    expect(problems).toEqual([]);
  }, 180_000);
});

describe('the exam clock in the browser', () => {
  it('EP6 past the server deadline the sheet locks on the server’s refusal, and the drafts saved before the deadline are what is graded', async () => {
    const problems: string[] = [];
    let offset = 0;
    // No sweep in the test's time: the server learns that the deadline passed from the late save itself.
    const clocked = await startTestApp({ SIGNUP: 'open', EXAM_SWEEP_MS: '600000' }, { examClock: () => Date.now() + offset });
    try {
      const teacher = await signUp(clocked);
      const materialId = (await uploadPdf(clocked, await samplePdfBytes(), 'sample.pdf', teacher)).id;
      const created = await postJson<{ classId: string; code: string }>(`${clocked.url}/api/classes`, { name: '시간 반', materialId }, teacher.bearer);
      expect(created.status).toBe(201);
      const exam = await clocked.exams.create({
        accountId: teacher.accountId,
        materialId,
        title: '시간 재기',
        request: { count: 2, descriptive: 1 },
        plan: {
          planning_strategy: '평균의 정의와 성질을 묻는다.',
          planned_items: [
            { id: 1, target_topic: '평균', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' },
            { id: 2, target_topic: '평균', question_type: 'Descriptive', intent_type: 'Causal_Explanation', complexity_level: 'Basic', source_reference_hint: '1장' },
          ],
        },
        problems: [
          { id: 1, type: 'Short_Keyword', question_content: '값을 모두 더해 개수로 나눈 값은?', model_answer: '평균', key_keywords: ['평균'], intent_diagnosis: '평균의 정의' },
          { id: 2, type: 'Descriptive', question_content: '평균이 극단값에 민감한 이유를 설명하시오.', model_answer: '모든 값을 더하므로 큰 값 하나가 합을 크게 바꾼다.', key_keywords: ['합'], intent_diagnosis: '평균의 성질' },
        ],
        complaints: [],
        valid: true,
        rounds: 1,
      });
      const published = await postJson(`${clocked.url}/api/exams/${exam.examId}/publish`, { classId: created.body.classId, timeLimitMinutes: 10 }, teacher.bearer);
      expect(published.status, JSON.stringify(published.body)).toBe(200);

      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'ko-KR' });
      contexts.push(context);
      const student = await context.newPage();
      watch(student, new URL(clocked.url).origin, problems);
      await student.goto(`${clocked.url}/classroom.html`);
      await fillBox(student.locator('[data-testid=nickname]'), '지호');
      await fillBox(student.locator('[data-testid=class-code]'), created.body.code ?? '');
      await student.click('[data-testid=join-class]');
      await student.locator('[data-testid=exam-listing][data-state=open] [data-testid=exam-open]').click();
      await fillBox(answerBox(student, 1), '평균');
      await expect.poll(() => student.getByTestId('exam-saved').textContent()).toMatch(savedClock);

      // The server's clock passes the deadline (the page's does not): the next save is refused and the sheet locks.
      offset = 11 * 60_000;
      await fillBox(answerBox(student, 2), '마감 뒤에 쓴 답');
      // Every input locks (seen in the page, before the sheet turns to the result a moment later).
      await student.waitForFunction(() => {
        type Found = { querySelectorAll(selector: string): ArrayLike<{ disabled: boolean }> };
        const { document } = globalThis as unknown as { document: { querySelector(selector: string): Found | null } };
        const sheet = document.querySelector('[data-testid=exam-sheet][data-locked=true]');
        const inputs = sheet ? Array.from(sheet.querySelectorAll('[data-testid=exam-answer]')) : [];
        return inputs.length === 2 && inputs.every((input) => input.disabled);
      });

      // The result grades the drafts as they were at the deadline: item 1's answer, item 2 empty.
      await student.locator('[data-testid=exam-result][data-status=graded]').waitFor();
      const first = student.locator('[data-testid=exam-result-item][data-id="1"]');
      expect(await first.locator('.exam-my-answer').textContent()).toBe('내 답: 평균');
      expect(await first.getByTestId('exam-status').textContent()).toBe('정답');
      const second = student.locator('[data-testid=exam-result-item][data-id="2"]');
      expect(await second.locator('.exam-my-answer').textContent()).toBe('내 답: (비어 있음)');
      expect(await second.getByTestId('exam-status').textContent()).toBe('오답');

      // The only refusal on the page is the late save (409 EXAM_CLOSED, shown and not retried), and its console line.
      const lateSave = `HTTP 409 PUT ${clocked.url}/api/class-exams/${exam.examId}/draft`;
      expect(problems.filter((problem) => problem === lateSave)).toHaveLength(1);
      expect(problems.filter((problem) => problem !== lateSave && !/^console Failed to load resource: .* 409 \(Conflict\)$/u.test(problem))).toEqual([]);
    } finally {
      await clocked.stop();
    }
  }, 120_000);
});

describe('a self-study exam in the browser', () => {
  it('EP7 a class student makes a self-study exam (혼자 시험 보기: chapter, count, mix, difficulty), takes it with no time limit and sees the result at their own submission', async () => {
    const problems: string[] = [];
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const created = await postJson<{ classId: string; code: string }>(`${app.url}/api/classes`, { name: '혼자 시험 반', materialId }, teacher.bearer);
    expect(created.status).toBe(201);
    const context = await newContext('phone', problems);
    const student = await context.newPage();
    await joinClass(student, created.body.code ?? '', '하준');

    // No class exam yet: the panel offers 혼자 시험 보기.
    await student.getByTestId('exam-none').waitFor();
    await student.getByTestId('self-exam-open').click();
    await student.locator('[data-testid=self-exam-chapter]').first().check();
    await fillBox(student.locator('[data-testid=self-exam-count]'), '2');
    await fillBox(student.locator('[data-testid=self-exam-descriptive]'), '1');
    await student.selectOption('[data-testid=self-exam-level]', 'Basic');
    for (const testId of ['self-exam-start', 'self-exam-count', 'self-exam-descriptive', 'self-exam-level']) {
      expect((await student.getByTestId(testId).boundingBox())?.height ?? 0, testId).toBeGreaterThanOrEqual(44);
    }
    // The first look at the job's progress is lost (503): the form looks again, as it would after a dropped connection.
    const jobLooks = /\/api\/class-exams\/self-study\/jobs\//u;
    let lostLooks = 0;
    await student.route(jobLooks, async (route) => {
      if (lostLooks > 0) return route.continue();
      lostLooks += 1;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'STORE_UNAVAILABLE', message: '잠시 후 다시 시도해 주세요.' } }) });
    });
    await student.getByTestId('self-exam-start').click();

    // The job's progress shows, then the new exam opens on the sheet: 2 questions (1 서술형), no countdown. Until
    // then the poll reads what the form says, so a form stuck on an error or a stage is what a failure reports.
    const formState = () =>
      student.evaluate(() => {
        const { document } = globalThis as unknown as { document: { querySelector(selector: string): { textContent: string | null } | null } };
        if (document.querySelector('[data-testid=exam-sheet]')) return 'sheet';
        const text = (testId: string) => document.querySelector(`[data-testid=${testId}]`)?.textContent ?? '(none)';
        return `status: ${text('self-exam-status')} / error: ${text('self-exam-error')} / panel error: ${text('exam-error')}`;
      });
    await expect.poll(formState, { timeout: 90_000 }).toBe('sheet');
    expect(lostLooks).toBe(1);
    await student.unroute(jobLooks);
    expect(await student.getByTestId('exam-no-limit').textContent()).toBe('시간 제한 없음');
    expect(await student.getByTestId('exam-countdown').count()).toBe(0);
    const items = student.getByTestId('exam-item');
    expect(await items.count()).toBe(2);
    expect(await student.locator('[data-testid=exam-item][data-type=Descriptive]').count()).toBe(1);
    await fillBox(answerBox(student, 1), '모르겠어요');
    await fillBox(answerBox(student, 2), '잘 모르겠습니다.');
    await expect.poll(() => student.getByTestId('exam-saved').textContent()).toMatch(savedClock);

    // 전체 제출: the result and the report come at once, without waiting for anyone.
    await student.getByTestId('exam-submit-all').click();
    await student.locator('[data-testid=exam-result][data-status=graded]').waitFor();
    expect(await student.getByTestId('exam-result-item').count()).toBe(2);
    for (const status of await student.locator('[data-testid=exam-result-item] [data-testid=exam-status]').allTextContents()) {
      expect(['정답', '부분 정답', '오답']).toContain(status);
    }

    // Back on the list, the exam is the student's own, 제출함, and opens its result again.
    await student.getByTestId('exam-back').click();
    const listing = student.locator('[data-testid=exam-listing][data-self-study=true]');
    await expect.poll(() => listing.getAttribute('data-state')).toBe('submitted');
    expect(await listing.textContent()).toContain('혼자 보는 시험');
    await listing.getByTestId('exam-open').click();
    await student.locator('[data-testid=exam-result][data-status=graded]').waitFor();

    // The only problem on the page is the lost look at the job, and its console line.
    const lostLook = (problem: string) => /^HTTP 503 GET .*\/api\/class-exams\/self-study\/jobs\//u.test(problem) || /^console Failed to load resource: .* 503 \(Service Unavailable\)$/u.test(problem);
    expect(problems.filter((problem) => /^HTTP 503/u.test(problem))).toHaveLength(1);
    expect(problems.filter((problem) => !lostLook(problem))).toEqual([]);
  }, 120_000);
});

/** A class on the sample with a published 30-minute exam of two fixed items (평균: one short answer, one descriptive). */
async function publishMeanExam(className: string, title: string) {
  const teacher = await signUp(app);
  const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
  const created = await postJson<{ classId: string; code: string }>(`${app.url}/api/classes`, { name: className, materialId }, teacher.bearer);
  expect(created.status).toBe(201);
  const exam = await app.exams.create({
    accountId: teacher.accountId,
    materialId,
    title,
    request: { count: 2, descriptive: 1 },
    plan: {
      planning_strategy: '평균의 정의와 성질을 묻는다.',
      planned_items: [
        { id: 1, target_topic: '평균', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' },
        { id: 2, target_topic: '평균의 성질', question_type: 'Descriptive', intent_type: 'Causal_Explanation', complexity_level: 'Basic', source_reference_hint: '1장' },
      ],
    },
    problems: [
      { id: 1, type: 'Short_Keyword', question_content: '값을 모두 더해 개수로 나눈 값은?', model_answer: '평균', key_keywords: ['평균'], intent_diagnosis: '평균의 정의' },
      { id: 2, type: 'Descriptive', question_content: '평균이 극단값에 민감한 이유를 설명하시오.', model_answer: '모든 값을 더하므로 큰 값 하나가 합을 크게 바꾼다.', key_keywords: ['합', '극단값'], intent_diagnosis: '평균의 성질' },
    ],
    complaints: [],
    valid: true,
    rounds: 1,
  });
  const published = await postJson(`${app.url}/api/exams/${exam.examId}/publish`, { classId: created.body.classId, timeLimitMinutes: 30 }, teacher.bearer);
  expect(published.status, JSON.stringify(published.body)).toBe(200);
  return { teacher, created, exam };
}

describe('live exam sheets', () => {
  it('XA8 on a 390×844 phone, 시험 종료 locks an open sheet and shows the result at once, an override updates the result and its report live, and a reload shows the same', async () => {
    const problems: string[] = [];
    const { teacher, created, exam } = await publishMeanExam('실시간 반', '평균 확인');

    const phone = await (await newContext('phone', problems)).newPage();
    await joinClass(phone, created.body.code ?? '', '서연');
    await phone.locator('[data-testid=exam-listing][data-state=open] [data-testid=exam-open]').click();
    await fillBox(answerBox(phone, 1), '평균');
    await expect.poll(() => phone.getByTestId('exam-saved').textContent()).toMatch(savedClock);
    await expect.poll(() => phone.getByTestId('exam-countdown').textContent()).toMatch(/^(29|30):\d\d$/u);

    // 시험 종료: the phone, left alone (nobody types), locks and shows its graded result.
    const ended = await postJson(`${app.url}/api/exams/${exam.examId}/end`, {}, teacher.bearer);
    expect(ended.status).toBe(200);
    await phone.locator('[data-testid=exam-result][data-status=graded]').waitFor();
    await phone.getByTestId('exam-report').waitFor();
    expect(await phone.getByTestId('exam-sheet').count()).toBe(0);
    expect(await phone.getByTestId('exam-countdown').count()).toBe(0);
    const summary = phone.getByTestId('exam-report-summary');
    expect(await summary.textContent()).toContain('정답 1개, 부분 정답 0개, 오답 1개');
    const second = phone.locator('[data-testid=exam-result-item][data-id="2"]');
    expect(await second.getByTestId('exam-status').textContent()).toBe('오답');

    // An override to 부분 정답 reaches the phone: the status, the score and the report change without a reload.
    const sessionId = ((await getJson<{ students: { sessionId: string }[] }>(`${app.url}/api/exams/${exam.examId}/results`, teacher.bearer)).body.students ?? [])[0]?.sessionId ?? '';
    const override = await postJson(`${app.url}/api/exams/${exam.examId}/students/${sessionId}/items/2/override`, { status: 'Partial_Correct', reason: '방향은 맞음' }, teacher.bearer);
    expect(override.status, JSON.stringify(override.body)).toBe(200);
    await expect.poll(() => second.getByTestId('exam-status').textContent()).toBe('부분 정답');
    await expect.poll(() => summary.textContent()).toContain('정답 1개, 부분 정답 1개, 오답 0개');
    expect(await phone.getByTestId('exam-score').textContent()).toMatch(/^점수 1\.5 \/ 2/u);
    // The learner profile says it in Korean, with the changed status.
    await phone.locator('[data-testid=exam-profile] summary').click();
    const profileText = () => phone.getByTestId('learner-profile').textContent();
    await expect.poll(profileText).toContain('시험 2번: 부분 정답');
    expect(await profileText()).not.toMatch(/Correct|Incorrect|Partial/u);

    // A reload shows the same.
    await phone.reload();
    await phone.locator('[data-testid=exam-listing][data-state=closed] [data-testid=exam-open]').click();
    await phone.locator('[data-testid=exam-result][data-status=graded]').waitFor();
    expect(await phone.locator('[data-testid=exam-result-item][data-id="2"] [data-testid=exam-status]').textContent()).toBe('부분 정답');
    expect(await phone.getByTestId('exam-report-summary').textContent()).toContain('부분 정답 1개');

    expect(problems).toEqual([]);
  }, 120_000);

  it('GR16 an item the grader is not sure of reads 검토 중 in the student\'s result (pending, no provisional status); the teacher\'s decision updates it live', async () => {
    const problems: string[] = [];
    const { teacher, created, exam } = await publishMeanExam('검토 반', '평균 검토');

    const page = await (await newContext('desktop', problems)).newPage();
    await joinClass(page, created.body.code ?? '', '도윤');
    await page.locator('[data-testid=exam-listing][data-state=open] [data-testid=exam-open]').click();
    await fillBox(answerBox(page, 1), '평균');
    await fillBox(answerBox(page, 2), '극단값 하나가 합에 더해져서 평균이 끌려가요');
    await expect.poll(() => page.getByTestId('exam-saved').textContent()).toMatch(savedClock);
    const ended = await postJson(`${app.url}/api/exams/${exam.examId}/end`, {}, teacher.bearer);
    expect(ended.status).toBe(200);

    // The result is pending while the item waits for the teacher: 검토 중, the reason, no provisional status.
    await page.locator('[data-testid=exam-result][data-status=pending]').waitFor();
    const second = page.locator('[data-testid=exam-result-item][data-id="2"]');
    await expect.poll(() => second.getByTestId('exam-status').textContent()).toBe('검토 중');
    expect(await second.textContent()).toContain('선생님이 이 문항을 검토하고 있습니다');
    expect(await second.textContent()).not.toMatch(/정답|오답/u);

    // The teacher decides; the student's page follows without a reload.
    const sessionId = ((await getJson<{ students: { sessionId: string }[] }>(`${app.url}/api/exams/${exam.examId}/results`, teacher.bearer)).body.students ?? [])[0]?.sessionId ?? '';
    const override = await postJson(`${app.url}/api/exams/${exam.examId}/students/${sessionId}/items/2/override`, { status: 'Correct', reason: '극단값이 합을 바꾼다는 뜻입니다.' }, teacher.bearer);
    expect(override.status, JSON.stringify(override.body)).toBe(200);
    await expect.poll(() => second.getByTestId('exam-status').textContent()).toBe('정답');
    await page.locator('[data-testid=exam-result][data-status=graded]').waitFor();
    // GR24: decided, the item no longer says it is being reviewed; the teacher's reason is said once.
    await expect.poll(() => second.getByTestId('exam-review').textContent()).toBe('선생님이 채점을 바꿨어요 (검토 중 → 정답): 극단값이 합을 바꾼다는 뜻입니다.');
    expect(await second.textContent()).not.toContain('검토하고 있습니다');
    expect(await second.getByTestId('exam-feedback').count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('the exam editor is bound to one exam', () => {
  it('XA10 two exams never share a list label; complaints sit on their items and hold 게시 back until the item is edited or 지적 확인; the confirmation names the exam, its count and the class (warning of another material); switching material clears the editor and the status', async () => {
    const problems: string[] = [];
    const teacher = await signUp(app);
    const statistics = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const other = (await uploadPdf(app, await madePdf('인공지능 개론'), 'ai.pdf', teacher)).id;
    const statsClass = await postJson<{ classId: string }>(`${app.url}/api/classes`, { name: '통계반', materialId: statistics }, teacher.bearer);
    const aiClass = await postJson<{ classId: string }>(`${app.url}/api/classes`, { name: 'AI반', materialId: other }, teacher.bearer);
    const base = {
      accountId: teacher.accountId,
      materialId: statistics,
      title: '통계 시험',
      request: { count: 2, descriptive: 0 },
      plan: {
        planning_strategy: '평균과 분산',
        planned_items: [1, 2].map((id) => ({ id, target_topic: id === 1 ? '평균' : '분산', question_type: 'Short_Keyword' as const, intent_type: 'Definition' as const, complexity_level: 'Basic' as const, source_reference_hint: '1장' })),
      },
      problems: [
        { id: 1, type: 'Short_Keyword' as const, question_content: '값을 모두 더해 개수로 나눈 값은?', model_answer: '평균', key_keywords: ['평균'], intent_diagnosis: '평균의 정의' },
        { id: 2, type: 'Short_Keyword' as const, question_content: '흩어진 정도를 나타내는 값은?', model_answer: '분산', key_keywords: ['분산'], intent_diagnosis: '분산의 정의' },
      ],
      valid: true,
      rounds: 1,
    };
    // Two exams with one title, made within the same minute; the second with a complaint on each item.
    await app.exams.create({ ...base, complaints: [] });
    const flagged = await app.exams.create({
      ...base,
      valid: false,
      rounds: 3,
      complaints: [
        { id: 1, message: '[질문 명확성] 질문이 모호합니다.' },
        { id: 2, message: '[사실 확인] 모범 답안이 자료와 다릅니다.' },
      ],
    });

    const confirms: string[] = [];
    let answer = false;
    const context = await newContext('desktop', problems, (message) => {
      confirms.push(message);
      return answer;
    });
    await signInContext(context, app, teacher);
    const host = await context.newPage();
    await host.goto(`${app.url}/host.html`);
    await host.click('[data-testid=exam-box] summary');
    await host.getByTestId('exam-material').locator(`option[value="${statistics}"]`).waitFor({ state: 'attached' });
    await host.selectOption('[data-testid=exam-material]', statistics);
    await expect.poll(() => host.getByTestId('exam-list-item').count()).toBe(2);
    const labels = await host.locator('[data-testid=exam-list-item] strong').allTextContents();
    expect(new Set(labels).size).toBe(2);

    // The flagged exam: each complaint on its item; 게시 is disabled and says which items hold it back.
    await host.locator(`[data-testid=exam-list-item][data-exam-id="${flagged.examId}"] [data-testid=exam-list-open]`).click();
    await host.locator(`[data-testid=exam-view][data-exam-id="${flagged.examId}"]`).waitFor();
    const item = (id: number) => host.locator(`[data-testid=exam-edit-item][data-id="${id}"]`);
    expect(await item(1).getByTestId('exam-complaint').textContent()).toContain('질문이 모호합니다');
    expect(await item(2).getByTestId('exam-complaint').textContent()).toContain('모범 답안이 자료와 다릅니다');
    expect(await host.getByTestId('exam-publish').isDisabled()).toBe(true);
    expect(await host.getByTestId('exam-publish-blocked').textContent()).toContain('1번, 2번');

    // Item 1 edited and saved: its complaint leaves it. Item 2 accepted as it is (지적 확인). Then 게시 is enabled.
    await fillBox(item(1).getByTestId('exam-edit-question'), '자료의 값을 모두 더해 개수로 나눈 값을 무엇이라 하나요?');
    await item(1).getByTestId('exam-edit-save').click();
    await expect.poll(() => item(1).getByTestId('exam-complaint').count()).toBe(0);
    expect(await host.getByTestId('exam-publish-blocked').textContent()).toContain('2번');
    expect(await host.getByTestId('exam-publish').isDisabled()).toBe(true);
    await item(2).getByTestId('exam-complaint-accept').click();
    await expect.poll(() => item(2).getByTestId('exam-complaint-state').textContent()).toBe('지적을 확인하고 그대로 두기로 했습니다.');
    await expect.poll(() => host.getByTestId('exam-publish').isEnabled()).toBe(true);

    // Publishing to the AI class: the confirmation names the exam, its item count and the class, and warns that the
    // class studies another material; dismissed, nothing is published.
    await host.selectOption('[data-testid=exam-class]', aiClass.body.classId ?? '');
    await fillBox(host.locator('[data-testid=exam-minutes]'), '20');
    answer = false;
    await host.getByTestId('exam-publish').click();
    await expect.poll(() => confirms.length).toBe(1);
    expect(confirms[0]).toContain('「통계 시험」(2문항)');
    expect(confirms[0]).toContain('AI반');
    expect(confirms[0]).toContain('주의');
    expect((await getJson<{ publication: unknown }>(`${app.url}/api/exams/${flagged.examId}`, teacher.bearer)).body.publication).toBeNull();
    // To the statistics class: no warning; accepted, published there.
    await host.selectOption('[data-testid=exam-class]', statsClass.body.classId ?? '');
    answer = true;
    await host.getByTestId('exam-publish').click();
    await host.getByTestId('exam-published').waitFor();
    expect(confirms[1]).toContain('통계반');
    expect(confirms[1]).not.toContain('주의');
    const published = await getJson<{ publication: { classId: string } | null }>(`${app.url}/api/exams/${flagged.examId}`, teacher.bearer);
    expect(published.body.publication?.classId).toBe(statsClass.body.classId);

    // A run on this material, then another material is picked: the editor and the status box are cleared, and the
    // list is the other material's (empty): nothing of the statistics exam can be published from here.
    await fillBox(host.locator('[data-testid=exam-count]'), '1');
    await fillBox(host.locator('[data-testid=exam-descriptive]'), '0');
    await host.getByTestId('exam-start').click();
    await expect.poll(() => host.getByTestId('exam-status').textContent()).toMatch(/시험을 만들었습니다|지적이 남은 문항이 있습니다/u);
    await host.selectOption('[data-testid=exam-material]', other);
    expect(await host.getByTestId('exam-view').isHidden()).toBe(true);
    expect(await host.getByTestId('exam-publish').count()).toBe(0);
    expect(await host.getByTestId('exam-status').textContent()).toBe('');
    await expect.poll(() => host.getByTestId('exam-list-item').count()).toBe(0);

    expect(problems).toEqual([]);
  }, 120_000);
});
