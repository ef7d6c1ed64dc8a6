/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - CR1 — Pick your own name. `GET /api/classes/:code/roster` lists the names (none taken); a name not on the roster
 *   is `400 NOT_ON_ROSTER` in Korean …
 * - CR2 — The instructor frees and replaces. Release needs the class's instructor token (401/403 otherwise); a freed
 *   name joins again as a new session; an unknown name is `NOT_ON_ROSTER` …
 * - CR3 — Bad rosters. Duplicates (also by case or width), blank names, an empty list and 301 names are `400
 *   INVALID_PAYLOAD` with a Korean message naming no field or pattern.
 * - CR4 — A code probe. The roster route needs a join token (a wrong code is charged like a wrong join; a right one
 *   takes none): a closed class's code is `410 CLASS_CLOSED`, a wrong code 404 …
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { ClassInfo } from '../src/protocol/classroom.js';
import type { RosterChoices } from '../src/protocol/wire/classroom.js';
import { defaultInstructor } from './support/accounts.js';
import { createClass, getJson, postJson, storeReady } from './support/classroom-client.js';
import { connectedOrThrow, loadSample, samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { scopedToTest, sharedFixture } from './fixtures/shared-app.js';

/** A class that requires its roster (CR1–CR4 of test/SPEC.md), on the memory store and Redis. */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

/**
 * One app per store for the file (booted and given the sample once); each test makes classes of its own and sees the
 * app through a view whose sockets close when it finishes. CR4 spends its join budget and keeps an app of its own.
 */
const apps = {
  memory: sharedFixture(() => startWithSample({}), ({ app }) => app.stop()),
  redis: sharedFixture(() => startWithSample({ REDIS_URL: redis.url }), ({ app }) => app.stop()),
};

async function startWithSample(env: Record<string, string>): Promise<{ app: TestApp; material: Material }> {
  const app = await startTestApp(env);
  await storeReady(app);
  return { app, material: await loadSample(app) };
}

function boot(store: 'memory' | 'redis', context: TestContext): { app: TestApp; material: Material } {
  const { app, material } = apps[store]();
  return { app: scopedToTest(app, context), material };
}

type ErrorBody = { error: { code: string; message: string } };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function put<T>(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: T }> {
  const response = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as T };
}

