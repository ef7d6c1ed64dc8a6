/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EX9 — The job (memory and Redis). An `exam-generation` job on the leased runner: its watchers (what `/jobs`
 *   relays) see `plan:0`, `round:1` (item 2 not ok with the validator's message …
 * - EX10 — Resume (memory and Redis). A node stopped while round 2's writer waits leaves the job; another node
 *   resumes it from the checkpoint (`runs: 2`): no second plan …
 * - EX12 — Fallback and a deleted material, as a job (memory and Redis). A validator that never passes: the job
 *   succeeds with `{valid: false, rounds: 3}` …
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { EXAM_JOB_KIND, examJobHandler, type ExamJobProgress, type SaveExamInput } from '../src/exams/index.js';
import { JobRepository, JobRunner, type JobView } from '../src/jobs/index.js';
import { createLogger } from '../src/kernel/logger.js';
import { MemoryStore, type Store } from '../src/store/index.js';
import { signUp } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { ITEM, fenced, set, startExamGemini, type ExamGemini } from './support/exam-gemini.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis, testRedisStore } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { POLL_TIMEOUT_MS } from './support/poll.js';
import { jobKeys } from '../src/jobs/job-keys.js';

/**
 * EX9–EX10, EX12 (test/SPEC.md, "Exams: generation"): the `exam-generation` job on the leased job runner, on the memory
 * store and a throwaway Redis, with Gemini through the fake server (real SDK) and the real material service and
 * retrieval of a test app: the plan, each round's per-item verdicts and the end reach the runner's watchers (what
 * `/jobs` relays) and the job record; the finished set goes to `saveExam`; a node stopped during round 2 leaves the
 * job to another node, which keeps the checkpointed plan and round 1 and continues at round 2.
 */

const redis = suiteRedis();
const logger = createLogger('silent');
beforeAll(samplePdfBytes);

const REJECT_2 = { is_valid: false, feedback_message: [{ id: 2, message: 'Keyword Insufficient. 2번 서술형의 키워드가 하나뿐입니다.' }] };
const ACCEPT = { is_valid: true, feedback_message: [] };

async function storeFor(context: TestContext, kind: 'memory' | 'redis'): Promise<Store> {
  const store = kind === 'memory' ? new MemoryStore() : testRedisStore(redis.url);
  context.onTestFinished(async () => {
    for (const id of await new JobRepository(store).active(100)) await store.del(jobKeys.job(id), jobKeys.jobLease(id), jobKeys.jobCancel(id));
    await store.del(jobKeys.activeJobs());
    await store.close();
  });
  return store;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = POLL_TIMEOUT_MS): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > end) throw new Error(`condition not met: ${JSON.stringify(value)?.slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Setup {
  app: TestApp;
  gemini: ExamGemini;
  materialId: string;
  accountId: string;
  store: Store;
  repository: JobRepository;
  saved: SaveExamInput[];
  node(name: string, seen?: JobView[]): JobRunner;
}

async function setUp(context: TestContext, kind: 'memory' | 'redis', gemini: ExamGemini): Promise<Setup> {
  context.onTestFinished(() => gemini.fake.close());
  const app = await startTestApp({ SIGNUP: 'open', GEMINI_API_KEY: 'test', GEMINI_BASE_URL: gemini.fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  const material = await loadSample(app);
  const { accountId } = await signUp(app);
  const store = await storeFor(context, kind);
  const repository = new JobRepository(store);
  const saved: SaveExamInput[] = [];
  const handler = examJobHandler({
    model: app.model,
    materials: app.materials,
    retriever: app.retrieval,
    saveExam: async (input) => {
      saved.push(input);
      return { examId: `exam-${saved.length}` };
    },
  });
  // A lease a living node keeps on a loaded machine (300 ms lapsed between renewals there, and EX10's job ran twice on
  // its second node); a stopped node's job moves on once it lapses.
  const node = (name: string, seen?: JobView[]) => {
    const runner = new JobRunner({ repository, store, nodeId: name, logger, handlers: [handler], onChange: (view) => seen?.push(view), pollMs: 20, leaseMs: 3_000 });
    context.onTestFinished(() => runner.stop());
    return runner;
  };
  return { app, gemini, materialId: material.id, accountId, store, repository, saved, node };
}

describe.each(['memory', 'redis'] as const)('exam generation jobs (%s store)', (kind) => {
  it('EX9 the job reports the plan, each round’s verdict per item and the end to its watchers, stores the set through saveExam and names it in its result', async (context) => {
    const gemini = await startExamGemini({ write: (n) => (n === 1 ? set(ITEM[1], ITEM[2], ITEM[3]) : set(ITEM[1], ITEM['2b'], ITEM[3])), validate: (n) => (n === 1 ? REJECT_2 : ACCEPT) });
    const setup = await setUp(context, kind, gemini);
    const seen: JobView[] = [];
    const runner = setup.node('a', seen);
    const created = await setup.repository.create(EXAM_JOB_KIND, setup.accountId, { materialId: setup.materialId, request: { count: 3, descriptive: 1 }, profile: null });
    runner.start();
    const done = await until(() => setup.repository.get(created.jobId), (job) => job?.status === 'succeeded' || job?.status === 'failed');
    expect([done?.status, done?.error]).toEqual(['succeeded', null]);
    expect(done?.result).toEqual({ examId: 'exam-1', valid: true, rounds: 2 });
    expect(done?.progress).toMatchObject({ stage: 'done', round: 2, maxRounds: 3, planned: 3 });

    await until(async () => seen.at(-1)?.status, (status) => status === 'succeeded');
    const progress = seen.flatMap((view) => (view.progress ? [view.progress as ExamJobProgress] : []));
    const stages = progress.map((entry) => `${entry.stage}:${entry.round}`).filter((entry, index, all) => all.indexOf(entry) === index);
    expect(stages).toEqual(['plan:0', 'round:1', 'round:2', 'done:2']);
    expect(progress.find((entry) => entry.stage === 'plan')).toEqual({ stage: 'plan', round: 0, maxRounds: 3, planned: 3, items: [] });
    expect(progress.find((entry) => entry.stage === 'round' && entry.round === 1)).toEqual({
      stage: 'round',
      round: 1,
      maxRounds: 3,
      planned: 3,
      validated: true,
      items: [{ id: 1, ok: true }, { id: 2, ok: false, message: REJECT_2.feedback_message[0]!.message }, { id: 3, ok: true }],
    });
    expect(progress.find((entry) => entry.stage === 'round' && entry.round === 2)?.items.every((item) => item.ok)).toBe(true);
    // The watchers never see the checkpoint.
    expect(seen.every((view) => !('checkpoint' in view))).toBe(true);

    expect(setup.saved).toHaveLength(1);
    expect(setup.saved[0]).toMatchObject({ materialId: setup.materialId, accountId: setup.accountId, jobId: created.jobId, request: { count: 3, descriptive: 1 }, valid: true, rounds: 2, complaints: [] });
    expect(setup.saved[0]!.problems).toEqual([ITEM[1], ITEM['2b'], ITEM[3]]);
    // The planner and writer read the sample material's retrieved passages.
    expect(fenced(gemini.calls('plan')[0]!, '참고_자료')).toContain('기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.');
  });

  it('EX10 a node stopped during round 2 leaves the job to another, which keeps the plan and round 1 from the checkpoint and continues at round 2', async (context) => {
    let firstNode = true;
    const gemini = await startExamGemini({
      write: (n) => (n === 1 ? set(ITEM[1], ITEM[2], ITEM[3]) : set(ITEM[1], ITEM['2b'], ITEM[3])),
      validate: (n) => (n === 1 ? REJECT_2 : ACCEPT),
      // Round 2's writing never answers on the first node: it is stopped while it waits.
      hold: (agent, n) => (firstNode && agent === 'write' && n === 2 ? new Promise<never>(() => undefined) : undefined),
    });
    const setup = await setUp(context, kind, gemini);
    const first = setup.node('a');
    const created = await setup.repository.create(EXAM_JOB_KIND, setup.accountId, { materialId: setup.materialId, request: { count: 3, descriptive: 1 } });
    first.start();
    const paused = await until(
      () => setup.repository.get(created.jobId),
      (job) => (job?.checkpoint as { state: { round: number } | null } | null)?.state?.round === 1 && gemini.calls('write').length === 2,
    );
    expect(paused?.progress).toMatchObject({ stage: 'round', round: 1 });
    await first.stop();
    firstNode = false;

    const second = setup.node('b');
    second.start();
    const done = await until(() => setup.repository.get(created.jobId), (job) => job?.status === 'succeeded' || job?.status === 'failed');
    expect([done?.status, done?.runs]).toEqual(['succeeded', 2]);
    expect(done?.result).toEqual({ examId: 'exam-1', valid: true, rounds: 2 });
    // One plan, round 1 written and judged once; round 2 asked again on the second node with round 1's complaint and set.
    expect(gemini.calls('plan')).toHaveLength(1);
    expect(gemini.calls('validate')).toHaveLength(2);
    const writes = gemini.calls('write');
    expect(writes).toHaveLength(3);
    expect(fenced(writes[2]!, '검증_피드백')).toBe(`- 2번: ${REJECT_2.feedback_message[0]!.message}`);
    expect(JSON.parse(fenced(writes[2]!, '이전_문제'))).toEqual(set(ITEM[1], ITEM[2], ITEM[3]));
    expect(setup.saved.map((input) => [input.rounds, input.valid, input.problems[1]?.question_content])).toEqual([[2, true, ITEM['2b'].question_content]]);
  });

  it('EX12 a job whose validator never passes succeeds with the fallback (valid: false, the open complaints stored); a material deleted mid-job stores nothing', async (context) => {
    let released!: () => void;
    const gate = new Promise<void>((resolve) => (released = resolve));
    const gemini = await startExamGemini({
      write: () => set(ITEM[1], ITEM['2b'], ITEM[3]),
      validate: (n) => ({ is_valid: false, feedback_message: [{ id: 3, message: `Too Vague ${n}. 3번 질문을 좁히세요.` }] }),
      // The fourth job's first writing waits until its material is deleted.
      hold: (agent, n) => (agent === 'write' && n === 4 ? gate : undefined),
    });
    const setup = await setUp(context, kind, gemini);
    const seen: JobView[] = [];
    const runner = setup.node('a', seen);
    runner.start();
    const fallback = await setup.repository.create(EXAM_JOB_KIND, setup.accountId, { materialId: setup.materialId, request: { count: 3, descriptive: 1 } });
    const done = await until(() => setup.repository.get(fallback.jobId), (job) => job?.status === 'succeeded' || job?.status === 'failed');
    expect([done?.status, done?.result]).toEqual(['succeeded', { examId: 'exam-1', valid: false, rounds: 3 }]);
    expect(setup.saved[0]).toMatchObject({ valid: false, rounds: 3, complaints: [{ id: 3, message: 'Too Vague 3. 3번 질문을 좁히세요.' }] });
    expect((done?.progress as ExamJobProgress).items).toEqual([{ id: 1, ok: true }, { id: 2, ok: true }, { id: 3, ok: false, message: 'Too Vague 3. 3번 질문을 좁히세요.' }]);

    const deleted = await setup.repository.create(EXAM_JOB_KIND, setup.accountId, { materialId: setup.materialId, request: { count: 3, descriptive: 1 } });
    await until(async () => gemini.calls('write').length, (count) => count === 4);
    expect(await setup.app.materials.remove(setup.materialId)).toBe(true);
    released();
    const failed = await until(() => setup.repository.get(deleted.jobId), (job) => job?.status === 'succeeded' || job?.status === 'failed');
    expect([failed?.status, failed?.error?.code]).toEqual(['failed', 'MATERIAL_NOT_FOUND']);
    expect(setup.saved).toHaveLength(1);
  });
});
