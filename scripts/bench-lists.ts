/**
 * npm run bench:lists -- [--quizzes 1000] [--rooms 5000] [--readers 4] [--stores memory,redis]
 *
 * Paginated lists under load, on the memory store and on Redis (a throwaway redis-server on a free port, removed at
 * the end). For each store a real server process (src/main.ts) gets one class with `--quizzes` quizzes of about
 * 54 KB each and another class with `--rooms` quiz rooms (created over HTTP), then:
 *
 * - quizPageP50Ms / quizPageP99Ms: `GET /api/quizzes?limit=50` while `--readers` instructors page through the whole
 *   list at once (three rounds each); quizListAllMs: one reader alone, first page to last.
 * - roomPageP50Ms / roomPageP99Ms: the same for `GET /api/rooms?limit=50` (two readers, one round); roomListAllMs.
 * - quizzesListed / roomsListed: items the lone reader got; listFailures: list requests that did not answer 200.
 * - otherP50Ms / otherP99Ms / otherFailures: another user's `POST /api/sessions` and `GET /readyz` while the quiz
 *   readers run (failures: any answer that is not 2xx, e.g. 503 STORE_UNAVAILABLE); otherIdleP50Ms / otherIdleP99Ms
 *   the same requests with no list load, for comparison.
 *
 * Prints one JSON line: `{quizzes, rooms, readers, quizJsonKb, memory: {...}, redis: {...}}`.
 */
import type { QuizItem } from '../src/protocol/quiz.js';
import { benchInstructorToken, numberArg, percentile, round, startRedisProcess, startServerProcess, stringArg, waitForReady, type ServerProcess } from './bench-support.js';

const quizCount = numberArg('quizzes', 1_000);
const roomCount = numberArg('rooms', 5_000);
const readers = numberArg('readers', 4);
const stores = stringArg('stores', 'memory,redis').split(',');
const CREATE_CONCURRENCY = 8;

/** About 54 KB of JSON (UTF-8): 10 Korean items with long questions, choices and explanations. */
const BIG_ITEMS: QuizItem[] = Array.from({ length: 10 }, (_, index) => ({
  question: `${index}번 문제 `.padEnd(480, '가'),
  choices: [0, 1, 2, 3].map((choice) => `${choice}번 보기 `.padEnd(190, String.fromCharCode(0x41 + choice))),
  answer: index % 4,
  explanation: '해설 '.padEnd(1_000, '나'),
  difficulty: 'medium',
}));

async function json<T>(url: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
}

async function inParallel(count: number, run: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CREATE_CONCURRENCY }, async () => {
      for (let index = next++; index < count; index = next++) await run(index);
    }),
  );
}

async function createClass(url: string, name: string, accountToken: string): Promise<{ classId: string; instructorToken: string }> {
  const created = await json<{ classId: string; instructorToken: string }>(`${url}/api/classes`, { method: 'POST', token: accountToken, body: { name } });
  if (created.status !== 201) throw new Error(`POST /api/classes: ${created.status}`);
  return created.body;
}

