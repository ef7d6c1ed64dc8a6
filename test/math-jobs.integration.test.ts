/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MJ1 — Live progress, the set, its summary, a quiz. `POST /api/materials/:id/math-problems` answers 202 with a
 *   queued job and its token; on `/jobs` the owner gets a snapshot …
 * - MJ2 — Cancel. Over HTTP and with `job:cancel` (acked with the job): the job ends `cancelled`, its watchers are
 *   told, nothing is stored.
 * - MJ3 — Failure keeps what passed. After three attempts the job fails with `MODEL_OUTPUT_INVALID` and a Korean
 *   message, and its result names an incomplete set of the problems that passed.
 * - MJ4 — Ownership. Another account gets 404 on every route of a job and a set (its list of the material shows none
 *   of them); anonymous callers 401; a forged job token …
 * - MJ5 — Bad bodies. 400 `INVALID_PAYLOAD` in Korean (count, multiple choice over count, difficulty, extra fields, a
 *   chapter the material lacks) before any model call or job.
 * - MJ6 — Offline. The offline model cannot write math problems: 409 `MODEL_NOT_CAPABLE` in Korean at once, and no
 *   job is made (the capability is asked of the model, not its provider's name).
 * - MJ7 — Restart. On Redis, a job whose node stops mid-attempt is resumed by another node from its checkpoint: the
 *   problems that passed are kept, the next attempt is written (never the first again) …
 * - MJ8 — Settings. `MATH_JUDGE_NETWORK_POLICY` (`pass-unjudged` | `fail`), `MATH_JUDGE_THRESHOLDS`
 *   (`difficulty:consistency/others`, scores 1–5; omitted difficulties keep 4/3.5) and `JOB_LEASE_MS` parse …
 */
import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { mathJobHandler } from '../src/math-problems/index.js';
import type { Material } from '../src/materials/index.js';
import { isDurableKey } from '../src/store/retention.js';
import type { JobState, MathJobProgress, MathJobResult, MathSummary } from '../src/protocol/wire/jobs.js';
import { signUp, type SignedUpAccount } from './support/accounts.js';
import { handshakeOutcome, storeReady, tamper } from './support/classroom-client.js';
import { madePdf, scanStore, uploadPdf } from './support/data-flow.js';
import { call } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { plannedSlots, startMathGemini, type MathGemini, type MathGeminiOptions } from './support/math-gemini.js';
import { suiteRedis } from './support/redis-server.js';
import { connected, once, startTestApp, type TestApp } from './support/test-app.js';
import { POLL_TIMEOUT_MS } from './support/poll.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';

/**
 * MJ1–MJ6 (test/SPEC.md, "Math problem jobs"): math problem generation as a background job on the real server, with
 * Gemini through the fake server (real @google/genai SDK), on the memory store and a throwaway Redis: live progress on
 * `/jobs`, the stored set with its judgements and the per-material summary, a quiz and a room from its multiple-choice
 * problems, cancellation over HTTP and over the socket, and the refusals (another account, anonymous, bad body,
 * offline model).
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

interface Booted {
  app: TestApp;
  material: Material;
  math: MathGemini;
  teacher: SignedUpAccount;
}

async function boot(context: TestContext, store: 'memory' | 'redis', options: MathGeminiOptions = {}): Promise<Booted> {
  const math = await startMathGemini(options);
  context.onTestFinished(() => math.fake.close());
  const app = await startTestApp({
    SIGNUP: 'open',
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: math.fake.baseUrl,
    GEMINI_MAX_ATTEMPTS: '1',
    ...(store === 'redis' ? { REDIS_URL: redis.url, TOKEN_SECRET: 'math-jobs-secret' } : {}),
  });
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  return { app, material: await loadSample(app), math, teacher: await signUp(app) };
}

/** Starts a job over HTTP: 202 with the job (queued) and its token. */
async function start(booted: Booted, body: Record<string, unknown> = { count: 3, multipleChoice: 2, difficulty: 'easy' }): Promise<{ job: JobState; jobToken: string }> {
  const reply = await call(`${booted.app.url}/api/materials/${booted.material.id}/math-problems`, 'POST', { headers: booted.teacher.bearer, body });
  expect(reply.status, JSON.stringify(reply.body)).toBe(202);
  return reply.body as { job: JobState; jobToken: string };
}

/** Every `job:state` the socket receives, and a promise of the first one that is finished. */
function watch(socket: Socket): { states: JobState[]; finished: Promise<JobState> } {
  const states: JobState[] = [];
  const finished = new Promise<JobState>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no finished job:state (got ${states.map((state) => state.status).join(', ')})`)), WAIT_TIMEOUT_MS);
    socket.on('job:state', (state: JobState) => {
      states.push(state);
      if (state.status === 'succeeded' || state.status === 'failed' || state.status === 'cancelled') {
        clearTimeout(timer);
        resolve(state);
      }
    });
  });
  return { states, finished };
}

const progressOf = (state: JobState) => state.progress as MathJobProgress | null;

describe.each(['memory', 'redis'] as const)('math problem jobs (%s store)', (store) => {
  it('MJ1 a job streams attempt k/3, passed n/N and per-item verdicts to /jobs, stores the set, lists it with the summary; a quiz and a room are made from its multiple-choice problems', async (context) => {
    // The second problem written fails the judge once: attempt 1 passes 2 of 3, attempt 2 writes only the missing one.
    let released!: () => void;
    const gate = new Promise<void>((resolve) => (released = resolve));
    const booted = await boot(context, store, {
      passes: (question) => !question.startsWith('문제 2호'),
      hold: (write) => (write === 1 ? gate : undefined),
    });
    const { app, teacher } = booted;
    const { job, jobToken } = await start(booted);
    expect([job.kind, job.status, job.accountId]).toEqual(['math-problems', 'queued', teacher.accountId]);

    const socket = app.socket('/jobs', { token: jobToken });
    const snapshot = once<JobState>(socket, 'job:state');
    await connected(socket);
    expect((await snapshot).jobId).toBe(job.jobId);
    const { states, finished } = watch(socket);
    released();
    const done = await finished;
    expect(done.status).toBe('succeeded');
    const result = done.result as MathJobResult;
    expect(result.passed).toBe(3);

    const attempts = states.flatMap((state) => (progressOf(state) ? [progressOf(state) as MathJobProgress] : []));
    const first = attempts.find((progress) => progress.attempt === 1);
    const second = attempts.find((progress) => progress.attempt === 2);
    expect(first && { attempt: first.attempt, maxAttempts: first.maxAttempts, passed: first.passed, wanted: first.wanted }).toEqual({ attempt: 1, maxAttempts: 3, passed: 2, wanted: 3 });
    expect(first?.items.map((item) => [item.question.slice(0, 6), item.passed, item.judged])).toEqual([
      ['문제 1호:', true, true],
      ['문제 2호:', false, true],
      ['문제 3호:', true, true],
    ]);
    expect(first?.items[1]).toMatchObject({ type: 'multiple_choice', difficulty: 'easy', scores: { consistency: 2 }, feedback: '풀이의 답과 정답이 다릅니다.' });
    expect(second && [second.attempt, second.passed, second.wanted, second.items.length]).toEqual([2, 3, 3, 1]);
    // Attempt 2 asked only for the missing multiple-choice slot.
    expect(booted.math.writes().map((request) => plannedSlots(request).length)).toEqual([3, 1]);

    // The set keeps every judgement; the list names it with the summary.
    const set = await call(`${app.url}/api/math-sets/${result.setId}`, 'GET', { headers: teacher.bearer });
    expect(set.status).toBe(200);
    // Seed 002's cost split: the math judge runs on the faster model (flash), the problems on pro.
    expect(set.body).toMatchObject({ setId: result.setId, materialId: booted.material.id, accountId: teacher.accountId, jobId: job.jobId, attempts: 2, judgeModel: 'gemini-flash-latest', complete: true });
    expect(set.body.problems.map((problem: { question: string }) => problem.question.slice(0, 6))).toEqual(['문제 1호:', '문제 4호:', '문제 3호:']);
    expect(set.body.problems[0].judgement).toEqual({ judged: true, passed: true, scores: { mathematical_accuracy: 5, consistency: 5, completeness: 4, logic_flow: 4 }, feedback: '풀이와 정답이 일치합니다.', model: 'gemini-flash-latest', attempt: 1, equivalence: 'equal' });
    expect(set.body.problems[1].judgement.attempt).toBe(2);
    expect(set.body.rejected.map((problem: { question: string; judgement: { passed: boolean } }) => [problem.question.slice(0, 6), problem.judgement.passed])).toEqual([['문제 2호:', false]]);
    const listed = await call(`${app.url}/api/materials/${booted.material.id}/math-sets`, 'GET', { headers: teacher.bearer });
    expect(listed.status).toBe(200);
    expect(listed.body.sets.map((entry: { setId: string; kept: number; rejectedCount: number; multipleChoice: number }) => [entry.setId, entry.kept, entry.rejectedCount, entry.multipleChoice])).toEqual([[result.setId, 3, 1, 2]]);
    expect(listed.body.summary).toEqual({
      sets: 1,
      kept: 3,
      rejected: 1,
      judged: 4,
      unjudged: 0,
      meanScores: { mathematical_accuracy: 4.75, consistency: 4.25, completeness: 4, logic_flow: 4 },
      rejectedBy: { choices: 0, 'answer-key': 0, equivalence: 0, guard: 0, judge: 1 },
    } satisfies MathSummary);

    // A quiz of its two multiple-choice problems (LaTeX choices, the keyed answer B), and a room of that quiz.
    const quiz = await call(`${app.url}/api/math-sets/${result.setId}/quiz`, 'POST', { headers: teacher.bearer, body: { title: '기댓값 수학 퀴즈' } });
    expect(quiz.status, JSON.stringify(quiz.body)).toBe(201);
    expect(quiz.body.items).toHaveLength(2);
    expect(quiz.body.items[0]).toMatchObject({ choices: ['$1$', '$2$', '$3$', '$\\frac{5}{2}$'], answer: 1, difficulty: 'easy', explanation: '$E[X] = \\frac{1+2+3}{3}$\n$= 2$' });
    expect((await call(`${app.url}/api/quizzes/${quiz.body.quizId}`, 'GET', { headers: teacher.bearer })).body.title).toBe('기댓값 수학 퀴즈');
    const room = await call(`${app.url}/api/rooms`, 'POST', { headers: teacher.bearer, body: { quizId: quiz.body.quizId } });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    // Filed under one of the account's classes (listed there); another account's class is not the caller's.
    const made = await call(`${app.url}/api/classes`, 'POST', { headers: teacher.bearer, body: { name: '수학 1반' } });
    const inClass = await call(`${app.url}/api/math-sets/${result.setId}/quiz`, 'POST', { headers: teacher.bearer, body: { classId: made.body.classId } });
    expect(inClass.status).toBe(201);
    const classQuizzes = await call(`${app.url}/api/quizzes?classId=${made.body.classId}`, 'GET', { headers: teacher.bearer });
    expect(classQuizzes.body.quizzes.map((entry: { quizId: string }) => entry.quizId)).toEqual([inClass.body.quizId]);
    const stranger = await signUp(app);
    const theirs = await call(`${app.url}/api/classes`, 'POST', { headers: stranger.bearer, body: { name: '남의 반' } });
    const refused = await call(`${app.url}/api/math-sets/${result.setId}/quiz`, 'POST', { headers: teacher.bearer, body: { classId: theirs.body.classId } });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'CLASS_NOT_FOUND']);

    // K2/K3 for what a job leaves: every key without a TTL is a documented durable one (the job record expires).
    for (const key of await scanStore(app, store === 'redis' ? redis.url : undefined)) {
      if ((await app.store.pttl(key)) === -1) expect(isDurableKey(key), key).toBe(true);
    }
    expect(await app.store.pttl(`lectern:job:${job.jobId}`)).toBeGreaterThan(0);
  });

  it('MJ2 a cancelled job stops: over HTTP, and over the socket with its ack; both are told to /jobs', async (context) => {
    // Writing never answers: the jobs stay running until they are cancelled.
    const booted = await boot(context, store, { hold: () => new Promise<never>(() => undefined) });
    const { app, teacher } = booted;

    const byHttp = await start(booted);
    const watcher = app.socket('/jobs', { token: byHttp.jobToken });
    const { finished } = watch(watcher);
    await connected(watcher);
    await until(async () => (await call(`${app.url}/api/jobs/${byHttp.job.jobId}`, 'GET', { headers: teacher.bearer })).body.job.status === 'running');
    const cancelled = await call(`${app.url}/api/jobs/${byHttp.job.jobId}/cancel`, 'POST', { headers: teacher.bearer });
    expect([cancelled.status, cancelled.body.job.status]).toEqual([200, 'cancelled']);
    expect((await finished).status).toBe('cancelled');

    const bySocket = await start(booted);
    const socket = app.socket('/jobs', { token: bySocket.jobToken });
    await connected(socket);
    await until(async () => (await call(`${app.url}/api/jobs/${bySocket.job.jobId}`, 'GET', { headers: teacher.bearer })).body.job.status === 'running');
    const ack = (await socket.timeout(10_000).emitWithAck('job:cancel', {})) as { ok: boolean; job?: JobState };
    expect([ack.ok, ack.job?.status]).toEqual([true, 'cancelled']);
    const after = await call(`${app.url}/api/jobs/${bySocket.job.jobId}`, 'GET', { headers: teacher.bearer });
    expect(after.body.job.status).toBe('cancelled');
    // Nothing was stored for either job.
    expect((await call(`${app.url}/api/materials/${booted.material.id}/math-sets`, 'GET', { headers: teacher.bearer })).body.sets).toEqual([]);
  });

  it('MJ3 a job whose problems never all pass fails after three attempts, keeping what passed as an incomplete set', async (context) => {
    const booted = await boot(context, store, { question: (n, type) => `문제 ${n}호 ${type === 'short_answer' ? '[약함]' : ''}: $E[X]$는?`, passes: (question) => !question.includes('[약함]') });
    const { app, teacher } = booted;
    const { jobToken } = await start(booted, { count: 2, multipleChoice: 1, difficulty: 'easy' });
    const socket = app.socket('/jobs', { token: jobToken });
    const { states, finished } = watch(socket);
    await connected(socket);
    const done = await finished;
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('MODEL_OUTPUT_INVALID');
    expect(done.error?.message).toContain('2문제 중 1문제');
    expect(Math.max(...states.map((state) => progressOf(state)?.attempt ?? 0))).toBe(3);
    const result = done.result as MathJobResult;
    expect(result.passed).toBe(1);
    const set = await call(`${app.url}/api/math-sets/${result.setId}`, 'GET', { headers: teacher.bearer });
    expect([set.body.complete, set.body.problems.length, set.body.rejected.length]).toEqual([false, 1, 3]);
  });
});

describe('MJ4–MJ6: who may start, watch and read math jobs', () => {
  it('MJ4 another account gets 404 on every route of a job and a set, and its tokens do not open /jobs; anonymous callers 401', async (context) => {
    const booted = await boot(context, 'memory');
    const { app, teacher } = booted;
    const own = await uploadPdf(app, await madePdf('A의 수학 자료'), 'a.pdf', teacher);
    const { job, jobToken } = await start({ ...booted, material: { ...booted.material, id: own.id } });
    const finished = watch(app.socket('/jobs', { token: jobToken })).finished;
    const result = (await finished).result as MathJobResult;
    const other = await signUp(app);
    const routes: [string, 'GET' | 'POST', unknown?][] = [
      [`/api/materials/${own.id}/math-problems`, 'POST', { count: 1, multipleChoice: 1 }],
      [`/api/jobs/${job.jobId}`, 'GET'],
      [`/api/jobs/${job.jobId}/cancel`, 'POST'],
      [`/api/math-sets/${result.setId}`, 'GET'],
      [`/api/math-sets/${result.setId}/quiz`, 'POST', {}],
    ];
    for (const [path, method, body] of routes) {
      for (const headers of [other.bearer, other.browser]) {
        const reply = await call(`${app.url}${path}`, method, { headers, ...(body === undefined ? {} : { body }) });
        expect([path, reply.status]).toEqual([path, 404]);
      }
      const anonymous = await call(`${app.url}${path}`, method, body === undefined ? {} : { body });
      expect([path, anonymous.status]).toEqual([path, 401]);
    }
    expect((await call(`${app.url}/api/materials/${own.id}/math-sets`, 'GET', { headers: other.bearer })).status).toBe(404);
    expect((await call(`${app.url}/api/materials/${booted.material.id}/math-sets`, 'GET', { headers: other.bearer })).body).toMatchObject({ sets: [], summary: { sets: 0 } });
    // The owner still has everything.
    expect((await call(`${app.url}/api/math-sets/${result.setId}`, 'GET', { headers: teacher.bearer })).status).toBe(200);

    // /jobs: a forged scope, a token of another kind, and none are refused at the handshake.
    const forged = tamper(jobToken, (payload) => (payload.scope = other.accountId));
    expect(await handshakeOutcome(app.socket('/jobs', { token: forged }))).toMatchObject({ message: 'UNAUTHORIZED', data: { reason: 'signature' } });
    const classMade = await call(`${app.url}/api/classes`, 'POST', { headers: other.bearer, body: { name: '다른 반' } });
    expect(await handshakeOutcome(app.socket('/jobs', { token: classMade.body.instructorToken }))).toMatchObject({ data: { code: 'FORBIDDEN', reason: 'kind' } });
    expect(await handshakeOutcome(app.socket('/jobs', {}))).toMatchObject({ message: 'UNAUTHORIZED' });
  });

  it('MJ4 a disabled account’s job token no longer opens /jobs, and an open socket’s job:cancel is refused', async (context) => {
    const booted = await boot(context, 'memory', { hold: () => new Promise<never>(() => undefined) });
    const { app } = booted;
    // The first account (booted.teacher) is the admin; the job is another instructor's.
    const owner = await signUp(app);
    const { jobToken } = await start({ ...booted, teacher: owner });
    const socket = app.socket('/jobs', { token: jobToken });
    await connected(socket);
    const disabled = await call(`${app.url}/api/admin/accounts/${owner.accountId}/disable`, 'POST', { headers: booted.teacher.bearer });
    expect(disabled.status).toBe(200);
    const ack = (await socket.timeout(10_000).emitWithAck('job:cancel', {})) as { ok: boolean; error?: { code: string } };
    expect([ack.ok, ack.error?.code]).toEqual([false, 'ACCOUNT_DISABLED']);
    expect(await handshakeOutcome(app.socket('/jobs', { token: jobToken }))).toMatchObject({ message: 'ACCOUNT_DISABLED' });
  });

  it('MJ5 a bad body answers 400 in Korean before any job exists; so does a chapter the material lacks', async (context) => {
    const booted = await boot(context, 'memory');
    const { app, teacher, material } = booted;
    for (const body of [{ count: 0, multipleChoice: 0 }, { count: 21, multipleChoice: 1 }, { count: 2, multipleChoice: 3 }, { count: 2, multipleChoice: 1, difficulty: 'extreme' }, { count: 2, multipleChoice: 1, extra: true }, { count: 2, multipleChoice: 1, chapter: 99 }]) {
      const reply = await call(`${app.url}/api/materials/${material.id}/math-problems`, 'POST', { headers: teacher.bearer, body });
      expect([JSON.stringify(body), reply.status, reply.body.error.code]).toEqual([JSON.stringify(body), 400, 'INVALID_PAYLOAD']);
      expect(reply.body.error.message).toMatch(/[가-힣]/u);
    }
    expect(booted.math.writes()).toEqual([]);
    expect(await app.jobs.repository.active(10)).toEqual([]);
  });
});

describe('MJ6: the offline model', () => {
  it('MJ6 starting a math job offline answers 409 MODEL_NOT_CAPABLE in Korean at once, and no job is made', async (context) => {
    const app = await startTestApp({ SIGNUP: 'open', MATH_JUDGE_NETWORK_POLICY: 'fail', MATH_JUDGE_THRESHOLDS: 'hard:4.5/4' });
    context.onTestFinished(() => app.stop());
    // MJ8: the app's one math judge follows the configured policy and thresholds.
    expect(app.mathJudge.policy.onNetworkError).toBe('fail');
    expect(app.mathJudge.policy.thresholds).toEqual({ easy: { consistency: 4, others: 3.5 }, medium: { consistency: 4, others: 3.5 }, hard: { consistency: 4.5, others: 4 } });
    const material = await loadSample(app);
    const teacher = await signUp(app);
    const reply = await call(`${app.url}/api/materials/${material.id}/math-problems`, 'POST', { headers: teacher.bearer, body: { count: 2, multipleChoice: 1 } });
    expect([reply.status, reply.body.error.code]).toEqual([409, 'MODEL_NOT_CAPABLE']);
    expect(reply.body.error.message).toContain('수학 문제를 만들 수 없습니다');
    expect(await app.jobs.repository.active(10)).toEqual([]);
  });
});

/** Waits for a condition the test cannot get an event for (polls; never asserts a time). */
async function until(condition: () => Promise<boolean>, timeoutMs = POLL_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('MJ7: a job resumed with nothing left to write', () => {
  it('MJ7 a checkpoint with every slot passed stores the set at once; one after the third attempt stores what passed and fails, with no model writing', async (context) => {
    const booted = await boot(context, 'memory');
    const { app, material, teacher } = booted;
    const handler = mathJobHandler({ model: app.model, judge: app.mathJudge, materials: app.materials, retriever: app.retrieval, sets: app.mathSets });
    const problem = {
      problemId: '0a1b2c3d',
      type: 'multiple_choice' as const,
      question: '이미 통과한 문제: $E[X]$는?',
      choices: ['1', '2', '3', '4'],
      correct_answer: 'B',
      explanation: '$E[X] = 2$',
      final_answer: '2',
      difficulty: 'easy' as const,
      sources: [],
      judgement: { judged: true, passed: true, scores: { mathematical_accuracy: 5, consistency: 5, completeness: 5, logic_flow: 5 }, feedback: '좋습니다.', model: 'judge', attempt: 1 },
    };
    const context_ = { signal: new AbortController().signal, save: async () => undefined };
    const record = async (request: { count: number; multipleChoice: number; difficulty: 'easy' }, checkpoint: unknown) => ({
      ...(await app.jobs.repository.create('math-problems-test', teacher.accountId, { materialId: material.id, request })),
      checkpoint,
      runs: 2,
    });

    const done = (await handler.run(await record({ count: 1, multipleChoice: 1, difficulty: 'easy' }, { attempt: 1, passed: [problem], rejected: [] }), context_)) as MathJobResult;
    const complete = await app.mathSets.get(done.setId);
    expect([complete?.complete, complete?.attempts, complete?.problems.map((kept) => kept.problemId)]).toEqual([true, 1, ['0a1b2c3d']]);

    const failed = await handler.run(await record({ count: 2, multipleChoice: 1, difficulty: 'easy' }, { attempt: 3, passed: [problem], rejected: [] }), context_).catch((error: unknown) => error);
    expect(failed).toMatchObject({ code: 'MODEL_OUTPUT_INVALID', partialResult: { passed: 1 } });
    const partial = await app.mathSets.get((failed as { partialResult: MathJobResult }).partialResult.setId);
    expect([partial?.complete, partial?.problems.length]).toEqual([false, 1]);
    expect(booted.math.writes()).toEqual([]);
  });
});
