/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GATE1 — Partial regeneration. `POST /api/materials/:id/quiz` judges the five written items; an item judged with
 *   grounding below 10 is written again alone (one writing request for one item …
 * - GATE2 — The server decides. A judge that claims `is_passed: true` with grounding 9 (29 of 30) fails the item;
 *   after 3 rounds it is stored with `is_passed: false` and its three attempts.
 * - GATE3 — Rooms use usable items only. A room of a generated quiz plays its passed and kept items (uploaded items
 *   are always usable), indices and totals over those …
 * - GATE4 — Keeping. `POST /api/quizzes/:id/items/:itemId/keep {kept}` by the owner stores `kept` in the review and
 *   answers it; the next room plays the item, and again not after `{kept: false}`.
 * - GATE5 — No verdict is never a pass. A judge reply that never validates (after the repair turn) leaves every item
 *   `judged: false`, not passed, scores null, after 3 rounds.
 * - GATE6 — Offline. With no model key, a quiz generated from the sample has five items that all passed the offline
 *   judge (grounding 10).
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { ItemReview, QuizItem } from '../src/protocol/quiz.js';
import type { QuestionPayload } from '../src/protocol/wire/quiz.js';
import { signUp, type SignedUpAccount } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { embedEntries, fakeEmbedding, FakeGemini, type FakeReply, type RecordedRequest } from './support/fake-gemini.js';
import { call } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { promptOf } from './support/lecture-gemini.js';
import { joinRoom, openHost, type QuizClient } from './support/quiz-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * GATE1–GATE6 (test/SPEC.md): the EvalAgent gate of `POST /api/materials/:id/quiz` on the real server, memory store and
 * a throwaway Redis — offline, and with Gemini through the fake server (real @google/genai SDK): only the items the
 * judge failed are written again, with its feedback; an item that never passes is stored failed, kept out of rooms
 * until its instructor keeps it.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

type Generated = {
  quizId: string;
  items: QuizItem[];
  reviews: Record<string, ItemReview>;
  gate: { passed: number; total: number; rounds: number };
};

/** A signed-in instructor with a class of their own. */
async function instructor(app: TestApp): Promise<SignedUpAccount & { classId: string }> {
  const account = await signUp(app);
  const made = await call(`${app.url}/api/classes`, 'POST', { headers: account.bearer, body: { name: '무역 실무 1반' } });
  expect(made.status).toBe(201);
  return { ...account, classId: made.body.classId as string };
}

const appEnv = (store: 'memory' | 'redis') => ({ SIGNUP: 'open', ...(store === 'redis' ? { REDIS_URL: redis.url, TOKEN_SECRET: 'quiz-gate-secret' } : {}) });

async function boot(context: TestContext, store: 'memory' | 'redis'): Promise<{ app: TestApp; material: Material }> {
  const app = await startTestApp(appEnv(store));
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  return { app, material: await loadSample(app) };
}

const isWriting = (request: RecordedRequest) => request.action === 'generateContent' && promptOf(request).includes('<참고_자료>');
const isJudgement = (request: RecordedRequest) => request.action === 'generateContent' && promptOf(request).includes('<퀴즈_문항>');

/** The question of the item a judgement request is about. */
function judgedQuestion(request: RecordedRequest): string {
  const fenced = /<퀴즈_문항>\n([\s\S]*?)\n<\/퀴즈_문항>/u.exec(promptOf(request))?.[1] ?? '{}';
  return (JSON.parse(fenced) as { question?: string }).question ?? '';
}

/** Seed 001's judge reply; `scores` in the order grounding, educational, insight. */
const verdict = (scores: [number, number, number], isPassed: boolean, feedback: string): FakeReply => ({
  json: { grounding_score: scores[0], educational_score: scores[1], insight_score: scores[2], is_passed: isPassed, feedback },
});
const PASS = verdict([10, 9, 8], true, '자료와 일치하고 실무 조언이 구체적입니다.');

/**
 * The fake Gemini of these tests: the writer answers every writing request with fresh items ("문제 N호", one per slot
 * of the plan it is asked for: five at first, then one per slot written again), the judge answers by `judge(question)`, embeddings by hash;
 * anything else (the ingest's passage analyst) is refused, so passages get heuristic labels.
 *
 * One fake and one app per store serve the whole describe (booted and given the sample once, in beforeAll); each test
 * sets its judge and starts from an empty request log and "문제 1호", and signs up its own instructors.
 */
function sharedGemini(store: 'memory' | 'redis') {
  let judge: (question: string) => FakeReply = () => PASS;
  let written = 0;
  const write = (request: RecordedRequest): FakeReply => {
    const prompt = promptOf(request);
    // "난이도 구성: 1문항 모두 easy" or "난이도 구성: easy 2문항, medium 2문항, hard 1문항 (이 순서로)".
    const plan = /난이도 구성: ([^\n]*)/u.exec(prompt)?.[1] ?? '';
    const all = /^(\d+)문항 모두 (easy|medium|hard)/u.exec(plan);
    const difficulties = all
      ? Array.from({ length: Number(all[1]) }, () => all[2])
      : [...plan.matchAll(/(easy|medium|hard) (\d+)문항/gu)].flatMap((match) => Array.from({ length: Number(match[2]) }, () => match[1]));
    const items = difficulties.map((difficulty) => {
      written += 1;
      return {
        question: `문제 ${written}호: 신용장 거래에서 은행이 서류를 심사하는 기준은?`,
        choices: ['서류의 문면', '물품의 실제 상태', '매수인의 의견', '운송인의 판단'],
        answer: 0,
        explanation: '은행은 물품이 아니라 서류만으로 심사합니다. 실무에서는 서류 사이의 불일치에 주의해야 합니다.',
        difficulty,
        sources: [1],
      };
    });
    return { json: { items } };
  };
  let shared: { app: TestApp; material: Material; fake: FakeGemini } | undefined;
  beforeAll(async () => {
    const fake = await FakeGemini.start({
      respond: (request) => {
        if (request.action === 'batchEmbedContents') {
          return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
        }
        if (isJudgement(request)) return judge(judgedQuestion(request));
        if (isWriting(request)) return write(request);
        return { status: 400, message: 'gate fake: not a quiz request' };
      },
    });
    const app = await startTestApp({ ...appEnv(store), GEMINI_API_KEY: 'test', GEMINI_BASE_URL: fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
    shared = { app, fake, material: await storeReady(app).then(() => loadSample(app)) };
  });
  afterAll(async () => {
    await shared?.app.stop();
    await shared?.fake.close();
  });
  return (testJudge: (question: string) => FakeReply) => {
    if (!shared) throw new Error('the shared app is not booted yet');
    const { app, material, fake } = shared;
    judge = testJudge;
    written = 0;
    fake.requests.splice(0);
    return { app, material, fake, writings: () => fake.requests.filter(isWriting), judgements: () => fake.requests.filter(isJudgement) };
  };
}

async function generate(app: TestApp, material: Material, teacher: SignedUpAccount & { classId: string }): Promise<Generated> {
  const reply = await call(`${app.url}/api/materials/${material.id}/quiz`, 'POST', { headers: teacher.bearer, body: { classId: teacher.classId } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as Generated;
}

const reviewOf = (quiz: Generated, index: number) => quiz.reviews[quiz.items[index]?.quizId ?? ''] as ItemReview;

/** Plays the whole room with one player; returns the questions the player was shown and its raw frames. */
async function play(app: TestApp, teacher: SignedUpAccount, quizId: string): Promise<{ shown: QuestionPayload['question'][]; frames: string }> {
  const room = await call(`${app.url}/api/rooms`, 'POST', { headers: teacher.bearer, body: { quizId, options: { previewSeconds: 0 } } });
  expect(room.status, JSON.stringify(room.body)).toBe(201);
  const clients: QuizClient[] = [];
  try {
    const host = await openHost(app.url, room.body.hostToken as string);
    clients.push(host);
    const player = await joinRoom(app.url, room.body.code as string, '지호');
    clients.push(player.client);
    const shown: QuestionPayload['question'][] = [];
    for (let index = 0; ; index += 1) {
      const opened = player.client.next<QuestionPayload>('room:question', (question) => question.phase === 'open' && question.question.index === index);
      if (index > 0) expect((await host.emit('room:next')).ok).toBe(true); // reveal -> leaderboard
      expect((await host.emit(index === 0 ? 'room:start' : 'room:next')).ok).toBe(true);
      const question = await opened;
      shown.push(question.question);
      const revealed = host.next('room:reveal');
      expect((await player.client.emit('answer:submit', { questionIndex: index, choice: 0 })).ok).toBe(true);
      await revealed;
      if (index + 1 >= question.question.total) break;
    }
    const ended = player.client.next('room:ended');
    await host.emit('room:next'); // -> leaderboard
    await host.emit('room:next'); // -> podium
    await host.emit('room:end');
    await ended;
    return { shown, frames: player.client.frames.join('\n') };
  } finally {
    for (const client of clients) client.close();
  }
}

describe.each(['memory', 'redis'] as const)('the EvalAgent gate with Gemini (%s store)', (store) => {
  const gemini = sharedGemini(store);

  it('GATE1 an item the judge fails on grounding is written again alone, with the judge\'s feedback; all five then pass', async () => {
    const feedback = '해설의 근거가 자료에 없습니다: 서류 심사 기준의 출처를 밝혀 주세요.';
    const { app, material, writings, judgements } = gemini((question) =>
      question.startsWith('문제 2호:') ? verdict([9, 10, 10], false, feedback) : PASS,
    );
    const teacher = await instructor(app);
    const quiz = await generate(app, material, teacher);

    // One first writing of five, then exactly one rewrite, asking for that one slot with the feedback.
    expect(writings()).toHaveLength(2);
    const rewrite = promptOf(writings()[1] as RecordedRequest);
    expect(rewrite).toContain('난이도 구성: 1문항 모두 easy');
    expect(rewrite).toMatch(/<수정_요청>\n- 1번째 문항\(easy\): [^\n]*근거 9\/10[^\n]*해설의 근거가 자료에 없습니다: 서류 심사 기준의 출처를 밝혀 주세요\.\n<\/수정_요청>/u);
    expect(rewrite).toContain('<이미_낸_문제>');
    // Five judgements, then one for the rewritten item.
    expect(judgements().map(judgedQuestion).map((question) => question.slice(0, 6)).sort()).toEqual(['문제 1호:', '문제 2호:', '문제 3호:', '문제 4호:', '문제 5호:', '문제 6호:']);

    expect(quiz.gate).toEqual({ passed: 5, total: 5, rounds: 2 });
    expect(quiz.items.map((item) => item.question.slice(0, 6))).toEqual(['문제 1호:', '문제 6호:', '문제 3호:', '문제 4호:', '문제 5호:']);
    expect(quiz.items.map((item) => item.difficulty)).toEqual(['easy', 'easy', 'medium', 'medium', 'hard']);
    for (const [index] of quiz.items.entries()) expect(reviewOf(quiz, index)).toMatchObject({ is_passed: true, judged: true, grounding: 10, educational: 9, insight: 8, kept: false });
    expect(quiz.items.map((_, index) => reviewOf(quiz, index).attempts.length)).toEqual([1, 2, 1, 1, 1]);
    expect(reviewOf(quiz, 1).attempts).toEqual([
      { round: 1, question: expect.stringMatching(/^문제 2호:/u), judged: true, grounding: 9, educational: 10, insight: 10, is_passed: false, feedback },
      { round: 2, question: quiz.items[1]?.question, judged: true, grounding: 10, educational: 9, insight: 8, is_passed: true, feedback: '자료와 일치하고 실무 조언이 구체적입니다.' },
    ]);
    // The quiz record keeps the judge reports.
    const read = await call(`${app.url}/api/quizzes/${quiz.quizId}`, 'GET', { headers: teacher.bearer });
    expect(read.body.reviews).toEqual(quiz.reviews);
  });

  it('GATE2 GATE3 GATE4 a judge that claims is_passed with grounding 9 fails the item for 3 rounds; rooms leave it out until the instructor keeps it', async () => {
    // The third slot (medium) is always judged 9/10/10 "passed": 29 of 30, but grounding is not full.
    const { app, material, writings } = gemini((question) => {
      const inThirdSlot = question.startsWith('문제 3호:') || question.startsWith('문제 6호:') || question.startsWith('문제 7호:');
      return inThirdSlot ? verdict([9, 10, 10], true, '용어 하나가 자료와 다릅니다.') : PASS;
    });
    const teacher = await instructor(app);
    const other = await instructor(app);
    const quiz = await generate(app, material, teacher);

    expect(writings()).toHaveLength(3);
    expect(quiz.gate).toEqual({ passed: 4, total: 5, rounds: 3 });
    const failed = quiz.items[2] as QuizItem;
    expect(failed.question).toMatch(/^문제 7호:/u);
    expect(reviewOf(quiz, 2)).toMatchObject({ is_passed: false, judged: true, grounding: 9, educational: 10, insight: 10, rounds: 3, kept: false, feedback: '용어 하나가 자료와 다릅니다.' });
    expect(reviewOf(quiz, 2).attempts.map((attempt) => [attempt.round, attempt.question.slice(0, 6), attempt.is_passed])).toEqual([
      [1, '문제 3호:', false],
      [2, '문제 6호:', false],
      [3, '문제 7호:', false],
    ]);

    // GATE3: a room uses the four items that passed; the player never sees the failed one.
    const usable = quiz.items.filter((_, index) => index !== 2).map((item) => item.question);
    const first = await play(app, teacher, quiz.quizId);
    expect(first.shown.map((question) => question.question)).toEqual(usable);
    expect(first.shown.map((question) => question.total)).toEqual([4, 4, 4, 4]);
    expect(first.frames).not.toContain(failed.question);
    for (const attempt of reviewOf(quiz, 2).attempts) expect(first.frames).not.toContain(attempt.question);

    // GATE4: another instructor cannot keep it (404, as for a quiz that does not exist); nothing changes.
    const keep = (account: SignedUpAccount, body: unknown, itemId = failed.quizId ?? '') =>
      call(`${app.url}/api/quizzes/${quiz.quizId}/items/${itemId}/keep`, 'POST', { headers: account.bearer, body });
    const refused = await keep(other, { kept: true });
    expect([refused.status, refused.body.error?.code]).toEqual([404, 'QUIZ_NOT_FOUND']);
    for (const body of [{ kept: 'yes' }, { kept: true, extra: 1 }, {}]) {
      const invalid = await keep(teacher, body);
      expect([invalid.status, invalid.body.error?.code]).toEqual([400, 'INVALID_PAYLOAD']);
      expect(invalid.body.error?.message).toMatch(/[가-힣]/u);
    }
    const unknown = await keep(teacher, { kept: true }, 'ffffffff');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toMatch(/[가-힣]/u);
    expect((await keep(teacher, { kept: true }, 'not-an-id')).status).toBe(400);
    expect((await call(`${app.url}/api/quizzes/${quiz.quizId}`, 'GET', { headers: teacher.bearer })).body.reviews[failed.quizId ?? '']?.kept).toBe(false);

    // The owner keeps it: it is stored kept and the next room plays all five.
    const kept = await keep(teacher, { kept: true });
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ quizId: quiz.quizId, itemId: failed.quizId, review: { ...reviewOf(quiz, 2), kept: true } });
    expect((await call(`${app.url}/api/quizzes/${quiz.quizId}`, 'GET', { headers: teacher.bearer })).body.reviews[failed.quizId ?? '']).toEqual({ ...reviewOf(quiz, 2), kept: true });
    const second = await play(app, teacher, quiz.quizId);
    expect(second.shown.map((question) => question.question)).toEqual(quiz.items.map((item) => item.question));

    // Un-kept, it is out again.
    expect((await keep(teacher, { kept: false })).body.review.kept).toBe(false);
    const last = await play(app, teacher, quiz.quizId);
    expect(last.shown.map((question) => question.question)).toEqual(usable);
  });

  it('GATE5 a judge reply that never validates is no verdict: the items stay unjudged and failed, and a room of them is refused (409 QUIZ_NOT_READY)', async () => {
    const { app, material, writings, judgements } = gemini(() => ({ malformed: true }));
    const teacher = await instructor(app);
    const quiz = await generate(app, material, teacher);

    expect(quiz.gate).toEqual({ passed: 0, total: 5, rounds: 3 });
    // Every slot is written three times; each judgement is the reply and its repair turn.
    expect(writings()).toHaveLength(3);
    expect(judgements()).toHaveLength(5 * 3 * 2);
    for (const [index] of quiz.items.entries()) {
      const review = reviewOf(quiz, index);
      expect(review).toMatchObject({ is_passed: false, judged: false, grounding: null, educational: null, insight: null, rounds: 3, kept: false });
      for (const attempt of review.attempts) expect(attempt).toMatchObject({ judged: false, is_passed: false });
    }
    const room = await call(`${app.url}/api/rooms`, 'POST', { headers: teacher.bearer, body: { quizId: quiz.quizId } });
    expect([room.status, room.body.error?.code]).toEqual([409, 'QUIZ_NOT_READY']);
    expect(room.body.error?.message).toBe('검증을 통과한 문항이 없습니다. 호스트 화면에서 사용할 문항을 고르세요.');
    // Keeping one is enough for a room of one question.
    const itemId = quiz.items[4]?.quizId ?? '';
    expect((await call(`${app.url}/api/quizzes/${quiz.quizId}/items/${itemId}/keep`, 'POST', { headers: teacher.bearer, body: { kept: true } })).status).toBe(200);
    const played = await play(app, teacher, quiz.quizId);
    expect(played.shown.map((question) => question.question)).toEqual([quiz.items[4]?.question]);
  });
});

describe.each(['memory', 'redis'] as const)('the EvalAgent gate offline (%s store)', (store) => {
  it('GATE6 with no model key, a quiz generated from the sample has five items that passed the offline judge', async (context) => {
    const { app, material } = await boot(context, store);
    const teacher = await instructor(app);
    const quiz = await generate(app, material, teacher);
    expect(quiz.items).toHaveLength(5);
    expect(quiz.gate).toMatchObject({ passed: 5, total: 5 });
    for (const [index] of quiz.items.entries()) expect(reviewOf(quiz, index)).toMatchObject({ is_passed: true, judged: true, grounding: 10, kept: false });
    const read = await call(`${app.url}/api/quizzes/${quiz.quizId}`, 'GET', { headers: teacher.bearer });
    expect(read.body.reviews).toEqual(quiz.reviews);
  });
});
