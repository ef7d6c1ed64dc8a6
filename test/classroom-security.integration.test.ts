/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - S1 — Kinds. A student, player or host token cannot open `/monitor` (`connect_error`, `FORBIDDEN`); an instructor
 *   token cannot open `/tutor`.
 * - S2 — Bad tokens. Missing, malformed, forged, expired, tampered or truncated tokens are refused at `/monitor`,
 *   `/tutor` (`UNAUTHORIZED`) and `GET /api/classes/:id` (401 with `WWW-Authenticate: Bearer`).
 * - S3 — Other class over HTTP. Another class's instructor token, or a non-instructor token, on `GET
 *   /api/classes/:id` answers 403 `FORBIDDEN` and reveals nothing.
 * - S4 — Isolation. Class A's instructor receives nothing about class B: not in the roster, not in any event.
 * - S5 — Actions on other classes. `hand:acknowledge` with a session of another class, or an unknown id, answers
 *   `FORBIDDEN` and changes nothing.
 * - S6 — Payloads. `/monitor` commands with invalid payloads (missing, empty, too long, wrong type, extra fields such
 *   as a `classId`) answer `INVALID_PAYLOAD` and do nothing.
 * - S7 — Vanished class. A valid instructor token of a class that does not exist gets `monitor:error CLASS_NOT_FOUND`
 *   and is disconnected.
 * - S8 — Rate limit. An instructor flooding commands gets `RATE_LIMITED`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSigner } from '../src/auth/tokens.js';
import type { Material } from '../src/materials/index.js';
import { defaultInstructor } from './support/accounts.js';
import {
  connectInstructor,
  countNotices,
  createClass,
  getJson,
  handshakeOutcome,
  joinClass,
  playSessionEvent,
  tamper,
  type CreatedClass,
  type JoinedStudent,
} from './support/classroom-client.js';
import { loadSample, offlineStudent, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Security of classes and the monitor, enumerated (rules S1–S8 of test/SPEC.md). One server and two classes, A and
 * B, shared by the cases: each case only reads or acts, and B's activity is what A must not see.
 */

let app: TestApp;
let material: Material;
let classA: CreatedClass;
let classB: CreatedClass;
let studentA: JoinedStudent;
let studentB: JoinedStudent;

beforeAll(async () => {
  await samplePdfBytes();
  app = await startTestApp({ TOKEN_SECRET: 'security-test-secret' });
  material = await loadSample(app);
  classA = await createClass(app, { name: 'A', materialId: material.id });
  classB = await createClass(app, { name: 'B', materialId: material.id });
  studentA = await joinClass(app, classA.code, '에이');
  studentB = await joinClass(app, classB.code, '비');
});
afterAll(async () => {
  await app?.stop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every way a token can be bad without being another class's or kind's: all must be UNAUTHORIZED. */
function badTokens(good: string): [string, unknown][] {
  return [
    ['missing', undefined],
    ['empty', ''],
    ['not a string', 12345],
    ['malformed', 'not-a-token'],
    ['three parts', `${good}.x`],
    ['forged (another secret)', new TokenSigner('not-the-server-secret').sign(tokenPayload(good), 60_000)],
    ['expired', app.signer.sign(tokenPayload(good), -1)],
    ['tampered (sub)', tamper(good, (payload) => (payload.sub = classB.classId))],
    ['tampered (exp)', tamper(good, (payload) => (payload.exp = Number(payload.exp) + 1))],
    ['truncated signature', good.slice(0, -2)],
  ];
}

function tokenPayload(token: string): { kind: 'session' | 'instructor'; sub: string; scope?: string } {
  const check = app.signer.verify(token);
  if (!check.ok) throw new Error('fixture token invalid');
  const { kind, sub, scope } = check.payload;
  if (kind !== 'session' && kind !== 'instructor') throw new Error('unexpected kind');
  return { kind, sub, ...(scope ? { scope } : {}) };
}

describe('classroom security', () => {
  it('S1: a student token cannot open /monitor (FORBIDDEN), nor can a player or host token', async () => {
    for (const token of [
      studentA.token,
      app.signer.sign({ kind: 'player', sub: 'p1', scope: classA.classId }, 60_000),
      app.signer.sign({ kind: 'host', sub: classA.classId }, 60_000),
    ]) {
      const outcome = await handshakeOutcome(app.socket('/monitor', { token }));
      expect(outcome).toEqual({ message: 'UNAUTHORIZED', data: expect.objectContaining({ code: 'FORBIDDEN', reason: 'kind' }) });
    }
    // Nor the other way round: an instructor token is not a student's.
    const outcome = await handshakeOutcome(app.socket('/tutor', { token: classA.instructorToken }));
    expect(outcome).toMatchObject({ data: { code: 'FORBIDDEN' } });
  });

  it('S2: forged, expired, tampered and malformed tokens are refused at /monitor, /tutor and GET /api/classes/:id', async () => {
    for (const [label, token] of badTokens(classA.instructorToken)) {
      const outcome = await handshakeOutcome(app.socket('/monitor', token === undefined ? {} : { token }));
      expect(outcome, `/monitor ${label}`).toMatchObject({ message: 'UNAUTHORIZED', data: { code: 'UNAUTHORIZED' } });
      const headers = typeof token === 'string' ? bearer(token) : {};
      const reply = await getJson(`${app.url}/api/classes/${classA.classId}`, headers);
      expect([reply.status, reply.body.error?.code], `GET ${label}`).toEqual([401, 'UNAUTHORIZED']);
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    }
    for (const [label, token] of badTokens(studentA.token)) {
      const outcome = await handshakeOutcome(app.socket('/tutor', token === undefined ? {} : { token }));
      expect(outcome, `/tutor ${label}`).toMatchObject({ message: 'UNAUTHORIZED', data: { code: 'UNAUTHORIZED' } });
    }
    for (const header of [`Basic ${classA.instructorToken}`, classA.instructorToken, 'Bearer']) {
      const reply = await getJson(`${app.url}/api/classes/${classA.classId}`, { authorization: header });
      expect(reply.status, header).toBe(401);
    }
  });

  it("S3: another class's instructor token answers CLASS_NOT_FOUND (no probing), a student or host token FORBIDDEN, on GET /api/classes/:id", async () => {
    const refusals: [string, number, string][] = [
      [classB.instructorToken, 404, 'CLASS_NOT_FOUND'],
      [studentA.token, 403, 'FORBIDDEN'],
      [app.signer.sign({ kind: 'host', sub: classA.classId }, 60_000), 403, 'FORBIDDEN'],
    ];
    for (const [token, status, code] of refusals) {
      const reply = await getJson(`${app.url}/api/classes/${classA.classId}`, bearer(token));
      expect([reply.status, reply.body.error?.code]).toEqual([status, code]);
      expect(JSON.stringify(reply.body)).not.toContain(studentA.sessionId);
    }
    const own = await getJson<{ students: unknown[] }>(`${app.url}/api/classes/${classA.classId}`, bearer(classA.instructorToken));
    expect(own.status).toBe(200);
  });

  it("S4: class A's instructor sees nothing of class B: not in the roster, not in any event", async () => {
    const { monitor: instructorA, roster } = await connectInstructor(app, classA.instructorToken);
    const { monitor: instructorB } = await connectInstructor(app, classB.instructorToken);
    expect(roster.students.map((student) => student.sessionId)).toEqual([studentA.sessionId]);

    // Class B is busy: a student joins and connects, studies, answers (badly), raises a hand, gets an announcement.
    const busy = await joinClass(app, classB.code, '비둘', { policy: offlineStudent(app, material.id, () => false) });
    await busy.client.ok('lecture:speed', { tokensPerSecond: 200 });
    await busy.client.ok('lecture:start');
    await busy.client.waitForEvent('tutor:subquestion');
    await playSessionEvent(app, busy.sessionId, 'assistant:prompt', { text: '?' });
    await instructorB.waitFor('hand:raised', (payload) => payload.sessionId === busy.sessionId);
    expect(await instructorB.command('class:announce', { text: 'B반만' })).toMatchObject({ ok: true });
    await instructorB.waitFor('student:remediation');
    await instructorB.waitFor('student:answered');

    // Then something in class A, so A's socket has provably received everything sent before it.
    await joinClass(app, classA.code, '에이둘');
    await instructorA.waitFor('student:joined', ({ student }) => student.nickname === '에이둘' && student.connected);
    const seenByA = JSON.stringify(instructorA.events);
    for (const id of [studentB.sessionId, busy.sessionId, classB.classId, classB.code]) expect(seenByA).not.toContain(id);
    expect(instructorA.events.map((event) => event.event)).not.toContain('student:answered');
    expect(countNotices(studentA.client, 'class:announcement')).toBe(0);
    busy.client.socket.disconnect();
  });

  it('S5: hand:acknowledge with a session of another class, or an unknown one, answers FORBIDDEN and changes nothing', async () => {
    const { monitor: instructorA } = await connectInstructor(app, classA.instructorToken);
    await playSessionEvent(app, studentB.sessionId, 'assistant:prompt', { text: '?' });
    await expect.poll(async () => (await app.classes.info(classB.classId)).students[0]?.hand).not.toBeNull();
    for (const sessionId of [studentB.sessionId, 'no-such-session', classB.classId]) {
      expect(await instructorA.command('hand:acknowledge', { sessionId })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect((await app.classes.info(classB.classId)).students[0]?.hand?.acknowledged).toBe(false);
    expect(countNotices(studentB.client, 'hand:acknowledged')).toBe(0);
  });

  it('S6: invalid /monitor payloads answer INVALID_PAYLOAD', async () => {
    const { monitor } = await connectInstructor(app, classA.instructorToken);
    const invalid: [string, unknown][] = [
      ['class:announce', undefined],
      ['class:announce', {}],
      ['class:announce', { text: '' }],
      ['class:announce', { text: '   ' }],
      ['class:announce', { text: 'x'.repeat(501) }],
      ['class:announce', { text: 5 }],
      ['class:announce', { text: '공지', classId: classB.classId }],
      ['class:announce', 'text'],
      ['class:announce', null],
      ['hand:acknowledge', {}],
      ['hand:acknowledge', { sessionId: '' }],
      ['hand:acknowledge', { sessionId: 'x'.repeat(65) }],
      ['hand:acknowledge', { sessionId: 1 }],
      ['hand:acknowledge', { sessionId: studentA.sessionId, classId: classB.classId }],
    ];
    for (const [event, payload] of invalid) {
      const ack = payload === undefined ? await monitor.socket.timeout(5_000).emitWithAck(event) : await monitor.unchecked(event, payload);
      expect(ack, `${event} ${JSON.stringify(payload)}`).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    }
    expect(countNotices(studentA.client, 'class:announcement')).toBe(0);
  });

  it('S7: a valid instructor token of a class that does not exist is refused at the handshake with CLASS_NOT_FOUND', async () => {
    const { accountId } = await defaultInstructor(app);
    const socket = app.socket('/monitor', { token: app.signer.sign({ kind: 'instructor', sub: 'deleted-class', scope: accountId }, 60_000) });
    expect(await handshakeOutcome(socket)).toMatchObject({ message: 'CLASS_NOT_FOUND', data: { code: 'CLASS_NOT_FOUND' } });
  });

  it('S8: an instructor flooding commands gets RATE_LIMITED', async () => {
    const { monitor } = await connectInstructor(app, classA.instructorToken);
    const acks = await Promise.all(Array.from({ length: 30 }, () => monitor.command('class:announce', { text: '!' })));
    expect(acks.filter((ack) => !ack.ok && ack.error.code === 'RATE_LIMITED').length).toBeGreaterThan(0);
  });
});
