/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - XA4 — A running exam does not leak through self-study. (`test/exams-running-leak.integration.test.ts`, both
 *   stores).
 * - XA5 — Seeded generation. The offline planner with the same seed gives the same plan, five seeds more than one;
 *   `generateExam` follows its seed (the job passes its own id).
 * - XA7 — A spent budget is refused up front. With the class owner's `MODEL_DAILY_TOKENS` spent, the instructor's
 *   `POST /api/materials/:id/exams` and the student's self-study generation are …
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateExam, loadExamSource, planOffline, examPassages } from '../src/exams/index.js';
import { accountUsageId } from '../src/llm/index.js';
import { bootExamClass, end, join, publish, type Booted } from './support/exam-class.js';
import { call } from './support/http-call.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { usageKeys } from '../src/llm/usage-keys.js';
import { jobKeys } from '../src/jobs/job-keys.js';

/**
 * XA4–XA5 (test/SPEC.md, "Exam lifecycle"): a self-study exam never reveals a class exam still running — generation
 * is refused while one runs on the same material in the student's class, and a self-study result that would name a
 * running exam's keyword or model answer waits for its end — and exam generation is seeded per exam.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

/** The instructor's exam-generation job over HTTP, waited for; the stored exam's id. */
async function generateClassExam(booted: Booted, body: Record<string, unknown>): Promise<string> {
  const started = await call(`${booted.app.url}/api/materials/${booted.material.id}/exams`, 'POST', { headers: booted.teacher.bearer, body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  let examId = '';
  await expect
    .poll(async () => {
      const job = (await call(`${booted.app.url}/api/jobs/${started.body.jobId}`, 'GET', { headers: booted.teacher.bearer })).body.job;
      examId = job.result?.examId ?? '';
      return job.status;
    }, { interval: 100 })
    .toBe('succeeded');
  // The validator's open complaints (the offline one may leave some) are read and accepted, so it can be published.
  const detail = await call(`${booted.app.url}/api/exams/${examId}`, 'GET', { headers: booted.teacher.bearer });
  for (const id of new Set((detail.body.complaints as { id: number }[]).map((complaint) => complaint.id))) {
    expect((await call(`${booted.app.url}/api/exams/${examId}/problems/${id}/accept`, 'POST', { headers: booted.teacher.bearer, body: {} })).status).toBe(200);
  }
  return examId;
}

describe.each(['memory', 'redis'] as const)('a running class exam and self-study exams (%s store)', (store) => {
  it('XA4 while a class exam runs, a student of the class cannot make a self-study exam on its material, and no self-study result names its answers until it ends', async (context) => {
    const booted = await bootExamClass(context, store, () => redis.url);
    const { app } = booted;
    const examId = await generateClassExam(booted, { count: 3, descriptive: 1 });
    const live = await app.exams.repository.get(examId);
    await publish(booted, examId, 30);
    const student = await join(booted, '민지');
    const secrets = live!.problems.flatMap((problem) => [problem.model_answer, ...problem.key_keywords]);

    // The attempt: the same material and size, during the exam.
    const refused = await call(`${app.url}/api/class-exams/self-study`, 'POST', { headers: student.headers, body: { count: 3, descriptive: 1 } });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('EXAM_RUNNING');
    expect(refused.body.error.message).toMatch(/수업 시험이 진행 중입니다.*끝난 뒤/u);

    // The worst case from before the exam: a self-study exam with the running exam's very items. Submitted blank,
    // its result waits for the end and says why; nothing of the answers is in the reply.
    const copy = await app.exams.create({ ...live!, accountId: booted.teacher.accountId, title: '혼자 보는 시험 (3문항)', request: { count: 3, descriptive: 1 } });
    await app.exams.publishSelfStudy(copy, booted.classId, student.sessionId);
    const submitted = await call(`${app.url}/api/class-exams/${copy.examId}/submit`, 'POST', { headers: student.headers, body: {} });
    expect(submitted.body.submittedAll).toBe(true);
    await app.exams.settled();
    const held = await call(`${app.url}/api/class-exams/${copy.examId}/result`, 'GET', { headers: student.headers });
    expect(held.status).toBe(409);
    expect(held.body.error.code).toBe('EXAM_RESULT_NOT_READY');
    expect(held.body.error.message).toContain('진행 중인 수업 시험');
    for (const secret of secrets) expect(JSON.stringify(held.body)).not.toContain(secret);

    // After the end the result shows, and a self-study exam can be made again.
    await end(booted, examId);
    const shown = await call(`${app.url}/api/class-exams/${copy.examId}/result`, 'GET', { headers: student.headers });
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body.log.evaluation_items).toHaveLength(3);
    const again = await call(`${app.url}/api/class-exams/self-study`, 'POST', { headers: student.headers, body: { count: 3, descriptive: 1 } });
    expect(again.status, JSON.stringify(again.body)).toBe(202);
  });
});

describe('a spent model budget', () => {
  it('XA7 exam generation (the instructor\'s and a student\'s self-study) with the paying account\'s budget spent is 429 MODEL_BUDGET_EXCEEDED at once, and no job is started', async (context) => {
    const booted = await bootExamClass(context, 'memory', () => redis.url, { MODEL_DAILY_TOKENS: '1000' });
    const { app } = booted;
    const student = await join(booted, '민지');
    await app.store.hset(usageKeys.usage('account', accountUsageId(booted.teacher.accountId, Date.now())), { input: '900', output: '200' });
    const instructor = await call(`${app.url}/api/materials/${booted.material.id}/exams`, 'POST', { headers: booted.teacher.bearer, body: { count: 3, descriptive: 1 } });
    expect([instructor.status, instructor.body.error?.code]).toEqual([429, 'MODEL_BUDGET_EXCEEDED']);
    expect(instructor.body.error.message).toMatch(/사용량/u);
    const selfStudy = await call(`${app.url}/api/class-exams/self-study`, 'POST', { headers: student.headers, body: { count: 3, descriptive: 1 } });
    expect([selfStudy.status, selfStudy.body.error?.code]).toEqual([429, 'MODEL_BUDGET_EXCEEDED']);
    expect(await app.store.zcard(jobKeys.activeJobs())).toBe(0);
  });
});

describe('seeded exams', () => {
  it('XA5 the offline planner draws its topics by the exam\'s seed: the same seed, the same plan; other seeds, other exams on the same material and request', async (context) => {
    const booted = await bootExamClass(context, 'memory', () => redis.url);
    const source = await loadExamSource(booted.app.materials, booted.app.retrieval, booted.material.id, {});
    const passages = examPassages(source);
    const plan = (seed: string) => planOffline({ scope: source.scope, passages, request: { count: 3, descriptive: 1 }, profile: null, seed });
    const topics = (seed: string) => plan(seed).planned_items.map((item) => item.target_topic).join(' | ');
    expect(topics('seed-a')).toBe(topics('seed-a'));
    const drawn = new Set(['seed-a', 'seed-b', 'seed-c', 'seed-d', 'seed-e'].map(topics));
    expect(drawn.size).toBeGreaterThan(1);
    // The generation passes its seed to the planner: the whole exam follows it.
    const generated = (seed: string) => generateExam({ model: booted.app.model, source, request: { count: 3, descriptive: 1 }, profile: null, context: { materialId: booted.material.id }, seed });
    const [first, same] = await Promise.all([generated('seed-a'), generated('seed-a')]);
    expect(same.problems).toEqual(first.problems);
    const others = await Promise.all(['seed-b', 'seed-c', 'seed-d', 'seed-e'].map(generated));
    expect(others.some((exam) => JSON.stringify(exam.problems) !== JSON.stringify(first.problems))).toBe(true);
  });
});
