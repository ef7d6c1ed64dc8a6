import { expect, type TestContext } from 'vitest';
import type { AppOverrides, ExamAgents } from '../../src/app.js';
import type { ExamProblem, ExamRecord } from '../../src/exams/index.js';
import type { Material } from '../../src/materials/index.js';
import { ownMaterial, signUp, type SignedUpAccount } from './accounts.js';
import { storeReady } from './classroom-client.js';
import { call } from './http-call.js';
import { loadSample } from './lecture-client.js';
import { startTestApp, type TestApp } from './test-app.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * A class with a live exam on the real server (test/exams-live.integration.test.ts and the tests after it): the
 * app with an injected exam clock and its own exam agents watched by a spy, an instructor, their class on the sample
 * material, three stored problems, and the HTTP calls of students and instructor.
 */

/** The TOKEN_SECRET every node of one test shares on Redis. */
export const EXAM_CLASS_SECRET = 'exams-live-secret';

/** The exam clock: real time plus what a test moved it by. */
export class TestClock {
  offset = 0;
  now = () => Date.now() + this.offset;
  advanceMinutes(minutes: number) {
    this.offset += minutes * 60_000;
  }
}

/**
 * The app's own exam agents (the offline ones on the offline model, the model's through the fake Gemini), watched:
 * every grading and feedback call is recorded on its way through, nothing is changed.
 */
export class AgentSpy {
  readonly gradings: { questionId: number; answer: string; status: string }[] = [];
  readonly feedbacks: string[] = [];

  wrap = (real: ExamAgents): ExamAgents => ({
    grader: {
      grade: async (problem, answer, context) => {
        const item = await real.grader.grade(problem, answer, context);
        this.gradings.push({ questionId: problem.id, answer, status: item.result_status });
        return item;
      },
    },
    feedback: {
      feedback: async (input) => {
        const result = await real.feedback.feedback(input);
        this.feedbacks.push(input.examId);
        return result;
      },
    },
  });
}

export interface Booted {
  app: TestApp;
  clock: TestClock;
  agents: AgentSpy;
  material: Material;
  teacher: SignedUpAccount;
  classId: string;
  classCode: string;
  classToken: string;
}

export async function bootExamClass(
  context: TestContext,
  store: 'memory' | 'redis',
  redisUrl: () => string,
  env: Record<string, string> = {},
  overrides: AppOverrides = {},
): Promise<Booted> {
  const clock = new TestClock();
  const agents = new AgentSpy();
  const app = await startTestApp(
    { SIGNUP: 'open', EXAM_SWEEP_MS: '100', EXAM_GRADE_RETRY_MS: '20', ...(store === 'redis' ? { REDIS_URL: redisUrl(), TOKEN_SECRET: EXAM_CLASS_SECRET } : {}), ...env },
    { examClock: clock.now, examAgents: agents.wrap, ...overrides },
  );
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  const material = await loadSample(app);
  const teacher = await signUp(app);
  await ownMaterial(app, material.id, teacher);
  const created = await call(`${app.url}/api/classes`, 'POST', { headers: teacher.bearer, body: { name: '시험 반', materialId: material.id } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { app, clock, agents, material, teacher, classId: created.body.classId, classCode: created.body.code, classToken: created.body.instructorToken };
}

export const PROBLEMS: ExamProblem[] = [
  { id: 1, type: 'Short_Keyword', question_content: '데이터의 흩어진 정도를 나타내는 값은?', model_answer: '분산', key_keywords: ['분산'], intent_diagnosis: '진단: 흩어짐의 척도' },
  { id: 2, type: 'Descriptive', question_content: '표본 평균이 모평균의 불편추정량인 이유를 설명하시오.', model_answer: '기댓값이 모평균과 같다.', key_keywords: ['기댓값'], intent_diagnosis: '진단: 불편성 이해' },
  { id: 3, type: 'Short_Keyword', question_content: '정규분포의 모양을 결정하는 두 모수는?', model_answer: '평균과 표준편차', key_keywords: ['표준편차'], intent_diagnosis: '진단: 정규분포 결정 요인' },
];

export async function makeExam(booted: Booted, materialId = booted.material.id): Promise<ExamRecord> {
  return booted.app.exams.create({
    accountId: booted.teacher.accountId,
    materialId,
    title: '통계 단원 평가',
    request: { count: 3, descriptive: 1 },
    plan: {
      planning_strategy: '분산과 추정을 묻는다.',
      planned_items: PROBLEMS.map((problem) => ({
        id: problem.id,
        target_topic: problem.key_keywords[0] ?? '',
        question_type: problem.type,
        intent_type: 'Definition',
        complexity_level: 'Basic',
        source_reference_hint: '1장',
      })),
    },
    problems: PROBLEMS,
    complaints: [],
    valid: true,
    rounds: 1,
  });
}

export async function join(booted: Booted, nickname: string, code = booted.classCode): Promise<{ sessionId: string; headers: Record<string, string> }> {
  const joined = await call(`${booted.app.url}/api/classes/${code}/join`, 'POST', { body: { nickname } });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  return { sessionId: String(joined.body.sessionId), headers: { authorization: `Bearer ${String(joined.body.token)}` } };
}

export async function publish(booted: Booted, examId: string, timeLimitMinutes = 30) {
  const reply = await call(`${booted.app.url}/api/exams/${examId}/publish`, 'POST', { headers: booted.teacher.bearer, body: { classId: booted.classId, timeLimitMinutes } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.publication as { classId: string; timeLimitMinutes: number; publishedAt: number; deadline: number };
}

export const draft = (booted: Booted, examId: string, headers: Record<string, string>, answers: Record<string, string>) =>
  call(`${booted.app.url}/api/class-exams/${examId}/draft`, 'PUT', { headers, body: { answers } });
export const submit = (booted: Booted, examId: string, headers: Record<string, string>, questionIds?: number[]) =>
  call(`${booted.app.url}/api/class-exams/${examId}/submit`, 'POST', { headers, body: questionIds === undefined ? {} : { questionIds } });
/** The instructor's 시험 종료: the deadline becomes now, and the students' results are revealed. */
export async function end(booted: Booted, examId: string) {
  const reply = await call(`${booted.app.url}/api/exams/${examId}/end`, 'POST', { headers: booted.teacher.bearer });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.publication as { deadline: number };
}
export const results = (booted: Booted, examId: string) => call(`${booted.app.url}/api/exams/${examId}/results`, 'GET', { headers: booted.teacher.bearer });

/** Waits until every student's result is graded (none pending), reading the results route. */
export async function gradedResults(booted: Booted, examId: string, students: number) {
  let last: unknown;
  await expect
    .poll(async () => {
      const reply = await results(booted, examId);
      last = reply.body;
      const list = (reply.body?.students ?? []) as { pending: boolean; report: unknown }[];
      return list.length === students && list.every((student) => !student.pending && student.report !== null);
    }, { timeout: WAIT_TIMEOUT_MS, interval: 50 })
    .toBe(true);
  return last as { students: { sessionId: string; nickname: string; score: number; maxScore: number; pending: boolean; submittedAt: number | null; items: { question_id: number; result_status: string; user_response: string; overridden?: { reason: string } }[]; regrades: { questionId: number; status: string }[]; report: unknown }[]; items: { question_id: number; counts: Record<string, number>; misconceptions: string[] }[]; closed: boolean; deadline: number };
}

