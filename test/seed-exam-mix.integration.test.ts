/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SD16 — The planner plans from the learner. An exam request with only `count` (`descriptive` left out) gets its
 *   short-answer/descriptive balance from the learner profile (exam-mix.ts): preferred types first (only
 *   Short_Keyword: all short-answer), else the proficiency's share (Basic 20 %, Intermediate 40 %, Advanced 60 %)
 *   moved by the target depth (±20 points), each type kept with two items or more; no profile: 40 %. A student's
 *   self-study exam is planned from their own profile, an instructor's exam for a class (`classId`) from the class's
 *   aggregated profile (mean proficiency, most common depth, types most prefer, topics most share). The 202 reply's
 *   `mix {descriptive, source, reason}` and the plan's `planning_strategy` (opening "문항 구성: ") say why; a request
 *   that names `descriptive` is planned as asked (`source: request`, the strategy as the planner wrote it). The
 *   reason is read by people: levels and depths in Korean words (숙련도 심화, 목표 깊이 깊은 이해), never enum names.
 *   `test/seed-exam-mix.integration.test.ts`
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { chooseMix, classProfile, type ExamPlan, type LearnerProfile } from '../src/exams/index.js';
import type { ExamStartReply } from '../src/protocol/exams.js';
import { ownMaterial, signUp } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { call } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { examKeys } from '../src/exams/exam-keys.js';

/**
 * SD16 (test/SPEC.md): seed 000's `Execute_Generator_PriorProfile(prev_userProfile, exam_type)` → plan, when the
 * request gives only the count: the pure rule, then through the real app (offline model, memory store) on the
 * student's self-study route and the instructor's generation route, reading the plan the job made.
 */

beforeAll(samplePdfBytes);

function profile(level: LearnerProfile['user_status']['proficiency_level'], types: LearnerProfile['preferred_question_types'], options: { depth?: LearnerProfile['learning_goal']['target_depth']; weak?: string[] } = {}): LearnerProfile {
  return {
    learning_goal: { target_depth: options.depth ?? 'Conceptual Understanding', description: '' },
    user_status: { proficiency_level: level, weak_topics: (options.weak ?? []).map((topic) => ({ topic, evidence: ['시험 1번: 오답'] })), strong_topics: [] },
    preferred_question_types: types,
    exams_taken: [],
    updated_at: 1,
  };
}

describe('SD16 the balance from the profile (exam-mix.ts)', () => {
  it('SD16 preferred types first, then the proficiency’s share moved by the depth; no profile: the default; each type kept', () => {
    const student = { kind: 'student' } as const;
    expect(chooseMix(5, null, student)).toMatchObject({ descriptive: 2, source: 'default', reason: expect.stringContaining('학습자 프로필이 없어') });
    expect(chooseMix(5, profile('Basic', ['Short_Keyword']), student)).toMatchObject({ descriptive: 0, source: 'profile', reason: expect.stringContaining('단답형뿐') });
    expect(chooseMix(4, profile('Advanced', ['Descriptive']), student).descriptive).toBe(4);
    expect(chooseMix(5, profile('Intermediate', ['Short_Keyword', 'Descriptive']), student).descriptive).toBe(2);
    expect(chooseMix(5, profile('Advanced', ['Short_Keyword', 'Descriptive']), student).descriptive).toBe(3);
    // Advanced and Deep Understanding: 80 %, but a short-answer item stays.
    const deep = chooseMix(5, profile('Advanced', ['Short_Keyword', 'Descriptive'], { depth: 'Deep Understanding', weak: ['분산'] }), student);
    expect(deep).toMatchObject({ descriptive: 4, reason: expect.stringMatching(/숙련도 심화, 목표 깊이 깊은 이해.*80%.*단답형 1문항, 서술형 4문항.*약한 주제 1개/) });
    // Basic Recall at Basic: 0 %, but with two items a descriptive one stays.
    expect(chooseMix(2, profile('Basic', ['Short_Keyword', 'Descriptive'], { depth: 'Basic Recall' }), student).descriptive).toBe(1);
    expect(chooseMix(1, profile('Basic', ['Short_Keyword', 'Descriptive'], { depth: 'Basic Recall' }), student).descriptive).toBe(0);
    expect(chooseMix(5, profile('Intermediate', []), { kind: 'class', students: 3 })).toMatchObject({ source: 'class-profile', reason: expect.stringContaining('수업 학생 3명의 종합 프로필') });
  });

  it('SD16 a class’s aggregate: mean proficiency, most common depth, types most prefer, topics most share', () => {
    expect(classProfile([], 1)).toBeNull();
    const aggregate = classProfile(
      [
        profile('Basic', ['Short_Keyword'], { weak: ['분산', '표본'] }),
        profile('Advanced', ['Short_Keyword', 'Descriptive'], { depth: 'Deep Understanding', weak: ['분산'] }),
        profile('Advanced', ['Short_Keyword', 'Descriptive'], { depth: 'Deep Understanding', weak: ['확률'] }),
      ],
      7,
    );
    expect(aggregate).toMatchObject({
      learning_goal: { target_depth: 'Deep Understanding' },
      user_status: { proficiency_level: 'Intermediate', weak_topics: [{ topic: '분산', evidence: ['수업 학생 3명 중 2명'] }], strong_topics: [] },
      preferred_question_types: ['Short_Keyword', 'Descriptive'],
      updated_at: 7,
    });
  });
});

interface World {
  app: TestApp;
  materialId: string;
  teacher: Awaited<ReturnType<typeof signUp>>;
  classId: string;
  code: string;
}

