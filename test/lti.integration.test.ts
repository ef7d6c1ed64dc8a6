/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LT1 — Registration. The admin registers a platform (listed with the tool's login, launch and JWKS URLs); an
 *   instructor may not list or register …
 * - LT2 — Deep Linking. The teacher's deep linking launch opens the picker (a SameSite=None session cookie) …
 * - LT3 — A student lands. A lecture link lands the student in the classroom under their LMS name (no code, no
 *   nickname), with a token for their class's routes …
 * - LT4 — A teacher lands. The teacher is signed in (SameSite=None; Secure) to the lectern account with their e-mail
 *   (the registration trusts e-mails) and lands on the class monitor …
 * - LT5 — Grades. A submitted exam's score reaches the exam's line item (Completed, FullyGraded) after grading, and
 *   the new score after an override; the host route shows `sent`; another instructor gets 404.
 * - LT6 — Framing and keys. Pages carry `frame-ancestors <registered platform origins>` and no X-Frame-Options; the
 *   JWKS publishes public halves only …
 * - LT7 — Instructors not created. With `createInstructors` off an unknown teacher is `403 LTI_INSTRUCTOR_UNKNOWN` …
 * - LT8 — The deployment files agree with the code. (`test/deployment.test.ts`).
 * - LT21 — A student's own self-study exam. (`lti.integration`) goes to one "혼자 보는 시험 (lectern)" column per course
 *   class, which the sender makes itself (AGS `POST lineitems` …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from './support/fake-lms.js';
import { call } from './support/http-call.js';
import { EXAM_PROBLEM, linkLectureAndExam, startLtiWorld, type LtiWorld } from './support/lti-world.js';
import { authKeys } from '../src/auth/auth-keys.js';

/**
 * LTI 1.3 end to end against the local LMS platform (test/support/fake-lms.ts), at the wire level: registration,
 * deep linking, launches of students and the teacher, the course roster, grades in the gradebook (LT1–LT8 of
 * test/SPEC.md). The refusals of bad launches are in lti-launch-refusals.integration.test.ts.
 */

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('an LMS course with lectern in it', () => {
  let world: LtiWorld;
  let links: Awaited<ReturnType<typeof linkLectureAndExam>>;
  beforeAll(async () => {
    world = await startLtiWorld();
    links = await linkLectureAndExam(world);
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('LT1 the admin sees the registration and the tool URLs; an instructor may not list or register platforms', async () => {
    const { app, admin, teacher, lms } = world;
    const listed = await call(`${app.url}/api/lti/platforms`, 'GET', { headers: admin.bearer });
    expect(listed.status).toBe(200);
    expect(listed.body.platforms).toMatchObject([{ issuer: lms.issuer, clientId: lms.clientId, deploymentIds: [lms.deploymentId], via: 'manual' }]);
    expect(listed.body.tool).toEqual({ loginUrl: `${app.url}/lti/login`, launchUrl: `${app.url}/lti/launch`, jwksUrl: `${app.url}/lti/jwks`, registrationUrl: `${app.url}/lti/register` });
    expect((await call(`${app.url}/api/lti/platforms`, 'GET', { headers: teacher.bearer })).status).toBe(403);
    expect((await call(`${app.url}/api/lti/platforms`, 'POST', { headers: teacher.bearer, body: lms.registration() })).status).toBe(403);
    const again = await call(`${app.url}/api/lti/platforms`, 'POST', { headers: admin.bearer, body: lms.registration() });
    expect([again.status, again.body.error.code]).toEqual([409, 'LTI_PLATFORM_EXISTS']);
    const insecure = await call(`${app.url}/api/lti/platforms`, 'POST', { headers: admin.bearer, body: lms.registration({ clientId: 'other', jwksUrl: 'http://lms.example.org/jwks' }) });
    expect([insecure.status, insecure.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
  });

  it('LT2 deep linking: the teacher picks the lecture and an exam; the LMS gets a signed response with a gradebook column for the exam', () => {
    const { lms } = world;
    expect(links.launch.cookies.find((cookie) => cookie.startsWith('lectern_session='))).toMatch(/SameSite=None/i);
    const answer = lms.deepLinkAnswers.at(-1);
    expect(answer?.['https://purl.imsglobal.org/spec/lti/claim/deployment_id']).toBe(lms.deploymentId);
    expect(links.lecture).toMatchObject({ title: expect.stringContaining('[강의]'), custom: { lectern_link: expect.any(String) } });
    expect(links.exam).toMatchObject({ title: '[시험] 분산 확인 시험', custom: { lectern_link: expect.any(String) }, lineItemId: expect.any(String) });
    expect(lms.lineItems.get(links.exam.lineItemId ?? '')).toMatchObject({ label: '분산 확인 시험', scoreMaximum: 1, resourceId: `lectern-exam:${world.examId}`, resourceLinkId: links.exam.id });
  });

  it('LT3 a student launch lands in the lecture under the LMS name, with no code or nickname; launching again is the same student', async () => {
    const { app, lms, students } = world;
    const first = await lms.launch(app.url, { user: students[0]!, link: links.lecture });
    expect(first.landing).toMatchObject({ kind: 'classroom', session: { nickname: '이서연', material: { id: world.materialId } } });
    const session = first.landing?.session as { sessionId: string; token: string; classId: string };
    // The token opens the student's class routes: the exam the teacher linked is listed there.
    const exams = await call(`${app.url}/api/class-exams`, 'GET', { headers: bearer(session.token) });
    expect(exams.status).toBe(200);
    expect(exams.body.exams.map((exam: { examId: string }) => exam.examId)).toEqual([world.examId]);
    const second = await lms.launch(app.url, { user: students[0]!, link: links.exam });
    expect(second.landing).toMatchObject({ kind: 'classroom', examId: world.examId, session: { sessionId: session.sessionId, classId: session.classId, nickname: '이서연' } });
    // No lectern account was made for a student.
    expect(await app.store.zcard(authKeys.accountIndex())).toBe(2);
  });

  it('LT4 the teacher launch signs in the lectern account with the LMS e-mail and opens the class monitor; the course roster becomes the class', async () => {
    const { app, lms, instructor, teacher } = world;
    const launch = await lms.launch(app.url, { user: instructor, link: links.lecture });
    expect(launch.landing).toMatchObject({ kind: 'instructor', path: expect.stringMatching(/^\/monitor\.html\?class=/) });
    const cookie = launch.cookies.find((entry) => entry.startsWith('lectern_session='));
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Secure/i);
    const me = await call(`${app.url}/api/auth/me`, 'GET', { headers: { cookie: cookie?.split(';')[0] ?? '' } });
    expect(me.body.account.accountId).toBe(teacher.accountId);
    const classId = new URLSearchParams(String(launch.landing?.path).split('?')[1]).get('class') ?? '';
    await app.lti.classes.syncRoster(classId, true);
    const info = await call(`${app.url}/api/classes/${classId}`, 'GET', { headers: teacher.bearer });
    expect(info.body.students.map((student: { nickname: string }) => student.nickname).sort()).toEqual(['박민준', '이서연', '최지우']);
    expect((await call(`${app.url}/api/lti/classes/${classId}`, 'GET', { headers: teacher.bearer })).body).toEqual({ lms: true, course: '확률과 통계', roster: true });
    const plain = await call(`${app.url}/api/classes`, 'POST', { headers: teacher.bearer, body: { name: '보통 반' } });
    expect((await call(`${app.url}/api/lti/classes/${plain.body.classId}`, 'GET', { headers: teacher.bearer })).body).toEqual({ lms: false });
    // The roster route reads it again on the teacher's request.
    const again = await call(`${app.url}/api/lti/classes/${classId}/roster`, 'POST', { headers: teacher.bearer });
    expect(again.body).toEqual({ students: 3, joined: 0 });
    // The class export names the course and each student's LMS id.
    const exported = await call(`${app.url}/api/classes/${classId}/export.json`, 'GET', { headers: teacher.bearer });
    expect(exported.body.course).toEqual({ contextId: lms.course.id, title: '확률과 통계' });
    expect(exported.body.students.map((student: { nickname: string; lmsUserId?: string }) => [student.nickname, student.lmsUserId]).sort()).toEqual([
      ['박민준', 'lms-student-2'],
      ['이서연', 'lms-student-1'],
      ['최지우', 'lms-student-3'],
    ]);
    // A student the roster made ahead of time gets that very session at their first launch.
    const seat = info.body.students.find((student: { nickname: string }) => student.nickname === '박민준');
    const launched = await lms.launch(app.url, { user: world.students[1]!, link: links.lecture });
    expect((launched.landing?.session as { sessionId: string }).sessionId).toBe(seat.sessionId);
  });

  it('LT5 the exam score goes to the gradebook after grading, and again after an override; the host page sees the state', async () => {
    const { app, lms, students, teacher } = world;
    const launch = await lms.launch(app.url, { user: students[2]!, link: links.exam });
    const { token, sessionId } = launch.landing?.session as { token: string; sessionId: string };
    expect((await call(`${app.url}/api/class-exams/${world.examId}/draft`, 'PUT', { headers: bearer(token), body: { answers: { 1: '분산' } } })).status).toBe(200);
    expect((await call(`${app.url}/api/class-exams/${world.examId}/submit`, 'POST', { headers: bearer(token), body: {} })).status).toBe(200);
    await app.exams.settled();
    await app.lti.grades.settled();
    const lineItemId = links.exam.lineItemId;
    expect(lms.scores.filter((score) => score.userId === 'lms-student-3')).toEqual([
      expect.objectContaining({ lineItemId, scoreGiven: 1, scoreMaximum: 1, activityProgress: 'Completed', gradingProgress: 'FullyGraded' }),
    ]);
    const override = await call(`${app.url}/api/exams/${world.examId}/students/${sessionId}/items/1/override`, 'POST', {
      headers: teacher.bearer,
      body: { status: 'Incorrect', reason: '철자 확인' },
    });
    expect(override.status).toBe(200);
    await app.lti.grades.settled();
    expect(lms.scores.filter((score) => score.userId === 'lms-student-3').map((score) => score.scoreGiven)).toEqual([1, 0]);
    const status = await call(`${app.url}/api/lti/exams/${world.examId}/grades`, 'GET', { headers: teacher.bearer });
    expect(status.body).toMatchObject({ lms: true, course: '확률과 통계', students: [{ sessionId, state: 'sent', score: 0, maxScore: 1 }] });
    // Another instructor sees nothing of it.
    expect((await call(`${app.url}/api/lti/exams/${world.examId}/grades`, 'GET', { headers: world.admin.bearer })).status).toBe(404);
  });

  it('LT21 a student’s own self-study exam goes to one "혼자 보는 시험" column the sender makes in the gradebook (AGS line item)', async () => {
    const { app, lms, students } = world;
    const launch = await lms.launch(app.url, { user: students[0]!, link: links.lecture });
    const { token, sessionId, classId } = launch.landing?.session as { token: string; sessionId: string; classId: string };
    const own = await app.exams.create({
      accountId: world.teacher.accountId,
      materialId: world.materialId,
      title: '이서연의 혼자 시험',
      request: { count: 1, descriptive: 0 },
      plan: { planning_strategy: '정의', planned_items: [{ id: 1, target_topic: '분산', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '1장' }] },
      problems: [{ ...EXAM_PROBLEM }],
      complaints: [],
      valid: true,
      rounds: 1,
    });
    await app.exams.publishSelfStudy(own, classId, sessionId);
    const columns = lms.lineItems.size;
    await call(`${app.url}/api/class-exams/${own.examId}/draft`, 'PUT', { headers: bearer(token), body: { answers: { 1: '분산' } } });
    expect((await call(`${app.url}/api/class-exams/${own.examId}/submit`, 'POST', { headers: bearer(token), body: {} })).status).toBe(200);
    await app.exams.settled();
    await app.lti.grades.settled();
    expect(lms.lineItems.size).toBe(columns + 1);
    const column = [...lms.lineItems.values()].at(-1);
    expect(column).toMatchObject({ label: '혼자 보는 시험 (lectern)', resourceId: `lectern-self-study:${classId}`, scoreMaximum: 1, tag: 'lectern' });
    expect(lms.scores.at(-1)).toMatchObject({ lineItemId: column?.id, userId: 'lms-student-1', scoreGiven: 1 });
  });

  it('LT6 the CSP lets only the registered LMS frame lectern; the tool keys are published and rotate with the previous one kept', async () => {
    const { app, lms, admin } = world;
    const page = await fetch(`${app.url}/classroom.html`);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${new URL(lms.issuer).origin}`);
    expect(page.headers.get('x-frame-options')).toBeNull();
    const before = (await call(`${app.url}/lti/jwks`, 'GET')).body.keys as { kid: string; kty: string; alg: string; d?: string }[];
    expect(before).toHaveLength(1);
    expect(before[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(before[0]?.d).toBeUndefined();
    const rotated = await call(`${app.url}/api/lti/tool-keys/rotate`, 'POST', { headers: admin.bearer });
    expect(rotated.body.keys).toHaveLength(2);
    const after = (await call(`${app.url}/lti/jwks`, 'GET')).body.keys as { kid: string }[];
    expect(after.map((key) => key.kid)).toEqual([rotated.body.keys[0].kid, before[0]?.kid]);
    // The platform verifies lectern's client assertion, now signed with the new key (a scope never asked before, so
    // no cached token answers).
    lms.tokenRequests.length = 0;
    const platform = await app.lti.platforms.get(world.platformId);
    const token = await app.lti.client.accessToken(platform!, ['https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly']);
    expect(token.length).toBeGreaterThan(0);
    expect(lms.tokenRequests).toEqual([{ scope: 'https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly', ok: true }]);
  });
});

describe('instructors the registration does not create', () => {
  let world: LtiWorld;
  beforeAll(async () => {
    world = await startLtiWorld({ registration: { createInstructors: false, trustEmails: false } });
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('LT7 an unknown teacher is refused with a clear error, and a teacher whose e-mail is taken is told how to link it', async () => {
    const { app, lms } = world;
    const stranger = await lms.launch(app.url, { user: { sub: 'new-teacher', name: '새선생', email: 'new@school.example', roles: ROLES.instructor }, message: 'deep-link' });
    expect([stranger.status, stranger.errorCode]).toEqual([403, 'LTI_INSTRUCTOR_UNKNOWN']);
    expect(stranger.html).toContain('강사 계정을 새로 만들지 않습니다');
    const sameEmail = await lms.launch(app.url, { user: world.instructor, message: 'deep-link' });
    expect([sameEmail.status, sameEmail.errorCode]).toEqual([403, 'LTI_INSTRUCTOR_UNKNOWN']);
    expect(sameEmail.html).toContain('LMS 이메일로 기존 계정 연결');
    expect(await app.store.zcard(authKeys.accountIndex())).toBe(2);
  });
});
