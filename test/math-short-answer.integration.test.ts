/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MS7 — The route. `POST /api/math-sets/:id/problems/:problemId/answer` answers the owner (account or its class's
 *   instructor token) …
 * - MS8 — 502 ungraded. A judge without a usable verdict answers `502 GRADING_ERROR` without the solution.
 * - MS9 — Refusals. Another account or its class token 404 `MATH_SET_NOT_FOUND`; an unknown or rejected problem 404
 *   `MATH_PROBLEM_NOT_FOUND`; multiple choice 400 `MATH_PROBLEM_NOT_SHORT` …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MathProblem } from '../src/math-problems/index.js';
import { signUp, type SignedUpAccount } from './support/accounts.js';
import { call } from './support/http-call.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * MS7–MS9 (test/SPEC.md, "Math problems"): `POST /api/math-sets/:id/problems/:problemId/answer` on the real server
 * with the Gemini fake: the owner's short answers graded (by equivalence without a model request, by the judge
 * otherwise), the solution only in the answer to an answer, and the refusals.
 */

let fake: ScriptedProvider;
let app: TestApp;
let owner: SignedUpAccount;
let setId: string;

function problem(problemId: string, overrides: Partial<MathProblem>): MathProblem {
  return {
    problemId,
    type: 'short_answer',
    question: '동전 하나를 던져 앞면이 나올 확률은?',
    correct_answer: '\\frac{1}{2}',
    explanation: '앞면과 뒷면 두 경우가 같은 확률이므로 $\\frac{1}{2}$입니다.',
    final_answer: '\\frac{1}{2}',
    difficulty: 'easy',
    sources: [],
    judgement: { judged: true, passed: true, scores: null, feedback: '좋은 문제입니다.', model: 'judge-model', attempt: 1 },
    ...overrides,
  };
}

const answerUrl = (problemId: string, set = setId) => `${app.url}/api/math-sets/${set}/problems/${problemId}/answer`;

beforeAll(async () => {
  fake = await startScriptedProvider('gemini');
  app = await startTestApp({ SIGNUP: 'open', ...fake.env() });
  owner = await signUp(app);
  const choice = problem('mc-1', { type: 'multiple_choice', choices: ['$0$', '$\\frac{1}{2}$', '$1$', '$2$'], correct_answer: 'B' });
  const set = await app.mathSets.create({
    materialId: 'sample-material',
    accountId: owner.accountId,
    request: { count: 2, multipleChoice: 1 },
    problems: [choice, problem('short-1', {})],
    rejected: [problem('rejected-1', {})],
    attempts: 1,
    jobId: 'job',
    judgeModel: 'judge-model',
    complete: true,
  });
  setId = set.setId;
});

afterAll(async () => {
  await app?.stop();
  await fake?.close();
});

