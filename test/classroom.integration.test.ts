/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - C1 — Create. `POST /api/classes` answers 201 `{classId, code, instructorToken}`; the code is 6 characters of the
 *   join alphabet and unique among classes; the token is an instructor token of the class.
 * - C2 — Join. `POST /api/classes/:code/join` (code in any case) answers 201 `{sessionId, token, classId,
 *   materialId}` with the class's material (the body's only for a class without one) …
 * - C3 — Nicknames are unique per class ignoring case and width (409 `NICKNAME_TAKEN`); of several concurrent joins
 *   with one nickname exactly one succeeds; other classes are unaffected.
 * - C4 — Sessions with a class. `POST /api/sessions` with `classCode` is the join; without it `materialId` is
 *   required.
 * - C5 — Instructor view. `GET /api/classes/:id` with the class's instructor bearer token answers the class and its
 *   roster.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import { JOIN_CODE_ALPHABET, type ClassInfo } from '../src/protocol/classroom.js';
import { defaultInstructor } from './support/accounts.js';
import { createClass, getJson, postJson, storeReady, type CreatedClass } from './support/classroom-client.js';
import { connectedOrThrow, loadSample, samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Classes, join codes and the join flow over HTTP (rules C1–C5 of test/SPEC.md), on the memory store and Redis. */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

async function boot(store: 'memory' | 'redis', context: TestContext): Promise<{ app: TestApp; material: Material }> {
  const app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url } : {});
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  return { app, material: await loadSample(app) };
}