describe.each(['memory', 'redis'] as const)('a class with a required roster (%s store)', (store) => {
  it('CR1 students pick their own name from the roster: names not on it are refused, each name admits one device, the roster spelling is kept', async (context) => {
    const { app, material } = boot(store, context);
    const created = await createClass(app, { name: '통계 2반', materialId: material.id, roster: ['김민지', '이서준', 'Alice Park'] });

    const choices = await getJson<RosterChoices>(`${app.url}/api/classes/${created.code.toLowerCase()}/roster`);
    expect(choices.status).toBe(200);
    expect(choices.body).toEqual({
      className: '통계 2반',
      names: [
        { name: '김민지', taken: false },
        { name: '이서준', taken: false },
        { name: 'Alice Park', taken: false },
      ],
    });

    const stranger = await postJson<ErrorBody>(`${app.url}/api/classes/${created.code}/join`, { nickname: '박지호' });
    expect(stranger.status).toBe(400);
    expect(stranger.body.error?.code).toBe('NOT_ON_ROSTER');
    expect(stranger.body.error?.message).toMatch(/명단/);

    // Case and width do not matter; the roster's spelling is the nickname the instructor sees.
    const alice = await postJson<{ sessionId: string; token: string }>(`${app.url}/api/classes/${created.code}/join`, { nickname: 'ａｌｉｃｅ park' });
    expect(alice.status).toBe(201);
    await connectedOrThrow(app.socket('/tutor', { token: alice.body.token }));
    const minji = await postJson<{ sessionId: string }>(`${app.url}/api/classes/${created.code}/join`, { nickname: '김민지' });
    expect(minji.status).toBe(201);

    // The same name from a second device is refused: the first device's token is the student's.
    const again = await postJson<ErrorBody>(`${app.url}/api/classes/${created.code}/join`, { nickname: '김민지' });
    expect(again.status).toBe(409);
    expect(again.body.error?.code).toBe('NICKNAME_TAKEN');
    expect(again.body.error?.message).toMatch(/다른 기기/);

    const after = await getJson<RosterChoices>(`${app.url}/api/classes/${created.code}/roster`);
    expect(after.body.names).toEqual([
      { name: '김민지', taken: true },
      { name: '이서준', taken: false },
      { name: 'Alice Park', taken: true },
    ]);
    const info = await getJson<ClassInfo>(`${app.url}/api/classes/${created.classId}`, bearer(created.instructorToken));
    expect(info.body.students?.map((student) => student.nickname).sort()).toEqual(['Alice Park', '김민지']);
  });

  it('CR2 the instructor frees a name whose student lost their device, and replaces the roster; other classes and anonymous callers cannot', async (context) => {
    const { app, material } = boot(store, context);
    const created = await createClass(app, { name: '3반', materialId: material.id, roster: ['김민지', '이서준'] });
    const other = await createClass(app, { name: '4반', materialId: material.id });
    const first = await postJson<{ sessionId: string }>(`${app.url}/api/classes/${created.code}/join`, { nickname: '김민지' });
    expect(first.status).toBe(201);

    const release = (headers: Record<string, string>) => postJson<{ released: boolean } & Partial<ErrorBody>>(`${app.url}/api/classes/${created.classId}/roster/release`, { name: '김민지' }, headers);
    expect((await release({})).status).toBe(401);
    // Another class's token finds no such class (404: no probing).
    expect((await release(bearer(other.instructorToken))).status).toBe(404);
    const released = await release(bearer(created.instructorToken));
    expect(released.status).toBe(200);
    expect(released.body.released).toBe(true);
    const second = await postJson<{ sessionId: string }>(`${app.url}/api/classes/${created.code}/join`, { nickname: '김민지' });
    expect(second.status).toBe(201);
    expect(second.body.sessionId).not.toBe(first.body.sessionId);
    const unknown = await postJson<ErrorBody>(`${app.url}/api/classes/${created.classId}/roster/release`, { name: '박지호' }, bearer(created.instructorToken));
    expect(unknown.body.error?.code).toBe('NOT_ON_ROSTER');

    expect((await put(`${app.url}/api/classes/${created.classId}/roster`, { names: ['박지호'] }, bearer(other.instructorToken))).status).toBe(404);
    const replaced = await put<{ names: string[] }>(`${app.url}/api/classes/${created.classId}/roster`, { names: ['김민지', '박지호'] }, bearer(created.instructorToken));
    expect(replaced).toEqual({ status: 200, body: { names: ['김민지', '박지호'] } });
    expect((await postJson<ErrorBody>(`${app.url}/api/classes/${created.code}/join`, { nickname: '이서준' })).body.error?.code).toBe('NOT_ON_ROSTER');
    expect((await postJson(`${app.url}/api/classes/${created.code}/join`, { nickname: '박지호' })).status).toBe(201);
    // A class created without a roster becomes a roster class when one is set.
    expect((await getJson<RosterChoices>(`${app.url}/api/classes/${other.code}/roster`)).body).toEqual({ className: '4반', names: null });
    await put(`${app.url}/api/classes/${other.classId}/roster`, { names: ['최유나'] }, bearer(other.instructorToken));
    expect((await postJson<ErrorBody>(`${app.url}/api/classes/${other.code}/join`, { nickname: '아무개' })).body.error?.code).toBe('NOT_ON_ROSTER');
  });
});

describe('roster input', () => {
  it('CR3 a bad roster is refused in Korean: duplicates (ignoring case and width), empty names, too many, an empty list', async (context) => {
    const { app, material } = boot('memory', context);
    const tries: unknown[] = [['민지', '민지'], ['Alice', 'ａｌｉｃｅ'], ['민지', '  '], [], Array.from({ length: 301 }, (_, index) => `학생${index}`)];
    for (const roster of tries) {
      const reply = await postJson<ErrorBody>(`${app.url}/api/classes`, { name: '반', materialId: material.id, roster }, (await defaultInstructor(app)).bearer);
      expect(reply.status).toBe(400);
      expect(reply.body.error?.code).toBe('INVALID_PAYLOAD');
      expect(reply.body.error?.message).toMatch(/[가-힣]/);
      expect(reply.body.error?.message).not.toMatch(/roster|\d+\.\d+|Too|must/);
    }
  });

  it('CR4 the roster route counts as a code guess (a closed class 410, a wrong code 404, then 429 once the join budget is spent)', async (context) => {
    const app = await startTestApp({ JOIN_ATTEMPT_POINTS: '10', JOIN_FAILURE_COST: '5' });
    context.onTestFinished(() => app.stop());
    await storeReady(app);
    const material = await loadSample(app);
    const created = await createClass(app, { name: '끝난 반', materialId: material.id, roster: ['김민지'] });
    expect((await postJson(`${app.url}/api/classes/${created.classId}/close`, {}, bearer(created.instructorToken))).status).toBe(200);
    const closed = await getJson<ErrorBody>(`${app.url}/api/classes/${created.code}/roster`);
    expect(closed.status).toBe(410);
    expect(closed.body.error?.code).toBe('CLASS_CLOSED');
    expect((await getJson<ErrorBody>(`${app.url}/api/classes/ACDEFG/roster`)).status).toBe(404);
    const limited = await getJson<ErrorBody>(`${app.url}/api/classes/ACDEFH/roster`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
  });
});
