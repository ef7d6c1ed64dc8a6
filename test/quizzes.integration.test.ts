/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QA1 — An uploaded quiz belongs to the token's class; only that class's instructor reads it.
 * - QA2 — Missing, forged or expired tokens answer 401; tokens of another kind or class 403.
 * - QA7 — Every entry of `GET /api/quizzes` names its class (`classId`, `""` for a quiz outside any class), in the
 *   account's list and a class's; an entry stored before entries named their class still lists …
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import { ErrorCode } from '../src/protocol/wire/error-codes.js';
import { QuizItem, type Quiz } from '../src/protocol/quiz.js';
import { generateJudgedQuiz } from '../src/quiz/quiz-gate.js';
import { signUp } from './support/accounts.js';
import { createClass, getJson, postJson, storeReady, type HttpReply } from './support/classroom-client.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { withoutIds } from './support/quiz-material.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/**
 * Quiz authoring over HTTP on the real server: upload, read, list, and generation from a material (offline, and on the
 * fake Gemini and the fake OpenAI-compatible server with one script, OA7).
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

async function boot(context: TestContext, env: Record<string, string> = {}): Promise<{ app: TestApp; material: Material }> {
  const app = await startTestApp(env);
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  return { app, material: await loadSample(app) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const ITEMS: QuizItem[] = [
  {
    question: '평균을 구하는 방법은?',
    choices: ['모두 더해 개수로 나눈다', '가장 큰 값을 고른다', '가운데 값을 고른다', '가장 많이 나온 값을 고른다'],
    answer: 0,
    explanation: '산술평균은 합을 개수로 나눈 값입니다.',
    difficulty: 'easy',
  },
  {
    question: '공정한 주사위 눈의 기댓값은?',
    choices: ['3', '3.5', '4', '6'],
    answer: 1,
    explanation: '(1 + 2 + 3 + 4 + 5 + 6) / 6 = 3.5입니다.',
    difficulty: 'medium',
  },
];

type Created = { quizId: string; title: string; items: QuizItem[]; createdAt: number; materialId?: string };

function expectError(reply: HttpReply<unknown>, status: number, code: string): void {
  expect({ status: reply.status, code: reply.body.error?.code }).toEqual({ status, code });
  expect(reply.body.error?.message).toMatch(/[가-힣]/u);
}

describe.each(['memory', 'redis'] as const)('quiz upload (%s store)', (store) => {
  it('QA1 POST /api/quizzes stores the quiz for the token\'s class (201); GET returns it with solutions; the class list has it', async (context) => {
    const app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url } : {});
    context.onTestFinished(() => app.stop());
    await storeReady(app);
    const owner = await createClass(app, { name: '통계 1반' });

    const created = await postJson<Created>(`${app.url}/api/quizzes`, { title: ' 통계 퀴즈 ', items: ITEMS }, bearer(owner.instructorToken));
    expect(created.status).toBe(201);
    const { quizId, createdAt } = created.body as Created;
    expect(quizId).toMatch(/^[0-9a-f]{32}$/);
    expect(created.body).toEqual({ quizId, title: '통계 퀴즈', items: ITEMS, createdAt });
    expect(Math.abs(createdAt - Date.now())).toBeLessThan(60_000);

    const read = await getJson<Quiz>(`${app.url}/api/quizzes/${quizId}`, bearer(owner.instructorToken));
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ quizId, classId: owner.classId, title: '통계 퀴즈', items: ITEMS, createdAt });
    // Quizzes outlive rooms and sessions: no TTL.
    expect(await app.store.pttl(quizKeys.quiz(quizId))).toBe(-1);

    const second = await postJson<Created>(`${app.url}/api/quizzes`, { title: '두 번째', items: ITEMS.slice(0, 1) }, bearer(owner.instructorToken));
    const list = await getJson<{ quizzes: unknown[] }>(`${app.url}/api/quizzes`, bearer(owner.instructorToken));
    expect(list.status).toBe(200);
    expect(list.body.quizzes).toEqual(
      expect.arrayContaining([
        { quizId, classId: owner.classId, title: '통계 퀴즈', itemCount: 2, createdAt },
        { quizId: second.body.quizId, classId: owner.classId, title: '두 번째', itemCount: 1, createdAt: second.body.createdAt },
      ]),
    );
    expect(list.body.quizzes).toHaveLength(2);
    expect((await app.quizzes.listByClass(owner.classId, { limit: 50 })).items).toHaveLength(2);

    // Another class sees none of it.
    const other = await createClass(app, { name: '통계 2반' });
    expect((await getJson<{ quizzes: unknown[] }>(`${app.url}/api/quizzes`, bearer(other.instructorToken))).body.quizzes).toEqual([]);
  });

  it('QA7 "내 퀴즈" entries name their class ("" outside any class); entries stored before they did still list with it', async (context) => {
    const app = await startTestApp({ SIGNUP: 'open', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
    context.onTestFinished(() => app.stop());
    await storeReady(app);
    const teacher = await signUp(app);
    const classes: string[] = [];
    for (const name of ['통계 1반', '통계 2반']) {
      const made = await postJson<{ classId: string }>(`${app.url}/api/classes`, { name }, teacher.bearer);
      classes.push(made.body.classId!);
    }
    const make = async (title: string, classId?: string) => {
      const made = await postJson<Created>(`${app.url}/api/quizzes`, { title, items: ITEMS, ...(classId === undefined ? {} : { classId }) }, teacher.bearer);
      expect(made.status).toBe(201);
      return made.body.quizId!;
    };
    const first = await make('1반 퀴즈', classes[0]);
    const second = await make('2반 퀴즈', classes[1]);
    const loose = await make('수업 밖 퀴즈');

    type Listed = { quizzes: { quizId: string; classId: string; title: string }[] };
    const mine = async () => (await getJson<Listed>(`${app.url}/api/quizzes`, teacher.bearer)).body.quizzes!;
    // (Quizzes made in the same millisecond come in a fixed order of their own: compared by id.)
    const classOf = (entries: Listed['quizzes']) => Object.fromEntries(entries.map(({ quizId, classId }) => [quizId, classId]));
    expect(classOf(await mine())).toEqual({ [first]: classes[0], [second]: classes[1], [loose]: '' });
    // The class's own list (the account with ?classId=, and the class's instructor token) names it too.
    const ofClass = await getJson<Listed>(`${app.url}/api/quizzes?classId=${classes[1]}`, teacher.bearer);
    expect(ofClass.body.quizzes?.map(({ quizId, classId }) => ({ quizId, classId }))).toEqual([{ quizId: second, classId: classes[1] }]);
    // GET /api/quizzes/:id says the same.
    expect((await getJson<Quiz>(`${app.url}/api/quizzes/${loose}`, teacher.bearer)).body.classId).toBe('');

    // Entries written before list entries named their class (no classId) still parse: the account's list reads the
    // quiz once and writes the completed entry back; a class's list gives them the class it lists.
    const before = await mine();
    for (const quizId of [first, second, loose]) {
      const stored = JSON.parse((await app.store.get(quizKeys.quizSummary(quizId)))!) as Record<string, unknown>;
      delete stored.classId;
      await app.store.set(quizKeys.quizSummary(quizId), JSON.stringify(stored));
    }
    const classList = await getJson<Listed>(`${app.url}/api/quizzes?classId=${classes[0]}`, teacher.bearer);
    expect(classList.body.quizzes).toEqual([before.find((entry) => entry.quizId === first)]);
    expect(await mine()).toEqual(before);
    for (const quizId of [first, second, loose]) {
      expect(JSON.parse((await app.store.get(quizKeys.quizSummary(quizId)))!)).toEqual(before.find((entry) => entry.quizId === quizId));
    }

    // Another account's list holds none of them.
    const other = await signUp(app);
    expect((await getJson<Listed>(`${app.url}/api/quizzes`, other.bearer)).body.quizzes).toEqual([]);
  });
});

describe('quiz authoring over HTTP', () => {
  // One app for these tests (booted and given the sample once); each test works in classes of its own.
  let shared: { app: TestApp; material: Material } | undefined;
  beforeAll(async () => {
    const app = await startTestApp();
    shared = { app, material: await storeReady(app).then(() => loadSample(app)) };
  });
  afterAll(() => shared?.app.stop());
  const sharedApp = () => {
    if (!shared) throw new Error('the shared app is not booted yet');
    return shared;
  };

  it('QA2 refuses missing or bad tokens with 401 and tokens of another kind or class with 403', async () => {
    const { app, material } = sharedApp();
    const owner = await createClass(app, { name: '통계 1반', materialId: material.id });
    const other = await createClass(app, { name: '통계 2반' });
    const { body } = await postJson<Created>(`${app.url}/api/quizzes`, { title: '퀴즈', items: ITEMS }, bearer(owner.instructorToken));
    const quizId = String(body.quizId);

    const anonymous = await postJson(`${app.url}/api/quizzes`, { title: '퀴즈', items: ITEMS });
    expectError(anonymous, 401, ErrorCode.UNAUTHORIZED);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    const forged = `${owner.instructorToken.slice(0, -4)}AAAA`;
    expectError(await postJson(`${app.url}/api/quizzes`, { title: '퀴즈', items: ITEMS }, bearer(forged)), 401, ErrorCode.UNAUTHORIZED);
    expectError(await getJson(`${app.url}/api/quizzes/${quizId}`), 401, ErrorCode.UNAUTHORIZED);
    expectError(await getJson(`${app.url}/api/quizzes`, { authorization: 'Basic abc' }), 401, ErrorCode.UNAUTHORIZED);
    expectError(await postJson(`${app.url}/api/materials/${material.id}/quiz`, {}), 401, ErrorCode.UNAUTHORIZED);

    // A student's session token is a valid token of the wrong kind.
    const joined = await postJson<{ token: string }>(`${app.url}/api/classes/${owner.code}/join`, { nickname: '민지' });
    const student = bearer(String(joined.body.token));
    expectError(await postJson(`${app.url}/api/quizzes`, { title: '퀴즈', items: ITEMS }, student), 403, ErrorCode.FORBIDDEN);
    expectError(await getJson(`${app.url}/api/quizzes/${quizId}`, student), 403, ErrorCode.FORBIDDEN);
    expectError(await postJson(`${app.url}/api/materials/${material.id}/quiz`, {}, student), 403, ErrorCode.FORBIDDEN);

    // Another class's instructor cannot read the quiz (404: no probing), and nothing was stored by the refused requests.
    const foreign = await getJson(`${app.url}/api/quizzes/${quizId}`, bearer(other.instructorToken));
    expectError(foreign, 404, ErrorCode.QUIZ_NOT_FOUND);
    expect(JSON.stringify(foreign.body)).not.toContain('평균');
    expect((await app.quizzes.listByClass(owner.classId, { limit: 50 })).items).toHaveLength(1);
  });

  it('answers 404 QUIZ_NOT_FOUND for an unknown quiz and 404 MATERIAL_NOT_FOUND for an unknown material id in the body', async () => {
    const { app } = sharedApp();
    const owner = await createClass(app, { name: '통계 1반' });
    expectError(await getJson(`${app.url}/api/quizzes/${'0'.repeat(32)}`, bearer(owner.instructorToken)), 404, ErrorCode.QUIZ_NOT_FOUND);
    expectError(await getJson(`${app.url}/api/quizzes/not-an-id`, bearer(owner.instructorToken)), 404, ErrorCode.QUIZ_NOT_FOUND);
    expectError(
      await postJson(`${app.url}/api/quizzes`, { title: '퀴즈', items: ITEMS, materialId: 'f'.repeat(32) }, bearer(owner.instructorToken)),
      404,
      ErrorCode.MATERIAL_NOT_FOUND,
    );
  });

  it('QA3 answers 400 INVALID_PAYLOAD for invalid quiz bodies and stores nothing', async () => {
    const { app } = sharedApp();
    const owner = await createClass(app, { name: '통계 1반' });
    const [first] = ITEMS;
    const withItem = (change: Record<string, unknown>) => ({ title: '퀴즈', items: [{ ...first, ...change }] });
    const bodies: [string, unknown][] = [
      ['three choices', withItem({ choices: ['a', 'b', 'c'] })],
      ['five choices', withItem({ choices: ['a', 'b', 'c', 'd', 'e'] })],
      ['duplicate choices', withItem({ choices: ['평균', '분산', '평균', '편차'] })],
      ['duplicate choices differing in case', withItem({ choices: ['Mean', 'MEAN', '분산', '편차'] })],
      ['an empty choice', withItem({ choices: ['평균', '', '분산', '편차'] })],
      ['answer 4', withItem({ answer: 4 })],
      ['a bad difficulty', withItem({ difficulty: 'insane' })],
      ['a control character', withItem({ question: '평균은\u0001?' })],
      ['no items', { title: '퀴즈', items: [] }],
      ['no title', { items: ITEMS }],
      ['a blank title', { title: '   ', items: ITEMS }],
      ['an extra field', { title: '퀴즈', items: ITEMS, ownerId: 'someone-else' }],
      ['an extra item field', withItem({ hint: '힌트' })],
      ['a quizId that is not 8 hex characters', withItem({ quizId: 'ABCDEFGH' })],
      ['two items with one quizId', { title: '퀴즈', items: ITEMS.map((item) => ({ ...item, quizId: 'a1b2c3d4' })) }],
      ['a source without pages', withItem({ sources: [{ chunkId: '0.1', chapter: 0, chapterTitle: '장' }] })],
      ['51 items', { title: '퀴즈', items: Array.from({ length: 51 }, (_, index) => ({ ...first, question: `문제 ${index}` })) }],
      ['not JSON', '{"title": "퀴즈", '],
      ['an array', [ITEMS]],
    ];
    for (const [name, body] of bodies) {
      const reply = await postJson(`${app.url}/api/quizzes`, body, bearer(owner.instructorToken));
      expect({ name, status: reply.status, code: reply.body.error?.code }).toEqual({ name, status: 400, code: ErrorCode.INVALID_PAYLOAD });
    }
    expect((await app.quizzes.listByClass(owner.classId, { limit: 50 })).items).toEqual([]);
  });

  it('QA4 POST /api/materials/:id/quiz generates five valid items (easy 2, medium 2, hard 1) from the sample and stores them (201)', async () => {
    const { app, material } = sharedApp();
    const owner = await createClass(app, { name: '통계 1반' });
    const reply = await postJson<Created>(`${app.url}/api/materials/${material.id}/quiz`, {}, bearer(owner.instructorToken));
    expect(reply.status).toBe(201);
    const created = reply.body as Created;
    expect(created.title).toBe('기초 통계 퀴즈');
    expect(created.materialId).toBe(material.id);
    expect(created.items).toHaveLength(5);
    for (const item of created.items) expect(QuizItem.safeParse(item).success).toBe(true);
    expect(created.items.map((item) => item.difficulty)).toEqual(['easy', 'easy', 'medium', 'medium', 'hard']);

    const read = await getJson<Quiz>(`${app.url}/api/quizzes/${created.quizId}`, bearer(owner.instructorToken));
    // What is stored is the quiz with its judge reports; how its passages were found (`generation`) and the gate's
    // summary (`gate`) are part of the answer only.
    const { generation: _generation, gate, ...stored } = created as Created & { generation?: unknown; gate?: unknown };
    expect(read.body).toEqual({ ...stored, classId: owner.classId });
    expect(Object.keys(read.body.reviews ?? {}).sort()).toEqual(created.items.map((item) => item.quizId).sort());
    expect(gate).toMatchObject({ passed: 5, total: 5 });
    const list = await getJson<{ quizzes: unknown[] }>(`${app.url}/api/quizzes`, bearer(owner.instructorToken));
    expect(list.body.quizzes).toEqual([{ quizId: created.quizId, classId: owner.classId, title: '기초 통계 퀴즈', itemCount: 5, createdAt: created.createdAt }]);

    // One chapter, one difficulty, an own title.
    const chapter = await postJson<Created>(
      `${app.url}/api/materials/${material.id}/quiz`,
      { chapter: 1, difficulty: 'hard' },
      bearer(owner.instructorToken),
    );
    expect(chapter.status).toBe(201);
    expect(chapter.body.title).toBe('기댓값 퀴즈');
    expect(chapter.body.items?.map((item) => item.difficulty)).toEqual(['hard', 'hard', 'hard', 'hard', 'hard']);
    const titled = await postJson<Created>(`${app.url}/api/materials/${material.id}/quiz`, { title: '쪽지 시험' }, bearer(owner.instructorToken));
    expect(titled.body.title).toBe('쪽지 시험');
  });

  it('QS1 every generated quiz is stored with its own seed, and that seed reproduces it from the same material', async () => {
    const { app, material } = sharedApp();
    const owner = await createClass(app, { name: '통계 1반' });
    const generate = async () => {
      const reply = await postJson<Created & { seed: string }>(`${app.url}/api/materials/${material.id}/quiz`, {}, bearer(owner.instructorToken));
      expect(reply.status).toBe(201);
      return reply.body as Created & { seed: string };
    };
    const [first, second] = [await generate(), await generate()];
    expect(first.seed).toMatch(/^[0-9a-f]{32}$/);
    expect(second.seed).toMatch(/^[0-9a-f]{32}$/);
    expect(second.seed).not.toBe(first.seed);
    for (const quiz of [first, second]) {
      const read = await getJson<Quiz>(`${app.url}/api/quizzes/${quiz.quizId}`, bearer(owner.instructorToken));
      expect(read.body.seed).toBe(quiz.seed);
      // The same seed through the same gate (the offline writer and judge are deterministic) gives the same quiz.
      const again = await generateJudgedQuiz({ judge: app.quizJudge, model: app.model, materials: app.materials, retriever: app.retrieval, materialId: material.id, seed: quiz.seed });
      expect(withoutIds(again.items)).toEqual(withoutIds(read.body.items ?? []));
    }
  });

  it('generation answers 404 MATERIAL_NOT_FOUND for an unknown material and 400 INVALID_PAYLOAD for a bad chapter or body', async () => {
    const { app, material } = sharedApp();
    const owner = await createClass(app, { name: '통계 1반' });
    const generate = (id: string, body: unknown) => postJson(`${app.url}/api/materials/${id}/quiz`, body, bearer(owner.instructorToken));
    expectError(await generate('f'.repeat(32), {}), 404, ErrorCode.MATERIAL_NOT_FOUND);
    expectError(await generate('not-a-material', {}), 404, ErrorCode.MATERIAL_NOT_FOUND);
    const beyond = await generate(material.id, { chapter: material.chapters.length });
    expectError(beyond, 400, ErrorCode.INVALID_PAYLOAD);
    expect(beyond.body.error?.message).toContain(`0부터 ${material.chapters.length - 1}까지`);
    for (const body of [{ chapter: -1 }, { chapter: '1' }, { chapter: 1.5 }, { difficulty: 'expert' }, { count: 10 }, { title: '' }]) {
      expectError(await generate(material.id, body), 400, ErrorCode.INVALID_PAYLOAD);
    }
    expect((await app.quizzes.listByClass(owner.classId, { limit: 50 })).items).toEqual([]);
  });
});

describe.each(['gemini', 'openai'] as const)('quiz generation with %s over HTTP', (provider) => {
  let fake: ScriptedProvider;
  beforeAll(async () => {
    fake = await startScriptedProvider(provider);
  });
  afterAll(async () => {
    await fake.close();
  });

  const item = (index: number, difficulty: string, choices = ['평균', '분산', '기댓값', '중앙값']) => ({
    question: `${index}. 확률을 가중치로 한 평균은?`,
    choices,
    answer: 2,
    explanation: '기댓값은 확률을 가중치로 한 평균입니다.',
    difficulty,
    sources: [1],
  });

  it('QA5 stores the validated items; a reply that stays broken answers 502 MODEL_OUTPUT_INVALID and stores nothing', async (context) => {
    const { app, material } = await boot(context, fake.env());
    const owner = await createClass(app, { name: '통계 1반' });
    // The agent's retrieval query (the material's title) embedded once beforehand: the fake's script answers
    // requests in order, and the query vector is then cached, so the scripted replies all reach generation.
    await app.retrieval.retrieve({ materialId: material.id, query: material.title, k: 10 });
    // So are the questions the EvalAgent gate retrieves the judged items' passages with.
    for (const index of [1, 3, 4, 5, 6]) await app.retrieval.retrieve({ materialId: material.id, query: item(index, 'easy').question, k: 5 });
    fake.clearRequests();

    const pass = { json: { grounding_score: 10, educational_score: 9, insight_score: 8, is_passed: true, feedback: '자료와 일치합니다.' } };
    fake.enqueue(
      { json: { items: [item(1, 'easy'), item(2, 'easy', ['평균', '분산', '평균', '편차']), item(3, 'medium'), item(4, 'medium'), item(5, 'hard')] } },
      { json: { items: [item(6, 'easy')] } },
      pass,
      pass,
      pass,
      pass,
      pass,
    );
    const good = await postJson<Created>(`${app.url}/api/materials/${material.id}/quiz`, {}, bearer(owner.instructorToken));
    expect(good.status).toBe(201);
    expect(good.body.items?.map((entry) => entry.question)).toEqual(['1. 확률을 가중치로 한 평균은?', '6. 확률을 가중치로 한 평균은?', '3. 확률을 가중치로 한 평균은?', '4. 확률을 가중치로 한 평균은?', '5. 확률을 가중치로 한 평균은?']);
    // Two writing rounds, then the five judgements.
    expect(fake.requests().map((request) => (request.body as { generationConfig?: { temperature?: number } }).generationConfig?.temperature)).toEqual([0.7, 0.7, 0.3, 0.3, 0.3, 0.3, 0.3]);
    expect((good.body as Created & { gate?: unknown }).gate).toEqual({ passed: 5, total: 5, rounds: 1 });

    const broken = { json: { items: [1, 2, 3, 4, 5].map((index) => item(index + 10, 'easy', ['평균', '분산', '기댓값'])) } };
    fake.enqueue(broken, broken, broken);
    const failed = await postJson(`${app.url}/api/materials/${material.id}/quiz`, {}, bearer(owner.instructorToken));
    expectError(failed, 502, ErrorCode.MODEL_OUTPUT_INVALID);
    expect(fake.pending).toBe(0);
    const list = await getJson<{ quizzes: { quizId: string }[] }>(`${app.url}/api/quizzes`, bearer(owner.instructorToken));
    expect(list.body.quizzes?.map((entry) => entry.quizId)).toEqual([good.body.quizId]);
  });
});