async function boot(context: TestContext): Promise<World> {
  const app = await startTestApp({ SIGNUP: 'open' });
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  const material = await loadSample(app);
  const teacher = await signUp(app);
  await ownMaterial(app, material.id, teacher);
  const created = await call(`${app.url}/api/classes`, 'POST', { headers: teacher.bearer, body: { name: '계획 반', materialId: material.id } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { app, materialId: material.id, teacher, classId: String(created.body.classId), code: String(created.body.code) };
}

async function join(world: World, nickname: string): Promise<{ sessionId: string; headers: Record<string, string> }> {
  const joined = await call(`${world.app.url}/api/classes/${world.code}/join`, 'POST', { body: { nickname } });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  return { sessionId: String(joined.body.sessionId), headers: { authorization: `Bearer ${String(joined.body.token)}` } };
}

/** A stored learner profile (as an exam's feedback leaves one). */
async function storeProfile(world: World, sessionId: string, stored: LearnerProfile): Promise<void> {
  await world.app.store.zadd(examKeys.classProfiles(world.classId), stored.updated_at, sessionId);
  await world.app.store.set(examKeys.classProfile(world.classId, sessionId), JSON.stringify(stored));
}

/** The plan the job made (its checkpoint), once it has one. */
async function planOf(world: World, jobId: string): Promise<ExamPlan> {
  let plan: ExamPlan | undefined;
  await expect
    .poll(async () => {
      const job = await world.app.jobs.repository.get(jobId);
      plan = (job?.checkpoint as { state?: { plan?: ExamPlan } | null } | null)?.state?.plan;
      return plan !== undefined || job?.status === 'failed';
    }, { interval: 100 })
    .toBe(true);
  expect(plan).toBeDefined();
  return plan!;
}

const descriptiveItems = (plan: ExamPlan) => plan.planned_items.filter((item) => item.question_type === 'Descriptive').length;

describe('SD16 through the app: the student’s own profile, the class’s aggregate', () => {
  it('SD16 a self-study exam with only the count is balanced from the student’s profile, and the plan says why', async (context) => {
    const world = await boot(context);
    const advanced = await join(world, '민지');
    await storeProfile(world, advanced.sessionId, profile('Advanced', ['Short_Keyword', 'Descriptive']));
    const started = await call(`${world.app.url}/api/class-exams/self-study`, 'POST', { headers: advanced.headers, body: { count: 5 } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const { mix, jobId } = started.body as ExamStartReply;
    expect(mix).toEqual({ descriptive: 3, source: 'profile', reason: expect.stringContaining('학습자 프로필의 숙련도 심화') });
    const plan = await planOf(world, jobId);
    expect(plan.planning_strategy.startsWith(`문항 구성: ${mix.reason}`)).toBe(true);
    expect(descriptiveItems(plan)).toBe(3);

    // A new classmate: too little evidence, a Basic learner, short-answer only.
    const fresh = await join(world, '지호');
    const second = await call(`${world.app.url}/api/class-exams/self-study`, 'POST', { headers: fresh.headers, body: { count: 4 } });
    expect(second.status, JSON.stringify(second.body)).toBe(202);
    expect((second.body as ExamStartReply).mix).toMatchObject({ descriptive: 0, source: 'profile' });
    expect(descriptiveItems(await planOf(world, String(second.body.jobId)))).toBe(0);
  });

  it('SD16 an instructor’s exam for a class is balanced from the class’s aggregate; a named balance is planned as asked', async (context) => {
    const world = await boot(context);
    for (const [nickname, level] of [['가', 'Advanced'], ['나', 'Advanced'], ['다', 'Intermediate']] as const) {
      const student = await join(world, nickname);
      await storeProfile(world, student.sessionId, profile(level, ['Short_Keyword', 'Descriptive'], { depth: 'Deep Understanding' }));
    }
    const exams = `${world.app.url}/api/materials/${world.materialId}/exams`;
    const forClass = await call(exams, 'POST', { headers: world.teacher.bearer, body: { count: 5, classId: world.classId } });
    expect(forClass.status, JSON.stringify(forClass.body)).toBe(202);
    const { mix, jobId } = forClass.body as ExamStartReply;
    // Mean of Advanced, Advanced, Intermediate is Advanced; Deep Understanding: 80 %, one short-answer item kept.
    expect(mix).toEqual({ descriptive: 4, source: 'class-profile', reason: expect.stringContaining('수업 학생 3명의 종합 프로필의 숙련도 심화') });
    const plan = await planOf(world, jobId);
    expect(plan.planning_strategy.startsWith('문항 구성: ')).toBe(true);
    expect(descriptiveItems(plan)).toBe(4);

    // No class: no profile, the default balance, said so.
    const noClass = await call(exams, 'POST', { headers: world.teacher.bearer, body: { count: 5 } });
    expect((noClass.body as ExamStartReply).mix).toMatchObject({ descriptive: 2, source: 'default' });
    // A named balance: as asked, and the plan is the planner's own.
    const asked = await call(exams, 'POST', { headers: world.teacher.bearer, body: { count: 3, descriptive: 1, classId: world.classId } });
    expect((asked.body as ExamStartReply).mix).toMatchObject({ descriptive: 1, source: 'request' });
    const askedPlan = await planOf(world, String(asked.body.jobId));
    expect([askedPlan.planning_strategy.startsWith('문항 구성: '), descriptiveItems(askedPlan)]).toEqual([false, 1]);
    // Another account's class is not this instructor's to plan from.
    const stranger = await signUp(world.app);
    await ownMaterial(world.app, world.materialId, stranger);
    const refused = await call(exams, 'POST', { headers: stranger.bearer, body: { count: 3, classId: world.classId } });
    expect([refused.status, refused.body.error?.code]).toEqual([404, 'CLASS_NOT_FOUND']);
  });
});
