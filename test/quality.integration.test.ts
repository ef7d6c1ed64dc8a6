/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QC1 — Sampling a real flow. At `QUALITY_SAMPLE_RATE=1` a quiz generation queues its agents' outputs billed to the
 *   teacher …
 * - QC2 — Rate 0. Nothing is queued and the summary lists no agent.
 * - QC3 — Grading budget. With `QUALITY_DAILY_TOKENS` spent, a run grades nothing more (`budgetSpent`) and the rest
 *   stays queued.
 * - QC4 — Interactions. Newest first, paged by cursor; `minGrade`/`maxGrade` filter inclusively; the worst case of an
 *   agent carries its issues and failure types are counted …
 * - QC5 — Export. `export.jsonl` is an attachment of one parseable line per graded output with exactly `instruction,
 *   input, output, grade, criteria, agent, failure_types`, newest first …
 * - QC6 — Who sees what. An instructor sees only the outputs billed to their own account (another instructor's
 *   summary, list and export are empty); the admin sees all …
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { QualityExportLine, QualityInteractionPage, QualitySummary } from '../src/protocol/wire/quality.js';
import { ownMaterial, signUp, type SignedUpAccount } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { call } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * QC1–QC6 (test/SPEC.md): the "AI 품질" console on the real server, offline model: agent outputs sampled from a real
 * flow (quiz generation), graded in the background by the Critic Grader under its daily budget, and read back over
 * HTTP (summary, interactions, JSONL export) by the admin and by instructors, each seeing their own.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

interface Booted {
  app: TestApp;
  admin: SignedUpAccount;
  teacher: SignedUpAccount;
  other: SignedUpAccount;
}

async function boot(context: TestContext, env: Record<string, string> = {}): Promise<Booted> {
  const app = await startTestApp({ QUALITY_SAMPLE_RATE: '1', ...env });
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  // The first account is the deployment's admin; the next two are instructors.
  const invite = async () => (app.config.signup === 'open' ? {} : { invite: (await app.accounts.createInvite('test')).code });
  const admin = await signUp(app, await invite());
  const teacher = await signUp(app, await invite());
  const other = await signUp(app, await invite());
  return { app, admin, teacher, other };
}

/** The teacher generates a quiz from the sample material: the quiz agent and the EvalAgent call the model. */
async function generateQuiz(app: TestApp, teacher: SignedUpAccount): Promise<void> {
  const material = await loadSample(app);
  await ownMaterial(app, material.id, teacher);
  const reply = await call(`${app.url}/api/materials/${material.id}/quiz`, 'POST', { body: {}, headers: teacher.bearer });
  expect(reply.status).toBe(201);
  await app.quality.sampler.settled();
}

const get = (app: TestApp, path: string, account?: SignedUpAccount) => call(`${app.url}${path}`, 'GET', account ? { headers: account.bearer } : {});

/** Two answers of the student assistant of known quality: seed 004's example 1 (good) and 3 (off topic). */
function offerAnswers(app: TestApp, accountId: string): void {
  for (const output of ['노트북을 추천해드리겠습니다. 예산 범위를 알려주시면 더 정확한 추천이 가능합니다.', '음식 추천을 도와드리겠습니다. 오늘은 파스타를 추천합니다.']) {
    app.quality.sampler.offer({ task: 'assistant.answer', system: 'You are a product search agent.', prompt: '질문에 답하세요.', input: { question: '노트북 추천해줘' }, output, accountId });
  }
}

async function gradeAll(app: TestApp): Promise<void> {
  await app.quality.sampler.settled();
  for (;;) {
    const run = await app.quality.grader.runOnce();
    if (run.graded + run.ungraded === 0) return;
  }
}

