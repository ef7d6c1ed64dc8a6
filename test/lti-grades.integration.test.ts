/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LT12 — Passback failures. (`lti-grades`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeLink } from './support/fake-lms.js';
import { call } from './support/http-call.js';
import { linkLectureAndExam, startLtiWorld, type LtiWorld } from './support/lti-world.js';

/**
 * LT12 (test/SPEC.md): grade passback when the gradebook fails — retried with a doubling wait on the injected clock,
 * `failed` once the tries are spent and shown on the host page's route, sent again on 다시 보내기 — and held back
 * while an item is not graded, until the teacher decides.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** The grader cannot decide this answer (a model outage): the item stays Ungraded. */
const UNDECIDABLE = '채점기가 판단하지 못하는 답';

describe('grade passback when things go wrong', () => {
  let world: LtiWorld;
  let examLink: FakeLink;
  // Starts at the real time (the LMS signs its launches with it) and is moved by the test only.
  let clock = Date.now();
  beforeAll(async () => {
    world = await startLtiWorld({
      env: { LTI_GRADE_RETRY_MS: '1000', LTI_GRADE_ATTEMPTS: '3', EXAM_GRADE_RETRIES: '0' },
      overrides: {
        lti: { now: () => clock, sweepMs: 3_600_000 },
        examAgents: (real) => ({
          feedback: real.feedback,
          grader: {
            grade: async (problem, answer, context) =>
              answer === UNDECIDABLE
                ? { question_id: problem.id, result_status: 'Ungraded', question_content: problem.question_content, user_response: answer, related_topic: '', feedback_message: '', evidence: null }
                : real.grader.grade(problem, answer, context),
          },
        }),
      },
    });
    examLink = (await linkLectureAndExam(world)).exam;
  });
  afterAll(async () => {
    await world?.stop();
  });

  async function takeExam(studentIndex: number, answer: string): Promise<string> {
    const { app, lms, students } = world;
    const launch = await lms.launch(app.url, { user: students[studentIndex]!, link: examLink });
    const { token, sessionId } = launch.landing?.session as { token: string; sessionId: string };
    await call(`${app.url}/api/class-exams/${world.examId}/draft`, 'PUT', { headers: bearer(token), body: { answers: { 1: answer } } });
    expect((await call(`${app.url}/api/class-exams/${world.examId}/submit`, 'POST', { headers: bearer(token), body: {} })).status).toBe(200);
    await app.exams.settled();
    await app.lti.grades.settled();
    return sessionId;
  }

  const stateOf = async (sessionId: string) => {
    const status = await call(`${world.app.url}/api/lti/exams/${world.examId}/grades`, 'GET', { headers: world.teacher.bearer });
    return (status.body.students as { sessionId: string }[]).find((entry) => entry.sessionId === sessionId) as Record<string, unknown> | undefined;
  };

  it('LT12 a refused score is sent again after 1 s, then 2 s…; after the last try it is failed until someone sends it again', async () => {
    const { app, lms } = world;
    lms.scoreFailures = { count: 1, status: 503 };
    const sessionId = await takeExam(0, '분산');
    expect(lms.scores).toEqual([]);
    expect(await stateOf(sessionId)).toMatchObject({ state: 'waiting', attempts: 1, lastError: expect.stringContaining('HTTP 503'), nextAt: clock + 1000 });
    // Not due yet: nothing is sent.
    await app.lti.grades.sendDue();
    expect(lms.scores).toEqual([]);
    clock += 1000;
    await app.lti.grades.sendDue();
    expect(lms.scores.map((score) => [score.userId, score.scoreGiven])).toEqual([['lms-student-1', 1]]);
    expect(await stateOf(sessionId)).toMatchObject({ state: 'sent', score: 1 });

    // Now the gradebook refuses every try of the next change (an override).
    lms.scoreFailures = { count: 3, status: 500 };
    await call(`${app.url}/api/exams/${world.examId}/students/${sessionId}/items/1/override`, 'POST', { headers: world.teacher.bearer, body: { status: 'Partial_Correct', reason: '부분 점수' } });
    await app.lti.grades.settled();
    expect(await stateOf(sessionId)).toMatchObject({ state: 'waiting', attempts: 1, nextAt: clock + 1000, score: 1 });
    clock += 1000;
    await app.lti.grades.sendDue();
    expect(await stateOf(sessionId)).toMatchObject({ state: 'waiting', attempts: 2, nextAt: clock + 2000 });
    clock += 1999;
    await app.lti.grades.sendDue();
    expect(await stateOf(sessionId)).toMatchObject({ state: 'waiting', attempts: 2 });
    clock += 1;
    await app.lti.grades.sendDue();
    expect(await stateOf(sessionId)).toMatchObject({ state: 'failed', attempts: 3, lastError: expect.stringContaining('HTTP 500') });
    clock += 60_000;
    await app.lti.grades.sendDue();
    expect(lms.scores).toHaveLength(1);
    // 다시 보내기 on the host page.
    const retried = await call(`${app.url}/api/lti/exams/${world.examId}/grades/retry`, 'POST', { headers: world.teacher.bearer });
    expect(retried.body).toEqual({ queued: 1 });
    await app.lti.grades.settled();
    expect(lms.scores.map((score) => score.scoreGiven)).toEqual([1, 0.5]);
    expect(await stateOf(sessionId)).toMatchObject({ state: 'sent', score: 0.5 });
  });

  it('LT12 nothing is sent while an item is not graded; the teacher’s decision sends it', async () => {
    const { app, lms } = world;
    const before = lms.scores.length;
    const sessionId = await takeExam(1, UNDECIDABLE);
    expect(lms.scores).toHaveLength(before);
    expect(await stateOf(sessionId)).toMatchObject({ state: 'held', reason: expect.stringContaining('채점되지 않은 문항') });
    await call(`${app.url}/api/exams/${world.examId}/students/${sessionId}/items/1/override`, 'POST', { headers: world.teacher.bearer, body: { status: 'Correct', reason: '직접 확인' } });
    await app.lti.grades.settled();
    expect(lms.scores.slice(before).map((score) => [score.userId, score.scoreGiven])).toEqual([['lms-student-2', 1]]);
  });
});
