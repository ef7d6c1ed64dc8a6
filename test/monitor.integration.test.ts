/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - M1 — Roster. On connect an instructor receives `class:roster` with every student of the class in join order.
 * - M7 — Announcements. `class:announce` reaches every student socket of the class as `class:announcement {text, at}`
 *   (no seq) and no socket of another class or of no class.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { ClassInfo } from '../src/protocol/classroom.js';
import {
  connectInstructor,
  countNotices,
  createClass,
  getJson,
  joinClass,
  playSessionEvent,
  postJson,
  waitForNotice,
} from './support/classroom-client.js';
import { connectedOrThrow, joinLecture, loadSample, offlineStudent, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { scopedToTest, sharedFixture } from './fixtures/shared-app.js';

/** The instructor's `/monitor` room on a real server (memory store, offline model): rules M1–M8 of test/SPEC.md. */

beforeAll(async () => {
  await samplePdfBytes();
});

/**
 * One app for the file (booted and given the sample once); each test works in classes of its own and sees the app
 * through a view whose sockets close when the test finishes.
 */
const shared = sharedFixture(
  async () => {
    const app = await startTestApp();
    return { app, material: await loadSample(app) };
  },
  ({ app }) => app.stop(),
);

function boot(context: TestContext): { app: TestApp; material: Material } {
  const { app, material } = shared();
  return { app: scopedToTest(app, context), material };
}


describe('the /monitor room', () => {
  it('M1: an instructor gets class:roster on connect with every student of the class', async (context) => {
    const { app, material } = boot(context);
    const created = await createClass(app, { name: '통계', materialId: material.id });
    const online = await joinClass(app, created.code, '민지');
    const offline = await postJson<{ sessionId: string }>(`${app.url}/api/classes/${created.code}/join`, { nickname: '준호' });
    await expect.poll(async () => (await app.classes.info(created.classId)).students.find((student) => student.nickname === '민지')?.connected).toBe(true);

    const { roster } = await connectInstructor(app, created.instructorToken);
    expect(roster).toMatchObject({ classId: created.classId, name: '통계', code: created.code });
    expect(roster.students).toEqual([
      expect.objectContaining({ sessionId: online.sessionId, nickname: '민지', connected: true, chapter: -1, percent: 0, state: 'idle', hand: null }),
      expect.objectContaining({ sessionId: offline.body.sessionId, nickname: '준호', connected: false, lastVerdict: null, badStreak: 0 }),
    ]);
  });

  it('M2: student:joined when a student joins and when they connect, student:left when their last socket goes', async (context) => {
    const { app, material } = boot(context);
    const created = await createClass(app, { name: '반', materialId: material.id });
    const { monitor } = await connectInstructor(app, created.instructorToken);

    const joined = await postJson<{ sessionId: string; token: string }>(`${app.url}/api/classes/${created.code}/join`, { nickname: '서연' });
    const sessionId = joined.body.sessionId ?? '';
    expect(await monitor.waitFor('student:joined', ({ student }) => student.sessionId === sessionId)).toMatchObject({
      student: { nickname: '서연', connected: false, state: 'idle' },
    });
    const first = app.socket('/tutor', { token: joined.body.token });
    const second = app.socket('/tutor', { token: joined.body.token });
    await Promise.all([connectedOrThrow(first), connectedOrThrow(second)]);
    await monitor.waitFor('student:joined', ({ student }) => student.sessionId === sessionId && student.connected);

    const firstId = first.id ?? '';
    expect(app.server.io.of('/tutor').sockets.has(firstId)).toBe(true); // the same id on both ends
    first.disconnect();
    // A barrier, not a sleep. The server hands the disconnect to the monitor synchronously, which queues its
    // presence update on the student's own queue; once the server has dropped the socket, a third socket's connect
    // is queued behind that update, and the instructor's events go out in queue order on one socket. So a
    // student:left for the first socket would arrive before the third socket's student:joined.
    await expect.poll(() => app.server.io.of('/tutor').sockets.has(firstId)).toBe(false);
    const barrier = monitor.events.length;
    const third = app.socket('/tutor', { token: joined.body.token });
    await connectedOrThrow(third);
    await expect
      .poll(() => monitor.events.slice(barrier).some((event) => event.event === 'student:joined' && event.payload.student.sessionId === sessionId))
      .toBe(true);
    expect(monitor.all('student:left')).toEqual([]);
    third.disconnect();
    second.disconnect();
    expect(await monitor.waitFor('student:left')).toEqual({ sessionId });
    expect((await app.classes.info(created.classId)).students[0]?.connected).toBe(false);
  });

  it('M3: a student streaming at 200 tokens/s gives at most one progress event per second (plus the trailing one); the last one matches the roster', async (context) => {
    const { app, material } = boot(context);
    const created = await createClass(app, { name: '반', materialId: material.id });
    const { monitor } = await connectInstructor(app, created.instructorToken);
    const { client, sessionId } = await joinClass(app, created.code, '하준', { policy: offlineStudent(app, material.id, () => true) });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    const startedAt = Date.now();
    await client.ok('lecture:start');
    // Many progress-worthy changes (deltas, questions, verdicts) must have happened, however loaded the machine is:
    // the wait is for the count, bounded only by the test's own limit (the coalescing bound below scales with it).
    // Deltas coalesce what was written while the server was busy, so a loaded run may finish the chapter in fewer.
    await expect.poll(() => client.all('lecture:delta').length >= 40 || client.all('lecture:chapter-end').length > 0, { interval: 50 }).toBe(true);
    const windowEnd = Date.now();
    const inWindow = monitor.events.filter(
      (event) => event.event === 'student:progress' && event.payload.sessionId === sessionId && event.at <= windowEnd,
    );
    expect(inWindow.length).toBeGreaterThanOrEqual(1);
    // Coalesced: the leading event, then at most one per started second.
    expect(inWindow.length).toBeLessThanOrEqual(Math.ceil((windowEnd - startedAt) / 1000) + 1);

    // Stop the student where it is: the trailing edge delivers the final state, and the roster agrees.
    client.socket.disconnect();
    await monitor.waitFor('student:left');
    // The trailing edge comes within the throttle's second: wait for what it shows, not for a fixed time.
    const rosterEntry = async () => (await app.classes.info(created.classId)).students[0];
    const lastMatchesRoster = async () => {
      const [last, entry] = [monitor.all('student:progress').at(-1), await rosterEntry()];
      return last?.sessionId === sessionId && last.chapter === entry?.chapter && last.percent === entry?.percent && last.state === entry?.state;
    };
    await expect.poll(lastMatchesRoster).toBe(true);
    const entry = await rosterEntry();
    expect(monitor.all('student:progress').at(-1)).toEqual({ sessionId, chapter: entry?.chapter, percent: entry?.percent, state: entry?.state });
    expect(entry?.chapter).toBeGreaterThanOrEqual(0);
  });

  it('M4 M5: answers arrive as student:answered with the bad streak, subquestions as student:remediation', async (context) => {
    const { app, material } = boot(context);
    const created = await createClass(app, { name: '반', materialId: material.id });
    const { monitor } = await connectInstructor(app, created.instructorToken);
    // The first question badly, subquestion 1 badly, subquestion 2 well (and 3, if any, badly); then everything well.
    let lectureQuestions = 0;
    const policy = offlineStudent(app, material.id, (asked, ordinal) => {
      if (!asked.parentQuestionId) lectureQuestions += 1;
      if (lectureQuestions > 1) return true;
      return asked.parentQuestionId !== undefined && ordinal === 2;
    });
    const { client, sessionId } = await joinClass(app, created.code, '도윤', { policy });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForEvent('tutor:reply-start', { where: (reply) => reply.kind === 'supplement' });

    const verdicts = client.all('tutor:verdict');
    const subquestions = client.all('tutor:subquestion');
    expect(verdicts.length).toBeGreaterThanOrEqual(3);
    let streak = 0;
    const expected = verdicts.map(({ questionId, verdict }) => {
      streak = verdict === 'bad' ? streak + 1 : 0;
      return { sessionId, questionId, verdict, badStreak: streak };
    });
    expect(expected.slice(0, 3).map((entry) => entry.badStreak)).toEqual([1, 2, 0]);
    await expect.poll(() => monitor.all('student:answered').length).toBeGreaterThanOrEqual(expected.length);
    expect(monitor.all('student:answered').slice(0, expected.length)).toEqual(expected);
    await expect.poll(() => monitor.all('student:remediation').length).toBeGreaterThanOrEqual(subquestions.length);
    expect(monitor.all('student:remediation').slice(0, subquestions.length)).toEqual(
      subquestions.map(({ concept, index, total }) => ({ sessionId, concept, index, total })),
    );
    const entry = (await getJson<ClassInfo>(`${app.url}/api/classes/${created.classId}`, { authorization: `Bearer ${created.instructorToken}` })).body
      .students?.[0];
    expect(entry?.lastVerdict).toBe(expected.at(-1)?.verdict);
    expect(client.seqErrors).toEqual([]);
  });

  it('M7: class:announce reaches every student socket of the class and no other', async (context) => {
    const { app, material } = boot(context);
    const classA = await createClass(app, { name: 'A', materialId: material.id });
    const classB = await createClass(app, { name: 'B', materialId: material.id });
    const a1 = await joinClass(app, classA.code, 'a1');
    const a2 = await joinClass(app, classA.code, 'a2');
    const b1 = await joinClass(app, classB.code, 'b1');
    const { client: solo } = await joinLecture(app, material.id, { nickname: 'solo' });
    const { monitor: instructorA } = await connectInstructor(app, classA.instructorToken);
    const { monitor: instructorB } = await connectInstructor(app, classB.instructorToken);

    const ack = await instructorA.command('class:announce', { text: '  10분 뒤에 퀴즈를 봅니다  ' });
    expect(ack).toMatchObject({ ok: true, at: expect.any(Number) });
    const at = ack.ok ? ack.at : 0;
    for (const student of [a1, a2]) {
      expect(await waitForNotice(student.client, 'class:announcement')).toEqual({ text: '10분 뒤에 퀴즈를 봅니다', at });
    }
    // B's own announcement is the first one B's student sees: A's never reached it.
    expect(await instructorB.command('class:announce', { text: 'B반 공지' })).toMatchObject({ ok: true });
    expect(await waitForNotice(b1.client, 'class:announcement')).toMatchObject({ text: 'B반 공지' });
    // A barrier per student, not a sleep: an announcement is broadcast before the instructor's command is acked, so
    // it is already on its way down every student socket it goes to; a command acked on that same socket now is
    // answered behind it (one socket delivers in order), so any announcement it got is recorded before this ack.
    for (const client of [a1.client, a2.client, b1.client, solo]) await client.ok('lecture:speed', { tokensPerSecond: 25 });
    for (const client of [a1.client, a2.client, b1.client, solo]) {
      expect(countNotices(client, 'class:announcement')).toBe(client === solo ? 0 : 1);
      expect(client.seqErrors).toEqual([]);
    }
  });

  it('M6 M8: a raised hand reaches the instructor; hand:acknowledge reaches the student and every instructor tab', async (context) => {
    const { app, material } = boot(context);
    const created = await createClass(app, { name: '반', materialId: material.id });
    const { monitor } = await connectInstructor(app, created.instructorToken);
    const { monitor: otherTab } = await connectInstructor(app, created.instructorToken);
    const { client, sessionId } = await joinClass(app, created.code, '지유');

    const early = await monitor.command('hand:acknowledge', { sessionId });
    expect(early).toMatchObject({ ok: false, error: { code: 'HAND_NOT_RAISED' } });

    await playSessionEvent(app, sessionId, 'assistant:prompt', { seq: 1, text: '무엇이 궁금한가요?' });
    const raised = await monitor.waitFor('hand:raised');
    expect(raised).toEqual({ sessionId, raisedAt: expect.any(Number) });
    await playSessionEvent(app, sessionId, 'hand:asked', { text: '표준편차는 왜 제곱근을 하나요?' });
    expect(await monitor.waitFor('hand:raised', (payload) => payload.question !== undefined)).toEqual({
      sessionId,
      raisedAt: raised.raisedAt,
      question: '표준편차는 왜 제곱근을 하나요?',
    });

    const ack = await monitor.command('hand:acknowledge', { sessionId });
    expect(ack).toMatchObject({ ok: true, at: expect.any(Number) });
    const at = ack.ok ? ack.at : 0;
    expect(await waitForNotice(client, 'hand:acknowledged')).toEqual({ at });
    expect(await otherTab.waitFor('hand:acknowledged')).toEqual({ sessionId, at });
    const roster = await app.classes.info(created.classId);
    expect(roster.students[0]?.hand).toEqual({ raisedAt: raised.raisedAt, question: '표준편차는 왜 제곱근을 하나요?', acknowledged: true, answered: false });

    await playSessionEvent(app, sessionId, 'hand:closed', { kind: 'vague' });
    expect(await monitor.waitFor('hand:resolved')).toEqual({ sessionId, kind: 'vague' });
    await expect.poll(async () => (await app.classes.info(created.classId)).students[0]?.hand).toBeNull();
    expect(client.seqErrors).toEqual([]);
  });
});