describe.each(['memory', 'redis'] as const)('the AI 품질 console (%s store)', (storeKind) => {
  const env = () => (storeKind === 'redis' ? { REDIS_URL: redis.url } : {});

  it('QC1 at QUALITY_SAMPLE_RATE=1 a quiz generation queues its agents\' outputs, billed to the teacher; the background grading grades them and the summary shows them per agent', async (context) => {
    const { app, admin, teacher } = await boot(context, env());
    await generateQuiz(app, teacher);
    const queued = await app.quality.repository.queued();
    expect(queued).toBeGreaterThanOrEqual(2);

    await gradeAll(app);
    expect(await app.quality.repository.queued()).toBe(0);
    expect(await app.quality.budget.spentToday()).toBeGreaterThan(0);

    const summary = (await get(app, '/api/quality/summary?days=7', teacher)).body as QualitySummary;
    expect(summary).toMatchObject({ scope: 'own', days: 7, sampling: { rate: 1, perAgent: {} }, budget: { dailyTokens: 200_000 }, queued: 0 });
    const agents = summary.agents.map((agent) => agent.agent).sort();
    expect(agents).toContain('quiz.generate');
    const quiz = summary.agents.find((agent) => agent.agent === 'quiz.generate');
    expect(quiz?.days).toHaveLength(7);
    const today = quiz?.days.at(-1);
    expect(today?.day).toBe(new Date().toISOString().slice(0, 10));
    expect(today?.count).toBeGreaterThan(0);
    expect(today?.buckets.reduce((sum, bucket) => sum + bucket, 0)).toBe(today?.count);
    expect(quiz?.mean).toBeGreaterThanOrEqual(0);
    expect(quiz?.mean).toBeLessThanOrEqual(1);
    expect(quiz?.worst.length).toBeGreaterThan(0);
    // The admin sees the same agents, as the whole deployment's.
    const all = (await get(app, '/api/quality/summary', admin)).body as QualitySummary;
    expect(all.scope).toBe('all');
    expect(all.agents.map((agent) => agent.agent).sort()).toEqual(agents);

    const page = (await get(app, '/api/quality/interactions?agent=quiz.generate', teacher)).body as QualityInteractionPage;
    const first = page.interactions[0];
    expect(first).toMatchObject({ agent: 'quiz.generate', accountId: teacher.accountId });
    expect(first?.instruction.length).toBeGreaterThan(0);
    // The structured input the agent was called with, as compact JSON.
    expect(typeof JSON.parse(first?.input ?? '')).toBe('object');
    expect(() => JSON.parse(first?.output ?? '')).not.toThrow();
    expect(first?.report.grading_report).toMatch(/전체 점수/u);
  });

  it('QC2 at QUALITY_SAMPLE_RATE=0 nothing is sampled', async (context) => {
    const { app, teacher } = await boot(context, { ...env(), QUALITY_SAMPLE_RATE: '0' });
    await generateQuiz(app, teacher);
    expect(await app.quality.repository.queued()).toBe(0);
    expect(((await get(app, '/api/quality/summary', teacher)).body as QualitySummary).agents).toEqual([]);
  });
});

