/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SS1 — Start, the seed's envelope. `{response: [{quiz_id, question, choices, difficulty}], agent_type: "quiz",
 *   metadata: {topic, difficulty (null when absent), count, materialId, chapter}}` with exactly …
 * - SS2 — Stored with a TTL; graded on the server; the first answer is the recorded one. Each item is its own store
 *   key with a TTL (Redis: PTTL > 0, at most 24 h).
 * - SS3 — Evaluate. `{response: {grounding_score, educational_score, insight_score, is_passed, feedback}, agent_type:
 *   "eval", metadata: {topic}}`; scores 0–10, `is_passed` by the server's rule …
 * - SS4 — Scope. Another account's item is 404 `QUIZ_NOT_FOUND` for answer and evaluate (API token and cookie), like
 *   a missing one, and records nothing …
 * - SS5 — Bad bodies. Missing or unknown `topic`, missing `materialId`, a bad `difficulty`, an unknown field, an
 *   `answer` of 4 or `"1"`, a `quiz_id` that is not 8 hex characters …
 * - SS6 — A class student. With their session token, on their class's material only; their first answers reach the
 *   class monitor as `student:self-quiz {sessionId, answered, correct}` and the roster entry's …
 * - SS7 — Ids never overwrite. An 8-hex id another caller's item holds is never overwritten (HSETNX on create): the
 *   new item draws another id, and each caller answers only their own.
 * - SS8 — No verdict is never a pass. When the judge gives no verdict the gate serves nothing (502
 *   `QUIZ_GATE_FAILED`, Korean) …
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/kernel/errors.js';
import { ModelError, type LanguageModel } from '../src/llm/index.js';
import type { GenerateObjectRequest } from '../src/llm/model.js';
import type { Material } from '../src/materials/index.js';
import { EvalAgent, SelfStudy } from '../src/quiz/index.js';
import type { SelfQuizAnswerReply, SelfQuizEvaluateReply, SelfQuizStartReply } from '../src/protocol/wire/index.js';
import { signUp, type SignedUpAccount } from './support/accounts.js';
import { connectInstructor, createClass, joinClass, storeReady } from './support/classroom-client.js';
import { call, type CallReply } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/**
 * SS1–SS6 (test/SPEC.md): seed 001's self-study API (`POST /api/quiz/start`, `/answer`, `/evaluate`) with the seed's
 * exact shapes, on the memory store and on a throwaway Redis: items judged before they are served, kept in the store
 * with a TTL, graded on the server, the first answer recorded, scoped to the caller that started them.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

interface World {
  app: TestApp;
  material: Material;
  teacher: SignedUpAccount;
}

/**
 * One app per store for the whole describe (booted and given the sample once, in beforeAll); each test signs up a
 * teacher of its own, so its items, answers and budget are its own as on a fresh app.
 */
function sharedWorld(store: 'memory' | 'redis'): () => Promise<World> {
  let shared: Omit<World, 'teacher'> | undefined;
  beforeAll(async () => {
    const app = await startTestApp({ SIGNUP: 'open', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
    shared = { app, material: await storeReady(app).then(() => loadSample(app)) };
  });
  afterAll(() => shared?.app.stop());
  return async () => {
    if (!shared) throw new Error('the shared app is not booted yet');
    return { ...shared, teacher: await signUp(shared.app) };
  };
}

const post = (world: Pick<World, 'app'>, path: string, body: unknown, headers: Record<string, string> = {}): Promise<CallReply> =>
  call(`${world.app.url}/api/quiz/${path}`, 'POST', { body, headers });

/** The solution of a served item, read from the store the way only the server may (to answer right and wrong). */
async function solutionOf(app: TestApp, quizId: string): Promise<{ answer: number; explanation: string; choices: string[] }> {
  const raw = await app.store.hget(quizKeys.selfQuizItem(quizId), 'record');
  if (raw === null) throw new Error(`no stored item ${quizId}`);
  return (JSON.parse(raw) as { item: { answer: number; explanation: string; choices: string[] } }).item;
}

async function started(world: World, headers: Record<string, string>, body: Record<string, unknown> = {}): Promise<SelfQuizStartReply> {
  const reply = await post(world, 'start', { topic: 'general', materialId: world.material.id, ...body }, headers);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as SelfQuizStartReply;
}

describe.each(['memory', 'redis'] as const)('seed 001 self-study API (%s store)', (store) => {
  const boot = sharedWorld(store);

  it('SS1 start answers the seed envelope: only judged items, the exact keys, never the answer or explanation', async () => {
    const world = await boot();
    const reply = await started(world, world.teacher.bearer, { difficulty: 'easy', chapter: 0 });
    expect(Object.keys(reply).sort()).toEqual(['agent_type', 'metadata', 'response']);
    expect(reply.agent_type).toBe('quiz');
    const { shortfall, ...metadata } = reply.metadata;
    expect(metadata).toEqual({ topic: 'general', difficulty: 'easy', count: reply.response.length, materialId: world.material.id, chapter: 0, filters: { topic: 'none', difficulty: metadata.filters.difficulty } });
    // Fewer than five served: the reply says so.
    expect(shortfall === undefined).toBe(reply.response.length === 5);
    expect(reply.response.length).toBeGreaterThan(0);
    expect(reply.response.length).toBeLessThanOrEqual(5);
    const ids = new Set<string>();
    for (const item of reply.response) {
      expect(Object.keys(item).sort()).toEqual(['choices', 'difficulty', 'question', 'quiz_id']);
      expect(item.quiz_id).toMatch(/^[0-9a-f]{8}$/);
      expect(item.choices).toHaveLength(4);
      expect(item.difficulty).toBe('easy');
      ids.add(item.quiz_id);
      // Stored with its gate review, which passed: nobody sees an item the EvalAgent refused.
      const raw = await world.app.store.hget(quizKeys.selfQuizItem(item.quiz_id), 'record');
      expect((JSON.parse(raw ?? '{}') as { review: { is_passed: boolean } }).review.is_passed).toBe(true);
      // Not in the start answer: the explanation's text or an `answer` field.
      const { explanation } = await solutionOf(world.app, item.quiz_id);
      const json = JSON.stringify(reply);
      expect(json).not.toContain(explanation);
      expect(json).not.toMatch(/"(answer|explanation|correct_answer)"/);
    }
    expect(ids.size).toBe(reply.response.length);

    // Without a difficulty: `difficulty: null` in the metadata (the seed's mix).
    const mixed = await started(world, world.teacher.bearer);
    expect(mixed.metadata.difficulty).toBeNull();
    expect(mixed.metadata.chapter).toBeNull();
  });

  it('SS2 items live in the store with a TTL; answers are graded by index on the server and the first answer stays the recorded one', async () => {
    const world = await boot();
    const quiz = await started(world, world.teacher.browser, { chapter: 1 });
    const first = quiz.response[0]!;
    const ttl = await world.app.store.pttl(quizKeys.selfQuizItem(first.quiz_id));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(24 * 60 * 60_000);

    const solution = await solutionOf(world.app, first.quiz_id);
    const wrong = (solution.answer + 1) % 4;
    const answered = await post(world, 'answer', { quiz_id: first.quiz_id, answer: wrong }, world.teacher.browser);
    expect(answered.status).toBe(200);
    const body = answered.body as SelfQuizAnswerReply;
    expect(Object.keys(body).sort()).toEqual(['agent_type', 'metadata', 'response']);
    expect(Object.keys(body.response).sort()).toEqual(['correct_answer', 'correct_choice', 'explanation', 'is_correct', 'quiz_id', 'user_answer']);
    expect(body).toEqual({
      response: {
        quiz_id: first.quiz_id,
        is_correct: false,
        user_answer: wrong,
        correct_answer: solution.answer,
        correct_choice: first.choices[solution.answer],
        explanation: solution.explanation,
      },
      agent_type: 'quiz',
      metadata: { quiz_id: first.quiz_id, recorded_answer: wrong, recorded_correct: false, first_attempt: true },
    });

    // Self-study: answering again is graded, but the first answer is the one recorded.
    const again = (await post(world, 'answer', { quiz_id: first.quiz_id, answer: solution.answer }, world.teacher.bearer)).body as SelfQuizAnswerReply;
    expect(again.response.is_correct).toBe(true);
    expect(again.response.user_answer).toBe(solution.answer);
    expect(again.metadata).toEqual({ quiz_id: first.quiz_id, recorded_answer: wrong, recorded_correct: false, first_attempt: false });
    expect(await world.app.store.pttl(quizKeys.selfQuizItem(first.quiz_id))).toBeGreaterThan(0);
  });

  it('SS3 evaluate answers the seed eval envelope: the gate verdict for the same topic, the EvalAgent for another', async () => {
    const world = await boot();
    const quiz = await started(world, world.teacher.bearer, { topic: 'general', chapter: 0 });
    const item = quiz.response[0]!;
    for (const topic of ['general', 'documents'] as const) {
      const reply = await post(world, 'evaluate', { quiz_id: item.quiz_id, topic }, world.teacher.bearer);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const body = reply.body as SelfQuizEvaluateReply;
      expect(Object.keys(body).sort()).toEqual(['agent_type', 'metadata', 'response']);
      expect(Object.keys(body.response).sort()).toEqual(['educational_score', 'feedback', 'grounding_score', 'insight_score', 'is_passed']);
      expect(body.agent_type).toBe('eval');
      expect(body.metadata).toEqual({ topic });
      for (const score of [body.response.grounding_score, body.response.educational_score, body.response.insight_score]) {
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(10);
      }
      // The server's pass rule, whatever the model said: (sum / 30 ≥ 0.8) ∧ grounding = 10.
      const { grounding_score: g, educational_score: e, insight_score: i } = body.response;
      expect(body.response.is_passed).toBe((g + e + i) / 30 >= 0.8 && g === 10);
      expect(body.response.feedback.length).toBeGreaterThan(0);
    }
    // The same-topic verdict is the one the gate stored with the item.
    const raw = JSON.parse((await world.app.store.hget(quizKeys.selfQuizItem(item.quiz_id), 'record')) ?? '{}') as { review: { grounding: number; feedback: string } };
    const same = (await post(world, 'evaluate', { quiz_id: item.quiz_id, topic: 'general' }, world.teacher.bearer)).body as SelfQuizEvaluateReply;
    expect([same.response.grounding_score, same.response.feedback]).toEqual([raw.review.grounding, raw.review.feedback]);
  });

  it('SS4 another account’s item is 404 like a missing one; anonymous callers are 401 before the body is read; another’s material 404', async () => {
    const world = await boot();
    const quiz = await started(world, world.teacher.bearer, { chapter: 0 });
    const quizId = quiz.response[0]!.quiz_id;
    const other = await signUp(world.app);
    for (const headers of [other.bearer, other.browser]) {
      const answer = await post(world, 'answer', { quiz_id: quizId, answer: 0 }, headers);
      expect([answer.status, answer.body.error.code]).toEqual([404, 'QUIZ_NOT_FOUND']);
      const evaluate = await post(world, 'evaluate', { quiz_id: quizId, topic: 'general' }, headers);
      expect([evaluate.status, evaluate.body.error.code]).toEqual([404, 'QUIZ_NOT_FOUND']);
    }
    expect((await post(world, 'answer', { quiz_id: 'abcdef01', answer: 0 }, other.bearer)).status).toBe(404);
    // B answering changed nothing: A's first answer is still to come.
    expect(await world.app.store.hget(quizKeys.selfQuizItem(quizId), 'answer')).toBeNull();

    // A material that is neither the caller's nor the sample is not there for them.
    const notMine = await post(world, 'start', { topic: 'general', materialId: 'f'.repeat(64) }, other.bearer);
    expect([notMine.status, notMine.body.error.code]).toEqual([404, 'MATERIAL_NOT_FOUND']);

    for (const path of ['start', 'answer', 'evaluate']) {
      const body = path === 'start' ? { topic: 'general', materialId: world.material.id } : { quiz_id: quizId, answer: 0, topic: 'general' };
      const anonymous = await post(world, path, body);
      expect([path, anonymous.status, anonymous.body.error.code]).toEqual([path, 401, 'UNAUTHORIZED']);
      expect(anonymous.body.error.message).toMatch(/로그인/);
      // The credential is checked first: a broken body from nobody is still 401, never a hint about the schema.
      expect((await post(world, path, { nonsense: true })).status).toBe(401);
    }
  });

  it('SS5 bad bodies are 400 INVALID_PAYLOAD with Korean messages naming the field', async () => {
    const world = await boot();
    const headers = world.teacher.bearer;
    const cases: [string, unknown, RegExp][] = [
      ['start', { materialId: world.material.id }, /주제: topic은 general, mistakes/],
      ['start', { topic: 'weather', materialId: world.material.id }, /topic은 general/],
      ['start', { topic: 'general', materialId: world.material.id, difficulty: 'expert' }, /난이도/],
      ['start', { topic: 'general', materialId: world.material.id, extra: 1 }, /알 수 없는 항목/],
      ['answer', { quiz_id: 'a1b2c3d4', answer: 4 }, /정답은 3 이하/],
      ['answer', { quiz_id: 'not-hex!', answer: 0 }, /퀴즈 문항: quizId는 16진수 8자리/],
      ['answer', { quiz_id: 'a1b2c3d4', answer: '1' }, /숫자/],
      ['evaluate', { quiz_id: 'a1b2c3d4' }, /주제/],
    ];
    for (const [path, body, message] of cases) {
      const reply = await post(world, path, body, headers);
      expect([path, JSON.stringify(body), reply.status, reply.body.error.code]).toEqual([path, JSON.stringify(body), 400, 'INVALID_PAYLOAD']);
      expect(reply.body.error.message).toMatch(/[가-힣]/);
      expect(reply.body.error.message).toMatch(message);
    }
    // A chapter the material does not have names the valid range.
    const chapter = await post(world, 'start', { topic: 'general', materialId: world.material.id, chapter: 99 }, headers);
    expect([chapter.status, chapter.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(chapter.body.error.message).toMatch(/챕터 번호는 0부터/);
  });

  it('SS6 a class student uses it with their session token on the class material; the monitor shows their score; another student’s item is 404', async () => {
    const world = await boot();
    const created = await createClass(world.app, { name: '무역 실무반', materialId: world.material.id });
    const { monitor } = await connectInstructor(world.app, created.instructorToken);
    const minji = await joinClass(world.app, created.code, '민지');
    const jiho = await joinClass(world.app, created.code, '지호');
    const asMinji = { authorization: `Bearer ${minji.token}` };

    // Only the class's material: the sample is this class's, another one is not there for the student.
    const elsewhere = await post(world, 'start', { topic: 'general', materialId: 'f'.repeat(64) }, asMinji);
    expect([elsewhere.status, elsewhere.body.error.code]).toEqual([404, 'MATERIAL_NOT_FOUND']);

    const quiz = await started(world, asMinji, { chapter: 0 });
    const [first, second] = quiz.response;
    if (!first || !second) throw new Error('the gate passed fewer than two items');
    const right = (await solutionOf(world.app, first.quiz_id)).answer;
    const wrong = ((await solutionOf(world.app, second.quiz_id)).answer + 1) % 4;
    expect((await post(world, 'answer', { quiz_id: first.quiz_id, answer: right }, asMinji)).body.response.is_correct).toBe(true);
    const score = await monitor.waitFor('student:self-quiz', (payload) => payload.answered === 1);
    expect(score).toEqual({ sessionId: minji.sessionId, answered: 1, correct: 1 });
    await post(world, 'answer', { quiz_id: second.quiz_id, answer: wrong }, asMinji);
    expect(await monitor.waitFor('student:self-quiz', (payload) => payload.answered === 2)).toEqual({ sessionId: minji.sessionId, answered: 2, correct: 1 });
    // A second answer to an item is not counted again.
    await post(world, 'answer', { quiz_id: second.quiz_id, answer: (wrong + 1) % 4 }, asMinji);
    const roster = await call(`${world.app.url}/api/classes/${created.classId}`, 'GET', { headers: { authorization: `Bearer ${created.instructorToken}` } });
    const entry = (roster.body.students as { sessionId: string; selfQuiz?: unknown }[]).find((student) => student.sessionId === minji.sessionId);
    expect(entry?.selfQuiz).toEqual({ answered: 2, correct: 1 });
    expect(monitor.all('student:self-quiz')).toHaveLength(2);

    // Another student of the same class cannot answer or evaluate Minji's item.
    const asJiho = { authorization: `Bearer ${jiho.token}` };
    expect((await post(world, 'answer', { quiz_id: first.quiz_id, answer: right }, asJiho)).status).toBe(404);
    expect((await post(world, 'evaluate', { quiz_id: first.quiz_id, topic: 'general' }, asJiho)).status).toBe(404);
    // Nor can the class's instructor account answer as her.
    expect((await post(world, 'answer', { quiz_id: first.quiz_id, answer: right }, world.teacher.bearer)).status).toBe(404);
    // An instructor token is not a student's: 403.
    expect((await post(world, 'start', { topic: 'general', materialId: world.material.id }, { authorization: `Bearer ${created.instructorToken}` })).status).toBe(403);

    // A session outside any class (anyone can open the sample) may not start model calls here.
    const guest = await call(`${world.app.url}/api/sessions`, 'POST', { body: { materialId: world.material.id, nickname: '손님' } });
    const asGuest = { authorization: `Bearer ${guest.body.token as string}` };
    const refused = await post(world, 'start', { topic: 'general', materialId: world.material.id }, asGuest);
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
    minji.client.socket.disconnect();
    jiho.client.socket.disconnect();
    monitor.socket.disconnect();
  });

  it('SS7 an 8-hex id another caller holds is never overwritten: the new item draws another id', async () => {
    const world = await boot();
    const { app } = world;
    // Two callers whose id draws meet: the teacher's first item and the student's first draw are both 0000aaaa.
    const sequence = (...ids: string[]) => () => ids.shift() ?? randomBytes(4).toString('hex');
    const options = { store: app.store, model: app.model, materials: app.materials, retriever: app.retrieval, judge: app.quizJudge };
    const teacher = { kind: 'account', accountId: world.teacher.accountId } as const;
    const {
      items: [held],
    } = await new SelfStudy({ ...options, newId: sequence('0000aaaa') }).start({ scope: teacher, materialId: world.material.id, topic: 'general', chapter: 0 });
    expect(held?.quizId).toBe('0000aaaa');
    const before = await app.store.hget(quizKeys.selfQuizItem('0000aaaa'), 'record');
    const student = { kind: 'student', classId: 'c1', sessionId: 's1' } as const;
    const { items: served } = await new SelfStudy({ ...options, newId: sequence('0000aaaa', '0000bbbb') }).start({ scope: student, materialId: world.material.id, topic: 'general', chapter: 0 });
    expect(served[0]?.quizId).toBe('0000bbbb');
    expect(served.map((item) => item.quizId)).not.toContain('0000aaaa');
    expect(await app.store.hget(quizKeys.selfQuizItem('0000aaaa'), 'record')).toBe(before);
    const selfStudy = new SelfStudy(options);
    // Each is answerable only by its own caller.
    expect((await selfStudy.answer(teacher, '0000aaaa', 0)).quizId).toBe('0000aaaa');
    await expect(selfStudy.answer(teacher, served[0]!.quizId, 0)).rejects.toMatchObject({ code: 'QUIZ_NOT_FOUND' });
  });

  it('SS8 no verdict is never a pass: a gate that passes nothing is 502 QUIZ_GATE_FAILED, an evaluation without a verdict 502 QUIZ_NOT_JUDGED', async () => {
    const world = await boot();
    const { app } = world;
    let judgeWorks = true;
    const model: LanguageModel = {
      ...app.model,
      generateObject: <T>(request: GenerateObjectRequest<T>) => {
        if (request.task === 'quiz.eval' && !judgeWorks) return Promise.reject(new ModelError('MODEL_OUTPUT_INVALID', 'the judge wrote no JSON'));
        return app.model.generateObject(request);
      },
    };
    const judge = new EvalAgent({ model, retriever: app.retrieval });
    const selfStudy = new SelfStudy({ store: app.store, model, materials: app.materials, retriever: app.retrieval, judge });
    const scope = { kind: 'account', accountId: world.teacher.accountId } as const;
    const {
      items: [item],
    } = await selfStudy.start({ scope, materialId: world.material.id, topic: 'general', chapter: 0 });
    judgeWorks = false;
    // The gate's own verdict for the same topic needs no judge; another topic does, and gets none.
    expect((await selfStudy.evaluate(scope, item!.quizId, 'general')).grounding).toBe(10);
    const failed = await selfStudy.evaluate(scope, item!.quizId, 'documents').catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AppError);
    expect(failed).toMatchObject({ code: 'QUIZ_NOT_JUDGED' });
    expect(await app.store.hget(quizKeys.selfQuizItem(item!.quizId), 'eval:documents')).toBeNull();
    const none = await selfStudy.start({ scope, materialId: world.material.id, topic: 'general', chapter: 0 }).catch((error: unknown) => error);
    expect(none).toMatchObject({ code: 'QUIZ_GATE_FAILED' });
    expect((none as AppError).message).toMatch(/검증을 통과한 문제가 없어/);
  });
});
