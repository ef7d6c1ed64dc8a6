/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - N3 — Everywhere. `POST /api/sessions`, `POST /api/classes/:code/join`, `POST /api/classes` (the class name) and
 *   `room:join` use that one schema …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { ClassInfo } from '../src/protocol/classroom.js';
import { defaultInstructor } from './support/accounts.js';
import { createClass, getJson, postJson } from './support/classroom-client.js';
import { loadSample } from './support/lecture-client.js';
import { createQuiz, createRoom, openHost, QuizClient } from './support/quiz-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * N3 (test/SPEC.md): every input that takes a name people read — POST /api/sessions, POST /api/classes/:code/join,
 * POST /api/classes (the class name) and the quiz room's `room:join` — uses the one display-name schema.
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

/** Four nicknames that all look like "ab". */
const LOOKALIKES = ['a\u200bb', 'a\u00adb', 'a\u2060b', '\u202eba'];
const INVISIBLE = '보이지 않는 문자나 글자 방향을 바꾸는 문자를 쓸 수 없습니다';

describe('names people choose', () => {
  it('N3 a class accepts one "ab": its invisible look-alikes are refused (400, Korean message); NFD Hangul is the same name as NFC', async () => {
    const created = await createClass(app, { name: '이름 반', materialId: material.id });
    const join = (nickname: string) => postJson(`${app.url}/api/classes/${created.code}/join`, { nickname });
    expect((await join('ab')).status).toBe(201);
    for (const nickname of LOOKALIKES) {
      const refused = await join(nickname);
      expect(refused.status, JSON.stringify(nickname)).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'INVALID_PAYLOAD', message: expect.stringContaining(INVISIBLE) });
    }
    expect((await join('\u3164')).status).toBe(400);

    expect((await join('한별')).status).toBe(201);
    const decomposed = await join('한별'.normalize('NFD'));
    expect(decomposed.status).toBe(409);
    expect(decomposed.body.error?.code).toBe('NICKNAME_TAKEN');
    // A name typed decomposed is kept composed.
    expect((await join(` ${'은하'.normalize('NFD')} `)).status).toBe(201);
    expect((await join('👩‍💻')).status).toBe(201);
    const info = await getJson<ClassInfo>(`${app.url}/api/classes/${created.classId}`, { authorization: `Bearer ${created.instructorToken}` });
    expect(info.body.students?.map((student) => student.nickname)).toEqual(['ab', '한별', '은하', '👩‍💻']);
  });

  it('N3 POST /api/sessions and POST /api/classes refuse the same characters', async () => {
    for (const nickname of [...LOOKALIKES, '민\n지', '\u0000']) {
      const session = await postJson(`${app.url}/api/sessions`, { materialId: material.id, nickname });
      expect(session.status, JSON.stringify(nickname)).toBe(400);
      expect(session.body.error?.code).toBe('INVALID_PAYLOAD');
    }
    const composed = await postJson<{ sessionId: string }>(`${app.url}/api/sessions`, { materialId: material.id, nickname: '한별'.normalize('NFD') });
    expect(composed.status).toBe(201);
    const profile = await app.lectures.repository.load(composed.body.sessionId!);
    expect(profile?.profile.nickname).toBe('한별');

    for (const name of ['통계\u200b반', '\u202e반1계통', '통계\n반']) {
      const refused = await postJson(`${app.url}/api/classes`, { name }, (await defaultInstructor(app)).bearer);
      expect(refused.status, JSON.stringify(name)).toBe(400);
      expect(refused.body.error?.message).toMatch(/^수업 이름에는/);
    }
    const accepted = await createClass(app, { name: '통계반'.normalize('NFD') });
    const info = await getJson<ClassInfo>(`${app.url}/api/classes/${accepted.classId}`, { authorization: `Bearer ${accepted.instructorToken}` });
    expect(info.body.name).toBe('통계반');
  });

  it('N3 a quiz room refuses invisible look-alikes and takes NFD Hangul as the same nickname', async () => {
    const setup = await createQuiz(app);
    const room = await createRoom(app, setup);
    const host = await openHost(app.url, room.hostToken);
    const guest = await QuizClient.open(app.url).ready();
    try {
      for (const nickname of LOOKALIKES) {
        const refused = await guest.emit('room:join', { code: room.code, nickname });
        expect(refused, JSON.stringify(nickname)).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining(INVISIBLE) } });
      }
      expect(await guest.emit('room:join', { code: room.code, nickname: '\u3164' })).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
      expect(await guest.emit('room:join', { code: room.code, nickname: '한별' })).toMatchObject({ ok: true });
      const other = await QuizClient.open(app.url).ready();
      try {
        expect(await other.emit('room:join', { code: room.code, nickname: '한별'.normalize('NFD') })).toMatchObject({ ok: false, error: { code: 'NICKNAME_TAKEN' } });
        expect(await other.emit('room:join', { code: room.code, nickname: '🧑🏽‍🚀' })).toMatchObject({ ok: true });
      } finally {
        other.close();
      }
      const players = await host.latest<{ players: { nickname: string }[] }>('room:players', (update) => update.players.length === 2);
      expect(players.players.map((player) => player.nickname).sort()).toEqual(['🧑🏽‍🚀', '한별'].sort());
    } finally {
      guest.close();
      host.close();
    }
  });
});
