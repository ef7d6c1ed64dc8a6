/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AG10 — Thirty students in the browser. (`test/e2e/exam-groups.e2e.test.ts`, desktop). Thirty students answer
 *   one descriptive item (29 over the HTTP API, one on the classroom page); on the host page's results the teacher
 *   opens 묶어서 채점: every answer once, in groups, those waiting for review first, nicknames and answers as text
 *   (a student's markup shows as typed). The teacher moves one answer out of the student's group (it stands alone),
 *   then decides the group with one status, one reason and one click; the student's open page shows the new status
 *   without a reload, each answer of the group has its own audit entry with the group's id, and the moved-out answer
 *   keeps its status, its one audit entry the move.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExamAnswerGroupsReply } from '../../src/protocol/exams.js';
import { signUp } from '../support/accounts.js';
import { fillBox, launchBrowser, watchPage } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { getJson, postJson } from '../support/classroom-client.js';
import { uploadPdf } from '../support/data-flow.js';
import { call } from '../support/http-call.js';
import { samplePdfBytes } from '../support/lecture-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * AG10 (test/SPEC.md, "Exams: the teacher grades groups of answers"): group grading in a real chromium against the real
 * app (memory store, offline model and grader): a class of thirty on one item, the teacher's 묶어서 채점, and the
 * student's page updated live.
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

async function desktop(problems: string[]): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ko-KR' });
  contexts.push(context);
  const origin = new URL(app.url).origin;
  context.on('page', (page) => watchPage(page, origin, problems));
  return context;
}

/** Thirty answers to "평균이 극단값에 민감한 이유" as a class writes them: a few meanings, many wordings, some alike. */
const RIGHT = ['극단값 하나가 합을 크게 바꾸기 때문이다', '극단값 하나가 합을 크게 바꾸기 때문입니다', '극단값 하나가 전체 합을 크게 바꾸기 때문', '극단값 하나가 합을 크게 바꿔서'];
const WRONG = ['평균은 가운데 있는 값이라서 그렇다', '평균은 가운데 값이라서', '평균은 가운데 있는 값이기 때문이다'];
const MARKUP = '<b>모르겠어요</b>';
const ANSWERS = Array.from({ length: 29 }, (_, index) => (index % 3 === 0 ? (WRONG[index % WRONG.length] ?? '') : index === 28 ? MARKUP : index % 7 === 0 ? '모르겠어요' : (RIGHT[index % RIGHT.length] ?? '')));
const STUDENT_ANSWER = RIGHT[0] ?? '';
const REASON = '극단값이 합을 바꾼다는 핵심을 모두 썼습니다.';
const LABELS: Record<string, string> = { Correct: '정답', Partial_Correct: '부분 정답', Incorrect: '오답' };

