/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - LT9 — Refused launches. (`lti-launch-refusals`).
 * - LT10 — Logins and links. Unknown issuer, unknown deployment and a target on another site are refused before the
 *   platform is asked; a good login redirects with the OIDC parameters and an HttpOnly …
 * - LT11 — Platform keys. After the platform rotates its keys (the old one dropped) the next launch verifies with the
 *   refetched JWKS; a JWKS that cannot be fetched is `502 LTI_PLATFORM_UNAVAILABLE` …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, startFakeLms, type FakeLink, type FakeUser, type LaunchOptions } from './support/fake-lms.js';
import { call } from './support/http-call.js';
import { linkLectureAndExam, startLtiWorld, type LtiWorld } from './support/lti-world.js';

/**
 * LT9–LT11 (test/SPEC.md): every check of a launch, each broken on its own by the local LMS platform, is refused with
 * its own code and a Korean page, and a launch that breaks nothing (with the platform's keys rotated) lands.
 */

const LTI = 'https://purl.imsglobal.org/spec/lti/claim/';
const student: FakeUser = { sub: 'lms-student-9', name: '정하늘', roles: ROLES.learner };

describe('launch refusals', () => {
  let world: LtiWorld;
  let lecture: FakeLink;
  beforeAll(async () => {
    world = await startLtiWorld();
    lecture = (await linkLectureAndExam(world)).lecture;
  });
  afterAll(async () => {
    await world?.stop();
  });

  const launch = (options: Partial<LaunchOptions> = {}) => world.lms.launch(world.app.url, { user: student, link: lecture, ...options });

  it('LT9 a launch that breaks nothing lands (the control case)', async () => {
    const landed = await launch();
    expect([landed.status, landed.landing?.kind]).toEqual([200, 'classroom']);
  });

  it.each([
    ['a tampered signature', { corruptSignature: true }, 401, 'LTI_TOKEN_INVALID', '서명'],
    ['a key the platform never published', { rogueKey: true }, 401, 'LTI_TOKEN_INVALID', 'kid'],
    ['an expired token', { expiresIn: -120 }, 401, 'LTI_TOKEN_EXPIRED', '유효 시간'],
    ['another audience', { claims: { aud: 'some-other-tool' } }, 401, 'LTI_AUDIENCE_INVALID', 'client ID'],
    ['several audiences without azp', { claims: { aud: ['lectern-client', 'other-tool'] } }, 401, 'LTI_AUDIENCE_INVALID', 'azp'],
    ['an azp of another tool', { claims: { azp: 'other-tool' } }, 401, 'LTI_AUDIENCE_INVALID', 'azp'],
    ['another issuer', { claims: { iss: 'https://evil.example.org' } }, 401, 'LTI_TOKEN_INVALID', '발급자'],
    ['a deployment not registered', { claims: { [`${LTI}deployment_id`]: 'dep-unknown' } }, 403, 'LTI_DEPLOYMENT_UNKNOWN', 'dep-unknown'],
    ['LTI 1.1 version', { claims: { [`${LTI}version`]: '1.1' } }, 400, 'LTI_MESSAGE_INVALID', '1.3.0'],
    ['an unknown message type', { claims: { [`${LTI}message_type`]: 'LtiSubmissionReviewRequest' } }, 400, 'LTI_MESSAGE_INVALID', 'LtiSubmissionReviewRequest'],
    ['no resource link', { claims: { [`${LTI}resource_link`]: undefined } }, 400, 'LTI_MESSAGE_INVALID', 'resource_link'],
    ['no roles claim', { claims: { [`${LTI}roles`]: undefined } }, 400, 'LTI_MESSAGE_INVALID', 'roles'],
  ] as const)('LT9 %s is refused', async (_name, tamper, status, code, words) => {
    const refused = await launch({ tamper });
    expect([refused.status, refused.errorCode]).toEqual([status, code]);
    expect(refused.landing).toBeNull();
    expect(refused.html).toContain(words);
  });

  it('LT9 several audiences with lectern as azp are accepted', async () => {
    const landed = await launch({ tamper: { claims: { aud: [world.lms.clientId, 'other-tool'], azp: world.lms.clientId } } });
    expect(landed.landing?.kind).toBe('classroom');
  });

  it('LT9 a replayed launch (the same form posted again) is refused: its state was used', async () => {
    const first = await launch();
    expect(first.landing?.kind).toBe('classroom');
    const replay = await world.lms.postLaunch(world.app.url, first.form, first.stateCookie);
    expect([replay.status, replay.errorCode]).toEqual([400, 'LTI_STATE_INVALID']);
    expect(replay.html).toContain('이미 사용');
  });

  it('LT9 the id token of another login (its nonce) is refused, and a state from another browser too', async () => {
    const earlier = await launch();
    const swapped = await launch({ tamper: { idToken: earlier.form.id_token } });
    expect([swapped.status, swapped.errorCode]).toEqual([401, 'LTI_NONCE_INVALID']);
    // A fresh login's form, posted by a browser whose state cookie is another login's.
    const prepared = await world.lms.prepare(world.app.url, { user: student, link: lecture });
    if ('refused' in prepared) throw new Error('login refused');
    const crossed = await world.lms.postLaunch(world.app.url, prepared.form, 'lectern_lti_state=another-browsers-state');
    expect([crossed.status, crossed.errorCode]).toEqual([400, 'LTI_STATE_INVALID']);
    expect(crossed.html).toContain('다른 브라우저');
    // Without any state cookie (a browser blocking third-party cookies in the LMS frame) the one-use state still binds it.
    const cookieless = await world.lms.prepare(world.app.url, { user: student, link: lecture });
    if ('refused' in cookieless) throw new Error('login refused');
    expect((await world.lms.postLaunch(world.app.url, cookieless.form, null)).landing?.kind).toBe('classroom');
  });

  it('LT10 logins are checked before the platform is asked: unknown issuer, unknown deployment, a target on another site', async () => {
    const { app, lms } = world;
    const post = (fields: Record<string, string>) =>
      fetch(`${app.url}/lti/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), redirect: 'manual' });
    const base = { iss: lms.issuer, login_hint: 'x', target_link_uri: `${app.url}/lti/launch`, client_id: lms.clientId };
    const unknown = await post({ ...base, iss: 'https://moodle.elsewhere.example' });
    expect([unknown.status, await unknown.text()]).toEqual([400, expect.stringContaining('LTI_PLATFORM_UNKNOWN')]);
    const deployment = await post({ ...base, lti_deployment_id: 'dep-9' });
    expect([deployment.status, await deployment.text()]).toEqual([403, expect.stringContaining('LTI_DEPLOYMENT_UNKNOWN')]);
    const target = await post({ ...base, target_link_uri: 'https://phishing.example/launch' });
    expect([target.status, await target.text()]).toEqual([400, expect.stringContaining('LTI_MESSAGE_INVALID')]);
    const fine = await post(base);
    expect(fine.status).toBe(302);
    const location = new URL(fine.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(lms.authUrl);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({ scope: 'openid', response_type: 'id_token', response_mode: 'form_post', prompt: 'none', client_id: lms.clientId, redirect_uri: `${app.url}/lti/launch` });
    const cookie = fine.headers.getSetCookie().find((entry) => entry.startsWith('lectern_lti_state='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=None/i);
    expect(cookie).toMatch(/Secure/i);
  });

  it('LT10 a link that names nothing of lectern is refused for a student', async () => {
    const refused = await launch({ link: { id: 'rl-x', title: '?', custom: { lectern_link: 'no-such-link' } } });
    expect([refused.status, refused.errorCode]).toEqual([404, 'LTI_LINK_INVALID']);
    const bare = await launch({ link: { id: 'rl-y', title: '?', custom: {} } });
    expect([bare.status, bare.errorCode]).toEqual([404, 'LTI_LINK_INVALID']);
  });

  it('LT11 the platform rotates its keys: the next launch is verified with the new key, fetched from its JWKS', async () => {
    await world.lms.rotateKey({ dropOld: true });
    const landed = await launch();
    expect(landed.landing?.kind).toBe('classroom');
  });

  it('LT11 a platform whose JWKS cannot be reached is answered 502, not as a bad token', async () => {
    const { app, admin } = world;
    const dead = await startFakeLms();
    dead.useTool(app.url);
    const jwksUrl = dead.jwksUrl;
    const registered = await call(`${app.url}/api/lti/platforms`, 'POST', { headers: admin.bearer, body: dead.registration() });
    expect(registered.status).toBe(201);
    // Its auth endpoint answers, its JWKS URL does not.
    const broken = await call(`${app.url}/api/lti/platforms/${registered.body.platformId}`, 'PUT', {
      headers: admin.bearer,
      body: { ...dead.registration(), jwksUrl: jwksUrl.replace('/jwks', '/no-jwks-here') },
    });
    expect(broken.status).toBe(200);
    const refused = await dead.launch(app.url, { user: student, link: { id: 'rl', title: 't', custom: {} } });
    expect([refused.status, refused.errorCode]).toEqual([502, 'LTI_PLATFORM_UNAVAILABLE']);
    await dead.close();
  });
});
