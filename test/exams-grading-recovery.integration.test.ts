/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - XA1 — A node dies grading. Two nodes on Redis, `EXAM_GRADING_LEASE_MS` 1500: the node that ended the exam stalls
 *   (grading an item, or writing the report) and loses the store …
 * - XA2 — Half-finished students. On both stores: students left with only `claimed` (on no list), `finalised` with no
 *   report …
 * - XA3 — Overrides rewrite the report and the profile. After an override to 부분 정답 the score, the report ("정답 1개, 부분
 *   정답 1개, 오답 1개", the student's too) and the profile (`시험 2번: 부분 정답`, no `시험 2번: 오답` …
 * - XA9 — Hands the assistant answered stay on the monitor. (`test/e2e/monitor.e2e.test.ts`).
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { ExamAgents } from '../src/app.js';
import { connectInstructor } from './support/classroom-client.js';
import { AgentSpy, bootExamClass, draft, EXAM_CLASS_SECRET, end, join, makeExam, publish, submit, TestClock, type Booted } from './support/exam-class.js';
import { call } from './support/http-call.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { examKeys } from '../src/exams/exam-keys.js';

/**
 * XA1–XA3 (test/SPEC.md, "Exam lifecycle"): a student's grading survives the node doing it dying at any point — a
 * lease another node takes over, post-grading steps (report, profile, events) resumed where they stopped, and a
 * sweep that finds students left half-finished — and an override always rewrites the report and the profile.
 * Leases are short (EXAM_GRADING_LEASE_MS) and the tests wait for the outcome, never for a time.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

// Long enough that a live node's renewals survive a busy machine's event-loop lag (300 ms lapsed under load 20, so
// the live node's work was taken over), short enough that a dead node's lease lapses within the test.
const SHORT_LEASE = { EXAM_GRADING_LEASE_MS: '1500', EXAM_SWEEP_MS: '200', EXAM_GRADE_RETRY_MS: '20' };

/** A promise the test opens at its end: the calls a "dead" node had under way wait on it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

interface ResultRow {
  sessionId: string;
  pending: boolean;
  score: number;
  items: { question_id: number; result_status: string }[];
  report: { summary: string } | null;
}

/** Waits until the results (read on `url`) list `count` students all graded with a report. */
async function allGraded(url: string, booted: Booted, examId: string, count: number): Promise<ResultRow[]> {
  let rows: ResultRow[] = [];
  await expect
    .poll(
      async () => {
        const reply = await call(`${url}/api/exams/${examId}/results`, 'GET', { headers: booted.teacher.bearer });
        rows = (reply.body?.students ?? []) as ResultRow[];
        return rows.length === count && rows.every((row) => !row.pending && row.report !== null);
      },
      { interval: 50 },
    )
    .toBe(true);
  return rows;
}

async function profileOf(booted: Booted, sessionId: string) {
  const reply = await call(`${booted.app.url}/api/classes/${booted.classId}/students/${sessionId}/profile`, 'GET', { headers: booted.teacher.bearer });
  expect(reply.status).toBe(200);
  return reply.body.profile as { exams_taken: string[]; user_status: { weak_topics: { topic: string; evidence: string[] }[]; strong_topics: { topic: string; evidence: string[] }[] } };
}

/** A second node on the same Redis, its agents watched. */
async function secondNode(context: TestContext, agents: AgentSpy): Promise<TestApp> {
  const node = await startTestApp({ SIGNUP: 'open', REDIS_URL: redis.url, TOKEN_SECRET: EXAM_CLASS_SECRET, ...SHORT_LEASE }, { examClock: new TestClock().now, examAgents: agents.wrap });
  context.onTestFinished(() => node.stop());
  return node;
}

describe('grading when the node doing it dies (redis, two nodes)', () => {
  it.for([
    ['grading an item', 'grader'],
    ['writing the report', 'feedback'],
  ] as const)('XA1 the node that closed the exam dies while %s: another node takes the lapsed lease and every student is graded with a report, a profile and exam:graded', async ([, where], context) => {
    const held = gate();
    let entered = 0;
    // Node A's agents stop (for good, until the test ends) where its death is staged.
    const stall = (real: ExamAgents): ExamAgents => ({
      grader: {
        grade: async (problem, answer, callContext) => {
          if (where === 'grader') {
            entered += 1;
            await held.opened;
          }
          return real.grader.grade(problem, answer, callContext);
        },
      },
      feedback: {
        feedback: async (input) => {
          if (where === 'feedback') {
            entered += 1;
            await held.opened;
          }
          return real.feedback.feedback(input);
        },
      },
    });
    const a = await bootExamClass(context, 'redis', () => redis.url, SHORT_LEASE, { examAgents: stall });
    // Finished-hooks run last first: the stalled calls are let go before node A is stopped.
    context.onTestFinished(() => held.open());
    const exam = await makeExam(a);
    await publish(a, exam.examId);
    const students = await Promise.all(['민지', '지호', '서연'].map((nickname) => join(a, nickname)));
    for (const [index, student] of students.entries()) await draft(a, exam.examId, student.headers, { 1: index === 0 ? '분산' : '편차', 2: '기댓값이 모평균과 같다', 3: '표준편차' });
    const bAgents = new AgentSpy();
    const b = await secondNode(context, bAgents);
    const { monitor } = await connectInstructor(b, a.classToken);

    // 시험 종료 on node A: it submits the drafts and starts grading the three students, then stalls there.
    await end(a, exam.examId);
    await expect.poll(() => entered).toBe(3);
    // Node A dies: it no longer reaches the store (no renewal, no write), like a SIGKILL as far as Redis can tell.
    await a.app.store.close();

    const rows = await allGraded(b.url, a, exam.examId, 3);
    for (const row of rows) expect(row.items.map((item) => item.result_status)).not.toContain('Ungraded');
    for (const student of students) {
      // The results show the report once that step is done; the steps after it (profile, notify) finish just after.
      await expect
        .poll(() => b.exams.repository.gradingState(exam.examId, student.sessionId))
        .toMatchObject({ state: 'graded', finalised: true, done: { report: 1, profile: 1, notify: 1 } });
      const profile = await profileOf({ ...a, app: b }, student.sessionId);
      expect(profile.exams_taken).toContain(exam.examId);
      await monitor.waitFor('exam:graded', (payload) => payload.sessionId === student.sessionId);
    }
    // Node B did the work node A could not finish: the reports (all three), and the gradings too when A died grading
    // (a run of B's own may lapse on a busy machine with a lease this short: its work is then done again, never lost).
    expect(bAgents.feedbacks.length).toBeGreaterThanOrEqual(3);
    if (where === 'grader') expect(bAgents.gradings.length).toBeGreaterThanOrEqual(9);
    else expect(bAgents.gradings).toEqual([]);
    // The pending list empties: the sweep's backstop may put a student back while B's run is finishing (it read the
    // state just before the run marked it finished); the next sweep takes the student off again.
    await expect.poll(() => b.store.zrange(examKeys.examsPending(), 0, -1)).toEqual([]);
  });
});

/** One node, the default lease (no run of its own lapses): each missing step runs exactly once. */
const ONE_NODE = { EXAM_SWEEP_MS: '100', EXAM_GRADE_RETRY_MS: '20' };

describe.each(['memory', 'redis'] as const)('half-finished gradings are found and finished (%s store)', (store) => {
  it('XA2 students left half-finished (only claimed and on no list; finalised without a report; the report written but not the profile) are finished by the sweep or the next read, each step once', async (context) => {
    const booted = await bootExamClass(context, store, () => redis.url, ONE_NODE);
    const { app } = booted;
    const repository = app.exams.repository;
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const [claimedOnly, finalisedNoReport, reportNoProfile, legacy] = await Promise.all(['민지', '지호', '서연', '하늘'].map((nickname) => join(booted, nickname)));
    const all = [claimedOnly, finalisedNoReport, reportNoProfile, legacy].map((student) => student!);
    for (const student of all) await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '기댓값이 같아서', 3: '평균' });
    // Listening before any half-finished state is written: the background sweep (every 100 ms) may finish a student
    // before the test's own sweep, and its exam:graded must not go out before the monitor is in the class.
    const { monitor } = await connectInstructor(app, booted.classToken);
    // The whole submissions are written, then the states a node dying at each point leaves, written directly.
    const at = booted.clock.now();
    for (const student of all) {
      await repository.submitItems(exam.examId, student.sessionId, new Map([[1, '분산'], [2, '기댓값이 같아서'], [3, '평균']]), at);
      await repository.submitAll(exam.examId, student.sessionId, at);
      await repository.touchStudent(exam.examId, student.sessionId, at);
    }
    const grade = async (sessionId: string) => {
      for (const problem of exam.problems) {
        await repository.saveGrade(exam.examId, sessionId, {
          question_id: problem.id,
          result_status: problem.id === 3 ? 'Incorrect' : 'Correct',
          question_content: problem.question_content,
          user_response: '',
          related_topic: problem.key_keywords[0] ?? '',
          feedback_message: '',
          evidence: null,
        });
      }
    };
    const gradingKey = (sessionId: string) => examKeys.examGrading(exam.examId, sessionId);
    // Died right after claiming: only `claimed`, on no pending list.
    await app.store.hset(gradingKey(claimedOnly!.sessionId), { claimed: String(at) });
    // Died after taking the feedback step: graded items, `finalised`, no report, on no list.
    await grade(finalisedNoReport!.sessionId);
    await app.store.hset(gradingKey(finalisedNoReport!.sessionId), { claimed: String(at), attempts: '1', state: 'pending', finalised: String(at) });
    // Died between the report and the profile.
    await grade(reportNoProfile!.sessionId);
    await app.store.hset(gradingKey(reportNoProfile!.sessionId), { claimed: String(at), attempts: '1', state: 'pending', 'done:report': '1' });
    await repository.saveReport(exam.examId, reportNoProfile!.sessionId, { summary: '이미 쓴 보고서', strengths: [], weak_topics: [], next_steps: [] });
    // The same three on the sweep's backstop list, as a run of this version leaves them; the fourth (an older
    // version's `claimed` only) is on no list at all.
    await app.store.hset(gradingKey(legacy!.sessionId), { claimed: String(at) });
    await repository.noteGradingExam(exam.examId, at);

    await app.exams.sweep();
    await app.exams.settled();
    // The fourth is found by the sweep too (it checks every student of an exam on its list).
    const rows = await allGraded(app.url, booted, exam.examId, 4);
    await app.exams.settled();
    for (const row of rows) expect(row.items.map((item) => item.result_status)).not.toContain('Ungraded');
    for (const crafted of [finalisedNoReport, reportNoProfile]) {
      expect(rows.find((row) => row.sessionId === crafted!.sessionId)?.items.map((item) => item.result_status)).toEqual(['Correct', 'Correct', 'Incorrect']);
    }
    // Each missing step ran, and only those: the grader for the two that had no grades, the feedback agent for the
    // three without a report (the existing report kept), the profile for all four, exam:graded for all four.
    expect(booted.agents.gradings.length).toBe(6);
    expect(booted.agents.feedbacks.length).toBe(3);
    expect(rows.find((row) => row.sessionId === reportNoProfile!.sessionId)?.report?.summary).toBe('이미 쓴 보고서');
    for (const student of all) {
      expect(await repository.gradingState(exam.examId, student.sessionId)).toMatchObject({ state: 'graded', done: { report: 1, profile: 1, notify: 1 } });
      expect((await profileOf(booted, student.sessionId)).exams_taken).toContain(exam.examId);
      await monitor.waitFor('exam:graded', (payload) => payload.sessionId === student.sessionId);
    }
    expect(await app.store.zrange(examKeys.examsPending(), 0, -1)).toEqual([]);
  });

  it('XA2 a student left with only `claimed` by an older version, on no list at all, is graded when a result is read', async (context) => {
    const booted = await bootExamClass(context, store, () => redis.url, ONE_NODE);
    const { app } = booted;
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '기댓값이 같아서', 3: '표준편차' });
    const at = booted.clock.now();
    await app.exams.repository.submitItems(exam.examId, student.sessionId, new Map([[1, '분산'], [2, '기댓값이 같아서'], [3, '표준편차']]), at);
    await app.exams.repository.submitAll(exam.examId, student.sessionId, at);
    await app.store.hset(examKeys.examGrading(exam.examId, student.sessionId), { claimed: String(at) });
    await app.exams.sweep();
    expect((await app.exams.repository.gradingState(exam.examId, student.sessionId)).state).toBe('none');
    // The instructor's results read finds it unfinished on no list and grades it.
    const rows = await allGraded(app.url, booted, exam.examId, 1);
    expect(rows[0]?.score).toBe(3);
  });

  it('XA3 an override (or a regrade) always rewrites the report and the profile from the statuses as they now count, in Korean', async (context) => {
    const booted = await bootExamClass(context, store, () => redis.url, ONE_NODE);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '모르겠어요', 3: '모르겠어요' });
    await submit(booted, exam.examId, student.headers);
    await end(booted, exam.examId);
    const [before] = await allGraded(booted.app.url, booted, exam.examId, 1);
    await booted.app.exams.settled();
    expect(before?.items.map((item) => item.result_status)).toEqual(['Correct', 'Incorrect', 'Incorrect']);
    expect(before?.report?.summary).toContain('정답 1개, 부분 정답 0개, 오답 2개');
    const weakBefore = (await profileOf(booted, student.sessionId)).user_status.weak_topics;
    expect(weakBefore.flatMap((topic) => topic.evidence)).toContain('시험 2번: 오답');

    const override = await call(`${booted.app.url}/api/exams/${exam.examId}/students/${student.sessionId}/items/2/override`, 'POST', {
      headers: booted.teacher.bearer,
      body: { status: 'Partial_Correct', reason: '핵심은 맞음' },
    });
    expect(override.status, JSON.stringify(override.body)).toBe(200);
    await booted.app.exams.settled();
    const reply = await call(`${booted.app.url}/api/exams/${exam.examId}/results`, 'GET', { headers: booted.teacher.bearer });
    const after = (reply.body.students as ResultRow[])[0];
    expect(after?.score).toBe(1.5);
    expect(after?.report?.summary).toContain('정답 1개, 부분 정답 1개, 오답 1개');
    const profile = await profileOf(booted, student.sessionId);
    const evidence = [...profile.user_status.weak_topics, ...profile.user_status.strong_topics].flatMap((topic) => topic.evidence);
    expect(evidence).toContain('시험 2번: 부분 정답');
    expect(evidence).not.toContain('시험 2번: 오답');
    expect(JSON.stringify(profile)).not.toMatch(/Correct|Incorrect|Partial_Correct/);
    expect(await booted.app.exams.repository.gradingState(exam.examId, student.sessionId)).toMatchObject({ revision: 2, done: { report: 2, profile: 2, notify: 2 } });
    // The student's own result shows the same report.
    const own = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers });
    expect(own.body.report.summary).toContain('정답 1개, 부분 정답 1개, 오답 1개');
  });
});