describe('the AI 품질 console (memory store)', () => {
  it('QC3 the background grading stops once QUALITY_DAILY_TOKENS is spent and leaves the rest queued', async (context) => {
    const { app, teacher } = await boot(context, { QUALITY_DAILY_TOKENS: '1' });
    offerAnswers(app, teacher.accountId);
    offerAnswers(app, teacher.accountId);
    await app.quality.sampler.settled();
    expect(await app.quality.repository.queued()).toBe(4);
    expect(await app.quality.grader.runOnce()).toEqual({ ran: true, graded: 1, ungraded: 0, budgetSpent: true });
    expect(await app.quality.repository.queued()).toBe(3);
    expect(await app.quality.grader.runOnce()).toEqual({ ran: true, graded: 0, ungraded: 0, budgetSpent: true });
    const summary = (await get(app, '/api/quality/summary', teacher)).body as QualitySummary;
    expect(summary.budget.spentToday).toBeGreaterThanOrEqual(1);
    expect(summary.queued).toBe(3);
    expect(summary.agents.map((agent) => [agent.agent, agent.count])).toEqual([['assistant.answer', 1]]);
  });

  it('QC4 interactions are paged newest first and filtered by grade; the worst case carries its issues', async (context) => {
    const { app, teacher } = await boot(context);
    offerAnswers(app, teacher.accountId);
    await gradeAll(app);
    const all = (await get(app, '/api/quality/interactions?limit=1', teacher)).body as QualityInteractionPage;
    expect(all.interactions).toHaveLength(1);
    expect(all.nextCursor).not.toBeNull();
    const next = (await get(app, `/api/quality/interactions?limit=1&cursor=${all.nextCursor}`, teacher)).body as QualityInteractionPage;
    expect(next.interactions).toHaveLength(1);
    expect(next.nextCursor).toBeNull();
    const grades = [...all.interactions, ...next.interactions].map((interaction) => interaction.report.grade);
    const low = Math.min(...grades);
    const high = Math.max(...grades);
    expect(low).toBeLessThan(0.5);
    expect(high).toBeGreaterThan(0.7);

    const bad = (await get(app, '/api/quality/interactions?maxGrade=0.5', teacher)).body as QualityInteractionPage;
    expect(bad.interactions.map((interaction) => interaction.output)).toEqual(['음식 추천을 도와드리겠습니다. 오늘은 파스타를 추천합니다.']);
    const good = (await get(app, '/api/quality/interactions?minGrade=0.7', teacher)).body as QualityInteractionPage;
    expect(good.interactions.map((interaction) => interaction.report.grade)).toEqual([high]);

    const summary = (await get(app, '/api/quality/summary', teacher)).body as QualitySummary;
    const assistant = summary.agents.find((agent) => agent.agent === 'assistant.answer');
    expect(assistant?.worst[0]).toMatchObject({ grade: low, excerpt: '음식 추천을 도와드리겠습니다. 오늘은 파스타를 추천합니다.' });
    expect(assistant?.worst[0]?.unfixable_issues.length).toBeGreaterThan(0);
    expect(assistant?.failureTypes.NOT_HELPFUL).toBe(1);

    const invalid = await get(app, '/api/quality/interactions?minGrade=0.9&maxGrade=0.1', teacher);
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/[가-힣]/u);
    expect(invalid.body.error.message).toContain('최저 점수');
    const days = await get(app, '/api/quality/summary?days=99', teacher);
    expect([days.status, days.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(days.body.error.message).toContain('기간');
    const agent = await get(app, '/api/quality/interactions?agent=%3Cscript%3E', teacher);
    expect(agent.status).toBe(400);
    expect(agent.body.error.message).toContain('에이전트');
  });

  it('QC5 the JSONL export: one parseable line per graded output (instruction, input, output, grade, criteria), as an attachment, within the grade filter', async (context) => {
    const { app, teacher } = await boot(context);
    offerAnswers(app, teacher.accountId);
    await gradeAll(app);
    const response = await fetch(`${app.url}/api/quality/export.jsonl`, { headers: teacher.bearer });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="?lectern-quality-all-\d{4}-\d{2}-\d{2}\.jsonl"?(?:; filename\*=UTF-8''lectern-quality-all-\d{4}-\d{2}-\d{2}\.jsonl)?$/u);
    const lines = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as QualityExportLine);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(Object.keys(line)).toEqual(['instruction', 'input', 'output', 'grade', 'criteria', 'agent', 'failure_types']);
      expect(line.instruction).toContain('You are a product search agent.');
      expect(JSON.parse(line.input)).toEqual({ question: '노트북 추천해줘' });
      expect(Object.keys(line.criteria)).toEqual(['completeness', 'accuracy', 'consistency', 'safety', 'helpfulness']);
    }
    const filtered = await fetch(`${app.url}/api/quality/export.jsonl?agent=assistant.answer&minGrade=0.7`, { headers: teacher.bearer });
    const kept = (await filtered.text()).trim().split('\n').map((line) => JSON.parse(line) as QualityExportLine);
    expect(kept.map((line) => line.output)).toEqual(['노트북을 추천해드리겠습니다. 예산 범위를 알려주시면 더 정확한 추천이 가능합니다.']);
    expect(kept.every((line) => line.grade >= 0.7)).toBe(true);
    const none = await fetch(`${app.url}/api/quality/export.jsonl?agent=lecture.write`, { headers: teacher.bearer });
    expect(await none.text()).toBe('');
  });

  it('QC6 an instructor sees only the outputs billed to their own account; the admin sees all; anonymous callers get 401', async (context) => {
    const { app, admin, teacher, other } = await boot(context);
    offerAnswers(app, teacher.accountId);
    await gradeAll(app);
    expect(((await get(app, '/api/quality/interactions', teacher)).body as QualityInteractionPage).interactions).toHaveLength(2);
    expect(((await get(app, '/api/quality/interactions', admin)).body as QualityInteractionPage).interactions).toHaveLength(2);
    expect((await get(app, '/api/quality/interactions', other)).body).toEqual({ interactions: [], nextCursor: null });
    const otherSummary = (await get(app, '/api/quality/summary', other)).body as QualitySummary;
    expect(otherSummary).toMatchObject({ scope: 'own', agents: [] });
    expect(await (await fetch(`${app.url}/api/quality/export.jsonl`, { headers: other.bearer })).text()).toBe('');
    for (const path of ['/api/quality/summary', '/api/quality/interactions', '/api/quality/export.jsonl']) {
      const reply = await get(app, path);
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('UNAUTHORIZED');
    }
  });
});
