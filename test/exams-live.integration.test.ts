/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EL1 — Draft, then published once. The owner lists the exam (`draft`, 3 items) and edits a problem's keywords; a
 *   time limit of 0 is `400` with a Korean message naming 제한 시간 …
 * - EL2 — Questions only; drafts autosave. The class's student lists the exam (`open`) and sees `{id, type,
 *   question_content}` per item — no model answer, keyword or intent anywhere in the JSON …
 * - EL3 — The clock. After the deadline a draft and a submission are `409 EXAM_CLOSED`; several reads and the sweep
 *   noticing the deadline at once close the exam once …
 * - EL4 — Write-once submission. An item submitted alone refuses later drafts (`409 EXAM_ALREADY_SUBMITTED`); five
 *   concurrent whole-exam submits all answer the same `{submitted, submittedAll: true}` …
 * - EL5 — Ungraded, then retried. On Gemini (the fake): the exact keywords are Correct without a model call; the
 *   descriptive item's first grading fails (503) and is stored `Ungraded` — the student's result …
 * - EL6 — Override and regrade. An override without a reason is `400`; two overrides keep both changes in the trail
 *   (`from` the grader's status, `to`, reason, by the owner), the score follows each (3 …
 * - EL7 — Learner profile. Before any exam the instructor reads a profile with no exams; after one the feedback
 *   agent's update is stored (`exams_taken`; the two wrong answers' topics are the weak ones …
 * - EL8 — Results and exports. Per item: status counts (the exact keyword Correct, the other word not) and the common
 *   misconception ("topic: feedback" of the wrong answer); per student …
 * - EL9 — Monitor progress. An instructor socket (socket.io-client on `/monitor`) receives `exam:progress` with …
 * - EL22 — Blank is not answered. An item never written or drafted blank is not counted in the monitor's `answered`,
 *   in the live event or the table, before or after the student submits (it is submitted empty and graded so) …
 * - EL10 — Authorisation. Another instructor gets 404 on every exam route of the owner's exam (read, edit, publish
 *   into their own class, results in three forms, override, delete …
 * - EL11 — Drafts across a node restart. On Redis a student's drafts saved on one node are there after it stops and
 *   another starts; the exam goes on there (a draft …
 * - EL12 — Deletion. `DELETE /api/exams/:id` (204) leaves no key naming the exam (drafts, submissions, grades,
 *   grading state, report included) …
 * - EL16 — Generation over HTTP. `POST /api/materials/:id/exams {count: 3, descriptive: 1}` answers 202 with the
 *   `exam-generation` job, its id and a job token …
 * - EL18 — Two nodes, one close. Two app nodes on one Redis, three students with drafts; past the deadline both
 *   nodes' sweeps, the results on both and the students' views on the second run at once …
 * - EL19 — Revealed at the end; 시험 종료. A student who submitted everything gets `409 EXAM_RESULT_NOT_READY` while a
 *   classmate still writes …
 * - EL20 — Autosaves behind one address. With `RATE_ADDRESS_MAX` 12 and `RATE_DRAFT_MAX` 5, three students on one
 *   address save 15 drafts (all 200); a student's sixth save is `429 RATE_LIMITED` …
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { AppOverrides } from '../src/app.js';
import type { ExamRecord } from '../src/exams/index.js';
import { embedEntries, fakeEmbedding, FakeGemini } from './support/fake-gemini.js';
import { ownMaterial, signUp } from './support/accounts.js';
import { connectInstructor } from './support/classroom-client.js';
import { madePdf, scanStore, uploadPdf } from './support/data-flow.js';
import { AgentSpy, bootExamClass, draft, end, gradedResults, join, makeExam, PROBLEMS, publish, results, submit, TestClock } from './support/exam-class.js';
import { call } from './support/http-call.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { startRedisServer, suiteRedis } from './support/redis-server.js';
import { startTestApp, suiteMemoryStore } from './support/test-app.js';
import { examKeys } from '../src/exams/exam-keys.js';

/**
 * EL1–EL12 (test/SPEC.md, "Live exams"): exams published to a class and taken live on the real server, on the memory
 * store and a throwaway Redis: the server's clock (after the deadline nothing is accepted; the drafts at the deadline
 * are graded once), autosaved drafts, write-once submission, the grading pipeline with background retries,
 * overrides and regrades with their trail, learner profiles, results and CSV, the monitor's progress events,
 * authorisation, deletion with the exam, its class and its material, and generation over HTTP. The app's own exam
 * agents grade and feed back (offline, or the grader model through the fake Gemini in EL5).
 */

const redis = suiteRedis();
// The memory-store tests share one store, as the Redis ones share the suite's Redis: the sample is ingested once.
const memory = suiteMemoryStore();
const boot = (context: TestContext, store: 'memory' | 'redis', env: Record<string, string> = {}, overrides: AppOverrides = {}) =>
  store === 'memory'
    ? bootExamClass(context, store, () => redis.url, { ...memory.appEnv(), ...env }, { ...memory.appOverrides(), ...overrides })
    : bootExamClass(context, store, () => redis.url, env, overrides);
beforeAll(samplePdfBytes);

describe.each(['memory', 'redis'] as const)('live exams (%s store)', (store) => {
  it('EL1 the owner edits a draft exam and publishes it to their class: the deadline is the server clock plus the limit; published once, no edits after', async (context) => {
    const booted = await boot(context, store);
    const { app, teacher } = booted;
    const exam = await makeExam(booted);
    const listed = await call(`${app.url}/api/exams?materialId=${booted.material.id}`, 'GET', { headers: teacher.bearer });
    expect(listed.body.exams.map((entry: { examId: string; status: string; count: number }) => [entry.examId, entry.status, entry.count])).toEqual([[exam.examId, 'draft', 3]]);
    const edited = await call(`${app.url}/api/exams/${exam.examId}/problems/2`, 'PATCH', { headers: teacher.bearer, body: { key_keywords: ['기댓값', '불편'] } });
    expect([edited.status, edited.body.key_keywords]).toEqual([200, ['기댓값', '불편']]);
    const bad = await call(`${app.url}/api/exams/${exam.examId}/publish`, 'POST', { headers: teacher.bearer, body: { classId: booted.classId, timeLimitMinutes: 0 } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    expect(bad.body.error.message).toContain('제한 시간');

    const before = booted.clock.now();
    const publication = await publish(booted, exam.examId, 45);
    expect(publication.classId).toBe(booted.classId);
    expect(publication.deadline - publication.publishedAt).toBe(45 * 60_000);
    expect(publication.publishedAt).toBeGreaterThanOrEqual(before);
    const again = await call(`${app.url}/api/exams/${exam.examId}/publish`, 'POST', { headers: teacher.bearer, body: { classId: booted.classId, timeLimitMinutes: 10 } });
    expect([again.status, again.body.error.code]).toEqual([409, 'EXAM_ALREADY_PUBLISHED']);
    const late = await call(`${app.url}/api/exams/${exam.examId}/problems/1`, 'PATCH', { headers: teacher.bearer, body: { model_answer: '바뀐 답' } });
    expect([late.status, late.body.error.code]).toEqual([409, 'EXAM_ALREADY_PUBLISHED']);
    const detail = await call(`${app.url}/api/exams/${exam.examId}`, 'GET', { headers: teacher.bearer });
    expect(detail.body).toMatchObject({ examId: exam.examId, status: 'published', publication, valid: true, rounds: 1 });
    expect(detail.body.problems[1].key_keywords).toEqual(['기댓값', '불편']);
  });

  it('EL2 a student sees the questions only (never a model answer or a keyword); drafts autosave, last write wins, and survive a reload', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    const list = await call(`${booted.app.url}/api/class-exams`, 'GET', { headers: student.headers });
    expect(list.body.exams).toEqual([{ examId: exam.examId, title: '통계 단원 평가', count: 3, deadline: expect.any(Number), state: 'open', selfStudy: false }]);
    const view = await call(`${booted.app.url}/api/class-exams/${exam.examId}`, 'GET', { headers: student.headers });
    expect(view.status).toBe(200);
    const text = JSON.stringify(view.body);
    for (const problem of PROBLEMS) {
      expect(text).not.toContain(problem.model_answer);
      expect(text).not.toContain(problem.intent_diagnosis);
    }
    expect(text).not.toContain('key_keywords');
    expect(view.body.problems).toEqual(PROBLEMS.map(({ id, type, question_content }) => ({ id, type, question_content })));

    expect((await draft(booted, exam.examId, student.headers, { 1: '분' })).status).toBe(200);
    const saved = await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '기댓값이 같아서' });
    expect(saved.status).toBe(200);
    expect(saved.body.savedAt).toBeLessThanOrEqual(saved.body.serverNow);
    const unknown = await draft(booted, exam.examId, student.headers, { 9: '없는 문항' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'EXAM_QUESTION_NOT_FOUND']);
    const tooLong = await draft(booted, exam.examId, student.headers, { 1: 'ㄱ'.repeat(4001) });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const reloaded = await call(`${booted.app.url}/api/class-exams/${exam.examId}`, 'GET', { headers: student.headers });
    expect(reloaded.body).toMatchObject({ drafts: { 1: '분산', 2: '기댓값이 같아서' }, submitted: {}, submittedAll: false, deadline: view.body.deadline });
    // Nothing graded, no result yet.
    const early = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers });
    expect([early.status, early.body.error.code]).toEqual([409, 'EXAM_RESULT_NOT_READY']);
    expect(booted.agents.gradings).toEqual([]);
  });

  it('EL3 the clock: after the deadline drafts and submissions are refused (EXAM_CLOSED); the drafts at the deadline are submitted and graded exactly once', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId, 10);
    const minji = await join(booted, '민지');
    const jiho = await join(booted, '지호');
    await draft(booted, exam.examId, minji.headers, { 1: '분산', 3: '표준편차' });
    await submit(booted, exam.examId, minji.headers, [1]);
    await draft(booted, exam.examId, jiho.headers, { 1: '평균' });

    booted.clock.advanceMinutes(11);
    const refused = await draft(booted, exam.examId, minji.headers, { 2: '늦은 답' });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'EXAM_CLOSED']);
    const refusedSubmit = await submit(booted, exam.examId, jiho.headers);
    expect([refusedSubmit.status, refusedSubmit.body.error.code]).toEqual([409, 'EXAM_CLOSED']);
    // Several readers notice the deadline at once, and the sweep too: the exam closes once.
    await Promise.all([results(booted, exam.examId), results(booted, exam.examId), booted.app.exams.sweep(), call(`${booted.app.url}/api/class-exams`, 'GET', { headers: jiho.headers })]);
    const graded = await gradedResults(booted, exam.examId, 2);
    await booted.app.exams.settled();
    // Every item of each student graded exactly once, with the text saved at the deadline ('' for an untouched item):
    // an exact keyword is Correct without a model, an empty answer Incorrect.
    expect(booted.agents.gradings.map((grading) => grading.answer).sort()).toEqual(['', '', '', '분산', '평균', '표준편차']);
    const byStudent = Object.fromEntries(graded.students.map((student) => [student.nickname, student.items.map((item) => [item.question_id, item.result_status, item.user_response])]));
    expect(byStudent['민지']).toEqual([[1, 'Correct', '분산'], [2, 'Incorrect', ''], [3, 'Correct', '표준편차']]);
    expect(byStudent['지호']?.slice(1)).toEqual([[2, 'Incorrect', ''], [3, 'Incorrect', '']]);
    expect(['Correct', 'Ungraded']).not.toContain(byStudent['지호']?.[0]?.[1]);
    expect(graded.students.every((student) => student.submittedAt === graded.deadline)).toBe(true);
    expect(booted.agents.feedbacks).toEqual([exam.examId, exam.examId]);
    expect(graded.closed).toBe(true);
    const state = await call(`${booted.app.url}/api/class-exams`, 'GET', { headers: minji.headers });
    expect(state.body.exams[0].state).toBe('closed');
  });

  it('EL19 results wait for the end of the exam; the instructor\'s 시험 종료 ends it now: drafts refused, the others\' drafts graded, results revealed', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    const unpublished = await call(`${booted.app.url}/api/exams/${exam.examId}/end`, 'POST', { headers: booted.teacher.bearer });
    expect([unpublished.status, unpublished.body.error.code]).toEqual([409, 'EXAM_NOT_PUBLISHED']);
    const published = await publish(booted, exam.examId, 30);
    const minji = await join(booted, '민지');
    const jiho = await join(booted, '지호');
    await draft(booted, exam.examId, minji.headers, { 1: '분산', 2: '기댓값이 모평균과 같기 때문이다', 3: '표준편차' });
    await submit(booted, exam.examId, minji.headers);
    await draft(booted, exam.examId, jiho.headers, { 1: '평균' });
    // 민지 submitted everything, but 지호 is still writing: her statuses and feedback would give him the answers.
    const early = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: minji.headers });
    expect([early.status, early.body.error.code]).toEqual([409, 'EXAM_RESULT_NOT_READY']);

    booted.clock.advanceMinutes(3);
    const ended = await end(booted, exam.examId);
    expect(ended.deadline).toBeGreaterThanOrEqual(published.publishedAt + 3 * 60_000);
    expect(ended.deadline).toBeLessThan(published.deadline);
    // Ending again keeps the first end (a deadline never moves later).
    expect((await end(booted, exam.examId)).deadline).toBe(ended.deadline);
    const late = await draft(booted, exam.examId, jiho.headers, { 2: '늦은 답' });
    expect([late.status, late.body.error.code]).toEqual([409, 'EXAM_CLOSED']);
    const graded = await gradedResults(booted, exam.examId, 2);
    expect(graded.closed).toBe(true);
    const jihoItems = graded.students.find((student) => student.nickname === '지호')?.items.map((item) => item.user_response);
    expect(jihoItems).toEqual(['평균', '', '']);
    for (const student of [minji, jiho]) {
      const result = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers });
      expect(result.status, JSON.stringify(result.body)).toBe(200);
      expect(result.body.log.evaluation_items).toHaveLength(3);
    }
  });

  it('EL20 a class behind one address autosaves without touching the address budget; each student has RATE_DRAFT_MAX saves per window', async (context) => {
    // Counters live in the store: a store of its own (on Redis a server of its own), so the file's earlier tests
    // (same address, same window) have spent none of this test's budget.
    const own = store === 'redis' ? await startRedisServer() : undefined;
    if (own) context.onTestFinished(() => own.stop());
    const booted = own
      ? await boot(context, store, { RATE_ADDRESS_MAX: '12', RATE_DRAFT_MAX: '5', REDIS_URL: own.url })
      : await bootExamClass(context, store, () => redis.url, { RATE_ADDRESS_MAX: '12', RATE_DRAFT_MAX: '5' });
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const students = [await join(booted, '민지'), await join(booted, '지호'), await join(booted, '서연')];
    // 15 autosaves from the one address, more than its 12: none counts against it.
    for (const [index, student] of students.entries()) {
      for (let save = 1; save <= 5; save += 1) {
        const saved = await draft(booted, exam.examId, student.headers, { 1: `답 ${index}-${save}` });
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      }
    }
    // A sixth save in the window is one too many for that student, not for the others.
    const over = await draft(booted, exam.examId, students[0]!.headers, { 1: '여섯 번째' });
    expect([over.status, over.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    // Other state-changing requests of the address still count against its 12 (what the setup left of it).
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 12 && !statuses.includes(429); attempt += 1) {
      statuses.push((await submit(booted, exam.examId, students[1]!.headers, [1])).status);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses.at(-1)).toBe(429);
  });

  it('EL4 submission is written once: concurrent submits of the whole exam agree on one submission, graded once; a submitted item refuses drafts', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '기댓값이 모평균과 같기 때문이다', 3: '표준편차' });
    const first = await submit(booted, exam.examId, student.headers, [1]);
    expect(first.body).toEqual({ submitted: { 1: true }, submittedAll: false });
    const locked = await draft(booted, exam.examId, student.headers, { 1: '바꾼 답' });
    expect([locked.status, locked.body.error.code]).toEqual([409, 'EXAM_ALREADY_SUBMITTED']);
    const replies = await Promise.all(Array.from({ length: 5 }, () => submit(booted, exam.examId, student.headers)));
    for (const reply of replies) expect(reply.body).toEqual({ submitted: { 1: true, 2: true, 3: true }, submittedAll: true });
    const graded = await gradedResults(booted, exam.examId, 1);
    await booted.app.exams.settled();
    expect(booted.agents.gradings.map((grading) => grading.questionId).sort()).toEqual([1, 2, 3]);
    expect(booted.agents.feedbacks).toEqual([exam.examId]);
    expect(graded.students[0]?.items.map((item) => item.user_response)).toEqual(['분산', '기댓값이 모평균과 같기 때문이다', '표준편차']);
    const fields = await booted.app.store.hgetall(examKeys.examSubmitted(exam.examId, student.sessionId));
    expect(Object.keys(fields).sort()).toEqual(['1', '2', '3', 'all']);
    // Submitted, but the exam is still open: the result waits for the deadline (or the instructor's 시험 종료).
    const waiting = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers });
    expect([waiting.status, waiting.body.error?.code]).toEqual([409, 'EXAM_RESULT_NOT_READY']);
    await end(booted, exam.examId);
    const result = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers });
    expect(result.body).toMatchObject({ status: 'graded', score: graded.students[0]?.score, maxScore: 3 });
    expect(result.body.log.evaluation_items.map((item: { result_status: string }) => item.result_status)).toEqual(graded.students[0]?.items.map((item) => item.result_status));
    expect(result.body.report.summary.length).toBeGreaterThan(0);
  });

  it('EL5 a grading the model failed is Ungraded (pending, no credit), and the background retry grades it through the model (fake Gemini failing, then answering)', async (context) => {
    let released!: () => void;
    const gate = new Promise<void>((resolve) => (released = resolve));
    let gradings = 0;
    const fake = await FakeGemini.start({
      respond: (request) => {
        if (request.action === 'batchEmbedContents') return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
        if (!JSON.stringify(request.body).includes('학생_답변')) return { status: 400, message: 'exams fake: not a grading request' };
        gradings += 1;
        if (gradings === 1) return { status: 503, message: 'overloaded' };
        return { gate, reply: { json: { result_status: 'Partial_Correct', related_topic: '불편추정량', feedback_message: '기댓값이 같다는 근거를 한 줄 더 쓰세요.' } } };
      },
    });
    context.onTestFinished(() => fake.close());
    const booted = await boot(context, store, { GEMINI_API_KEY: 'test', GEMINI_BASE_URL: fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '표본 평균의 기댓값이 모평균과 같기 때문이다.', 3: '표준편차' });
    await submit(booted, exam.examId, student.headers);
    await end(booted, exam.examId);
    // The model failed on the descriptive item: Ungraded, pending, no credit, while the exact keywords are Correct.
    const resultUrl = `${booted.app.url}/api/class-exams/${exam.examId}/result`;
    const statuses = async () => ((await call(resultUrl, 'GET', { headers: student.headers })).body.log?.evaluation_items ?? []).map((item: { result_status: string }) => item.result_status);
    await expect.poll(statuses).toEqual(['Correct', 'Ungraded', 'Correct']);
    expect((await booted.app.exams.repository.grades(exam.examId, student.sessionId)).get(2)?.result_status).toBe('Ungraded');
    const pending = await call(resultUrl, 'GET', { headers: student.headers });
    expect(pending.body).toMatchObject({ status: 'pending', score: 2, maxScore: 3, report: null });
    await expect.poll(() => gradings).toBe(2);
    released();
    const graded = await gradedResults(booted, exam.examId, 1);
    expect(graded.students[0]).toMatchObject({ score: 2.5, pending: false });
    // The related topic is the plan's target topic of the item (results group by it), not the model's phrase.
    expect(graded.students[0]?.items[1]).toMatchObject({ result_status: 'Partial_Correct', related_topic: '기댓값', feedback_message: '기댓값이 같다는 근거를 한 줄 더 쓰세요.' });
    expect(booted.agents.gradings.filter((grading) => grading.questionId === 2).map((grading) => grading.status)).toEqual(['Ungraded', 'Partial_Correct']);
    expect(gradings).toBe(2);
    // The results show the report before the grading marks itself finalised: wait for the grading to settle.
    await booted.app.exams.settled();
    const state = await booted.app.exams.repository.gradingState(exam.examId, student.sessionId);
    expect(state).toMatchObject({ claimed: true, finalised: true, state: 'graded', attempts: 2 });
  });

  it('EL6 the instructor overrides a status with a reason (the trail keeps every change, the score follows, the student sees the reason); a student asks a regrade with a comment, visible to the instructor', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '평균이 같다', 3: '표준편차' });
    await submit(booted, exam.examId, student.headers);
    const before = await gradedResults(booted, exam.examId, 1);
    // The grader's own status of item 2 (a partial answer: not Correct), which the overrides change.
    const graded2 = before.students[0]?.items[1]?.result_status ?? '';
    expect(['Partial_Correct', 'Incorrect']).toContain(graded2);
    expect(before.students[0]?.score).toBe(2 + (graded2 === 'Partial_Correct' ? 0.5 : 0));

    const path = `${booted.app.url}/api/exams/${exam.examId}/students/${student.sessionId}/items/2/override`;
    const noReason = await call(path, 'POST', { headers: booted.teacher.bearer, body: { status: 'Correct' } });
    expect([noReason.status, noReason.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const first = await call(path, 'POST', { headers: booted.teacher.bearer, body: { status: 'Correct', reason: '기댓값과 같은 뜻입니다.' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.item).toMatchObject({ question_id: 2, result_status: 'Correct', overridden: { status: 'Correct', from: graded2, reason: '기댓값과 같은 뜻입니다.', by: booted.teacher.accountId } });
    // GR24: the grader's feedback for the status the teacher overruled is not kept; the teacher's reason is the feedback.
    expect(first.body.item.feedback_message).toBe('선생님이 답을 검토해 판정했습니다: 기댓값과 같은 뜻입니다.');
    expect((await results(booted, exam.examId)).body.students[0].score).toBe(3);
    const second = await call(path, 'POST', { headers: booted.teacher.bearer, body: { status: 'Incorrect', reason: '다시 보니 틀렸습니다.' } });
    expect(second.body.audit.map((entry: { from: string; to: string; reason: string }) => [entry.from, entry.to, entry.reason])).toEqual([
      [graded2, 'Correct', '기댓값과 같은 뜻입니다.'],
      ['Correct', 'Incorrect', '다시 보니 틀렸습니다.'],
    ]);
    const after = await results(booted, exam.examId);
    expect(after.body.students[0].score).toBe(2);
    expect(after.body.items[1].counts).toEqual({ Correct: 0, Partial_Correct: 0, Incorrect: 1, Ungraded: 0, Needs_Review: 0 });

    // Before the results are revealed a regrade (whose reply names the status) is refused.
    const early = await call(`${booted.app.url}/api/class-exams/${exam.examId}/regrade`, 'POST', { headers: student.headers, body: { questionId: 3, comment: '미리' } });
    expect([early.status, early.body.error.code]).toEqual([409, 'EXAM_RESULT_NOT_READY']);
    await end(booted, exam.examId);
    // The student sees the instructor's change and its reason on the item, never who made it nor when.
    const mine = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers });
    const item2 = mine.body.log.evaluation_items.find((item: { question_id: number }) => item.question_id === 2);
    expect(item2).toMatchObject({ result_status: 'Incorrect', instructor_review: { from: graded2, reason: '다시 보니 틀렸습니다.' } });
    expect(Object.keys(item2.instructor_review).sort()).toEqual(['from', 'reason']);
    expect(item2).not.toHaveProperty('overridden');
    expect(mine.body.log.evaluation_items.find((item: { question_id: number }) => item.question_id === 1)).not.toHaveProperty('instructor_review');
    const regrade = await call(`${booted.app.url}/api/class-exams/${exam.examId}/regrade`, 'POST', { headers: student.headers, body: { questionId: 3, comment: '표준편차를 썼는데 다시 봐 주세요.' } });
    expect(regrade.status, JSON.stringify(regrade.body)).toBe(200);
    expect(regrade.body.request).toMatchObject({ questionId: 3, status: 'pending', from: 'Correct' });
    const twice = await call(`${booted.app.url}/api/class-exams/${exam.examId}/regrade`, 'POST', { headers: student.headers, body: { questionId: 3, comment: '또' } });
    expect([twice.status, twice.body.error.code]).toEqual([409, 'EXAM_REGRADE_EXISTS']);
    await expect
      .poll(async () => (await results(booted, exam.examId)).body.students[0].regrades)
      .toEqual([{ questionId: 3, comment: '표준편차를 썼는데 다시 봐 주세요.', at: expect.any(Number), status: 'done', from: 'Correct', to: 'Correct' }]);
    expect(booted.agents.gradings.filter((grading) => grading.questionId === 3)).toHaveLength(2);
  });

  it('EL7 the learner profile: built before any exam, updated by the feedback agent after one, its goal set by the instructor; the student reads their own', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    const profilePath = `${booted.app.url}/api/classes/${booted.classId}/students/${student.sessionId}/profile`;
    const initial = await call(profilePath, 'GET', { headers: booted.teacher.bearer });
    expect(initial.status, JSON.stringify(initial.body)).toBe(200);
    expect(initial.body.profile.exams_taken).toEqual([]);
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '모름', 3: '' });
    await submit(booted, exam.examId, student.headers);
    const graded = await gradedResults(booted, exam.examId, 1);
    const updated = await call(profilePath, 'GET', { headers: booted.teacher.bearer });
    expect(updated.body.profile.exams_taken).toEqual([exam.examId]);
    // The wrong answers' topics are the weak ones, with the exam as evidence; the right one's is not weak.
    const wrong = (graded.students[0]?.items ?? []).filter((item) => item.result_status !== 'Correct').map((item) => (item as { related_topic?: string }).related_topic);
    expect(wrong).toHaveLength(2);
    const weak = updated.body.profile.user_status.weak_topics as { topic: string; evidence: string[] }[];
    expect(weak.map((topic) => topic.topic).sort()).toEqual([...wrong].sort());
    expect(weak.every((topic) => topic.evidence.length > 0)).toBe(true);
    // The student's report points at what to review.
    expect(graded.students[0]?.report).not.toBeNull();
    const goal = await call(profilePath, 'PATCH', { headers: booted.teacher.bearer, body: { target_depth: 'Deep Understanding', description: '추정의 원리를 설명할 수 있다.' } });
    expect(goal.status, JSON.stringify(goal.body)).toBe(200);
    expect(goal.body.profile.learning_goal).toEqual({ target_depth: 'Deep Understanding', description: '추정의 원리를 설명할 수 있다.' });
    expect(goal.body.profile.exams_taken).toEqual([exam.examId]);
    const own = await call(`${booted.app.url}/api/class-exams/profile`, 'GET', { headers: student.headers });
    expect(own.body.profile.learning_goal.target_depth).toBe('Deep Understanding');
    const badGoal = await call(profilePath, 'PATCH', { headers: booted.teacher.bearer, body: { target_depth: 'Expert', description: '' } });
    expect([badGoal.status, badGoal.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const stranger = await call(`${booted.app.url}/api/classes/${booted.classId}/students/not-a-student/profile`, 'GET', { headers: booted.teacher.bearer });
    expect([stranger.status, stranger.body.error.code]).toEqual([404, 'EXAM_STUDENT_NOT_FOUND']);
  });

  it('EL8 results per student and per item (status counts, common misconceptions), the class students who never opened it (미응시), as CSV (Korean headers, BOM) and JSON', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const minji = await join(booted, '민지');
    const jiho = await join(booted, '지호');
    // 하늘 joined the class but never opens the exam: listed as 미응시, never as a result.
    const haneul = await join(booted, '하늘');
    // A bare keyword for the descriptive item would be held for review (GR5); this test is about the results' shape.
    await draft(booted, exam.examId, minji.headers, { 1: '분산', 2: '기댓값이 모평균과 같기 때문이다', 3: '=표준편차' });
    await draft(booted, exam.examId, jiho.headers, { 1: '편차', 2: '평균', 3: '표준편차' });
    await submit(booted, exam.examId, minji.headers);
    await submit(booted, exam.examId, jiho.headers);
    const graded = await gradedResults(booted, exam.examId, 2);
    // Item 1: 민지's exact keyword is Correct, 지호's other word is not; the misconception is that answer's feedback.
    const jihoFirst = graded.students.find((student) => student.nickname === '지호')?.items[0];
    expect(['Incorrect', 'Partial_Correct']).toContain(jihoFirst?.result_status);
    expect(graded.items[0]?.counts).toEqual({ Correct: 1, Partial_Correct: 0, Incorrect: 0, Ungraded: 0, Needs_Review: 0, [jihoFirst?.result_status ?? 'Incorrect']: 1 });
    expect(graded.items[0]?.misconceptions).toEqual([`분산: ${(jihoFirst as { feedback_message?: string } | undefined)?.feedback_message ?? ''}`]);
    // The score is the server's, from the statuses with the default weights.
    const points: Record<string, number> = { Correct: 1, Partial_Correct: 0.5, Incorrect: 0, Ungraded: 0 };
    for (const student of graded.students) {
      expect([student.nickname, student.score, student.maxScore]).toEqual([student.nickname, student.items.reduce((sum, item) => sum + (points[item.result_status] ?? 0), 0), 3]);
    }
    expect(graded.students.map((student) => student.nickname)).toEqual(['민지', '지호']);
    expect((await results(booted, exam.examId)).body.absent).toEqual([{ sessionId: haneul.sessionId, nickname: '하늘' }]);
    const csv = await fetch(`${booted.app.url}/api/exams/${exam.examId}/results.csv`, { headers: booted.teacher.bearer });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const text = await csv.text();
    const bytes = new Uint8Array(await (await fetch(`${booted.app.url}/api/exams/${exam.examId}/results.csv`, { headers: booted.teacher.bearer })).arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('닉네임,제출 시각,점수,만점,채점 대기,1번 결과,1번 답안,1번 정정 사유,2번 결과,2번 답안,2번 정정 사유,3번 결과,3번 답안,3번 정정 사유,세션 ID');
    expect(lines[1]).toContain('민지,');
    // A formula-looking answer is neutralised for spreadsheets.
    expect(lines[1]).toContain(",'=표준편차,");
    expect(lines[3]).toBe(`하늘,미응시,,,,,,,,,,,,,${haneul.sessionId}`);
    expect(text).toContain('문항,유형,질문,모범 답안,정답,부분 정답,오답,채점 대기,흔한 오개념');
    // The grader's feedback is plain Korean wherever it is shown (results, reports, the CSV's 흔한 오개념): no internal tag.
    expect(JSON.stringify(graded)).not.toContain('[자동 채점]');
    expect(text).not.toContain('[자동 채점]');
    const json = await call(`${booted.app.url}/api/exams/${exam.examId}/results.json`, 'GET', { headers: booted.teacher.bearer });
    expect(json.headers.get('content-disposition')).toContain('attachment');
    expect(json.body.students).toHaveLength(2);
  });

  it('EL9 the monitor sees each student progress live (answered, submitted, deadline) and the grading finish, never the answer text', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    const unpublished = await call(`${booted.app.url}/api/exams/${exam.examId}/progress`, 'GET', { headers: booted.teacher.bearer });
    expect([unpublished.status, unpublished.body.error.code]).toEqual([409, 'EXAM_NOT_PUBLISHED']);
    const publication = await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    const { monitor } = await connectInstructor(booted.app, booted.classToken);
    await draft(booted, exam.examId, student.headers, { 1: '비밀답안분산', 2: '   ' });
    const progress = await monitor.waitFor('exam:progress', (payload) => payload.answered === 1);
    expect(progress).toEqual({ examId: exam.examId, sessionId: student.sessionId, nickname: '민지', answered: 1, total: 3, submittedAll: false, deadline: publication.deadline });
    // A monitor opened now (a reload) reads the same table at once: 민지 answered 1 of 3, not graded.
    const snapshot = await call(`${booted.app.url}/api/exams/${exam.examId}/progress`, 'GET', { headers: booted.teacher.bearer });
    expect(snapshot.status).toBe(200);
    expect(snapshot.body).toEqual({ examId: exam.examId, deadline: publication.deadline, serverNow: expect.any(Number), students: [{ ...progress, graded: false }] });
    await submit(booted, exam.examId, student.headers);
    await monitor.waitFor('exam:progress', (payload) => payload.submittedAll);
    expect(await monitor.waitFor('exam:graded')).toEqual({ examId: exam.examId, sessionId: student.sessionId });
    expect(JSON.stringify(monitor.events)).not.toContain('비밀답안');
    const later = await call(`${booted.app.url}/api/exams/${exam.examId}/progress`, 'GET', { headers: booted.teacher.bearer });
    // Only item 1 has an answer: the blank draft of item 2 and the untouched item 3 are submitted empty, not answered (EL22).
    expect(later.body.students).toEqual([{ ...progress, answered: 1, submittedAll: true, graded: true }]);
    expect(JSON.stringify(later.body)).not.toContain('비밀답안');
  });

  it('EL22 an item left empty is not counted as answered, before or after the student submits: the monitor reads 2/3 as the submit dialog warned', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '서연');
    const { monitor } = await connectInstructor(booted.app, booted.classToken);
    // Items 1 and 3 answered, item 2 never written; then a blank draft of item 2 (typed and erased).
    await draft(booted, exam.examId, student.headers, { 1: '분산', 3: '표준편차' });
    await monitor.waitFor('exam:progress', (payload) => payload.answered === 2);
    await draft(booted, exam.examId, student.headers, { 2: '  ' });
    expect((await submit(booted, exam.examId, student.headers)).status).toBe(200);
    const submitted = await monitor.waitFor('exam:progress', (payload) => payload.submittedAll);
    expect(submitted).toMatchObject({ sessionId: student.sessionId, answered: 2, total: 3 });
    const table = await call(`${booted.app.url}/api/exams/${exam.examId}/progress`, 'GET', { headers: booted.teacher.bearer });
    expect(table.body.students).toEqual([expect.objectContaining({ sessionId: student.sessionId, answered: 2, total: 3, submittedAll: true })]);
    // The empty item is still submitted, graded and shown as the student's empty answer.
    const graded = await gradedResults(booted, exam.examId, 1);
    const item2 = graded.students[0]?.items.find((item) => item.question_id === 2);
    expect(item2).toMatchObject({ user_response: '  ', result_status: 'Incorrect', feedback_message: '답을 적지 않았습니다.' });
  });

  it('EL10 authorisation: another instructor gets 404 on every exam route, a student of another class 404, an instructor on student routes 403, nobody 401', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    await draft(booted, exam.examId, student.headers, { 1: '분산' });
    const other = await signUp(booted.app);
    await ownMaterial(booted.app, booted.material.id, other);
    const otherClass = await call(`${booted.app.url}/api/classes`, 'POST', { headers: other.bearer, body: { name: '다른 반', materialId: booted.material.id } });
    const outsider = await join(booted, '남', otherClass.body.code);
    const base = `${booted.app.url}/api/exams/${exam.examId}`;
    const tries: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', unknown?][] = [
      [base, 'GET'],
      [`${base}/problems/1`, 'PATCH', { model_answer: 'x' }],
      [`${base}/publish`, 'POST', { classId: otherClass.body.classId, timeLimitMinutes: 5 }],
      [`${base}/progress`, 'GET'],
      [`${base}/results`, 'GET'],
      [`${base}/results.csv`, 'GET'],
      [`${base}/results.json`, 'GET'],
      [`${base}/students/${student.sessionId}/items/1/override`, 'POST', { status: 'Correct', reason: '남의 시험' }],
      [base, 'DELETE'],
      [`${booted.app.url}/api/classes/${booted.classId}/students/${student.sessionId}/profile`, 'GET'],
      [`${booted.app.url}/api/classes/${booted.classId}/students/${student.sessionId}/profile`, 'PATCH', { target_depth: 'Basic Recall', description: '' }],
    ];
    for (const [url, method, body] of tries) {
      const reply = await call(url, method, { headers: other.bearer, ...(body === undefined ? {} : { body }) });
      expect([url, reply.status]).toEqual([url, 404]);
    }
    const otherList = await call(`${booted.app.url}/api/exams`, 'GET', { headers: other.bearer });
    expect(otherList.body.exams).toEqual([]);
    // The owner cannot publish into another instructor's class either.
    const intoOther = await call(`${base}/publish`, 'POST', { headers: booted.teacher.bearer, body: { classId: otherClass.body.classId, timeLimitMinutes: 5 } });
    expect(intoOther.status).toBe(404);

    for (const [url, method] of [[`${booted.app.url}/api/class-exams/${exam.examId}`, 'GET'], [`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET']] as const) {
      const reply = await call(url, method, { headers: outsider.headers });
      expect([reply.status, reply.body.error.code]).toEqual([404, 'EXAM_NOT_FOUND']);
    }
    const outsiderDraft = await draft(booted, exam.examId, outsider.headers, { 1: '남의 답' });
    expect(outsiderDraft.status).toBe(404);
    expect((await call(`${booted.app.url}/api/class-exams`, 'GET', { headers: outsider.headers })).body.exams).toEqual([]);
    const asInstructor = await call(`${booted.app.url}/api/class-exams/${exam.examId}`, 'GET', { headers: booted.teacher.bearer });
    expect([asInstructor.status, asInstructor.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const nobody = await call(`${booted.app.url}/api/class-exams/${exam.examId}`, 'GET');
    expect([nobody.status, nobody.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const anonymous = await call(base, 'GET');
    expect(anonymous.status).toBe(401);
    // The student's draft is untouched by all of it.
    expect((await call(`${booted.app.url}/api/class-exams/${exam.examId}`, 'GET', { headers: student.headers })).body.drafts).toEqual({ 1: '분산' });
  });

  it('EL16 the owner starts the exam-generation job over HTTP; on the offline model it stores a draft exam of the request (job read over GET /api/jobs/:id), listed', async (context) => {
    const booted = await boot(context, store);
    const { app, teacher } = booted;
    const started = await call(`${app.url}/api/materials/${booted.material.id}/exams`, 'POST', { headers: teacher.bearer, body: { count: 3, descriptive: 1 } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.jobId).toBe(started.body.job.jobId);
    expect(started.body.job.kind).toBe('exam-generation');
    expect(typeof started.body.jobToken).toBe('string');
    const bad = await call(`${app.url}/api/materials/${booted.material.id}/exams`, 'POST', { headers: teacher.bearer, body: { count: 2, descriptive: 3 } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const outside = await call(`${app.url}/api/materials/${booted.material.id}/exams`, 'POST', { headers: teacher.bearer, body: { count: 1, descriptive: 0, chapters: [999] } });
    expect([outside.status, outside.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    let job: { status: string; result: { examId: string; valid: boolean; rounds: number } | null } = { status: 'queued', result: null };
    await expect
      .poll(async () => {
        job = (await call(`${app.url}/api/jobs/${started.body.jobId}`, 'GET', { headers: teacher.bearer })).body.job;
        return job.status;
      }, { interval: 200 })
      .toBe('succeeded');
    const examId = job.result?.examId ?? '';
    const detail = await call(`${app.url}/api/exams/${examId}`, 'GET', { headers: teacher.bearer });
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ examId, materialId: booted.material.id, status: 'draft', request: { count: 3, descriptive: 1 }, valid: job.result?.valid, rounds: job.result?.rounds, publication: null });
    expect(detail.body.problems).toHaveLength(3);
    expect(detail.body.problems.filter((problem: { type: string }) => problem.type === 'Descriptive')).toHaveLength(1);
    const listed = await call(`${app.url}/api/exams`, 'GET', { headers: teacher.bearer });
    expect(listed.body.exams.map((entry: { examId: string }) => entry.examId)).toEqual([examId]);
  });

  it('EL12 an exam is deleted with DELETE /api/exams/:id, with its class and with its material: no exam key is left', async (context) => {
    const booted = await boot(context, store);
    const examKeys = async () => (await scanStore(booted.app, store === 'redis' ? redis.url : undefined)).filter((key) => /^lectern:(exam:|exams:pending)|:exams(:|$)|:profile/.test(key));
    const taken = async (exam: ExamRecord) => {
      await publish(booted, exam.examId);
      const student = await join(booted, `학생${exam.examId.slice(0, 4)}`);
      await draft(booted, exam.examId, student.headers, { 1: '분산', 2: '기댓값', 3: '표준편차' });
      await submit(booted, exam.examId, student.headers);
      await expect.poll(async () => (await booted.app.exams.repository.gradingState(exam.examId, student.sessionId)).state).toBe('graded');
      return student;
    };
    const first = await makeExam(booted);
    await taken(first);
    expect((await examKeys()).some((key) => key.includes(first.examId))).toBe(true);
    const deleted = await call(`${booted.app.url}/api/exams/${first.examId}`, 'DELETE', { headers: booted.teacher.bearer });
    expect(deleted.status).toBe(204);
    expect((await examKeys()).filter((key) => key.includes(first.examId))).toEqual([]);
    expect((await call(`${booted.app.url}/api/exams/${first.examId}`, 'GET', { headers: booted.teacher.bearer })).status).toBe(404);

    // With the class: its exams, their students' data and the class's learner profiles.
    const second = await makeExam(booted);
    await taken(second);
    const byClass = await call(`${booted.app.url}/api/classes/${booted.classId}`, 'DELETE', { headers: booted.teacher.bearer });
    expect(byClass.status, JSON.stringify(byClass.body)).toBe(204);
    expect((await examKeys()).filter((key) => key.includes(second.examId) || key.includes(booted.classId))).toEqual([]);

    // With the material (an upload of the teacher's; the built-in sample is never deleted): every exam made from it.
    const upload = await uploadPdf(booted.app, await madePdf('시험 자료'), 'exam.pdf', booted.teacher);
    const third = await makeExam(booted, upload.id);
    expect((await examKeys()).filter((key) => key.includes(third.examId) || key.includes(upload.id)).length).toBeGreaterThan(0);
    const byMaterial = await call(`${booted.app.url}/api/materials/${upload.id}`, 'DELETE', { headers: booted.teacher.bearer });
    expect(byMaterial.status, JSON.stringify(byMaterial.body)).toBe(204);
    expect((await examKeys()).filter((key) => key.includes(third.examId) || key.includes(upload.id))).toEqual([]);
  });
});

describe('live exams across a node restart (redis)', () => {
  it('EL11 drafts saved before a restart are there after it, and the exam goes on: submitted and graded by the new node', async (context) => {
    const first = await boot(context, 'redis');
    const exam = await makeExam(first);
    await publish(first, exam.examId);
    const student = await join(first, '민지');
    await draft(first, exam.examId, student.headers, { 1: '분산', 2: '기댓값이 같아서' });
    await first.app.stop();

    const clock = new TestClock();
    const agents = new AgentSpy();
    const second = await startTestApp(
      { SIGNUP: 'open', EXAM_SWEEP_MS: '100', REDIS_URL: redis.url, TOKEN_SECRET: 'exams-live-secret' },
      { examClock: clock.now, examAgents: agents.wrap },
    );
    context.onTestFinished(() => second.stop());
    const view = await call(`${second.url}/api/class-exams/${exam.examId}`, 'GET', { headers: student.headers });
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.drafts).toEqual({ 1: '분산', 2: '기댓값이 같아서' });
    await call(`${second.url}/api/class-exams/${exam.examId}/draft`, 'PUT', { headers: student.headers, body: { answers: { 3: '표준편차' } } });
    const submitted = await call(`${second.url}/api/class-exams/${exam.examId}/submit`, 'POST', { headers: student.headers, body: {} });
    expect(submitted.body.submittedAll).toBe(true);
    expect((await call(`${second.url}/api/exams/${exam.examId}/end`, 'POST', { headers: first.teacher.bearer })).status).toBe(200);
    await expect.poll(async () => (await call(`${second.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers })).body.status).toBe('graded');
    expect(agents.gradings.map((grading) => grading.answer)).toEqual(['분산', '기댓값이 같아서', '표준편차']);
  });
});

describe('live exams on two nodes (redis)', () => {
  it('EL18 two nodes notice the deadline at once (both sweeps, reads on both): the exam closes once, every item is graded once across the nodes, the feedback runs once per student', async (context) => {
    const first = await boot(context, 'redis');
    const exam = await makeExam(first);
    await publish(first, exam.examId, 5);
    const students = await Promise.all(['민지', '지호', '서연'].map((nickname) => join(first, nickname)));
    for (const [index, student] of students.entries()) await draft(first, exam.examId, student.headers, { 1: index === 0 ? '분산' : '편차', 3: '표준편차' });
    const clock = new TestClock();
    const agents = new AgentSpy();
    const second = await startTestApp(
      { SIGNUP: 'open', EXAM_SWEEP_MS: '100', EXAM_GRADE_RETRY_MS: '20', REDIS_URL: redis.url, TOKEN_SECRET: 'exams-live-secret' },
      { examClock: clock.now, examAgents: agents.wrap },
    );
    context.onTestFinished(() => second.stop());
    first.clock.advanceMinutes(6);
    clock.advanceMinutes(6);
    await Promise.all([
      first.app.exams.sweep(),
      second.exams.sweep(),
      results(first, exam.examId),
      call(`${second.url}/api/exams/${exam.examId}/results`, 'GET', { headers: first.teacher.bearer }),
      ...students.map((student) => call(`${second.url}/api/class-exams/${exam.examId}`, 'GET', { headers: student.headers })),
    ]);
    const graded = await gradedResults(first, exam.examId, 3);
    await Promise.all([first.app.exams.settled(), second.exams.settled()]);
    const gradings = [...first.agents.gradings, ...agents.gradings];
    expect(gradings).toHaveLength(9);
    expect([...first.agents.feedbacks, ...agents.feedbacks]).toEqual([exam.examId, exam.examId, exam.examId]);
    expect(graded.students.find((student) => student.nickname === '민지')?.items.map((item) => item.result_status)).toEqual(['Correct', 'Incorrect', 'Correct']);
    for (const student of students) {
      expect(await first.app.exams.repository.gradingState(exam.examId, student.sessionId)).toMatchObject({ claimed: true, finalised: true, state: 'graded', attempts: 1 });
    }
    expect(await first.app.store.zscore(examKeys.examsOpen(), exam.examId)).toBeNull();
  });
});
