/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MS10 — Shared, without solutions. The owner shares a set with their class (`POST /api/math-sets/:id/share`,
 *   `{setId, classId, shortAnswers}`; again changes nothing) …
 * - MS11 — Graded, the first answer recorded. A student's `\frac12` for `0.5` is correct by equivalence with no judge
 *   request, with the answer and explanation …
 * - MS12 — Refusals. Another class's student lists nothing and answering is 404 `MATH_SET_NOT_FOUND`; a
 *   multiple-choice problem 404 `MATH_PROBLEM_NOT_FOUND`; a blank answer 400; anonymous 401 …
 * - MS14 — 수업에 공유. On the host page, a finished set with a short-answer problem has 수업에 공유 (≥ 44 px), which shares it
 *   with the selected class and says how many short-answer problems its students can answer …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MathProblem } from '../src/math-problems/index.js';
import { defaultInstructor, signUp, type SignedUpAccount } from './support/accounts.js';
import { createClass, postJson, type CreatedClass } from './support/classroom-client.js';
import { call } from './support/http-call.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * MS10–MS12 (test/SPEC.md, "Math problems"): a math set shared with a class (`POST /api/math-sets/:id/share`), its
 * short-answer problems listed for the class's students without solutions (`GET /api/class-math/problems`) and
 * answered by them (`POST /api/class-math/answer`), graded by equivalence first, the first answer recorded once.
 */

let fake: ScriptedProvider;
let app: TestApp;
let owner: SignedUpAccount;
let room: CreatedClass;
let setId: string;
let material: { id: string };

const SOLUTION = '앞면과 뒷면 두 경우가 같은 확률이므로 $\\frac{1}{2}$입니다.';

function problem(problemId: string, overrides: Partial<MathProblem>): MathProblem {
  return {
    problemId,
    type: 'short_answer',
    question: '동전 하나를 던져 앞면이 나올 확률을 소수로 쓰면?',
    correct_answer: '0.5',
    explanation: SOLUTION,
    final_answer: '0.5',
    difficulty: 'easy',
    sources: [],
    judgement: { judged: true, passed: true, scores: null, feedback: '좋은 문제입니다.', model: 'judge-model', attempt: 1 },
    ...overrides,
  };
}

async function join(code: string, nickname: string): Promise<Record<string, string>> {
  const joined = await postJson(`${app.url}/api/classes/${code}/join`, { nickname });
  expect(joined.status, JSON.stringify(joined.body)).toBe(201);
  return { authorization: `Bearer ${String(joined.body.token)}` };
}

/** The judge's requests (a joined student's lecture asks the fake model too). */
const gradingRequests = () => fake.requests().filter((request) => JSON.stringify(request).includes('학생_답변'));

const shareUrl = (id = setId) => `${app.url}/api/math-sets/${id}/share`;
const problemsUrl = () => `${app.url}/api/class-math/problems`;
const answerUrl = () => `${app.url}/api/class-math/answer`;

