/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SD1 — The seed's bodies as written. `POST /api/quiz/start` with `{"topic": …}` and `"difficulty": null` or none
 *   and no `materialId` is served: a student's class material, an account's newest material, else the sample; the
 *   reply's `metadata.materialId` names it.
 * - SD2 — Short, and says so. A material that cannot bear five items serves what passed with `metadata.shortfall`
 *   `{requested: 5, made, reason, message}`; a full quiz has none.
 * - SD3 — Filters never dropped silently. `metadata.filters` says `none`, `applied`, `relaxed` or `ignored` for the
 *   topic and the difficulty.
 * - SD10 — Quiz data without a material. `POST /api/quiz/evaluate {quiz_data, topic, source?}` judges the caller's
 *   own quiz data against the passage sent (or the material's retrieved passages), with the server's pass rule; an
 *   unrelated passage grounds it less and fails it; nothing is stored. `test/seed-quiz-contract.integration.test.ts`
 * - SD11 — Topics from the material. `GET /api/materials/:id/quiz-topics` offers `general` and only the topics whose
 *   document type the material has passages of, with their counts; the host page's topic list comes from it.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { bodyLines, buildPdf } from '../scripts/pdf-fixtures.js';
import type { Material } from '../src/materials/index.js';
import type { QuizTopicsReply, SelfQuizStartReply } from '../src/protocol/wire/index.js';
import { ownMaterial, signUp, type SignedUpAccount } from './support/accounts.js';
import { createClass, joinClass, storeReady } from './support/classroom-client.js';
import { call, type CallReply } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { sharedFixture } from './fixtures/shared-app.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/**
 * SD1–SD3 (test/SPEC.md): seed 001's `POST /api/quiz/start` as a client written to the seed calls it — the seed's
 * bodies as written plus a bearer token — and what the reply says when the request cannot be served in full:
 * fewer items (shortfall) and filters relaxed or ignored.
 */

beforeAll(samplePdfBytes);

interface World {
  app: TestApp;
  sample: Material;
  /** Two sentences on one page: a material that cannot bear five items. */
  tiny: Material;
  teacher: SignedUpAccount;
}

/**
 * `shared`: the app the file's tests share gets a generation budget of its own (its tests start 14 self-study quizzes
 * together, all from one address, against the default 30 per window) and one window of the limits' clock for the whole
 * file, so whether a request is refused never depends on the suite's pace or where a wall-clock window turns.
 */
async function startWorld(shared = false): Promise<Omit<World, 'teacher'>> {
  const app = shared ? await startTestApp({ SIGNUP: 'open', RATE_GENERATION_MAX: '1000' }, { limitsClock: () => 0 }) : await startTestApp({ SIGNUP: 'open' });
  await storeReady(app);
  const sample = await loadSample(app);
  const bytes = await buildPdf({ korean: true, title: '짧은 자료', pages: [{ lines: bodyLines(2, 2, true) }] });
  const { material: tiny } = await app.materials.ingest({ bytes, filename: 'short.pdf' });
  return { app, sample, tiny };
}

/** A world of the test's own: an app with the sample and the tiny material, and a teacher. */
async function boot(context: TestContext): Promise<World> {
  const world = await startWorld();
  context.onTestFinished(() => world.app.stop());
  return { ...world, teacher: await signUp(world.app) };
}

/**
 * The app of the tests that count nothing across the app's materials (booted and given both materials once); each
 * test signs up a teacher of its own, who owns no material until the test says so.
 */
const shared = sharedFixture(() => startWorld(true), ({ app }) => app.stop());
const sharedWorld = async (): Promise<World> => ({ ...shared(), teacher: await signUp(shared().app) });

const start = (world: World, body: unknown, headers: Record<string, string>): Promise<CallReply> => call(`${world.app.url}/api/quiz/start`, 'POST', { body, headers });

async function served(world: World, body: unknown, headers: Record<string, string>): Promise<SelfQuizStartReply> {
  const reply = await start(world, body, headers);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as SelfQuizStartReply;
}

async function everyItemPassed(world: World, reply: SelfQuizStartReply): Promise<void> {
  for (const item of reply.response) {
    const raw = await world.app.store.hget(quizKeys.selfQuizItem(item.quiz_id), 'record');
    expect((JSON.parse(raw ?? '{}') as { review: { is_passed: boolean } }).review.is_passed).toBe(true);
  }
}

describe('seed 001 start, as a seed client sends it', () => {
  it('SD1 the seed’s bodies as written (no materialId, difficulty null or absent) are served; metadata names the material used', async () => {
    const world = await sharedWorld();
    const { teacher } = world;
    // The seed's three request bodies, byte for byte, with only a bearer token added.
    for (const [body, difficulty] of [
      ['{"topic": "general", "difficulty": "easy"}', 'easy'],
      ['{"topic": "mistakes"}', null],
      ['{"topic": "general", "difficulty": null}', null],
    ] as const) {
      const reply = await served(world, JSON.parse(body), teacher.bearer);
      expect(reply.agent_type).toBe('quiz');
      // An account with no material of its own: the sample.
      expect(reply.metadata.materialId).toBe(world.sample.id);
      expect(reply.metadata.difficulty).toBe(difficulty);
      expect(reply.metadata.count).toBe(reply.response.length);
      for (const item of reply.response) if (difficulty !== null) expect(item.difficulty).toBe(difficulty);
    }
    // Without a difficulty the seed's mix: easy 2 + medium 2 + hard 1 when all five are served.
    const mixed = await served(world, { topic: 'general' }, teacher.bearer);
    if (mixed.response.length === 5) expect(mixed.response.map((item) => item.difficulty).sort()).toEqual(['easy', 'easy', 'hard', 'medium', 'medium']);

    // The account's most recently added material once it has one.
    await ownMaterial(world.app, world.tiny.id, teacher);
    expect((await served(world, { topic: 'general' }, teacher.bearer)).metadata.materialId).toBe(world.tiny.id);

    // A class student: the class's material.
    const created = await createClass(world.app, { name: '짧은 반', materialId: world.tiny.id });
    const student = await joinClass(world.app, created.code, '민지');
    const asStudent = { authorization: `Bearer ${student.token}` };
    expect((await served(world, { topic: 'general', difficulty: null }, asStudent)).metadata.materialId).toBe(world.tiny.id);
    // Naming another material is still refused.
    const elsewhere = await start(world, { topic: 'general', materialId: world.sample.id }, asStudent);
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([404, 'MATERIAL_NOT_FOUND']);
    student.client.socket.disconnect();
  });

  it('SD2 a material that cannot bear five items is served short with a shortfall naming the count and the reason', async () => {
    const world = await sharedWorld();
    await ownMaterial(world.app, world.tiny.id, world.teacher);
    const reply = await served(world, { topic: 'general', materialId: world.tiny.id }, world.teacher.bearer);
    expect(reply.response.length).toBeGreaterThan(0);
    expect(reply.response.length).toBeLessThan(5);
    await everyItemPassed(world, reply);
    expect(reply.metadata.shortfall).toEqual({ requested: 5, made: reply.response.length, reason: 'too-little-material', message: expect.stringMatching(/이 자료에서 만들 수 있는 문항은 \d개입니다/) });
    expect(reply.metadata.shortfall?.message).toContain(`${reply.response.length}개`);

    // A full quiz has no shortfall; a short one always has (whichever the reason), its count the items served.
    for (const body of [{ topic: 'general' }, { topic: 'definition', difficulty: 'hard' }, { topic: 'general', difficulty: 'medium', chapter: 1 }]) {
      const other = await served(world, { ...body, materialId: world.sample.id }, world.teacher.bearer);
      expect(other.metadata.shortfall === undefined, JSON.stringify(other.metadata)).toBe(other.response.length === 5);
      if (other.metadata.shortfall) {
        expect(other.metadata.shortfall.made).toBe(other.response.length);
        expect(['too-little-material', 'items-refused']).toContain(other.metadata.shortfall.reason);
        expect(other.metadata.shortfall.message).toMatch(/[가-힣]/);
      }
    }
  });

  it('SD3 metadata says whether the topic and difficulty filters were applied, relaxed or ignored: never dropped silently', async () => {
    const world = await sharedWorld();
    const { teacher } = world;
    await ownMaterial(world.app, world.tiny.id, teacher);
    const none = await served(world, { topic: 'general', difficulty: null, materialId: world.sample.id }, teacher.bearer);
    expect(none.metadata.filters).toEqual({ topic: 'none', difficulty: 'none' });
    // The tiny material has no country guideline at all: the topic filter was ignored (and the items say so).
    const country = await served(world, { topic: 'country', materialId: world.tiny.id }, teacher.bearer);
    expect(country.metadata.filters).toEqual({ topic: 'ignored', difficulty: 'none' });
    // The sample has fewer than ten easy passages: relaxed, not silently dropped.
    const easy = await served(world, { topic: 'general', difficulty: 'easy', materialId: world.sample.id }, teacher.bearer);
    expect(easy.metadata.filters.topic).toBe('none');
    expect(['applied', 'relaxed', 'ignored']).toContain(easy.metadata.filters.difficulty);
    expect(easy.metadata.filters.difficulty).not.toBe('applied');
  });
});

describe('seed 001 evaluate on quiz data of the caller’s own', () => {
  it('SD10 POST /api/quiz/evaluate {quiz_data, topic, source} judges the data against the passage sent; without one against the material', async (context) => {
    // Its own app: it counts every self-study item served on the sample.
    const world = await boot(context);
    const { teacher, app } = world;
    const quiz = await served(world, { topic: 'general', chapter: 1, materialId: world.sample.id }, teacher.bearer);
    const raw = await app.store.hget(quizKeys.selfQuizItem(quiz.response[0]!.quiz_id), 'record');
    const { item } = JSON.parse(raw ?? '{}') as { item: { question: string; choices: string[]; answer: number; explanation: string; sources: { chunkId: string; chapter: number }[] } };
    const cited = item.sources[0]!;
    const passage = (await app.retrieval.passages(world.sample.id, { chapter: cited.chapter })).find((entry) => entry.chunkId === cited.chunkId)!;
    // The seed's quiz_data: question, choices, answer, explanation (no id, no difficulty).
    const quizData = { question: item.question, choices: item.choices, answer: item.answer, explanation: item.explanation };

    const evaluate = (body: unknown) => call(`${app.url}/api/quiz/evaluate`, 'POST', { body, headers: teacher.bearer });
    const grounded = await evaluate({ quiz_data: quizData, topic: 'general', source: passage.text });
    expect(grounded.status, JSON.stringify(grounded.body)).toBe(200);
    expect(Object.keys(grounded.body.response).sort()).toEqual(['educational_score', 'feedback', 'grounding_score', 'insight_score', 'is_passed']);
    expect(grounded.body.agent_type).toBe('eval');
    expect(grounded.body.metadata).toEqual({ topic: 'general', source: 'given' });
    const { grounding_score: g, educational_score: e, insight_score: i, is_passed: passed } = grounded.body.response as Record<string, number | boolean>;
    expect(passed).toBe(((g as number) + (e as number) + (i as number)) / 30 >= 0.8 && g === 10);

    // The same data against a passage that says nothing of it is less grounded.
    const unrelated = await evaluate({ quiz_data: quizData, topic: 'general', source: '선적 서류는 선하증권, 상업송장, 포장명세서로 이루어진다. 신용장 조건과 서류가 다르면 대금을 받지 못한다.' });
    expect(unrelated.status).toBe(200);
    expect(unrelated.body.response.grounding_score).toBeLessThan(g as number);
    expect(unrelated.body.response.is_passed).toBe(false);

    // Without a source: the passages its question retrieves from the caller's default material (the sample).
    const fromMaterial = await evaluate({ quiz_data: quizData, topic: 'general' });
    expect(fromMaterial.status).toBe(200);
    expect(fromMaterial.body.metadata).toEqual({ topic: 'general', source: 'material', materialId: world.sample.id });

    // Quiz data that is no sound item is a 400, not a score.
    const repeated = await evaluate({ quiz_data: { ...quizData, choices: ['가', '가', '나', '다'] }, topic: 'general', source: passage.text });
    expect([repeated.status, repeated.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    // Nothing was stored for the evaluated data: no new item keys beyond the served quiz.
    expect(await app.store.zcard(quizKeys.selfQuizIndex('material', world.sample.id))).toBe(quiz.response.length);
  });
});

describe('topics offered from the material', () => {
  it('SD11 GET /api/materials/:id/quiz-topics lists general and only the topics the material has passages of', async () => {
    const world = await sharedWorld();
    const { app, teacher } = world;
    await ownMaterial(app, world.tiny.id, teacher);
    for (const material of [world.sample, world.tiny]) {
      const reply = await call(`${app.url}/api/materials/${material.id}/quiz-topics`, 'GET', { headers: teacher.bearer });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const { topics } = reply.body as QuizTopicsReply;
      const passages = await app.retrieval.passages(material.id);
      expect(topics[0]).toEqual({ name: 'general', documentType: null, passages: passages.length });
      for (const topic of topics.slice(1)) {
        // Each offered topic has exactly as many passages as its filter allows, and at least one.
        const count = passages.filter((passage) => passage.documentType === topic.documentType).length;
        expect([topic.name, topic.passages]).toEqual([topic.name, count]);
        expect(count).toBeGreaterThan(0);
      }
      // Every document type the material has is offered; none it lacks is.
      const types = new Set(passages.map((passage) => passage.documentType));
      expect(new Set(topics.slice(1).map((topic) => topic.documentType))).toEqual(types);
    }
    // The tiny material has no country guideline: the seed's `country` is not offered for it (SD3 saw it ignored).
    const tiny = (await call(`${app.url}/api/materials/${world.tiny.id}/quiz-topics`, 'GET', { headers: teacher.bearer })).body as QuizTopicsReply;
    expect(tiny.topics.map((topic) => topic.name)).not.toContain('country');
    // Another account's material is not there for the caller.
    const other = await signUp(app);
    expect((await call(`${app.url}/api/materials/${world.tiny.id}/quiz-topics`, 'GET', { headers: other.bearer })).status).toBe(404);
  });
});
