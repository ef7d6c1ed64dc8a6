/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MN7 — Pages. In Chromium: "기록 보기" on a student shows the transcript panel (question, answer, verdict); a reply
 *   typed in the hand queue appears in the student's raise-hand dialogue labelled 선생님 …
 * - MN9 — A reconnection that lost events. When the monitor's socket comes back without the server recovering its
 *   session (the events sent meanwhile are gone), the page reads the exam table again: a draft saved while it was
 *   away shows, without a reload.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fillBox, launchBrowser, setRange } from '../support/browser.js';
import { signUp } from '../support/accounts.js';
import { signInContext } from '../support/browser-account.js';
import { postJson } from '../support/classroom-client.js';
import { call } from '../support/http-call.js';
import { chapterGenerated, generatedChapter } from '../support/lecture-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The instructor's monitor and the student's raise-hand panel in a real (headless Debian) chromium against the real
 * app (memory store, offline model): two browser contexts, one class.
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

/** Browser globals used inside page functions (the project compiles without DOM types). */
interface PageGlobals {
  sessionStorage: { getItem(key: string): string | null };
}

/** Set LECTERN_SCREENSHOTS=1 to write /tmp/monitor.png and /tmp/classroom-hand.png along the way. */
const SCREENSHOTS = process.env.LECTERN_SCREENSHOTS === '1';