describe('묶어서 채점', () => {
  it('AG10 thirty students on one item: the teacher moves one answer out and grades the student\'s group in one action; the student\'s page follows live', async () => {
    const problems: string[] = [];
    const teacher = await signUp(app);
    const materialId = (await uploadPdf(app, await samplePdfBytes(), 'sample.pdf', teacher)).id;
    const created = await postJson<{ classId: string; code: string }>(`${app.url}/api/classes`, { name: '서른 명 반', materialId }, teacher.bearer);
    expect(created.status).toBe(201);
    const exam = await app.exams.create({
      accountId: teacher.accountId,
      materialId,
      title: '평균 서술형',
      request: { count: 1, descriptive: 1 },
      plan: {
        planning_strategy: '평균의 성질을 묻는다.',
        planned_items: [{ id: 1, target_topic: '평균의 성질', question_type: 'Descriptive', intent_type: 'Causal_Explanation', complexity_level: 'Basic', source_reference_hint: '1장' }],
      },
      problems: [{ id: 1, type: 'Descriptive', question_content: '평균이 극단값에 민감한 이유를 설명하시오.', model_answer: '모든 값을 더하므로 극단값 하나가 합을 크게 바꾼다.', key_keywords: ['합', '극단값'], intent_diagnosis: '평균의 성질' }],
      complaints: [],
      valid: true,
      rounds: 1,
    });
    const published = await postJson(`${app.url}/api/exams/${exam.examId}/publish`, { classId: created.body.classId, timeLimitMinutes: 30 }, teacher.bearer);
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    // Twenty-nine classmates answer over the API (join, autosave, submit), as their pages would.
    for (const [index, text] of ANSWERS.entries()) {
      const joined = await postJson<{ token: string }>(`${app.url}/api/classes/${created.body.code}/join`, { nickname: `학생${String(index + 1).padStart(2, '0')}` });
      expect(joined.status).toBe(201);
      const headers = { authorization: `Bearer ${joined.body.token}` };
      expect((await call(`${app.url}/api/class-exams/${exam.examId}/draft`, 'PUT', { headers, body: { answers: { 1: text } } })).status).toBe(200);
      expect((await call(`${app.url}/api/class-exams/${exam.examId}/submit`, 'POST', { headers, body: {} })).status).toBe(200);
    }

    // The thirtieth on the classroom page.
    const student = await (await desktop(problems)).newPage();
    await student.goto(`${app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '도윤');
    await fillBox(student.locator('[data-testid=class-code]'), created.body.code ?? '');
    await student.click('[data-testid=join-class]');
    await student.locator('[data-testid=classroom]').waitFor();
    await student.locator('[data-testid=exam-listing][data-state=open] [data-testid=exam-open]').click();
    const box = student.locator('[data-testid=exam-item][data-id="1"] [data-testid=exam-answer]');
    await fillBox(box, STUDENT_ANSWER);
    await expect.poll(() => student.getByTestId('exam-saved').textContent()).toMatch(/^저장됨 /u);
    expect((await postJson(`${app.url}/api/exams/${exam.examId}/end`, {}, teacher.bearer)).status).toBe(200);
    const results = async () => (await getJson<{ students: { sessionId: string; nickname: string; report: unknown }[] }>(`${app.url}/api/exams/${exam.examId}/results`, teacher.bearer)).body.students ?? [];
    await expect.poll(async () => (await results()).filter((entry) => entry.report !== null).length).toBe(30);
    const doyoon = (await results()).find((entry) => entry.nickname === '도윤')?.sessionId ?? '';
    const mine = student.locator('[data-testid=exam-result-item][data-id="1"] [data-testid=exam-status]');
    await mine.waitFor();
    const before = (await mine.textContent()) ?? '';

    // The teacher's results: 묶어서 채점 on item 1.
    const teacherContext = await desktop(problems);
    await signInContext(teacherContext, app, teacher);
    const host = await teacherContext.newPage();
    await host.goto(`${app.url}/host.html`);
    await host.click('[data-testid=exam-box] summary');
    await host.getByTestId('exam-material').locator(`option[value="${materialId}"]`).waitFor({ state: 'attached' });
    await host.selectOption('[data-testid=exam-material]', materialId);
    await host.locator(`[data-testid=exam-list-item][data-exam-id="${exam.examId}"] [data-testid=exam-list-open]`).click();
    await host.getByTestId('exam-groups').waitFor();
    await host.getByTestId('group-open').click();
    const groups = host.getByTestId('answer-group');
    await groups.first().waitFor();
    // Every answer once; groups waiting for review first; answers shown as typed (markup as text).
    const sizes = await groups.evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-size'))));
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(30);
    expect(await host.getByTestId('group-answer').count()).toBe(30);
    expect(sizes.length).toBeLessThan(30);
    const review = await groups.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-needs-review') === 'true'));
    expect(review).toEqual([...review].sort((left, right) => Number(right) - Number(left)));
    expect(await host.getByTestId('group-answer-text').filter({ hasText: MARKUP }).count()).toBe(1);
    expect(await host.locator('[data-testid=group-answer-text] b').count()).toBe(0);

    // 도윤's group: one classmate's answer moved out first.
    const mineGroup = () => host.locator(`[data-testid=answer-group]:has([data-session-id="${doyoon}"])`);
    const size = Number(await mineGroup().getAttribute('data-size'));
    expect(size).toBeGreaterThan(2);
    const other = mineGroup().locator(`[data-testid=group-answer]:not([data-session-id="${doyoon}"])`).first();
    const movedId = (await other.getAttribute('data-session-id')) ?? '';
    await other.getByTestId('group-move-out').click();
    await expect.poll(() => host.getByTestId('group-list-note').textContent()).toContain('묶음에서 뺐습니다');
    expect(await mineGroup().getAttribute('data-size')).toBe(String(size - 1));
    const alone = host.locator(`[data-testid=answer-group]:has([data-session-id="${movedId}"])`);
    expect(await alone.getAttribute('data-detached')).toBe('true');
    expect(await alone.getAttribute('data-size')).toBe('1');

    // One status, one reason, one click for the whole group: a status the student does not have now.
    const target = before === '부분 정답' ? 'Correct' : 'Partial_Correct';
    const groupId = (await mineGroup().getAttribute('data-group-id')) ?? '';
    await mineGroup().getByTestId('group-status').selectOption(target);
    await fillBox(mineGroup().getByTestId('group-reason'), REASON);
    await mineGroup().getByTestId('group-apply').click();
    // The note names the group by its students (the list is redrawn in a new order) and says the status with its
    // particle: `도윤, … 외 N명의 판정을 부분 정답으로 정했습니다 (M명).`
    await expect.poll(() => host.getByTestId('group-list-note').textContent()).toContain(`${LABELS[target]}으로 정했습니다 (${size - 1}명).`);
    expect(await host.getByTestId('group-list-note').textContent()).not.toContain('(으)로');
    await expect.poll(() => mineGroup().locator(`[data-testid=group-answer][data-session-id="${doyoon}"] [data-testid=group-answer-status]`).getAttribute('data-status')).toBe(target);

    // The student's page follows without a reload.
    await expect.poll(() => mine.textContent()).toBe(LABELS[target]);
    expect(await student.locator('[data-testid=exam-result-item][data-id="1"]').textContent()).toContain(REASON);

    // Audited per answer, with the group's id; the moved-out answer's only entry is its move, its status untouched.
    const audit = await app.exams.repository.audit(exam.examId);
    const overrides = audit.filter((entry) => entry.action === 'override');
    expect(overrides).toHaveLength(size - 1);
    expect(overrides.every((entry) => entry.groupId === groupId && entry.to === target && entry.reason === REASON)).toBe(true);
    expect(overrides.some((entry) => entry.sessionId === doyoon)).toBe(true);
    expect(audit.filter((entry) => entry.sessionId === movedId).map((entry) => [entry.action, entry.from === entry.to])).toEqual([['move-out', true]]);
    const after = (await call(`${app.url}/api/exams/${exam.examId}/items/1/groups`, 'GET', { headers: teacher.bearer })).body as ExamAnswerGroupsReply;
    expect(after.groups.find((group) => group.groupId === groupId)?.answers.every((answer) => answer.status === target)).toBe(true);
    expect(problems).toEqual([]);
  });
});
