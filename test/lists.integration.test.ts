/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - P1 — Pages. `GET /api/quizzes`, `GET /api/rooms`, `GET /api/materials` and the roster of `GET /api/classes/:id`
 *   answer one page: at most `limit` items (1–50, default 20) under the list's name …
 * - P2 — Bad paging. A `limit` that is not an integer 1–50 (or repeated), or a `cursor` that is malformed or not an
 *   item of the list, answers 400 `INVALID_PAYLOAD`; other query parameters are ignored.
 * - P3 — Bounded reads. While instructors page through a class of 1,000 quizzes of 54 KB on Redis, other users' `POST
 *   /api/sessions` and `GET /readyz` keep succeeding (no 503, no store timeout) …
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QuizItem } from '../src/protocol/quiz.js';
import { plainPdf } from '../scripts/pdf-fixtures.js';
import { defaultInstructor } from './support/accounts.js';
import { createClass, getJson, postJson, type CreatedClass } from './support/classroom-client.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { sampleItems } from './support/quiz-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * P1–P3 (test/SPEC.md): every list endpoint answers pages (`?cursor=&limit=` → `{<items>, nextCursor}`), refuses a
 * bad cursor or limit, and one instructor's huge list never stalls another user's requests.
 */

const redis = suiteRedis();
let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Listed {
  nextCursor: string | null;
  [name: string]: unknown;
}

/** Every page of a list, in order: the ids of each page. */
async function pageThrough(url: string, name: string, id: string, headers: Record<string, string>, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const reply = await getJson<Listed>(`${url}${url.includes('?') ? '&' : '?'}${query}`, headers);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const items = reply.body[name] as Record<string, string>[];
    expect(items.length).toBeLessThanOrEqual(limit);
    pages.push(items.map((item) => item[id] as string));
    cursor = reply.body.nextCursor ?? null;
    expect(pages.length).toBeLessThan(100);
  } while (cursor !== null);
  return pages;
}

async function quizzesOf(target: TestApp, owner: CreatedClass, count: number, items: QuizItem[] = sampleItems(1)): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const quiz = await target.quizzes.create(owner.classId, { title: `퀴즈 ${index}`, items });
    // Written to the store directly (fast), so owned here as POST /api/quizzes would have.
    await target.ownership.setOwner('quiz', quiz.quizId, (await defaultInstructor(target)).accountId, quiz.createdAt);
    ids.push(quiz.quizId);
  }
  return ids;
}

describe.each(['memory', 'redis'] as const)('paginated lists (%s store)', (store) => {
  const boot = async () => {
    // P1 keeps 23 rooms of one class open at once: more than the open-rooms quota's default (10).
    app = await startTestApp({ MAX_OPEN_ROOMS_PER_ACCOUNT: '50', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
    return app;
  };

  it('P1 quizzes come in pages of at most `limit`, newest first, each once, also while new ones are added', async () => {
    const server = await boot();
    const owner = await createClass(server, { name: '목록 반' });
    const ids = await quizzesOf(server, owner, 45);
    const url = `${server.url}/api/quizzes`;
    const pages = await pageThrough(url, 'quizzes', 'quizId', bearer(owner.instructorToken), 20);
    expect(pages.map((page) => page.length)).toEqual([20, 20, 5]);
    const all = pages.flat();
    expect([...all].sort()).toEqual([...ids].sort());
    // Newest first (quizzes made in the same millisecond follow a fixed order among themselves).
    const created = new Map((await Promise.all(ids.map((id) => server.quizzes.get(id)))).map((quiz) => [quiz?.quizId, quiz?.createdAt ?? 0]));
    const times = all.map((id) => created.get(id) ?? 0);
    expect(times).toEqual([...times].sort((left, right) => right - left));
    // Default page size and the shape of an entry.
    const first = await getJson<{ quizzes: unknown[]; nextCursor: string }>(url, bearer(owner.instructorToken));
    expect(first.body.quizzes).toHaveLength(20);
    expect(first.body.quizzes?.[0]).toEqual({ quizId: all[0], classId: owner.classId, title: expect.stringMatching(/^퀴즈 \d+$/), itemCount: 1, createdAt: times[0] });
    // A quiz added between two pages lands on the first page; the next page goes on exactly after the cursor.
    const [added] = await quizzesOf(server, owner, 1);
    const next = await getJson<{ quizzes: { quizId: string }[] }>(`${url}?cursor=${first.body.nextCursor}`, bearer(owner.instructorToken));
    expect(next.body.quizzes?.map((quiz) => quiz.quizId)).toEqual(all.slice(20, 40));
    expect((await getJson<{ quizzes: { quizId: string }[] }>(url, bearer(owner.instructorToken))).body.quizzes?.[0]?.quizId).toBe(added);
  });

  it('P1 rooms and the class roster come in pages too', async () => {
    const server = await boot();
    const owner = await createClass(server, { name: '방 목록 반' });
    const [quizId] = await quizzesOf(server, owner, 1);
    const rooms: string[] = [];
    for (let index = 0; index < 23; index += 1) {
      const room = await postJson<{ roomId: string }>(`${server.url}/api/rooms`, { quizId, options: { previewSeconds: 0 } }, bearer(owner.instructorToken));
      expect(room.status).toBe(201);
      rooms.push(room.body.roomId!);
    }
    const roomPages = await pageThrough(`${server.url}/api/rooms`, 'rooms', 'roomId', bearer(owner.instructorToken), 10);
    expect(roomPages.map((page) => page.length)).toEqual([10, 10, 3]);
    expect(new Set(roomPages.flat())).toEqual(new Set(rooms));
    const listed = await getJson<{ rooms: Record<string, unknown>[] }>(`${server.url}/api/rooms?limit=1`, bearer(owner.instructorToken));
    expect(listed.body.rooms?.[0]).toMatchObject({ code: expect.any(String), title: '퀴즈 0', phase: 'lobby', players: 0 });

    const material = await loadSample(server);
    const withMaterial = await createClass(server, { name: '명단 반', materialId: material.id });
    const students: string[] = [];
    for (let index = 0; index < 12; index += 1) {
      const joined = await postJson<{ sessionId: string }>(`${server.url}/api/classes/${withMaterial.code}/join`, { nickname: `학생${index}` });
      students.push(joined.body.sessionId!);
    }
    const rosterPages = await pageThrough(`${server.url}/api/classes/${withMaterial.classId}`, 'students', 'sessionId', bearer(withMaterial.instructorToken), 5);
    expect(rosterPages.map((page) => page.length)).toEqual([5, 5, 2]);
    expect(rosterPages.flat()).toEqual(students);
  });

  it('P2 a bad limit or cursor answers INVALID_PAYLOAD on every list', async () => {
    const server = await boot();
    const owner = await createClass(server, { name: '잘못된 목록 반' });
    await quizzesOf(server, owner, 1);
    const lists = [`${server.url}/api/quizzes`, `${server.url}/api/rooms`, `${server.url}/api/materials`, `${server.url}/api/classes/${owner.classId}`];
    const bad = ['limit=0', 'limit=51', 'limit=abc', 'limit=1.5', 'limit=-1', 'limit=', 'limit=5&limit=6', 'cursor=a%20b', 'cursor=', `cursor=${'a'.repeat(65)}`, 'cursor=ffffffffffffffffffffffffffffffff'];
    for (const list of lists) {
      for (const query of bad) {
        const reply = await getJson<{ error: { code: string } }>(`${list}?${query}`, bearer(owner.instructorToken));
        expect(reply.status, `${list}?${query}`).toBe(400);
        expect(reply.body.error?.code, `${list}?${query}`).toBe('INVALID_PAYLOAD');
      }
      // An unrelated parameter is ignored.
      expect((await getJson(`${list}?limit=50&_=1`, bearer(owner.instructorToken))).status).toBe(200);
    }
  });
});

describe('paginated materials', () => {
  it('P1 materials come in pages, newest first', async () => {
    app = await startTestApp();
    const { bearer: asInstructor } = await defaultInstructor(app);
    const ids: string[] = [];
    for (const pages of [2, 3, 4]) {
      const data = new FormData();
      data.append('file', new Blob([Buffer.from(await plainPdf(pages))], { type: 'application/pdf' }), `p${pages}.pdf`);
      const uploaded = await fetch(`${app.url}/api/materials`, { method: 'POST', body: data, headers: asInstructor });
      expect(uploaded.status).toBe(201);
      ids.push(((await uploaded.json()) as { id: string }).id);
    }
    const pages = await pageThrough(`${app.url}/api/materials`, 'materials', 'id', asInstructor, 2);
    expect(pages.map((page) => page.length)).toEqual([2, 1]);
    expect(pages.flat()).toEqual([...ids].reverse());
    const first = await getJson<{ materials: { chapters: unknown[] }[]; limits: unknown }>(`${app.url}/api/materials?limit=1`, asInstructor);
    expect(first.body.limits).toBeDefined();
    expect(first.body.materials?.[0]?.chapters.length).toBeGreaterThan(0);
  });
});

/** About 54 KB of JSON (UTF-8): 10 Korean items with long questions, choices and explanations. */
function bigItems(): QuizItem[] {
  return Array.from({ length: 10 }, (_, index) => ({
    question: `${index}번 문제 `.padEnd(480, '가'),
    choices: [0, 1, 2, 3].map((choice) => `${choice}번 보기 `.padEnd(190, String.fromCharCode(0x41 + choice))),
    answer: index % 4,
    explanation: '해설 '.padEnd(1_000, '나'),
    difficulty: 'medium' as const,
  }));
}

describe('P3: one instructor\'s huge list does not stall anyone else', () => {
  beforeAll(samplePdfBytes);

  it('P3 while instructors page through 1,000 quizzes of 54 KB, other users\' requests succeed (no 503, no store timeout)', async () => {
    app = await startTestApp({ REDIS_URL: redis.url });
    const server = app;
    const material = await loadSample(server);
    const owner = await createClass(server, { name: '큰 반' });
    const items = bigItems();
    expect(Buffer.byteLength(JSON.stringify(items))).toBeGreaterThan(50_000);
    await quizzesOf(server, owner, 1_000, items);

    // Four instructor tabs read the whole list, page after page, twice each.
    const readers = Array.from({ length: 4 }, async () => {
      let listed = 0;
      for (let round = 0; round < 2; round += 1) {
        listed = (await pageThrough(`${server.url}/api/quizzes`, 'quizzes', 'quizId', bearer(owner.instructorToken), 50)).flat().length;
      }
      return listed;
    });
    // Meanwhile another user starts lectures, and the load balancer checks readiness.
    const other = (async () => {
      const statuses: number[] = [];
      for (let index = 0; index < 40; index += 1) {
        const session = await postJson(`${server.url}/api/sessions`, { materialId: material.id, nickname: `다른${index}` });
        statuses.push(session.status === 201 ? 201 : session.status);
        statuses.push((await fetch(`${server.url}/readyz`)).status);
      }
      return statuses;
    })();
    const [listed, statuses] = await Promise.all([Promise.all(readers), other]);
    expect(listed).toEqual([1_000, 1_000, 1_000, 1_000]);
    expect(statuses.filter((status) => status !== 201 && status !== 200)).toEqual([]);
  });
});