type Joined = { sessionId: string; token: string; classId: string; materialId: string };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(['memory', 'redis'] as const)('classes (%s store)', (store) => {
  it('C1: POST /api/classes answers a classId, a 6-character code without look-alikes and an instructor token; codes are unique', async (context) => {
    const { app, material } = await boot(store, context);
    const created = await Promise.all(Array.from({ length: 40 }, (_, index) => createClass(app, { name: `반 ${index}`, materialId: material.id })));
    for (const { classId, code, instructorToken } of created) {
      expect(code).toMatch(new RegExp(`^[${JOIN_CODE_ALPHABET}]{6}$`));
      expect(code).not.toMatch(/[0O1IL2Z5S8B]/);
      expect(classId).toMatch(/^[0-9a-f-]{36}$/);
      expect(app.signer.verify(instructorToken, ['instructor'])).toMatchObject({ ok: true, payload: { kind: 'instructor', sub: classId } });
    }
    expect(new Set(created.map((entry) => entry.code)).size).toBe(created.length);
    expect(new Set(created.map((entry) => entry.classId)).size).toBe(created.length);
  });

  it('C2 C5: a student joins by code (any case) with the class material; the instructor sees them on GET /api/classes/:id', async (context) => {
    const { app, material } = await boot(store, context);
    const created = await createClass(app, { name: '통계 1반', materialId: material.id });
    const joined = await postJson<Joined>(`${app.url}/api/classes/${created.code.toLowerCase()}/join`, { nickname: ' 민지 ', materialId: 'ignored' });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ classId: created.classId, materialId: material.id });
    expect(app.signer.verify(joined.body.token, ['session'])).toMatchObject({
      ok: true,
      payload: { kind: 'session', sub: joined.body.sessionId, scope: created.classId },
    });
    await connectedOrThrow(app.socket('/tutor', { token: joined.body.token }));

    const info = await getJson<ClassInfo>(`${app.url}/api/classes/${created.classId}`, bearer(created.instructorToken));
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ classId: created.classId, name: '통계 1반', code: created.code, materialId: material.id });
    expect(info.body.students).toEqual([
      {
        sessionId: joined.body.sessionId,
        nickname: '민지',
        connected: expect.any(Boolean),
        chapter: -1,
        percent: 0,
        state: 'idle',
        lastVerdict: null,
        badStreak: 0,
        hand: null,
      },
    ]);
    // The socket count is written as the session attaches; the roster shows it connected soon after.
    await expect.poll(async () => (await app.classes.info(created.classId)).students[0]?.connected).toBe(true);
  });

  it('C2: unknown, malformed and material-less joins are refused with their codes', async (context) => {
    const { app, material } = await boot(store, context);
    const withMaterial = await createClass(app, { name: '자료 있음', materialId: material.id });
    const without = await createClass(app, { name: '자료 없음' });

    const unknown = await postJson(`${app.url}/api/classes/AAAAAA/join`, { nickname: '학생' });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'CLASS_NOT_FOUND']);
    for (const code of ['ABC', 'AAAAA0', 'AAAAAAA', '%20']) {
      const malformed = await postJson(`${app.url}/api/classes/${code}/join`, { nickname: '학생' });
      expect([malformed.status, malformed.body.error?.code], code).toEqual([400, 'INVALID_PAYLOAD']);
    }
    for (const body of [{}, { nickname: '' }, { nickname: 'x'.repeat(21) }, { nickname: 'a\u0007b' }]) {
      const invalid = await postJson(`${app.url}/api/classes/${withMaterial.code}/join`, body);
      expect([invalid.status, invalid.body.error?.code], JSON.stringify(body)).toEqual([400, 'INVALID_PAYLOAD']);
    }
    const notJson = await postJson(`${app.url}/api/classes/${withMaterial.code}/join`, '{nick');
    expect([notJson.status, notJson.body.error?.code]).toEqual([400, 'INVALID_PAYLOAD']);

    const noMaterial = await postJson(`${app.url}/api/classes/${without.code}/join`, { nickname: '학생' });
    expect([noMaterial.status, noMaterial.body.error?.code]).toEqual([400, 'MATERIAL_REQUIRED']);
    const wrongMaterial = await postJson(`${app.url}/api/classes/${without.code}/join`, { nickname: '학생', materialId: 'nope' });
    expect([wrongMaterial.status, wrongMaterial.body.error?.code]).toEqual([404, 'MATERIAL_NOT_FOUND']);
    // The failed join did not keep the nickname.
    const chosen = await postJson<Joined>(`${app.url}/api/classes/${without.code}/join`, { nickname: '학생', materialId: material.id });
    expect(chosen.status).toBe(201);
    expect(chosen.body.materialId).toBe(material.id);

    const { bearer: asInstructor } = await defaultInstructor(app);
    const badClass = await postJson(`${app.url}/api/classes`, { name: '반', materialId: 'missing' }, asInstructor);
    expect([badClass.status, badClass.body.error?.code]).toEqual([404, 'MATERIAL_NOT_FOUND']);
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(61) }, { name: 3 }]) {
      const invalid = await postJson(`${app.url}/api/classes`, body, asInstructor);
      expect([invalid.status, invalid.body.error?.code], JSON.stringify(body)).toEqual([400, 'INVALID_PAYLOAD']);
    }
  });

  it('C3: nicknames are unique in a class ignoring case and width; racing joins get one winner; other classes are free', async (context) => {
    const { app, material } = await boot(store, context);
    const first = await createClass(app, { name: 'A', materialId: material.id });
    const second = await createClass(app, { name: 'B', materialId: material.id });
    expect((await postJson(`${app.url}/api/classes/${first.code}/join`, { nickname: 'Alice' })).status).toBe(201);
    for (const nickname of ['alice', 'ALICE', 'ａｌｉｃｅ', ' Alice ']) {
      const taken = await postJson(`${app.url}/api/classes/${first.code}/join`, { nickname });
      expect([taken.status, taken.body.error?.code], nickname).toEqual([409, 'NICKNAME_TAKEN']);
    }
    expect((await postJson(`${app.url}/api/classes/${second.code}/join`, { nickname: 'alice' })).status).toBe(201);

    const racing = await Promise.all(Array.from({ length: 8 }, () => postJson(`${app.url}/api/classes/${first.code}/join`, { nickname: '지호' })));
    expect(racing.filter((reply) => reply.status === 201)).toHaveLength(1);
    expect(racing.filter((reply) => reply.status === 409)).toHaveLength(7);
    expect((await app.classes.info(first.classId)).students.map((student) => student.nickname)).toEqual(['Alice', '지호']);
  });

  it('C4: POST /api/sessions with classCode joins the class; without classCode it still needs a materialId', async (context) => {
    const { app, material } = await boot(store, context);
    const created: CreatedClass = await createClass(app, { name: '반', materialId: material.id });
    const joined = await postJson<Joined>(`${app.url}/api/sessions`, { nickname: '서연', classCode: created.code });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ classId: created.classId, materialId: material.id });
    expect((await app.classes.info(created.classId)).students.map((student) => student.sessionId)).toEqual([joined.body.sessionId]);

    const plain = await postJson<Joined>(`${app.url}/api/sessions`, { nickname: '서연', materialId: material.id });
    expect(plain.status).toBe(201);
    expect(plain.body.classId).toBeUndefined();
    expect(app.signer.verify(plain.body.token)).toMatchObject({ ok: true, payload: { kind: 'session' } });
    expect((app.signer.verify(plain.body.token) as { payload: { scope?: string } }).payload.scope).toBeUndefined();

    for (const body of [{ nickname: '서연' }, { nickname: '서연', classCode: 'bad' }, { nickname: '서연', classCode: created.code, materialId: '' }]) {
      const invalid = await postJson(`${app.url}/api/sessions`, body);
      expect([invalid.status, invalid.body.error?.code], JSON.stringify(body)).toEqual([400, 'INVALID_PAYLOAD']);
    }
    const taken = await postJson(`${app.url}/api/sessions`, { nickname: 'SEOYEON', classCode: created.code });
    expect(taken.status).toBe(201);
    const duplicate = await postJson(`${app.url}/api/sessions`, { nickname: 'seoyeon', classCode: created.code });
    expect([duplicate.status, duplicate.body.error?.code]).toEqual([409, 'NICKNAME_TAKEN']);
  });
});
