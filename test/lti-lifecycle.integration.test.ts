/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LT13 — Dynamic registration. (`lti-lifecycle`).
 * - LT14 — Quiz links. With no room open the student waits (`quiz-wait`, a ticket); once the teacher opens a room the
 *   ticket joins the student as a player under their LMS name (once) …
 * - LT15 — Deleting the class. deletes its LTI records (course, members, grades, the platform's map entry); the next
 *   launch makes a new class.
 * - LT16 — Deleting a platform. deletes its registration and links; its logins are `LTI_PLATFORM_UNKNOWN` and the
 *   pages are `frame-ancestors 'none'` with X-Frame-Options DENY again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLms, ROLES, type FakeLms } from './support/fake-lms.js';
import { call } from './support/http-call.js';
import { linkLectureAndExam, startLtiWorld, type LtiWorld } from './support/lti-world.js';
import { rejoin } from './support/quiz-client.js';
import { sampleItems } from './support/quiz-client.js';
import { ltiKeys } from '../src/lti/lti-keys.js';

/**
 * LT13–LT16 (test/SPEC.md): dynamic registration with an admin's one-use code, a quiz link that lands in the quiz's
 * live room (or waits for one), and deletion: a class's LMS records go with the class, a platform's links with the
 * platform.
 */

describe('dynamic registration', () => {
  let world: LtiWorld;
  let lms: FakeLms;
  beforeAll(async () => {
    world = await startLtiWorld();
    lms = await startFakeLms();
  });
  afterAll(async () => {
    await lms?.close();
    await world?.stop();
  });

  it('LT13 the LMS opens the admin’s registration URL: lectern registers itself and keeps the client and deployment ids; the code works once', async () => {
    const { app, admin, teacher } = world;
    expect((await call(`${app.url}/api/lti/registration-codes`, 'POST', { headers: teacher.bearer, body: {} })).status).toBe(403);
    const made = await call(`${app.url}/api/lti/registration-codes`, 'POST', { headers: admin.bearer, body: { createInstructors: true } });
    expect(made.status).toBe(201);
    expect(made.body.url).toMatch(new RegExp(`^${app.url}/lti/register\\?code=`));
    const open = (token: string) =>
      fetch(`${made.body.url}&openid_configuration=${encodeURIComponent(lms.openidConfigurationUrl)}&registration_token=${encodeURIComponent(token)}`, { redirect: 'manual' });

    // The LMS's token is wrong: refused, and the code is still good.
    const refused = await open('wrong-token');
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('LTI_REGISTRATION_INVALID');

    const registered = await open(lms.registrationToken);
    expect(registered.status).toBe(302);
    expect(registered.headers.get('location')).toMatch(/^\/lti-registered\.html\?name=Moodle/);
    // The page is shown in the LMS's frame.
    expect(registered.headers.get('content-security-policy')).toContain(`frame-ancestors ${new URL(lms.url).origin}`);
    const sent = lms.registrations[0] as Record<string, unknown>;
    expect(sent).toMatchObject({
      initiate_login_uri: `${app.url}/lti/login`,
      redirect_uris: [`${app.url}/lti/launch`],
      jwks_uri: `${app.url}/lti/jwks`,
      token_endpoint_auth_method: 'private_key_jwt',
      grant_types: ['implicit', 'client_credentials'],
    });
    expect(String(sent.scope).split(' ')).toEqual(expect.arrayContaining(['https://purl.imsglobal.org/spec/lti-ags/scope/score', 'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly']));
    const listed = await call(`${app.url}/api/lti/platforms`, 'GET', { headers: admin.bearer });
    expect(listed.body.platforms.find((platform: { issuer: string }) => platform.issuer === lms.issuer)).toMatchObject({
      clientId: lms.clientId,
      deploymentIds: [lms.deploymentId],
      via: 'dynamic',
      createInstructors: true,
      jwksUrl: lms.jwksUrl,
    });

    const reused = await open(lms.registrationToken);
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('이미 사용');

    // The new registration launches: a teacher new to lectern gets an account and the picker.
    const launched = await lms.launch(app.url, { user: { sub: 'canvas-teacher', name: '오선생', email: 'oh@school.example', roles: ROLES.instructor }, message: 'deep-link' });
    expect(launched.landing?.kind).toBe('picker');
  });
});

