/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AN6 — Only the class's instructor. Owner account or class token 200; another account 404, no credential 401, a
 *   student's token 403, a malformed id, part or evidence query 400 INVALID_PAYLOAD (before anything is read).
 * - AN7 — Known figures over the API. On memory and Redis, a class with a room played over /quiz, an exam pinned by
 *   overrides, lecture transcripts, a self-study answer and a class quiz answer answers the hand-computed figures of
 *   AN2/AN3 and the expected map (figures and counts) and funnel; a cell's facts come from the evidence route, a class
 *   quiz's first answer among them (AN12).
 * - AN14 — A student's own self-study exam is their evidence, not the class's assessment. Its graded items count in
 *   that student's mastery cells of the chapters it covers (as their learner profile counts them), with the exam as
 *   source, and it has no item analysis; a classmate's cells have none of it.
 * - AN15 — Math answers in their chapter. A student's first answers to math problems shared with the class count in
 *   the column of the chapter their set was made for, with 수학 문제 as source (a later answer changes nothing); an
 *   answer to a set made from the whole material names no chapter and is in no cell.
 * - AN16 — Class exams are not crowded out. A class exam published before 51 of a student's own self-study exams
 *   (more than the 50 newest exams analysed) still has its item analysis, and it is the only exam analysed.
 */
import { afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { ClassAnalyticsReply, MasteryEvidenceReply } from '../src/protocol/wire/index.js';
import { signUp } from './support/accounts.js';
import { CLASS_QUIZ_QUESTION, seedAnalyticsClass } from './support/analytics-class.js';
import { bootExamClass, draft, gradedResults, join, makeExam, publish, submit, type Booted } from './support/exam-class.js';
import { call } from './support/http-call.js';
import { samplePdfBytes } from './support/lecture-client.js';
import type { QuizClient } from './support/quiz-client.js';
import { suiteRedis } from './support/redis-server.js';
import { fixtureScope, scopedToTest, sharedFixture } from './fixtures/shared-app.js';

/**
 * AN6–AN7 (test/SPEC.md): `GET /api/analytics/classes/:classId` on the real server, memory and Redis stores, over a
 * class seeded with known data (test/support/analytics-class.ts): a room played over /quiz, an exam graded and
 * pinned by overrides, lecture transcripts and progress. The expected figures are the hand-computed ones of AN2/AN3.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);
const clients: QuizClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

/**
 * One exam-class app per store (booted with the sample and the teacher once, in beforeAll); AN7 seeds its class, AN6
 * reads a new empty class of its own. A test sees the app through a view whose sockets close when it finishes.
 */
function sharedExamClass(store: 'memory' | 'redis') {
  const shared = sharedFixture(
    async () => {
      const scope = fixtureScope();
      return { booted: await bootExamClass(scope.context, store, () => redis.url), scope };
    },
    ({ scope }) => scope.close(),
  );
  return (context: TestContext): Booted => {
    const { booted } = shared();
    return { ...booted, app: scopedToTest(booted.app, context) };
  };
}

async function seeded(booted: Booted) {
  const seed = await seedAnalyticsClass(booted, clients);
  return { booted, seed, url: `${booted.app.url}/api/analytics/classes/${booted.classId}` };
}

/** The same app and teacher with a new, empty class. */
async function newClass(booted: Booted): Promise<Booted> {
  const created = await call(`${booted.app.url}/api/classes`, 'POST', { headers: booted.teacher.bearer, body: { name: '빈 반', materialId: booted.material.id } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { ...booted, classId: created.body.classId, classCode: created.body.code, classToken: created.body.instructorToken };
}

const rounded = (value: number | null) => (value === null ? null : Math.round(value * 10_000) / 10_000);

describe.each(['memory', 'redis'] as const)('class analytics API (%s store)', (store) => {
  const examClass = sharedExamClass(store);

  it('AN7 item analysis, mastery map and funnel of a seeded class carry the known figures', async (context) => {
    const { booted, seed, url } = await seeded(examClass(context));
    const reply = await call(url, 'GET', { headers: booted.teacher.bearer });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    const analytics = reply.body as ClassAnalyticsReply;
    expect(analytics.name).toBe('시험 반');

    const room = analytics.assessments.find((entry) => entry.kind === 'room')!;
    expect([room.id, room.title, room.students]).toEqual([seed.roomId, '통계 퀴즈', 6]);
    expect(room.items.map((item) => [item.number, rounded(item.difficulty), rounded(item.discrimination), item.unanswered, item.flags])).toEqual([
      [1, 0.6667, 0.773, 1, []],
      [2, 0.3333, 0.8835, 0, ['distractor-beats-key']],
      [3, 0.6667, 0.4417, 0, []],
      [4, 0.5, 0.1562, 0, ['low-discrimination']],
    ]);
    expect(room.items.map((item) => item.choices!.map((choice) => choice.count))).toEqual([
      [4, 1, 0, 0],
      [0, 2, 4, 0],
      [2, 0, 4, 0],
      [3, 0, 0, 3],
    ]);

    const exam = analytics.assessments.find((entry) => entry.kind === 'exam')!;
    expect([exam.id, exam.title, exam.students, rounded(exam.meanScore)]).toEqual([seed.examId, '1장 평가', 3, 0.5556]);
    expect(exam.items.map((item) => [item.number, rounded(item.difficulty), rounded(item.discrimination), item.flags])).toEqual([
      [1, 0.6667, 0.7559, []],
      [2, 0.8333, 0.189, ['low-discrimination']],
      [3, 0.1667, 0.9449, ['too-hard']],
    ]);

    // Mastery: chapter 0 = lecture verdicts and the chapter-0 exam; chapter 1 = 가영's bad verdict (and her hand),
    // 나래's right self-study answer, 다온's right first answer to the class quiz (her wrong second one not counted).
    const { mastery } = analytics;
    expect(mastery.chapters.map((chapter) => chapter.index)).toEqual(seed.chapters.map((chapter) => chapter.index));
    expect(mastery.students.map((student) => [student.nickname, rounded(student.cells[0]!.mastery), rounded(student.cells[1]!.mastery)])).toEqual([
      ['가영', 0.875, 0],
      ['나래', 0.625, 1],
      ['다온', 0.3333, 1],
    ]);
    expect(mastery.students.map((student) => student.cells.slice(0, 2).map((cell) => cell.evidenceCount))).toEqual([
      [4, 2],
      [4, 1],
      [3, 1],
    ]);
    // One cell's facts come from the evidence route.
    const evidence = async (sessionId: string, chapter: number) => {
      const cell = await call(`${url}/evidence?sessionId=${sessionId}&chapter=${chapter}`, 'GET', { headers: booted.teacher.bearer });
      expect(cell.status, JSON.stringify(cell.body)).toBe(200);
      return cell.body as MasteryEvidenceReply;
    };
    const [gayoung, narae, daon] = seed.sessions;
    const hand = await evidence(gayoung!, 1);
    expect([hand.nickname, hand.chapter, hand.mastery]).toEqual(['가영', seed.chapters[1], 0]);
    expect(hand.evidence.map((entry) => [entry.kind, entry.text, entry.score])).toEqual([
      ['lecture', '분산은 무엇을 재나요?', 0],
      ['hand', '제곱을 왜 하나요?', null],
    ]);
    expect((await evidence(narae!, 1)).evidence.map((entry) => [entry.kind, entry.source, entry.score])).toEqual([['quiz', '혼자 퀴즈', 1]]);
    expect((await evidence(daon!, 1)).evidence.map((entry) => [entry.kind, entry.text, entry.source, entry.score])).toEqual([['quiz', CLASS_QUIZ_QUESTION, '수업 퀴즈', 1]]);
    expect((await evidence(daon!, 0)).evidence.map((entry) => [entry.kind, entry.source, entry.score])).toEqual([
      ['exam', '1장 평가', 0],
      ['exam', '1장 평가', 1],
      ['exam', '1장 평가', 0],
    ]);
    expect((await call(`${url}/evidence?sessionId=${daon!}&chapter=-1`, 'GET', { headers: booted.teacher.bearer })).status).toBe(404);

    // Funnel: 가영 in chapter 1, 나래 finished, 다온 not started.
    const later = seed.chapters.slice(2).map((chapter) => [chapter.index, 1, 1, 0, 0, 0]);
    expect(analytics.funnel.students).toBe(3);
    expect(analytics.funnel.steps.map((step) => [step.chapter, step.reached, step.completed, step.hands, step.handStudents, step.remediated])).toEqual([
      [0, 2, 2, 0, 0, 0],
      [1, 2, 1, 1, 1, 1],
      ...later,
    ]);

    const csv = await fetch(`${url}/items.csv`, { headers: booted.teacher.bearer });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = (await csv.text()).split('\r\n');
    expect(lines).toContain('퀴즈,통계 퀴즈,2,객관식,2. 자료를 크기순으로 늘어놓았을 때 가운데 값은?,6,0.333,0.883,0,1:0 2(정답):2 3:4 4:0,distractor-beats-key');
    const funnel = await (await fetch(`${url}/funnel.csv`, { headers: booted.teacher.bearer })).text();
    expect(funnel.split('\r\n')[2]).toBe(`2,${seed.chapters[1]!.title},2,1,1,1,1`);
  });

  it("AN14 a student's own self-study exam counts in their mastery cells, not in the class's item analysis", async (context) => {
    const booted = await newClass(examClass(context));
    const [own, classmate] = [await join(booted, '혼공'), await join(booted, '옆자리')];
    const chapter = booted.material.chapters[1]!;
    const exam = await makeExam(booted);
    // The exam a student generates covers the chapters they picked (here the second).
    const record = { ...exam, title: '혼자 시험', request: { ...exam.request, chapters: [chapter.index] } };
    await booted.app.exams.repository.save(record);
    await booted.app.exams.publishSelfStudy(record, booted.classId, own.sessionId);
    expect((await draft(booted, exam.examId, own.headers, { 1: '분산', 2: '모른다', 3: '평균' })).status).toBe(200);
    expect((await submit(booted, exam.examId, own.headers)).status).toBe(200);
    const graded = (await gradedResults(booted, exam.examId, 1)).students[0]!.items;
    const credit: Record<string, number> = { Correct: 1, Partial_Correct: 0.5, Incorrect: 0 };
    const scores = graded.map((item) => credit[item.result_status]!);

    const url = `${booted.app.url}/api/analytics/classes/${booted.classId}`;
    const analytics = (await call(url, 'GET', { headers: booted.teacher.bearer })).body as ClassAnalyticsReply;
    expect(analytics.assessments.map((entry) => entry.id)).not.toContain(exam.examId);
    const column = analytics.mastery.chapters.findIndex((entry) => entry.index === chapter.index);
    const cells = new Map(analytics.mastery.students.map((student) => [student.sessionId, student.cells[column]!]));
    expect(cells.get(own.sessionId)).toEqual({ mastery: scores.reduce((sum, score) => sum + score, 0) / scores.length, evidenceCount: 3 });
    expect(cells.get(classmate.sessionId)).toEqual({ mastery: null, evidenceCount: 0 });
    const cell = await call(`${url}/evidence?sessionId=${own.sessionId}&chapter=${chapter.index}`, 'GET', { headers: booted.teacher.bearer });
    expect((cell.body as MasteryEvidenceReply).evidence.map((entry) => [entry.kind, entry.source, entry.score])).toEqual(scores.map((score) => ['exam', '혼자 시험', score]));
  });

  it('AN15 first answers to shared math problems count in the chapter their set was made for', async (context) => {
    const booted = await newClass(examClass(context));
    const student = await join(booted, '수학');
    const chapter = booted.material.chapters[1]!;
    const problem = (problemId: string, question: string) => ({
      problemId,
      type: 'short_answer' as const,
      question,
      correct_answer: '0.5',
      explanation: '앞면과 뒷면이 같은 확률이므로 $\\frac{1}{2}$입니다.',
      final_answer: '0.5',
      difficulty: 'easy' as const,
      sources: [],
      judgement: { judged: true, passed: true, scores: null, feedback: '좋은 문제입니다.', model: 'judge-model', attempt: 1 },
    });
    const newSet = async (question: string, chapterIndex?: number) => {
      const set = await booted.app.mathSets.create({
        materialId: booted.material.id,
        accountId: booted.teacher.accountId,
        ...(chapterIndex === undefined ? {} : { chapter: chapterIndex }),
        request: { count: 1, multipleChoice: 0 },
        problems: [problem('short-1', question)],
        rejected: [],
        attempts: 1,
        jobId: 'job',
        judgeModel: 'judge-model',
        complete: true,
      });
      const shared = await call(`${booted.app.url}/api/math-sets/${set.setId}/share`, 'POST', { headers: booted.teacher.bearer, body: { classId: booted.classId } });
      expect(shared.status, JSON.stringify(shared.body)).toBe(200);
      return set.setId;
    };
    const ofChapter = await newSet('동전 하나를 던져 앞면이 나올 확률은?', chapter.index);
    const ofMaterial = await newSet('주사위 하나를 던져 짝수가 나올 확률은?');
    const answer = async (setId: string, text: string) => {
      const reply = await call(`${booted.app.url}/api/class-math/answer`, 'POST', { headers: student.headers, body: { setId, problemId: 'short-1', answer: text } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body.correct as boolean;
    };
    expect(await answer(ofChapter, '\\frac12')).toBe(true);
    expect(await answer(ofChapter, '0.7')).toBe(false);
    expect(await answer(ofMaterial, '0.7')).toBe(false);

    const url = `${booted.app.url}/api/analytics/classes/${booted.classId}`;
    const analytics = (await call(url, 'GET', { headers: booted.teacher.bearer })).body as ClassAnalyticsReply;
    const [cells] = analytics.mastery.students.map((entry) => entry.cells);
    const column = analytics.mastery.chapters.findIndex((entry) => entry.index === chapter.index);
    expect(cells!.map((cell, index) => (index === column ? cell : cell.evidenceCount))).toEqual(cells!.map((_, index) => (index === column ? { mastery: 1, evidenceCount: 1 } : 0)));
    const cell = await call(`${url}/evidence?sessionId=${student.sessionId}&chapter=${chapter.index}`, 'GET', { headers: booted.teacher.bearer });
    expect((cell.body as MasteryEvidenceReply).evidence.map((entry) => [entry.kind, entry.text, entry.source, entry.score])).toEqual([['quiz', '동전 하나를 던져 앞면이 나올 확률은?', '수학 문제', 1]]);
  });

  it("AN16 a class exam keeps its item analysis when a student's own self-study exams outnumber the exams read", async (context) => {
    const booted = await newClass(examClass(context));
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '혼공');
    const chapter = booted.material.chapters[1]!;
    for (let n = 0; n < 51; n += 1) {
      const own = { ...exam, examId: `${exam.examId}own${n}`, title: `혼자 시험 ${n}`, request: { ...exam.request, chapters: [chapter.index] } };
      await booted.app.exams.repository.save(own);
      await booted.app.exams.publishSelfStudy(own, booted.classId, student.sessionId);
    }
    expect((await booted.app.exams.repository.classExams(booted.classId, 50)).filter((examId) => examId === exam.examId)).toEqual([]);

    const analytics = (await call(`${booted.app.url}/api/analytics/classes/${booted.classId}`, 'GET', { headers: booted.teacher.bearer })).body as ClassAnalyticsReply;
    expect(analytics.assessments.filter((entry) => entry.kind === 'exam').map((entry) => entry.id)).toEqual([exam.examId]);
  });

  it("AN6 only the class's instructor reads it: owner account or class token; another account 404, no credential 401, bad params 400", async (context) => {
    const booted = await newClass(examClass(context));
    const url = `${booted.app.url}/api/analytics/classes/${booted.classId}`;
    expect((await call(url, 'GET', { headers: booted.teacher.bearer })).status).toBe(200);
    const viaToken = await call(url, 'GET', { headers: { authorization: `Bearer ${booted.classToken}` } });
    expect([viaToken.status, viaToken.body.funnel.students]).toEqual([200, 0]);
    const other = await signUp(booted.app);
    const refused = await call(url, 'GET', { headers: other.bearer });
    expect([refused.status, refused.body.error.code]).toEqual([404, 'CLASS_NOT_FOUND']);
    const refusedCsv = await call(`${url}/mastery.csv`, 'GET', { headers: other.bearer });
    expect(refusedCsv.status).toBe(404);
    const student = await call(`${booted.app.url}/api/classes/${booted.classCode}/join`, 'POST', { body: { nickname: '증거' } });
    const evidenceUrl = `${url}/evidence?sessionId=${String(student.body.sessionId)}&chapter=0`;
    expect((await call(evidenceUrl, 'GET', { headers: other.bearer })).status).toBe(404);
    expect((await call(evidenceUrl, 'GET', { headers: booted.teacher.bearer })).body.evidence).toEqual([]);
    const badQuery = await call(`${url}/evidence?sessionId=${String(student.body.sessionId)}&chapter=first`, 'GET', { headers: booted.teacher.bearer });
    expect([badQuery.status, badQuery.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect((await call(url, 'GET', {})).status).toBe(401);
    // A student of the class (a session token) is no instructor.
    const joined = await call(`${booted.app.url}/api/classes/${booted.classCode}/join`, 'POST', { body: { nickname: '학생' } });
    expect((await call(url, 'GET', { headers: { authorization: `Bearer ${String(joined.body.token)}` } })).status).toBe(403);
    const badId = await call(`${booted.app.url}/api/analytics/classes/${encodeURIComponent('a b')}`, 'GET', { headers: booted.teacher.bearer });
    expect([badId.status, badId.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const badPart = await call(`${url}/everything.csv`, 'GET', { headers: booted.teacher.bearer });
    expect([badPart.status, badPart.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const missing = await call(`${booted.app.url}/api/analytics/classes/00000000-0000-0000-0000-000000000000`, 'GET', { headers: booted.teacher.bearer });
    expect(missing.status).toBe(404);
  });
});