/** Pages through a list; returns each page request's latency, the number of items and failed requests (it stops at one). */
async function pageThrough(url: string, path: string, name: string, token: string): Promise<{ latencies: number[]; items: number; failures: number }> {
  const latencies: number[] = [];
  let items = 0;
  let cursor: string | null = null;
  do {
    const started = performance.now();
    const page: { status: number; body: Record<string, unknown> } = await json(
      `${url}${path}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    latencies.push(performance.now() - started);
    if (page.status !== 200) return { latencies, items, failures: 1 };
    items += (page.body[name] as unknown[]).length;
    cursor = (page.body.nextCursor as string | null) ?? null;
  } while (cursor);
  return { latencies, items, failures: 0 };
}

/** Another user's requests until `done()`: session creation and a readiness probe, one after the other. */
async function otherUser(url: string, materialId: string, done: () => boolean, minimum: number): Promise<{ latencies: number[]; failures: number }> {
  const latencies: number[] = [];
  let failures = 0;
  for (let index = 0; !done() || index < minimum; index += 1) {
    let started = performance.now();
    const session = await json(`${url}/api/sessions`, { method: 'POST', body: { materialId, nickname: `다른${index % 1000}` } });
    latencies.push(performance.now() - started);
    if (session.status !== 201) failures += 1;
    started = performance.now();
    const ready = await fetch(`${url}/readyz`);
    latencies.push(performance.now() - started);
    if (!ready.ok) failures += 1;
  }
  return { latencies, failures };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((left, right) => left - right);
  return { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
};

async function benchStore(store: string): Promise<Record<string, number>> {
  let redis: { url: string; stop(): Promise<void> } | undefined;
  let server: ServerProcess | undefined;
  try {
    if (store === 'redis') redis = await startRedisProcess();
    server = await startServerProcess({
      PRELOAD_SAMPLE: 'true',
      // One class holds every quiz and every room of the run: the quotas (200 quizzes, 10 open rooms) are lifted.
      MAX_QUIZZES_PER_CLASS: String(quizCount + 10),
      MAX_OPEN_ROOMS_PER_ACCOUNT: String(roomCount + 10),
      ...(redis ? { REDIS_URL: redis.url } : {}),
    });
    const url = server.url;
    await waitForReady(url);
    let materialId: string | undefined;
    for (let attempt = 0; attempt < 100 && !materialId; attempt += 1) {
      materialId = (await json<{ materials: { id: string }[] }>(`${url}/api/materials`)).body.materials[0]?.id;
      if (!materialId) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!materialId) throw new Error('the sample material did not appear');

    const accountToken = await benchInstructorToken(url);
    const quizClass = await createClass(url, '큰 반', accountToken);
    await inParallel(quizCount, async (index) => {
      const created = await json(`${url}/api/quizzes`, { method: 'POST', token: quizClass.instructorToken, body: { title: `퀴즈 ${index}`, items: BIG_ITEMS } });
      if (created.status !== 201) throw new Error(`POST /api/quizzes: ${created.status}`);
    });
    const roomClass = await createClass(url, '방이 많은 반', accountToken);
    const smallQuiz = await json<{ quizId: string }>(`${url}/api/quizzes`, {
      method: 'POST',
      token: roomClass.instructorToken,
      body: { title: '작은 퀴즈', items: BIG_ITEMS.slice(0, 1) },
    });
    await inParallel(roomCount, async () => {
      const created = await json(`${url}/api/rooms`, { method: 'POST', token: roomClass.instructorToken, body: { quizId: smallQuiz.body.quizId } });
      if (created.status !== 201) throw new Error(`POST /api/rooms: ${created.status}`);
    });

    const idle = await otherUser(url, materialId, () => true, 50);
    let started = performance.now();
    const alone = await pageThrough(url, '/api/quizzes', 'quizzes', quizClass.instructorToken);
    const quizListAllMs = performance.now() - started;
    started = performance.now();
    const roomsAlone = await pageThrough(url, '/api/rooms', 'rooms', roomClass.instructorToken);
    const roomListAllMs = performance.now() - started;

    let reading = true;
    const other = otherUser(url, materialId, () => !reading, 20);
    let listFailures = alone.failures + roomsAlone.failures;
    const quizPages = await Promise.all(
      Array.from({ length: readers }, async () => {
        const latencies: number[] = [];
        for (let roundIndex = 0; roundIndex < 3; roundIndex += 1) {
          const read = await pageThrough(url, '/api/quizzes', 'quizzes', quizClass.instructorToken);
          latencies.push(...read.latencies);
          listFailures += read.failures;
        }
        return latencies;
      }),
    );
    reading = false;
    const during = await other;
    const roomPages = await Promise.all(
      Array.from({ length: 2 }, async () => {
        const read = await pageThrough(url, '/api/rooms', 'rooms', roomClass.instructorToken);
        listFailures += read.failures;
        return read.latencies;
      }),
    );

    const quiz = stats(quizPages.flat());
    const room = stats(roomPages.flat());
    const otherStats = stats(during.latencies);
    const idleStats = stats(idle.latencies);
    return {
      quizPageP50Ms: quiz.p50,
      quizPageP99Ms: quiz.p99,
      quizListAllMs: round(quizListAllMs),
      quizzesListed: alone.items,
      roomPageP50Ms: room.p50,
      roomPageP99Ms: room.p99,
      roomListAllMs: round(roomListAllMs),
      roomsListed: roomsAlone.items,
      listFailures,
      otherP50Ms: otherStats.p50,
      otherP99Ms: otherStats.p99,
      otherRequests: during.latencies.length,
      otherFailures: during.failures,
      otherIdleP50Ms: idleStats.p50,
      otherIdleP99Ms: idleStats.p99,
    };
  } finally {
    await server?.stop();
    await redis?.stop();
  }
}

const results: Record<string, Record<string, number>> = {};
for (const store of stores) results[store] = await benchStore(store);
console.log(JSON.stringify({ quizzes: quizCount, rooms: roomCount, readers, quizJsonKb: round(Buffer.byteLength(JSON.stringify(BIG_ITEMS)) / 1024), ...results }));
