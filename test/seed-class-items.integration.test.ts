/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SD15 — Class quiz items over seed 001's API. `POST /api/quiz/answer` and `/evaluate` take a class quiz's item as
 *   `quiz_id` `<quiz id>:<0-based index>`: the quiz's instructor (account) and the students of its class (session
 *   token) answer it, graded on the server, each caller's first answer recorded once; a student evaluates only an
 *   item they answered (403 before, and nothing of the solution in that reply), nobody while a room of the quiz is
 *   played (409 ROOM_LIVE for a student until the room ends); another class's student, another account and an index
 *   past the quiz are 404 QUIZ_NOT_FOUND; an item that is not 4-choice is 400; the answers go with the quiz.
 *   `test/seed-class-items.integration.test.ts`
 * - SD18 — Class quiz answers feed the learner profile, like self-study quiz answers (QP1). A class student's first
 *   answer to a class quiz item counts once toward their proficiency, and makes the chapter the item was drawn from
 *   (its first source) a weak topic when wrong, a strong one when right, with the answer as evidence (`수업 퀴즈
 *   오답: …`); answering again changes nothing, and another student of the class has none of it.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { SelfQuizAnswerReply, SelfQuizEvaluateReply } from '../src/protocol/wire/index.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { defaultInstructor, signUp } from './support/accounts.js';
import { createClass, joinClass, storeReady } from './support/classroom-client.js';
import { call, type CallReply } from './support/http-call.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { openHost, sampleItems } from './support/quiz-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * SD15 (test/SPEC.md): a client written to seed 001 answers and evaluates the items of a class quiz an instructor
 * wrote, with the student's session token or the instructor's account, through the real app (offline model, memory
 * store) and real HTTP.
 */

beforeAll(samplePdfBytes);

async function boot(context: TestContext) {
  const app = await startTestApp({ SIGNUP: 'open' });
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  const sample = await loadSample(app);
  const created = await createClass(app, { name: '통계 반', materialId: sample.id });
  const instructor = await defaultInstructor(app);
  const choices = sampleItems(2);
  const items = [...choices, { type: 'truefalse' as const, question: '3. 평균은 항상 중앙값과 같다.', answer: false, explanation: '치우친 자료에서는 다릅니다.', difficulty: 'easy' as const }];
  const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: instructor.bearer, body: { title: '통계 퀴즈', items, classId: created.classId, materialId: sample.id } });
  expect(quiz.status, JSON.stringify(quiz.body)).toBe(201);
  const student = await joinClass(app, created.code, '민지');
  context.onTestFinished(() => {
    student.client.socket.disconnect();
  });
  return { app, sampleId: sample.id, created, instructor, quizId: String(quiz.body.quizId), items: choices, student, asStudent: { authorization: `Bearer ${student.token}` } };
}

const answer = (app: TestApp, quizId: string, choice: number, headers: Record<string, string>): Promise<CallReply> =>
  call(`${app.url}/api/quiz/answer`, 'POST', { headers, body: { quiz_id: quizId, answer: choice } });
const evaluate = (app: TestApp, quizId: string, headers: Record<string, string>): Promise<CallReply> =>
  call(`${app.url}/api/quiz/evaluate`, 'POST', { headers, body: { quiz_id: quizId, topic: 'general' } });