/** A page that records anything leaving the test server and any error it shows. */
async function openPage(options: { width: number; height: number }, foreign: string[], problems: string[], name: string, instructor = false): Promise<Page> {
  const context = await browser.newContext({ viewport: options });
  // The monitor is an instructor's page: that browser holds an account's session (a new account each time).
  if (instructor) await signInContext(context, app);
  contexts.push(context);
  const page = await context.newPage();
  const origin = new URL(app.url);
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin.origin && url.protocol !== 'data:') foreign.push(`${name}: ${request.url()}`);
  });
  page.on('websocket', (socket) => {
    if (new URL(socket.url()).host !== origin.host) foreign.push(`${name}: ${socket.url()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${name}: HTTP ${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`${name}: pageerror ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${name}: console ${message.text()}`);
  });
  return page;
}

describe('instructor monitor and raise hand', () => {
  it('shows a joined student, their progress and raised hand to the instructor (XA9: a hand the assistant answered stays listed with its question); acknowledgement and announcement reach the student', async () => {
    const foreign: string[] = [];
    const problems: string[] = [];
    const teacher = await openPage({ width: 1280, height: 900 }, foreign, problems, 'monitor', true);
    const student = await openPage({ width: 1280, height: 900 }, foreign, problems, 'classroom');

    // The instructor creates a class for the sample material and reads the join code.
    await teacher.goto(`${app.url}/monitor.html`);
    await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).waitFor({ state: 'attached' });
    await fillBox(teacher.locator('[data-testid=class-name]'), '통계 1반');
    const materialId = await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).getAttribute('value');
    await teacher.selectOption('[data-testid=class-material]', materialId ?? '');
    await teacher.click('[data-testid=create-class]');
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const code = (await teacher.locator('[data-testid=join-code]').textContent())?.trim() ?? '';
    expect(code).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{6}$/);
    expect(await teacher.locator('[data-testid=class-title]').textContent()).toBe('통계 1반');
    await teacher.locator('[data-testid=roster-empty]').waitFor();

    // The student joins with the code; the lecture starts on its own.
    await student.goto(`${app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '민지');
    await fillBox(student.locator('[data-testid=class-code]'), code.toLowerCase());
    await student.click('[data-testid=join-class]');
    await student.locator('[data-testid=connection][data-state=connected]').waitFor();
    await setRange(student, '[data-testid=speed]', 200);

    // The instructor sees the student connect and move from "not started" into chapter 1.
    const entry = teacher.locator('[data-testid=roster-entry]', { hasText: '민지' });
    await entry.waitFor();
    await teacher.locator('[data-testid=roster-entry][data-connected=true]', { hasText: '민지' }).waitFor();
    await teacher.locator('[data-testid=roster-entry][data-chapter="0"]', { hasText: '민지' }).waitFor();
    expect(await entry.locator('[data-testid=student-progress]').textContent()).toMatch(/^1\/3장 평균의 의미 · \d+%$/);
    expect(await entry.locator('[data-testid=student-state]').textContent()).toMatch(/강의 듣는 중|질문에 답하는 중/);

    // The lecture asks its first question; the student raises a hand instead of answering: the assistant asks what
    // the question is.
    const firstQuestion = student.locator('[data-testid=question-card][data-kind=question][data-state=pending]');
    await firstQuestion.locator('[data-testid=answer-input]').waitFor();
    await teacher.locator('[data-testid=roster-entry][data-state=awaiting-answer]', { hasText: '민지' }).waitFor();
    await student.click('[data-testid=raise-hand]');
    const panel = student.locator('[data-testid=hand-panel]');
    await panel.waitFor();
    await panel.locator('[data-testid=hand-assistant]', { hasText: '무엇이 궁금한가요' }).waitFor();
    await student.locator('[data-testid=lecture][data-phase=hand-raised]').waitFor();
    expect(await student.locator('[data-testid=raise-hand]').isDisabled()).toBe(true);
    const question = '기댓값이 무슨 내용인지 모르겠어요';
    await fillBox(panel.locator('[data-testid=hand-input]'), question);
    await panel.locator('[data-testid=hand-send]').click();
    await panel.locator('[data-testid=hand-student]', { hasText: question }).waitFor();

    // The instructor's queue shows the hand with the question; 확인 reaches the student.
    const hand = teacher.locator('[data-testid=hand-item]', { hasText: '민지' });
    await hand.locator('[data-testid=hand-question]', { hasText: question }).waitFor();
    await teacher.locator('[data-testid=roster-entry][data-hand=true]', { hasText: '민지' }).waitFor();
    expect(await teacher.locator('[data-testid=queue-count]').textContent()).toBe('1');
    await hand.locator('[data-testid=hand-ack]').click();
    await hand.locator('[data-testid=hand-acked]').waitFor();
    await panel.locator('[data-testid=hand-acknowledged]', { hasText: '선생님이 손 든 것을 확인했어요' }).waitFor();

    // An announcement reaches the student.
    const notice = '5분 뒤에 다 같이 2장을 시작해요.';
    await fillBox(teacher.locator('[data-testid=announce-input]'), notice);
    await teacher.click('[data-testid=announce-send]');
    await teacher.locator('[data-testid=announce-item]', { hasText: notice }).waitFor();
    await student.locator('[data-testid=announcement]', { hasText: notice }).waitFor();

    // The instructor's connection drops and comes back: the roster and the queue are whole again.
    for (const socket of app.server.io.of('/monitor').sockets.values()) socket.conn.close();
    await teacher.locator('[data-testid=monitor-connection][data-state=reconnecting]').waitFor();
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await hand.locator('[data-testid=hand-question]', { hasText: question }).waitFor();
    await hand.locator('[data-testid=hand-acked]').waitFor();
    expect(await teacher.locator('[data-testid=roster-entry]').count()).toBe(1);

    // The vague question is explained part by part; the first check waits for the student.
    const pendingCheck = panel.locator('[data-testid=hand-check][data-state=pending]');
    await pendingCheck.locator('[data-testid=hand-reply-input]').waitFor();
    expect(await panel.locator('[data-testid=reply][data-kind=explain]').count()).toBeGreaterThan(0);
    if (SCREENSHOTS) {
      await teacher.screenshot({ path: '/tmp/monitor.png', fullPage: true });
      await student.screenshot({ path: '/tmp/classroom-hand.png' });
      await student.setViewportSize({ width: 390, height: 844 });
      await student.screenshot({ path: '/tmp/classroom-hand-phone.png' });
      await student.setViewportSize({ width: 1280, height: 900 });
    }

    // A reload in the middle of the dialogue restores it from the snapshot: the question, the explanation, the check.
    const checkText = await pendingCheck.locator('.hand-check-text').textContent();
    await student.reload();
    await student.locator('[data-testid=connection][data-state=connected]').waitFor();
    await pendingCheck.locator('[data-testid=hand-reply-input]').waitFor();
    expect(await pendingCheck.locator('.hand-check-text').textContent()).toBe(checkText);
    expect(await panel.locator('[data-testid=hand-student]').first().textContent()).toContain(question);
    expect(await panel.locator('[data-testid=reply][data-kind=explain]').count()).toBeGreaterThan(0);
    expect(await student.locator('[data-testid=lecture]').getAttribute('data-phase')).toBe('hand-raised');
    // The lecture's question still waits behind the dialogue, with its answer box.
    expect(await firstQuestion.count()).toBe(1);

    // Every check answered with "네": the final explanation, the summary, and the closing line.
    for (let turn = 0; turn < 10; turn += 1) {
      const next = panel.locator('[data-testid=hand-check][data-state=pending], [data-testid=hand-closed]').first();
      await next.waitFor();
      if ((await next.getAttribute('data-testid')) === 'hand-closed') break;
      await fillBox(next.locator('[data-testid=hand-reply-input]'), '네');
      await next.locator('[data-testid=hand-reply-send]').click();
      await panel.locator('[data-testid=hand-student] p', { hasText: /^네$/ }).nth(turn).waitFor();
    }
    await panel.locator('[data-testid=hand-closed][data-kind=vague]').waitFor();
    expect(await panel.locator('[data-testid=reply][data-kind=summary]').count()).toBe(1);
    expect(await panel.locator('[data-testid=reply][data-kind=summary] [data-testid=reply-text]').textContent()).toContain('기댓값');

    // The hand is resolved: the instructor's queue empties; the student's lecture goes on.
    await teacher.locator('[data-testid=queue-empty]').waitFor();
    expect(await teacher.locator('[data-testid=hand-item]').count()).toBe(0);
    await teacher.locator('[data-testid=roster-entry][data-hand=false]', { hasText: '민지' }).waitFor();
    // XA9: what the assistant answered stays on the monitor, with the question and who answered.
    const logged = teacher.locator('[data-testid=hand-log-item]', { hasText: '민지' });
    await logged.waitFor();
    expect(await logged.getByTestId('hand-log-question').textContent()).toBe(question);
    expect(await logged.getByTestId('hand-log-by').textContent()).toBe('AI 조교가 설명함');
    expect(await teacher.getByTestId('hand-log-empty').isHidden()).toBe(true);
    await student.locator('[data-testid=lecture][data-phase=awaiting-answer]').waitFor();
    expect(await student.locator('[data-testid=raise-hand]').getAttribute('aria-pressed')).toBe('false');
    await panel.locator('[data-testid=hand-close]').click();
    await panel.waitFor({ state: 'hidden' });
    const record = student.locator('details[data-testid=hand-record]');
    expect(await record.locator('summary').textContent()).toContain(question);

    // The student answers chapter 1's questions well (with the tutor's own model answer): the instructor sees the
    // verdict and the progress move on to chapter 2.
    const sessionId = await student.evaluate(
      () => (JSON.parse((globalThis as unknown as PageGlobals).sessionStorage.getItem('lectern.classroom') ?? '{}') as { sessionId?: string }).sessionId ?? '',
    );
    for (let turn = 0; turn < 6; turn += 1) {
      const next = student.locator('[data-testid=question-card][data-state=pending], [data-testid=chapter][data-chapter="1"]').first();
      await next.waitFor();
      if ((await next.getAttribute('data-testid')) === 'chapter') break;
      const state = (await app.lectures.repository.load(sessionId))?.state;
      if (state?.kind !== 'awaiting-answer') throw new Error(`expected a pending question, the session is ${state?.kind}`);
      await chapterGenerated(app, materialId ?? '', state.chapter);
      const lecture = (await generatedChapter(app, materialId ?? '', state.chapter)).text;
      const { modelAnswer } = await app.lectures.tutor.modelAnswer({ question: state.question.text, lecture });
      const card = student.locator(`[data-testid=question-card][data-question-id="${state.question.id}"]`);
      await fillBox(card.locator('[data-testid=answer-input]'), modelAnswer.slice(0, 2000));
      await card.locator('[data-testid=answer-submit]').click();
      await card.locator('[data-testid=verdict][data-verdict=good]').waitFor();
      await entry.locator('[data-testid=student-verdict][data-verdict=good]', { hasText: '잘했어요' }).waitFor();
    }
    await teacher.locator('[data-testid=roster-entry][data-chapter="1"]', { hasText: '민지' }).waitFor();
    expect(await entry.locator('[data-testid=student-progress]').textContent()).toMatch(/^2\/3장 기댓값 · 33%$/);
    expect(Number(await entry.locator('[data-testid=student-bar]').getAttribute('aria-valuenow'))).toBe(33);
    expect(await entry.locator('[data-testid=struggling]').isHidden()).toBe(true);

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('MN7: a click on a student shows their transcript; a direct reply reaches the raise-hand dialogue; rotate and close the class', async () => {
    const foreign: string[] = [];
    const problems: string[] = [];
    const teacher = await openPage({ width: 1280, height: 900 }, foreign, problems, 'monitor', true);
    const student = await openPage({ width: 1280, height: 900 }, foreign, problems, 'classroom');
    // The page confirms "코드 바꾸기" and "수업 끝내기"; the test reads what it asks and accepts.
    const confirmations: string[] = [];
    teacher.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
      void dialog.accept();
    });

    await teacher.goto(`${app.url}/monitor.html`);
    await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).waitFor({ state: 'attached' });
    await fillBox(teacher.locator('[data-testid=class-name]'), '기록 반');
    const materialId = await teacher.locator('[data-testid=class-material] option', { hasText: '기초 통계' }).getAttribute('value');
    await teacher.selectOption('[data-testid=class-material]', materialId ?? '');
    await teacher.click('[data-testid=create-class]');
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const code = (await teacher.locator('[data-testid=join-code]').textContent())?.trim() ?? '';

    await student.goto(`${app.url}/classroom.html`);
    await fillBox(student.locator('[data-testid=nickname]'), '서준');
    await fillBox(student.locator('[data-testid=class-code]'), code);
    await student.click('[data-testid=join-class]');
    await student.locator('[data-testid=connection][data-state=connected]').waitFor();
    await setRange(student, '[data-testid=speed]', 200);

    // The student answers the first question (wrongly); the instructor opens the student's record.
    const firstQuestion = student.locator('[data-testid=question-card][data-kind=question][data-state=pending]');
    await fillBox(firstQuestion.locator('[data-testid=answer-input]'), '잘 모르겠어요');
    await firstQuestion.locator('[data-testid=answer-submit]').click();
    const entry = teacher.locator('[data-testid=roster-entry]', { hasText: '서준' });
    await entry.locator('[data-testid=student-verdict][data-verdict]').waitFor();
    await entry.locator('[data-testid=student-open]').click();
    const transcript = teacher.locator('[data-testid=transcript-panel]');
    await transcript.waitFor();
    expect(await teacher.locator('[data-testid=transcript-title]').textContent()).toBe('서준 학생의 기록');
    await transcript.locator('[data-testid=transcript-item][data-type=question]').first().waitFor();
    await transcript.locator('[data-testid=transcript-item][data-type=answer]', { hasText: '잘 모르겠어요' }).waitFor();
    const verdict = transcript.locator('[data-testid=transcript-item][data-type=verdict]').first();
    expect(await verdict.textContent()).toMatch(/^판정: (잘했어요|다시 살펴봐요)./);

    // The student raises a hand (once the lecture streams again) and asks; the instructor answers directly.
    await student.locator('[data-testid=raise-hand]:not([disabled])').waitFor();
    await student.click('[data-testid=raise-hand]');
    const panel = student.locator('[data-testid=hand-panel]');
    await panel.locator('[data-testid=hand-assistant]').first().waitFor();
    const hand = teacher.locator('[data-testid=hand-item]', { hasText: '서준' });
    await hand.waitFor();
    const reply = '<b>좋은 질문</b>이에요. 평균은 "자료의 중심"입니다.';
    await fillBox(hand.locator('[data-testid=hand-answer-input]'), reply);
    await hand.locator('[data-testid=hand-answer-send]').click();
    await hand.locator('[data-testid=hand-answered]').waitFor();
    await hand.locator('[data-testid=hand-replied]', { hasText: reply }).waitFor();
    // In the student's dialogue, as text (never markup), labelled as the teacher's.
    const said = panel.locator('[data-testid=hand-instructor]');
    await said.waitFor();
    expect(await said.locator('p').textContent()).toBe(reply);
    expect(await said.locator('b').count()).toBe(0);
    expect(await said.locator('.hand-msg-label').textContent()).toBe('선생님');
    // The instructor's reply is in the record too.
    await transcript.locator('[data-testid=transcript-item][data-type=instructor]', { hasText: reply }).waitFor();

    // A reload keeps it in the dialogue (the session's snapshot holds it).
    await student.reload();
    await student.locator('[data-testid=connection][data-state=connected]').waitFor();
    await panel.locator('[data-testid=hand-instructor]', { hasText: reply }).waitFor();

    // A new code: the old one stops working; the page shows the new one.
    await teacher.click('[data-testid=rotate-code]');
    await expect.poll(async () => (await teacher.locator('[data-testid=join-code]').textContent())?.trim()).not.toBe(code);
    const newCode = (await teacher.locator('[data-testid=join-code]').textContent())?.trim() ?? '';
    expect(newCode).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{6}$/);
    expect((await fetch(`${app.url}/api/classes/${code}/join`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"nickname":"옛코드"}' })).status).toBe(404);

    // Closing the class: the monitor shows it closed, the student is told, the new code refuses with a Korean message.
    await teacher.click('[data-testid=close-class]');
    await teacher.locator('[data-testid=class-closed]').waitFor();
    expect(await teacher.locator('[data-testid=close-class]').isDisabled()).toBe(true);
    expect(await teacher.locator('[data-testid=rotate-code]').isDisabled()).toBe(true);
    await student.locator('[data-testid=class-closed]', { hasText: '수업을 마쳤습니다' }).waitFor();
    expect(confirmations).toHaveLength(2);
    expect(confirmations[1]).toContain('기록 반');
    const late = await openPage({ width: 1280, height: 900 }, foreign, [], 'late');
    await late.goto(`${app.url}/classroom.html`);
    await fillBox(late.locator('[data-testid=nickname]'), '지각생');
    await fillBox(late.locator('[data-testid=class-code]'), newCode);
    await late.click('[data-testid=join-class]');
    await late.locator('[data-testid=join-error]', { hasText: '이미 끝난 수업입니다' }).waitFor();

    // A reload of the monitor still shows the class closed (from the roster).
    await teacher.reload();
    await teacher.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    await teacher.locator('[data-testid=class-closed]').waitFor();

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** The part of socket.io's adapter a reconnection asks for the session it left (socket.io-adapter 2.5). */
interface RecoveringAdapter {
  restoreSession(pid: string, offset: string): Promise<unknown>;
}

describe('the monitor after a reconnection the server could not recover', () => {
  it('MN9 the exam table is read again: a draft saved while the socket was away shows without a reload', async () => {
    const foreign: string[] = [];
    const problems: string[] = [];
    const teacher = await signUp(app);
    const material = await app.materials.preloadSample();
    const created = await postJson<{ classId: string; code: string }>(`${app.url}/api/classes`, { name: '다시 연결 반', materialId: material.id }, teacher.bearer);
    expect(created.status).toBe(201);
    const classId = created.body.classId ?? '';
    const problem = (id: number, word: string) => ({ id, type: 'Short_Keyword' as const, question_content: `${word}의 이름은?`, model_answer: word, key_keywords: [word], intent_diagnosis: '정의' });
    const exam = await app.exams.create({
      accountId: teacher.accountId,
      materialId: material.id,
      title: '두 문항',
      request: { count: 2, descriptive: 0 },
      plan: {
        planning_strategy: '정의',
        planned_items: [1, 2].map((id) => ({ id, target_topic: '개념', question_type: 'Short_Keyword' as const, intent_type: 'Definition' as const, complexity_level: 'Basic' as const, source_reference_hint: '1장' })),
      },
      problems: [problem(1, '분산'), problem(2, '평균')],
      complaints: [],
      valid: true,
      rounds: 1,
    });
    expect((await postJson(`${app.url}/api/exams/${exam.examId}/publish`, { classId, timeLimitMinutes: 30 }, teacher.bearer)).status).toBe(200);
    const joined = await postJson<{ token: string }>(`${app.url}/api/classes/${created.body.code}/join`, { nickname: '하린' });
    expect(joined.status).toBe(201);
    const student = { authorization: `Bearer ${joined.body.token}` };
    const draft = async (answers: Record<number, string>) => expect((await call(`${app.url}/api/class-exams/${exam.examId}/draft`, 'PUT', { headers: student, body: { answers } })).status).toBe(200);
    await draft({ 1: '분산' });

    const monitor = await openPage({ width: 1280, height: 900 }, foreign, problems, 'monitor');
    await signInContext(monitor.context(), app, teacher);
    await monitor.goto(`${app.url}/monitor.html?class=${classId}`);
    await monitor.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const row = monitor.locator('[data-testid=exam-progress-row]', { hasText: '하린' });
    await expect.poll(() => row.getByTestId('exam-progress-answered').textContent()).toBe('1/2');

    // The next reconnection finds no session to recover; the draft is saved during its handshake, before the socket
    // is back in the class's room, so its exam:progress reaches nobody.
    const namespace = app.server.io.of('/monitor');
    const adapter = namespace.adapter as unknown as RecoveringAdapter;
    const restore = adapter.restoreSession.bind(adapter);
    let refused = 0;
    adapter.restoreSession = async () => {
      refused += 1;
      adapter.restoreSession = restore;
      await draft({ 2: '평균' });
      return null;
    };
    try {
      const sockets = [...namespace.sockets.values()];
      expect(sockets).toHaveLength(1);
      sockets[0]!.conn.close();
      await expect.poll(() => refused).toBe(1);
      await monitor.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
      await expect.poll(() => row.getByTestId('exam-progress-answered').textContent()).toBe('2/2');
    } finally {
      adapter.restoreSession = restore;
    }
    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
  });
});
