/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MN9 — A reconnection that lost events. When the monitor's socket comes back without the server recovering its
 *   session (the events sent meanwhile are gone), the page reads the exam table again: a draft saved while it was
 *   away shows, without a reload.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../support/accounts.js';
import { launchBrowser, watchPage } from '../support/browser.js';
import { signInContext } from '../support/browser-account.js';
import { postJson } from '../support/classroom-client.js';
import { call } from '../support/http-call.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { WAIT_TIMEOUT_MS } from '../support/waits.js';

/**
 * MN9 (test/SPEC.md) in a real chromium against the real app (memory store, offline model). The server drops the
 * monitor's connection and, for that one reconnection, finds no session to recover; a student's draft is saved while
 * the socket is away, so its `exam:progress` reaches nobody.
 */

let app: TestApp;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  app = await startTestApp({ SIGNUP: 'open' });
  await app.materials.preloadSample();
  browser = await launchBrowser();
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await app?.stop();
});

/** The part of socket.io's adapter a reconnection asks for the session it left (socket.io-adapter 2.5). */
interface RecoveringAdapter {
  restoreSession(pid: string, offset: string): Promise<unknown>;
}

describe('the monitor after a reconnection the server could not recover', () => {
  it('MN9 the exam table is read again: a draft saved while the socket was away shows without a reload', async () => {
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

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'ko-KR' });
    context.setDefaultTimeout(WAIT_TIMEOUT_MS);
    contexts.push(context);
    await signInContext(context, app, teacher);
    context.on('page', (page) => watchPage(page, new URL(app.url).origin, problems));
    const monitor = await context.newPage();
    await monitor.goto(`${app.url}/monitor.html?class=${classId}`);
    await monitor.locator('[data-testid=monitor-connection][data-state=connected]').waitFor();
    const row = monitor.locator('[data-testid=exam-progress-row]', { hasText: '하린' });
    await expect.poll(() => row.getByTestId('exam-progress-answered').textContent()).toBe('1/2');

    // The next reconnection finds no session to recover; the draft is saved during its handshake, before the socket
    // is back in the class's room.
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
    expect(problems).toEqual([]);
  }, 90_000);
});