beforeAll(async () => {
  fake = await startScriptedProvider('gemini');
  app = await startTestApp({ SIGNUP: 'open', ...fake.env() });
  owner = await defaultInstructor(app);
  material = await app.materials.preloadSample();
  room = await createClass(app, { name: '수학 2반', materialId: material.id });
  const choice = problem('mc-1', { type: 'multiple_choice', choices: ['$0$', '$\\frac{1}{2}$', '$1$', '$2$'], correct_answer: 'B', explanation: '객관식 풀이' });
  const set = await app.mathSets.create({
    materialId: material.id,
    accountId: owner.accountId,
    request: { count: 2, multipleChoice: 1 },
    problems: [choice, problem('short-1', {})],
    rejected: [problem('rejected-1', { question: '버려진 문제' })],
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

describe('math sets shared with a class', () => {
  it('MS10 the owner shares a set with their class; its students see only the short-answer questions, never a solution', async () => {
    const student = await join(room.code, '민지');
    const before = await call(problemsUrl(), 'GET', { headers: student });
    expect([before.status, before.body]).toEqual([200, { sets: [] }]);

    const shared = await call(shareUrl(), 'POST', { headers: owner.bearer, body: { classId: room.classId } });
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(shared.body).toEqual({ setId, classId: room.classId, shortAnswers: 1 });
    // Sharing again changes nothing.
    expect((await call(shareUrl(), 'POST', { headers: owner.browser, body: { classId: room.classId } })).status).toBe(200);

    const listed = await call(problemsUrl(), 'GET', { headers: student });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ sets: [{ setId, problems: [{ problemId: 'short-1', question: '동전 하나를 던져 앞면이 나올 확률을 소수로 쓰면?', difficulty: 'easy' }] }] });
    const text = JSON.stringify(listed.body);
    for (const secret of ['0.5', '앞면과 뒷면', '객관식 풀이', '버려진 문제', 'correct_answer', 'explanation']) expect(text).not.toContain(secret);
  });

  it('MS11 a student’s answer is graded by equivalence without a model call; the first answer stays recorded', async () => {
    fake.clearRequests();
    const student = await join(room.code, '지호');
    const right = await call(answerUrl(), 'POST', { headers: student, body: { setId, problemId: 'short-1', answer: '\\frac12' } });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect(right.body).toEqual({
      problemId: 'short-1',
      correct: true,
      method: 'equivalence',
      verdict: 'equal',
      feedback: '정답입니다.',
      correct_answer: '0.5',
      explanation: SOLUTION,
      first_attempt: { answer: '\\frac12', correct: true, first: true },
    });
    const wrong = await call(answerUrl(), 'POST', { headers: student, body: { setId, problemId: 'short-1', answer: '0.25' } });
    expect(wrong.body).toMatchObject({ correct: false, method: 'equivalence', verdict: 'different', first_attempt: { answer: '\\frac12', correct: true, first: false } });
    // Another student's first answer is their own.
    const other = await join(room.code, '서연');
    const theirs = await call(answerUrl(), 'POST', { headers: other, body: { setId, problemId: 'short-1', answer: '1/3' } });
    expect(theirs.body).toMatchObject({ correct: false, first_attempt: { answer: '1/3', correct: false, first: true } });
    expect(gradingRequests()).toHaveLength(0);

    fake.enqueue({ malformed: true }, { malformed: true }, { malformed: true }, { malformed: true });
    const ungraded = await call(answerUrl(), 'POST', { headers: other, body: { setId, problemId: 'short-1', answer: '반반이에요' } });
    expect([ungraded.status, ungraded.body.error.code]).toEqual([502, 'GRADING_ERROR']);
    expect(JSON.stringify(ungraded.body)).not.toContain('correct_answer');
    expect(gradingRequests().length).toBeGreaterThan(0);
  });

  it('MS12 refusals: another class’s student 404, an unshared or multiple-choice problem 404, anonymous 401, an instructor token 403, another instructor sharing 404', async () => {
    fake.clearRequests();
    const elsewhere = await createClass(app, { name: '다른 반', materialId: material.id });
    const outsider = await join(elsewhere.code, '하늘');
    const listed = await call(problemsUrl(), 'GET', { headers: outsider });
    expect(listed.body).toEqual({ sets: [] });
    const refused = await call(answerUrl(), 'POST', { headers: outsider, body: { setId, problemId: 'short-1', answer: '0.5' } });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'MATH_SET_NOT_FOUND']);
    expect(refused.body.error.message).toMatch(/[가-힣]/u);

    const student = await join(room.code, '도윤');
    const choice = await call(answerUrl(), 'POST', { headers: student, body: { setId, problemId: 'mc-1', answer: 'B' } });
    expect([choice.status, choice.body.error.code]).toEqual([404, 'MATH_PROBLEM_NOT_FOUND']);
    const bad = await call(answerUrl(), 'POST', { headers: student, body: { setId, problemId: 'short-1', answer: '   ' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);

    for (const url of [problemsUrl(), answerUrl()]) {
      const method = url === problemsUrl() ? 'GET' : 'POST';
      const anonymous = await call(url, method, { body: method === 'POST' ? { setId, problemId: 'short-1', answer: '0.5' } : undefined });
      expect(anonymous.status, url).toBe(401);
      const instructor = await call(url, method, { headers: { authorization: `Bearer ${room.instructorToken}` }, body: method === 'POST' ? { setId, problemId: 'short-1', answer: '0.5' } : undefined });
      expect(instructor.status, url).toBe(403);
    }
    // Neither is the owner's own account a student.
    const asOwner = await call(problemsUrl(), 'GET', { headers: owner.bearer });
    expect([asOwner.status, asOwner.body.error.code]).toEqual([403, 'FORBIDDEN']);
    // A session outside any class: 403 like the seed API.
    const guest = await call(`${app.url}/api/sessions`, 'POST', { body: { materialId: material.id, nickname: '손님' } });
    const asGuest = { authorization: `Bearer ${String(guest.body.token)}` };
    const guestList = await call(problemsUrl(), 'GET', { headers: asGuest });
    expect([guestList.status, guestList.body.error.code]).toEqual([403, 'FORBIDDEN']);

    // Another instructor can share neither the set nor into a class that is not theirs.
    const stranger = await signUp(app);
    const theirSet = await call(shareUrl(), 'POST', { headers: stranger.bearer, body: { classId: elsewhere.classId } });
    expect([theirSet.status, theirSet.body.error.code]).toEqual([404, 'MATH_SET_NOT_FOUND']);
    const theirClass = await call(`${app.url}/api/classes`, 'POST', { headers: stranger.bearer, body: { name: '남의 반' } });
    const intoTheirs = await call(shareUrl(), 'POST', { headers: owner.bearer, body: { classId: theirClass.body.classId } });
    expect(intoTheirs.status).toBe(404);
    const viaTheirToken = await call(shareUrl(), 'POST', { headers: { authorization: `Bearer ${theirClass.body.instructorToken}` }, body: { classId: theirClass.body.classId } });
    expect(viaTheirToken.status).toBe(404);
    expect((await call(shareUrl(), 'POST', { headers: owner.bearer, body: {} })).status).toBe(400);
    expect((await call(problemsUrl(), 'GET', { headers: outsider })).body).toEqual({ sets: [] });
    expect(gradingRequests()).toHaveLength(0);
  });
});