describe('quiz links, and deletion', () => {
  let world: LtiWorld;
  beforeAll(async () => {
    world = await startLtiWorld();
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('LT14 a quiz link lands a student in the quiz’s open room under the LMS name; with no room open yet the student waits for one', async () => {
    const { app, lms, teacher } = world;
    const hostClass = await call(`${app.url}/api/classes`, 'POST', { headers: teacher.bearer, body: { name: '퀴즈 반', materialId: world.materialId } });
    const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: teacher.bearer, body: { title: '분산 퀴즈', items: sampleItems(2), classId: hostClass.body.classId } });
    expect(quiz.status).toBe(201);
    const picker = await lms.launch(app.url, { user: world.instructor, message: 'deep-link' });
    const view = await call(`${app.url}/api/lti/deep-links/${String(picker.landing?.picker)}`, 'GET');
    expect(view.body.quizzes.map((entry: { quizId: string }) => entry.quizId)).toContain(quiz.body.quizId);
    const answer = await call(`${app.url}/api/lti/deep-links/${String(picker.landing?.picker)}`, 'POST', { body: { choices: [{ kind: 'quiz', id: quiz.body.quizId }] } });
    expect((await lms.returnDeepLink(answer.body.returnUrl, answer.body.jwt)).status).toBe(200);
    const link = lms.links.at(-1)!;

    const waiting = await lms.launch(app.url, { user: world.students[0]!, link });
    expect(waiting.landing).toMatchObject({ kind: 'quiz-wait', title: '분산 퀴즈', ticket: expect.any(String) });
    const ticket = String(waiting.landing?.ticket);
    expect((await call(`${app.url}/api/lti/quiz-tickets/${ticket}`, 'GET')).body).toEqual({ kind: 'waiting', title: '분산 퀴즈' });
    const room = await call(`${app.url}/api/rooms`, 'POST', { headers: teacher.bearer, body: { quizId: quiz.body.quizId } });
    expect(room.status).toBe(201);
    const joined = await call(`${app.url}/api/lti/quiz-tickets/${ticket}`, 'GET');
    expect(joined.body).toMatchObject({ kind: 'play', room: { roomId: room.body.roomId, code: room.body.code, nickname: '이서연', playerToken: expect.any(String) } });
    const player = await rejoin(app.url, joined.body.room.playerToken);
    expect((await player.state()).me?.nickname).toBe('이서연');
    player.close();
    // The ticket is used up.
    expect((await call(`${app.url}/api/lti/quiz-tickets/${ticket}`, 'GET')).status).toBe(404);
    // A student launching now goes straight in.
    const direct = await lms.launch(app.url, { user: world.students[1]!, link });
    expect(direct.landing).toMatchObject({ kind: 'play', room: { roomId: room.body.roomId, nickname: '박민준' } });
  });

  it('LT15 deleting a course’s class deletes what LTI kept of it; the next launch makes a new class', async () => {
    const { app, lms, teacher } = world;
    const links = await linkLectureAndExam(world);
    const launched = await lms.launch(app.url, { user: world.students[2]!, link: links.lecture });
    const { classId, sessionId } = launched.landing?.session as { classId: string; sessionId: string };
    expect(await app.store.exists(ltiKeys.ltiClass(classId))).toBe(true);
    expect(await app.store.hget(ltiKeys.ltiClassMembers(classId), `session:${sessionId}`)).not.toBeNull();
    // The exam is published to this class: it goes with the class, so deletion is the exam's too.
    const deleted = await call(`${app.url}/api/classes/${classId}`, 'DELETE', { headers: teacher.bearer });
    expect(deleted.status).toBe(204);
    for (const key of [ltiKeys.ltiClass(classId), ltiKeys.ltiClassMembers(classId), ltiKeys.ltiClassGrades(classId)]) expect(await app.store.exists(key), key).toBe(false);
    expect(Object.values(await app.store.hgetall(ltiKeys.ltiPlatformClasses(world.platformId)))).not.toContain(classId);
    const again = await lms.launch(app.url, { user: world.students[2]!, link: links.lecture });
    expect(again.landing?.kind).toBe('classroom');
    expect((again.landing?.session as { classId: string }).classId).not.toBe(classId);
  });

  it('LT16 deleting a platform deletes its registration and links: its logins are unknown and it no longer frames lectern', async () => {
    const { app, lms, admin } = world;
    const linkIds = (await app.store.zrange(ltiKeys.ltiPlatformLinks(world.platformId), 0, -1)).map(({ member }) => member);
    expect(linkIds.length).toBeGreaterThan(0);
    expect((await call(`${app.url}/api/lti/platforms/${world.platformId}`, 'DELETE', { headers: world.teacher.bearer })).status).toBe(403);
    expect((await call(`${app.url}/api/lti/platforms/${world.platformId}`, 'DELETE', { headers: admin.bearer })).status).toBe(204);
    for (const linkId of linkIds) expect(await app.store.exists(ltiKeys.ltiLink(linkId))).toBe(false);
    for (const key of [ltiKeys.ltiPlatform(world.platformId), ltiKeys.ltiPlatformLinks(world.platformId), ltiKeys.ltiPlatformClasses(world.platformId)]) expect(await app.store.exists(key), key).toBe(false);
    const refused = await lms.launch(app.url, { user: world.students[0]!, message: 'resource' });
    expect([refused.status, refused.errorCode]).toEqual([400, 'LTI_PLATFORM_UNKNOWN']);
    // The frame list is cached for a few seconds on other nodes; this node dropped it at once.
    const page = await fetch(`${app.url}/classroom.html`);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
  });
});