describe('SD15 class quiz items over seed 001’s /answer and /evaluate', () => {
  it('SD15 a student of the class answers an item (first answer recorded), evaluates it only after answering; the instructor does both', async (context) => {
    const { app, instructor, quizId, items, asStudent } = await boot(context);
    const first = items[0]!;
    const wrong = (first.answer + 1) % 4;

    // Evaluating before answering: refused, and the refusal carries nothing of the solution.
    const early = await evaluate(app, `${quizId}:0`, asStudent);
    expect([early.status, early.body.error?.code]).toEqual([403, 'FORBIDDEN']);
    expect(JSON.stringify(early.body)).not.toContain(first.explanation);
    expect(JSON.stringify(early.body)).not.toContain(first.choices[first.answer]);

    const answered = await answer(app, `${quizId}:0`, wrong, asStudent);
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    const reply = answered.body as SelfQuizAnswerReply;
    expect(reply).toEqual({
      response: { quiz_id: `${quizId}:0`, is_correct: false, user_answer: wrong, correct_answer: first.answer, correct_choice: first.choices[first.answer], explanation: first.explanation },
      agent_type: 'quiz',
      metadata: { quiz_id: `${quizId}:0`, recorded_answer: wrong, recorded_correct: false, first_attempt: true },
    });
    // Again, right this time: graded, but the first answer stays the recorded one.
    const again = (await answer(app, `${quizId}:0`, first.answer, asStudent)).body as SelfQuizAnswerReply;
    expect([again.response.is_correct, again.metadata]).toEqual([true, { quiz_id: `${quizId}:0`, recorded_answer: wrong, recorded_correct: false, first_attempt: false }]);

    const verdict = await evaluate(app, `${quizId}:0`, asStudent);
    expect(verdict.status, JSON.stringify(verdict.body)).toBe(200);
    const scores = (verdict.body as SelfQuizEvaluateReply).response;
    expect(scores.grounding_score).toBeGreaterThanOrEqual(0);
    expect(typeof scores.is_passed).toBe('boolean');
    // Kept: asked again, the same verdict.
    expect((await evaluate(app, `${quizId}:0`, asStudent)).body).toEqual(verdict.body);

    // The instructor's account: its own first answer (not the student's), and an evaluation without answering.
    const mine = (await answer(app, `${quizId}:1`, items[1]!.answer, instructor.bearer)).body as SelfQuizAnswerReply;
    expect([mine.response.is_correct, mine.metadata.first_attempt]).toEqual([true, true]);
    expect((await evaluate(app, `${quizId}:1`, instructor.bearer)).status).toBe(200);
    const studentsOwn = (await answer(app, `${quizId}:1`, items[1]!.answer, asStudent)).body as SelfQuizAnswerReply;
    expect(studentsOwn.metadata.first_attempt).toBe(true);

    // The answers and verdicts go with the quiz.
    expect(Object.keys(await app.store.hgetall(quizKeys.classQuizItems(quizId))).length).toBeGreaterThan(0);
    const deleted = await call(`${app.url}/api/quizzes/${quizId}`, 'DELETE', { headers: instructor.bearer });
    expect(deleted.status, JSON.stringify(deleted.body)).toBeLessThan(300);
    expect(await app.store.hgetall(quizKeys.classQuizItems(quizId))).toEqual({});
  });

  it('SD15 strangers, indexes past the quiz and items that are not 4-choice are refused; a room being played keeps students out until it ends', async (context) => {
    const { app, created, quizId, instructor, asStudent, sampleId } = await boot(context);
    const stranger = await signUp(app);
    const other = await createClass(app, { name: '다른 반', materialId: sampleId });
    const otherStudent = await joinClass(app, other.code, '지호');
    context.onTestFinished(() => {
      otherStudent.client.socket.disconnect();
    });
    for (const headers of [stranger.bearer, { authorization: `Bearer ${otherStudent.token}` }]) {
      for (const reply of [await answer(app, `${quizId}:0`, 0, headers), await evaluate(app, `${quizId}:0`, headers)]) {
        expect([reply.status, reply.body.error?.code]).toEqual([404, 'QUIZ_NOT_FOUND']);
      }
    }
    const past = await answer(app, `${quizId}:3`, 0, asStudent);
    expect([past.status, past.body.error?.code]).toEqual([404, 'QUIZ_NOT_FOUND']);
    const notChoice = await answer(app, `${quizId}:2`, 0, asStudent);
    expect([notChoice.status, notChoice.body.error?.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const malformed = await answer(app, `${quizId}-0`, 0, asStudent);
    expect([malformed.status, malformed.body.error?.code]).toEqual([400, 'INVALID_PAYLOAD']);

    // A room of the quiz, in its lobby: students wait for it (the room reveals first); the instructor does not.
    const room = await call(`${app.url}/api/rooms`, 'POST', { headers: { authorization: `Bearer ${created.instructorToken}` }, body: { quizId } });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const live = await answer(app, `${quizId}:0`, 0, asStudent);
    expect([live.status, live.body.error?.code]).toEqual([409, 'ROOM_LIVE']);
    expect(JSON.stringify(live.body)).not.toContain('correct');
    expect((await answer(app, `${quizId}:0`, 0, instructor.bearer)).status).toBe(200);
    const host = await openHost(app.url, String(room.body.hostToken));
    context.onTestFinished(() => host.close());
    const ended = await host.emit('room:end');
    expect(ended.ok, JSON.stringify(ended)).toBe(true);
    expect((await answer(app, `${quizId}:0`, 0, asStudent)).status).toBe(200);
  });
});

describe('SD18 class quiz answers in the learner profile', () => {
  it('SD18 a wrong first answer makes the item\'s chapter weak, a right one another chapter strong, with the answers as evidence; again changes nothing; a classmate has none of it', async (context) => {
    const app = await startTestApp({ SIGNUP: 'open' });
    context.onTestFinished(() => app.stop());
    await storeReady(app);
    const sample = await loadSample(app);
    const created = await createClass(app, { name: '통계 반', materialId: sample.id });
    const instructor = await defaultInstructor(app);
    const source = (chapter: number, chapterTitle: string) => ({ chunkId: `${chapter}.0`, chapter, chapterTitle, startPage: 1, endPage: 1 });
    const [first, second] = sampleItems(2) as [ReturnType<typeof sampleItems>[number], ReturnType<typeof sampleItems>[number]];
    const items = [{ ...first, sources: [source(1, '평균과 분산')] }, { ...second, sources: [source(2, '중앙값')] }];
    const quiz = await call(`${app.url}/api/quizzes`, 'POST', { headers: instructor.bearer, body: { title: '통계 퀴즈', items, classId: created.classId, materialId: sample.id } });
    expect(quiz.status, JSON.stringify(quiz.body)).toBe(201);
    const quizId = String(quiz.body.quizId);
    const joinAs = async (nickname: string) => {
      const joined = await call(`${app.url}/api/classes/${created.code}/join`, 'POST', { body: { nickname } });
      expect(joined.status, JSON.stringify(joined.body)).toBe(201);
      return { authorization: `Bearer ${String(joined.body.token)}` };
    };
    const profileOf = async (headers: Record<string, string>) => {
      const reply = await call(`${app.url}/api/class-exams/profile`, 'GET', { headers });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.profile.user_status as { weak_topics: { topic: string; evidence: string[] }[]; strong_topics: { topic: string; evidence: string[] }[] };
    };
    const minji = await joinAs('민지');
    expect((await profileOf(minji)).weak_topics).toEqual([]);

    expect((await answer(app, `${quizId}:0`, (first.answer + 1) % 4, minji)).body.response.is_correct).toBe(false);
    expect((await answer(app, `${quizId}:1`, second.answer, minji)).body.response.is_correct).toBe(true);
    // Right the second time: the first answer is the one that counts.
    expect((await answer(app, `${quizId}:0`, first.answer, minji)).body.response.is_correct).toBe(true);

    const status = await profileOf(minji);
    expect(status.weak_topics.map((topic) => topic.topic)).toEqual(['평균과 분산']);
    expect(status.weak_topics[0]?.evidence.some((evidence) => evidence.startsWith('수업 퀴즈 오답:'))).toBe(true);
    expect(status.strong_topics.map((topic) => topic.topic)).toEqual(['중앙값']);
    expect(status.strong_topics[0]?.evidence.some((evidence) => evidence.startsWith('수업 퀴즈 정답:'))).toBe(true);
    expect((await profileOf(await joinAs('지호'))).weak_topics).toEqual([]);
  });
});
