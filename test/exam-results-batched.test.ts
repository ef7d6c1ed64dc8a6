/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EL21 — The results listing reads every student's records in a fixed number of batched reads. What
 *   ExamRepository.studentRecords returns for every student (submission, grades, overrides, regrade requests, report,
 *   grading state) equals the one-student reads of each record, for students in every state (nothing submitted, part
 *   submitted, submitted and graded, overridden, with a regrade request and a report) and for an unknown student; the
 *   store is asked the same number of times for 3 students as for 30. On the memory store and on Redis.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ExamRepository } from '../src/exams/exam-repository.js';
import type { EvaluationItem } from '../src/exams/exam-types.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/index.js';
import { suiteRedis, testRedisStore } from './support/redis-server.js';

const redis = suiteRedis();
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
});

/** The store, counting every call made through it. */
function counted(real: Store): { store: Store; calls: () => number } {
  let calls = 0;
  const store = new Proxy(real, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, calls: () => calls };
}

const grade = (questionId: number, status: EvaluationItem['result_status']): EvaluationItem => ({
  question_id: questionId,
  result_status: status,
  question_content: `문항 ${questionId}`,
  user_response: `답 ${questionId}`,
  related_topic: '분산',
  feedback_message: status === 'Correct' ? '' : '평균과 헷갈렸습니다.',
  evidence: null,
});

/** Student `index` of the exam in one of five states. */
async function seedStudent(repository: ExamRepository, examId: string, sessionId: string, index: number): Promise<void> {
  const at = 1_000 + index;
  await repository.touchStudent(examId, sessionId, at);
  const state = index % 5;
  if (state === 0) return;
  await repository.submitItems(examId, sessionId, new Map([[1, `답 1-${index}`]]), at);
  if (state === 1) return;
  await repository.submitItems(examId, sessionId, new Map([[2, `답 2-${index}`]]), at + 1);
  await repository.submitAll(examId, sessionId, at + 2);
  await repository.setGradingState(examId, sessionId, state === 2 ? 'pending' : 'graded');
  if (state === 2) return;
  await repository.saveGrade(examId, sessionId, grade(1, 'Correct'));
  await repository.saveGrade(examId, sessionId, grade(2, state === 3 ? 'Incorrect' : 'Partial_Correct'));
  if (state === 3) return;
  await repository.override(examId, sessionId, 2, { status: 'Correct', reason: '같은 뜻입니다.', by: 'teacher', at: at + 3, from: 'Partial_Correct' });
  await repository.requestRegrade(examId, sessionId, { questionId: 1, comment: '다시 봐 주세요', at: at + 4, status: 'pending' });
  await repository.bumpRevision(examId, sessionId);
  await repository.saveReport(examId, sessionId, { summary: `요약 ${index}`, strengths: ['평균'], weak_topics: [], next_steps: ['복습'] });
}

async function oneByOne(repository: ExamRepository, examId: string, sessionId: string) {
  const [submission, grades, overrides, regrades, report, grading] = await Promise.all([
    repository.submissions(examId, sessionId),
    repository.grades(examId, sessionId),
    repository.overrides(examId, sessionId),
    repository.regrades(examId, sessionId),
    repository.report(examId, sessionId),
    repository.gradingState(examId, sessionId),
  ]);
  return { submission, grades, overrides, regrades, report, grading };
}

async function check(real: Store, examId: string): Promise<void> {
  const { store, calls } = counted(real);
  const repository = new ExamRepository(store);
  const sessionIds = Array.from({ length: 30 }, (_, index) => `s${index}`);
  for (const [index, sessionId] of sessionIds.entries()) await seedStudent(repository, examId, sessionId, index);
  const asked = [...sessionIds, 'nobody'];
  const batched = await repository.studentRecords(examId, asked);
  expect(batched).toHaveLength(asked.length);
  for (const [index, sessionId] of asked.entries()) expect(batched[index], sessionId).toEqual(await oneByOne(repository, examId, sessionId));
  // Every state is there: the comparison is not between empty records only.
  expect(batched.filter((record) => record.report !== null)).toHaveLength(6);
  expect(batched.filter((record) => record.overrides.size > 0 && record.regrades.length > 0)).toHaveLength(6);

  const before = calls();
  await repository.studentRecords(examId, sessionIds.slice(0, 3));
  const forThree = calls() - before;
  await repository.studentRecords(examId, sessionIds);
  expect(calls() - before - forThree).toBe(forThree);
}

describe('EL21 the results listing reads in batches', () => {
  it('EL21 on the memory store: batched records equal the one-student reads; the calls do not grow with the students', async () => {
    const store = new MemoryStore();
    closers.push(() => store.close());
    await check(store, 'exam-el21-memory');
  });

  it('EL21 on Redis: batched records equal the one-student reads; the calls do not grow with the students', async () => {
    const store = testRedisStore(redis.url);
    closers.push(() => store.close());
    await check(store, 'exam-el21-redis');
  });
});