describe('short answers over HTTP', () => {
  it('MS7 the owner gets a grade with the solution: by equivalence without a model request, by the judge when it cannot compare', async () => {
    const equal = await call(answerUrl('short-1'), 'POST', { headers: owner.bearer, body: { answer: '0.5' } });
    expect(equal.status, JSON.stringify(equal.body)).toBe(200);
    expect(equal.body).toEqual({
      problemId: 'short-1',
      correct: true,
      method: 'equivalence',
      verdict: 'equal',
      feedback: '정답입니다.',
      correct_answer: '\\frac{1}{2}',
      explanation: '앞면과 뒷면 두 경우가 같은 확률이므로 $\\frac{1}{2}$입니다.',
    });
    const different = await call(answerUrl('short-1'), 'POST', { headers: owner.browser, body: { answer: '\\frac{1}{3}' } });
    expect(different.body).toMatchObject({ correct: false, method: 'equivalence', verdict: 'different' });
    // A class instructor token of the owner's class stands for the owner.
    const made = await call(`${app.url}/api/classes`, 'POST', { headers: owner.bearer, body: { name: '수학 1반' } });
    const viaClass = await call(answerUrl('short-1'), 'POST', { headers: { authorization: `Bearer ${made.body.instructorToken}` }, body: { answer: '\\frac{2}{4}' } });
    expect(viaClass.body).toMatchObject({ correct: true, method: 'equivalence' });
    expect(fake.requests()).toHaveLength(0);

    fake.enqueue({ json: { correct: true, feedback: '두 경우 중 하나라는 설명이 맞습니다.' } });
    const prose = await call(answerUrl('short-1'), 'POST', { headers: owner.bearer, body: { answer: '두 번 중 한 번 꼴이에요' } });
    expect(prose.status, JSON.stringify(prose.body)).toBe(200);
    expect(prose.body).toMatchObject({ correct: true, method: 'model', verdict: 'unknown', feedback: '두 경우 중 하나라는 설명이 맞습니다.', correct_answer: '\\frac{1}{2}' });
    expect(fake.requests()).toHaveLength(1);
  });

  it('MS8 a judge without a usable verdict answers 502 GRADING_ERROR: the answer is not graded', async () => {
    fake.clearRequests();
    fake.enqueue({ malformed: true }, { malformed: true }, { malformed: true }, { malformed: true });
    const reply = await call(answerUrl('short-1'), 'POST', { headers: owner.bearer, body: { answer: '잘 모르겠지만 반쯤' } });
    expect(reply.status).toBe(502);
    expect(reply.body.error.code).toBe('GRADING_ERROR');
    expect(reply.body.error.message).toContain('채점하지 않았습니다');
    expect(JSON.stringify(reply.body)).not.toContain('correct_answer');
    expect(fake.requests().length).toBeGreaterThan(0);
  });

  it('MS9 refusals: another account (or its class token) 404, an unknown or rejected problem 404, multiple choice 400, a bad body 400, anonymous 401', async () => {
    fake.clearRequests();
    const stranger = await signUp(app);
    const theirs = await call(answerUrl('short-1'), 'POST', { headers: stranger.bearer, body: { answer: '0.5' } });
    expect([theirs.status, theirs.body.error.code]).toEqual([404, 'MATH_SET_NOT_FOUND']);
    const theirClass = await call(`${app.url}/api/classes`, 'POST', { headers: stranger.bearer, body: { name: '남의 반' } });
    const viaTheirClass = await call(answerUrl('short-1'), 'POST', { headers: { authorization: `Bearer ${theirClass.body.instructorToken}` }, body: { answer: '0.5' } });
    expect([viaTheirClass.status, viaTheirClass.body.error.code]).toEqual([404, 'MATH_SET_NOT_FOUND']);
    for (const id of ['nope', 'rejected-1']) {
      const missing = await call(answerUrl(id), 'POST', { headers: owner.bearer, body: { answer: '0.5' } });
      expect([missing.status, missing.body.error.code], id).toEqual([404, 'MATH_PROBLEM_NOT_FOUND']);
    }
    const choice = await call(answerUrl('mc-1'), 'POST', { headers: owner.bearer, body: { answer: 'B' } });
    expect([choice.status, choice.body.error.code]).toEqual([400, 'MATH_PROBLEM_NOT_SHORT']);
    expect(choice.body.error.message).toMatch(/[가-힣]/u);
    for (const body of [{}, { answer: '   ' }, { answer: '1'.repeat(501) }, { answer: '0.5', extra: true }, { answer: 5 }]) {
      const bad = await call(answerUrl('short-1'), 'POST', { headers: owner.bearer, body });
      expect([bad.status, bad.body.error.code], JSON.stringify(body)).toEqual([400, 'INVALID_PAYLOAD']);
      expect(bad.body.error.message).toMatch(/[가-힣]/u);
    }
    const anonymous = await call(answerUrl('short-1'), 'POST', { body: { answer: '0.5' } });
    expect(anonymous.status).toBe(401);
    // Nothing refused reached the model.
    expect(fake.requests()).toHaveLength(0);
  });
});
