/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - L13 — Answers out of turn. `answer:submit` when nothing is asked answers `NO_PENDING_QUESTION`; with a questionId
 *   other than the one asked now (unknown, or already answered) `UNKNOWN_QUESTION`.
 * - L14 — Payloads. A command payload that does not match its schema (missing or extra fields, wrong types, an answer
 *   empty or over 2000 characters, a speed outside 1–200 or not an integer …
 * - L15 — Rate limit. A socket that floods commands gets `RATE_LIMITED` for the excess; other sockets are served
 *   normally.
 * - L16 — Handshake. `/tutor` refuses a missing, malformed, forged or expired token with a `connect_error`
 *   (`UNAUTHORIZED`) and a token of another kind with `FORBIDDEN`.
 * - L17 — Sessions endpoint. `POST /api/sessions` with an unknown material answers 404 `MATERIAL_NOT_FOUND`; with an
 *   invalid body (missing or empty fields …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenSigner } from '../src/auth/tokens.js';
import type { Material } from '../src/materials/index.js';
import { connectedOrThrow, joinLecture, LectureClient, loadSample, WRONG_ANSWER } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Bad input at every boundary of the lecture (rules L13–L17 in test/SPEC.md): commands out of turn, invalid
 * payloads, floods, bad tokens and bad session requests. One server for the file; every test has its own session.
 */

let app: TestApp;
let material: Material;
beforeAll(async () => {
  app = await startTestApp();
  material = await loadSample(app);
});
afterAll(async () => {
  await app?.stop();
});

type Refused = { ok: false; error: { code: string; message: string } };

function expectRefused(ack: unknown, code: string): void {
  expect(ack).toMatchObject({ ok: false, error: { code } });
  expect((ack as Refused).error.message).toMatch(/[가-힣]/);
}

describe('answers out of turn', () => {
  it('L13: answer:submit with no pending question -> NO_PENDING_QUESTION (before start and while streaming)', async () => {
    const { client } = await joinLecture(app, material.id);
    expectRefused(await client.command('answer:submit', { questionId: 'c0q1', text: '평균은 합을 개수로 나눈 값' }), 'NO_PENDING_QUESTION');
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForEvent('lecture:delta');
    expectRefused(await client.command('answer:submit', { questionId: 'c0q1', text: '평균은 합을 개수로 나눈 값' }), 'NO_PENDING_QUESTION');
  });

  it('L13: a wrong or an old questionId while a question is pending -> UNKNOWN_QUESTION, and the real one still works', async () => {
    const { client } = await joinLecture(app, material.id);
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    const question = await client.waitForEvent('lecture:question');
    expectRefused(await client.command('answer:submit', { questionId: 'c0q99', text: '평균' }), 'UNKNOWN_QUESTION');
    expectRefused(await client.command('answer:submit', { questionId: `${question.questionId}.s1`, text: '평균' }), 'UNKNOWN_QUESTION');

    expect(await client.ok('answer:submit', { questionId: question.questionId, text: WRONG_ANSWER })).toEqual({
      ok: true,
      questionId: question.questionId,
    });
    const sub = await client.waitForEvent('tutor:subquestion');
    // The parent question was answered already: it is an old id now.
    expectRefused(await client.command('answer:submit', { questionId: question.questionId, text: WRONG_ANSWER }), 'UNKNOWN_QUESTION');
    await client.ok('answer:submit', { questionId: sub.questionId, text: WRONG_ANSWER });
    // Answering the same subquestion twice: the second is out of turn (while judging) or for an old id.
    const again = await client.command('answer:submit', { questionId: sub.questionId, text: WRONG_ANSWER });
    expect(again.ok).toBe(false);
    expect(['NO_PENDING_QUESTION', 'UNKNOWN_QUESTION']).toContain((again as Refused).error.code);
    expect(client.seqErrors).toEqual([]);
  });
});

describe('invalid payloads', () => {
  it('L14: every malformed command payload -> INVALID_PAYLOAD, and nothing happens', async () => {
    const { client } = await joinLecture(app, material.id);
    const cases: [string, unknown][] = [
      ['answer:submit', {}],
      ['answer:submit', { questionId: 'c0q1' }],
      ['answer:submit', { text: '평균' }],
      ['answer:submit', { questionId: 'c0q1', text: '' }],
      ['answer:submit', { questionId: 'c0q1', text: '   ' }],
      ['answer:submit', { questionId: 'c0q1', text: '가'.repeat(2001) }],
      ['answer:submit', { questionId: 'c0q1', text: '평균', extra: true }],
      ['answer:submit', { questionId: 42, text: '평균' }],
      ['lecture:speed', { tokensPerSecond: 0 }],
      ['lecture:speed', { tokensPerSecond: 500 }],
      ['lecture:speed', { tokensPerSecond: 1.5 }],
      ['lecture:speed', { tokensPerSecond: '200' }],
      ['lecture:speed', {}],
      ['lecture:start', { chapter: 2 }],
      ['session:resume', { lastSeq: -1 }],
      ['session:resume', {}],
      ['lecture:pause', 'now'],
    ];
    // Stay under the per-socket burst so every refusal is about the payload, not the rate.
    expect(cases.length).toBeLessThan(20);
    for (const [event, payload] of cases) {
      const ack = await client.unchecked(event, payload);
      expect(ack, `${event} ${JSON.stringify(payload).slice(0, 60)}`).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    }
    // Nothing was started or changed by the refused commands.
    expect(client.events).toEqual([]);
    const record = await app.lectures.repository.load(client.sessionId);
    expect(record).toMatchObject({ state: { kind: 'idle' }, speed: 25, seq: 0 });
  });

  it('L14: the limits themselves are accepted (2000 characters, speed 1 and 200)', async () => {
    const { client } = await joinLecture(app, material.id);
    expect(await client.ok('lecture:speed', { tokensPerSecond: 1 })).toMatchObject({ speed: 1 });
    expect(await client.ok('lecture:speed', { tokensPerSecond: 200 })).toMatchObject({ speed: 200 });
    // A 2000-character answer passes validation (and is refused only because nothing is asked).
    expectRefused(await client.command('answer:submit', { questionId: 'c0q1', text: '가'.repeat(2000) }), 'NO_PENDING_QUESTION');
  });
});

describe('rate limits', () => {
  it('L15: a flood from one socket gets RATE_LIMITED while another socket is served normally', async () => {
    const flooder = await joinLecture(app, material.id, { nickname: '홍수' });
    const calm = await joinLecture(app, material.id, { nickname: '차분' });
    const acks = await Promise.all(
      Array.from({ length: 60 }, (_, index) => flooder.client.command('lecture:speed', { tokensPerSecond: 100 + (index % 50) })),
    );
    const limited = acks.filter((ack) => !ack.ok && ack.error.code === 'RATE_LIMITED');
    expect(limited.length).toBeGreaterThan(0);
    expect(acks.filter((ack) => ack.ok).length).toBeGreaterThan(0);
    expect(acks.every((ack) => ack.ok || ack.error.code === 'RATE_LIMITED')).toBe(true);

    expect(await calm.client.ok('lecture:speed', { tokensPerSecond: 200 })).toMatchObject({ speed: 200 });
    expect(await calm.client.ok('lecture:start')).toMatchObject({ state: 'streaming' });
  });
});

describe('handshake', () => {
  async function refusal(auth: Record<string, unknown>): Promise<{ message: string; data?: { code: string; reason: string } }> {
    const socket = app.socket('/tutor', auth);
    try {
      await connectedOrThrow(socket);
    } catch (error) {
      return error as { message: string; data?: { code: string; reason: string } };
    }
    throw new Error('the handshake was accepted');
  }

  it('L16: a missing, malformed, forged, expired or wrong-kind token is refused with connect_error', async () => {
    const { sessionId } = await joinLecture(app, material.id);
    const forged = new TokenSigner('not-the-server-secret').sign({ kind: 'session', sub: sessionId }, 60_000);
    const expired = app.signer.sign({ kind: 'session', sub: sessionId }, -1_000);
    const wrongKind = app.signer.sign({ kind: 'host', sub: sessionId }, 60_000);

    expect(await refusal({})).toMatchObject({ message: 'UNAUTHORIZED', data: { code: 'UNAUTHORIZED', reason: 'malformed' } });
    expect(await refusal({ token: 'garbage' })).toMatchObject({ data: { code: 'UNAUTHORIZED', reason: 'malformed' } });
    expect(await refusal({ token: forged })).toMatchObject({ data: { code: 'UNAUTHORIZED', reason: 'signature' } });
    expect(await refusal({ token: expired })).toMatchObject({ data: { code: 'UNAUTHORIZED', reason: 'expired' } });
    expect(await refusal({ token: wrongKind })).toMatchObject({ data: { code: 'FORBIDDEN', reason: 'kind' } });
  });

  it('L16: a valid token for a session that does not exist gets SESSION_NOT_FOUND and is disconnected', async () => {
    const token = app.signer.sign({ kind: 'session', sub: 'no-such-session' }, 60_000);
    const socket = app.socket('/tutor', { token });
    const client = new LectureClient(socket);
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    await connectedOrThrow(socket);
    expect(await client.waitForEvent('session:error')).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect(await disconnected).toBe('io server disconnect');
  });
});

describe('POST /api/sessions', () => {
  async function post(body: unknown, raw = false) {
    const response = await fetch(`${app.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: raw ? (body as string) : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { error?: { code: string; message: string } } };
  }

  it('L17: an unknown material -> 404 MATERIAL_NOT_FOUND', async () => {
    for (const materialId of ['0'.repeat(32), 'not-a-material-id']) {
      const result = await post({ materialId, nickname: '학생' });
      expect(result.status).toBe(404);
      expect(result.body.error?.code).toBe('MATERIAL_NOT_FOUND');
    }
  });

  it('L17: an invalid body -> 400 INVALID_PAYLOAD', async () => {
    const bodies: unknown[] = [
      {},
      { materialId: material.id },
      { nickname: '학생' },
      { materialId: material.id, nickname: '' },
      { materialId: material.id, nickname: '가'.repeat(21) },
      { materialId: material.id, nickname: 'a\u0007b' },
      { materialId: 7, nickname: '학생' },
      [],
    ];
    for (const body of bodies) {
      const result = await post(body);
      expect(result.status, JSON.stringify(body)).toBe(400);
      expect(result.body.error?.code).toBe('INVALID_PAYLOAD');
    }
    const broken = await post('{"materialId": ', true);
    expect(broken.status).toBe(400);
    expect(broken.body.error?.code).toBe('INVALID_PAYLOAD');
  });
});
