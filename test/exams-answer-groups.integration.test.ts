/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AG5 — Groups over HTTP. (`test/exams-answer-groups.integration.test.ts`, memory and Redis).
 *   `GET /api/exams/:examId/items/:questionId/groups` gives one item's submitted answers in groups (nickname, text,
 *   status as it counts now), groups with a Needs_Review answer first; term vectors on the offline model.
 * - AG6 — One action, audited per answer. `POST …/groups/:groupId/grade {status, reason}` overrides every answer of
 *   the group through the single override's path: one audit entry per answer carrying the group's id, each
 *   student's result changed (with the reason) and their open pages told live (`exam:result` on /tutor).
 * - AG7 — A changed group is refused. After an answer is moved out (`…/answers/:sessionId/move-out`: it stands
 *   alone, the rest get a new id) a grade with the old id is 404 `EXAM_GROUP_NOT_FOUND` and changes nothing;
 *   moved back in (`move-in`) the group has its old id again. Each move is audited for that answer like an
 *   override (`action: 'move-out'` with the group it left, `'move-in'` with the group it joined; by, at, its status
 *   unchanged on both sides); a move that changes nothing (an answer already out) is not.
 * - AG8 — Group grades are data. `decisions.jsonl` has one labelled line per answer graded with a group
 *   (`fromGroup`, `groupId`, `groupSize`), beside single overrides, with no student identity.
 * - AG9 — Only the exam's teacher. Another instructor gets 404 on every group route, a student 403, nobody 401; a
 *   malformed group id is 404 `EXAM_GROUP_NOT_FOUND`, a bad body 400; the exam's deletion removes its moved-out
 *   answers.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { ExamAnswerGroupsReply, ExamGroupGradeReply } from '../src/protocol/exams.js';
import { ownMaterial, signUp } from './support/accounts.js';
import { bootExamClass, draft, end, gradedResults, join, makeExam, publish, submit, type Booted } from './support/exam-class.js';
import { call } from './support/http-call.js';
import { LectureClient, connectedOrThrow, samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { fixtureScope, scopedToTest, sharedFixture } from './fixtures/shared-app.js';
import { examKeys } from '../src/exams/exam-keys.js';

/**
 * AG5–AG9 (test/SPEC.md, "Exams: the teacher grades groups of answers"): the answer-group routes on the real server
 * (offline model and grader, memory store and Redis), with six students answering item 2 (표본 평균이 불편추정량인
 * 이유; reference 기댓값이 모평균과 같다).
 */

const redis = suiteRedis();

/**
 * One exam app per store (booted with the sample and the teacher once); each test gets a class of its own (its
 * students, nicknames and exams are its own) and a view of the app whose sockets close when it finishes.
 */
function sharedExamClass(store: 'memory' | 'redis') {
  const shared = sharedFixture(
    async () => {
      const scope = fixtureScope();
      return { booted: await bootExamClass(scope.context, store, () => redis.url), scope };
    },
    ({ scope }) => scope.close(),
  );
  return async (context: TestContext): Promise<Booted> => {
    const { booted } = shared();
    const created = await call(`${booted.app.url}/api/classes`, 'POST', { headers: booted.teacher.bearer, body: { name: '시험 반', materialId: booted.material.id } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { ...booted, app: scopedToTest(booted.app, context), classId: created.body.classId, classCode: created.body.code, classToken: created.body.instructorToken };
  };
}
beforeAll(samplePdfBytes);

const PARAPHRASES = ['표본 평균의 기댓값이 모평균과 같기 때문이다', '표본평균의 기댓값이 모평균과 같아서', '기댓값이 모평균과 같으니까요'];
const OPPOSITE = '표본 평균의 기댓값이 모평균과 같지 않기 때문이다';
const OTHERS = ['표본을 많이 뽑으면 분산이 작아진다', '표본이 많으면 분산이 작아지기 때문'];
const REASON = '기댓값이 모평균과 같다는 뜻으로 모두 맞습니다.';

async function sixStudents(booted: Booted) {
  const exam = await makeExam(booted);
  await publish(booted, exam.examId);
  const texts = [...PARAPHRASES, OPPOSITE, ...OTHERS];
  const students = [];
  for (const [index, text] of texts.entries()) {
    const student = await join(booted, `학생${index + 1}`);
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: text, 3: '표준편차' });
    await submit(booted, exam.examId, student.headers);
    students.push({ ...student, text, token: student.headers.authorization?.slice('Bearer '.length) ?? '' });
  }
  await end(booted, exam.examId);
  await gradedResults(booted, exam.examId, texts.length);
  return { exam, students, base: `${booted.app.url}/api/exams/${exam.examId}/items/2` };
}

const groupsOf = async (booted: Booted, base: string) => {
  const reply = await call(`${base}/groups`, 'GET', { headers: booted.teacher.bearer });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as ExamAnswerGroupsReply;
};
const textsOf = (reply: ExamAnswerGroupsReply) => reply.groups.map((group) => group.answers.map((answer) => answer.text).sort());

describe.each(['memory', 'redis'] as const)('answer groups (%s store)', (store) => {
  const boot = sharedExamClass(store);

  it('AG5 AG6 the paraphrases are one group; one grade overrides each answer, audited per answer with the group id, and the students hear it live', async (context) => {
    const booted = await boot(context);
    const { exam, students, base } = await sixStudents(booted);

    const listed = await groupsOf(booted, base);
    expect(listed).toMatchObject({ examId: exam.examId, questionId: 2, method: 'terms' });
    expect(textsOf(listed)).toEqual(expect.arrayContaining([[...PARAPHRASES].sort(), [OPPOSITE], [...OTHERS].sort()]));
    expect(listed.groups).toHaveLength(3);
    // Groups with an answer under review first.
    const reviewFlags = listed.groups.map((group) => group.needsReview);
    expect(reviewFlags).toEqual([...reviewFlags].sort((left, right) => Number(right) - Number(left)));
    const paraphrases = listed.groups.find((group) => group.answers.some((answer) => answer.text === PARAPHRASES[0]));
    expect(paraphrases?.answers.map((answer) => answer.nickname).sort()).toEqual(['학생1', '학생2', '학생3']);

    // The first student's page is open: it hears that its result changed.
    // (like the classroom page: connected with the class token, then session:resume puts it in its session's room)
    const page = new LectureClient(booted.app.socket('/tutor', { token: students[0]?.token }));
    await connectedOrThrow(page.socket);
    await page.ok('session:resume', { lastSeq: 0 });
    const heard = new Promise<unknown>((resolve) => page.socket.on('exam:result', resolve));

    const graded = await call(`${base}/groups/${paraphrases?.groupId}/grade`, 'POST', { headers: booted.teacher.bearer, body: { status: 'Correct', reason: REASON } });
    expect(graded.status, JSON.stringify(graded.body)).toBe(200);
    const reply = graded.body as ExamGroupGradeReply;
    expect(reply.graded.map((entry) => entry.sessionId).sort()).toEqual(students.slice(0, 3).map((student) => student.sessionId).sort());
    expect(reply.graded.every((entry) => entry.item.result_status === 'Correct' && entry.item.overridden?.reason === REASON)).toBe(true);
    expect(await heard).toEqual({ examId: exam.examId });

    // One audit entry per answer, each naming the group.
    const audit = await booted.app.exams.repository.audit(exam.examId);
    expect(audit.map((entry) => [entry.sessionId, entry.questionId, entry.to, entry.reason, entry.groupId]).sort()).toEqual(
      students.slice(0, 3).map((student) => [student.sessionId, 2, 'Correct', REASON, paraphrases?.groupId]).sort(),
    );
    // Each student's own result shows the teacher's decision and reason; the others are untouched.
    for (const student of students.slice(0, 3)) {
      const result = await call(`${booted.app.url}/api/class-exams/${exam.examId}/result`, 'GET', { headers: student.headers });
      const item = (result.body.log.evaluation_items as { question_id: number; result_status: string; instructor_review?: { reason: string } }[]).find((entry) => entry.question_id === 2);
      expect(item).toMatchObject({ result_status: 'Correct', instructor_review: { reason: REASON } });
      expect(JSON.stringify(result.body)).not.toContain(paraphrases?.groupId ?? '-');
    }
    expect((await booted.app.exams.repository.overrides(exam.examId, students[3]?.sessionId ?? '')).size).toBe(0);
    // The groups keep their ids (statuses do not move answers) and show the decision.
    const after = await groupsOf(booted, base);
    const same = after.groups.find((group) => group.groupId === paraphrases?.groupId);
    expect(same?.answers.every((answer) => answer.status === 'Correct' && answer.overridden?.groupId === paraphrases?.groupId)).toBe(true);
  });

  it('AG7 AG8 a moved-out answer stands alone, the old id is refused with EXAM_GROUP_NOT_FOUND, moved back in the id returns; group grades export as labelled lines', async (context) => {
    const booted = await boot(context);
    const { exam, students, base } = await sixStudents(booted);
    const before = await groupsOf(booted, base);
    const paraphrases = before.groups.find((group) => group.answers.some((answer) => answer.text === PARAPHRASES[0]));
    const moved = students[1]?.sessionId ?? '';

    const out = await call(`${base}/answers/${moved}/move-out`, 'POST', { headers: booted.teacher.bearer });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const split = out.body as ExamAnswerGroupsReply;
    const alone = split.groups.find((group) => group.answers.some((answer) => answer.sessionId === moved));
    expect(alone).toMatchObject({ size: 1, detached: true });
    const rest = split.groups.find((group) => group.answers.some((answer) => answer.text === PARAPHRASES[0]));
    expect(rest?.size).toBe(2);
    expect(rest?.groupId).not.toBe(paraphrases?.groupId);

    // The move is audited for the moved answer, with the group it left; moving it out again changes and audits nothing.
    const movedStatus = paraphrases?.answers.find((answer) => answer.sessionId === moved)?.status;
    const moveOut = { action: 'move-out', sessionId: moved, questionId: 2, by: booted.teacher.accountId, from: movedStatus, to: movedStatus, reason: '', groupId: paraphrases?.groupId };
    expect(await booted.app.exams.repository.audit(exam.examId)).toEqual([{ ...moveOut, at: expect.any(Number) }]);
    expect((await call(`${base}/answers/${moved}/move-out`, 'POST', { headers: booted.teacher.bearer })).status).toBe(200);
    expect(await booted.app.exams.repository.audit(exam.examId)).toHaveLength(1);

    const stale = await call(`${base}/groups/${paraphrases?.groupId}/grade`, 'POST', { headers: booted.teacher.bearer, body: { status: 'Incorrect', reason: '이전 묶음' } });
    expect([stale.status, stale.body.error?.code]).toEqual([404, 'EXAM_GROUP_NOT_FOUND']);
    expect((await booted.app.exams.repository.audit(exam.examId)).filter((entry) => entry.action === 'override')).toEqual([]);

    // The two left are graded together, the moved-out one alone with a single override.
    expect((await call(`${base}/groups/${rest?.groupId}/grade`, 'POST', { headers: booted.teacher.bearer, body: { status: 'Correct', reason: REASON } })).status).toBe(200);
    const single = await call(`${booted.app.url}/api/exams/${exam.examId}/students/${moved}/items/2/override`, 'POST', { headers: booted.teacher.bearer, body: { status: 'Partial_Correct', reason: '이유가 짧습니다.' } });
    expect(single.status).toBe(200);

    const back = await call(`${base}/answers/${moved}/move-in`, 'POST', { headers: booted.teacher.bearer });
    expect(back.status).toBe(200);
    expect((back.body as ExamAnswerGroupsReply).groups.map((group) => group.groupId)).toContain(paraphrases?.groupId);
    // The moved answer's own trail: out of the group, its single override, back into the group it joined.
    const trail = await booted.app.exams.repository.audit(exam.examId, moved);
    expect(trail.map((entry) => [entry.action, entry.from, entry.to, entry.groupId])).toEqual([
      ['move-out', movedStatus, movedStatus, paraphrases?.groupId],
      ['override', movedStatus, 'Partial_Correct', undefined],
      ['move-in', 'Partial_Correct', 'Partial_Correct', paraphrases?.groupId],
    ]);
    expect(trail.every((entry) => entry.by === booted.teacher.accountId)).toBe(true);
    // The single override's reply carries the whole trail of that answer, the moves included.
    const again = await call(`${booted.app.url}/api/exams/${exam.examId}/students/${moved}/items/2/override`, 'POST', { headers: booted.teacher.bearer, body: { status: 'Partial_Correct', reason: '이유가 짧습니다.' } });
    expect((again.body.audit as { action: string }[]).map((entry) => entry.action)).toEqual(['move-out', 'override', 'move-in', 'override']);

    const exported = await fetch(`${booted.app.url}/api/exams/${exam.examId}/decisions.jsonl`, { headers: booted.teacher.bearer });
    const text = await exported.text();
    const lines = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    const fromGroup = lines.filter((line) => line.fromGroup === true);
    expect(fromGroup.map((line) => line.answer).sort()).toEqual([PARAPHRASES[0], PARAPHRASES[2]].sort());
    for (const line of fromGroup) {
      expect(line).toMatchObject({ questionId: 2, question: exam.problems[1]?.question_content, reference: exam.problems[1]?.model_answer, teacherStatus: 'Correct', reason: REASON, groupId: rest?.groupId, groupSize: 2 });
      expect(typeof line.graderStatus).toBe('string');
    }
    expect(lines.find((line) => line.answer === PARAPHRASES[1])).toMatchObject({ teacherStatus: 'Partial_Correct', reason: '이유가 짧습니다.' });
    expect(lines.find((line) => line.answer === PARAPHRASES[1])).not.toHaveProperty('fromGroup');
    for (const student of students) expect(text).not.toContain(student.sessionId);
  });

  it('AG9 only the exam\'s teacher: others 404, a student 403, nobody 401; malformed ids and bodies refused; deletion removes the moved-out answers', async (context) => {
    const booted = await boot(context);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: PARAPHRASES[0] ?? '', 3: '표준편차' });
    await submit(booted, exam.examId, student.headers);
    const base = `${booted.app.url}/api/exams/${exam.examId}/items/2`;
    const { groups } = await groupsOf(booted, base);
    const groupId = groups[0]?.groupId ?? '';
    expect(groupId).toMatch(/^[0-9a-f]{12}$/u);

    const other = await signUp(booted.app);
    await ownMaterial(booted.app, booted.material.id, other);
    const tries: [string, 'GET' | 'POST', unknown?][] = [
      [`${base}/groups`, 'GET'],
      [`${base}/groups/${groupId}/grade`, 'POST', { status: 'Correct', reason: '남의 시험' }],
      [`${base}/answers/${student.sessionId}/move-out`, 'POST'],
      [`${base}/answers/${student.sessionId}/move-in`, 'POST'],
    ];
    for (const [url, method, body] of tries) {
      const stranger = await call(url, method, { headers: other.bearer, ...(body === undefined ? {} : { body }) });
      expect([url, stranger.status, stranger.body.error?.code]).toEqual([url, 404, 'EXAM_NOT_FOUND']);
      const asStudent = await call(url, method, { headers: student.headers, ...(body === undefined ? {} : { body }) });
      expect([url, asStudent.status]).toEqual([url, 403]);
      expect([url, (await call(url, method, body === undefined ? {} : { body })).status]).toEqual([url, 401]);
    }
    expect(await booted.app.exams.repository.audit(exam.examId)).toEqual([]);

    const malformed = await call(`${base}/groups/NOT-A-GROUP/grade`, 'POST', { headers: booted.teacher.bearer, body: { status: 'Correct', reason: '왜' } });
    expect([malformed.status, malformed.body.error.code]).toEqual([404, 'EXAM_GROUP_NOT_FOUND']);
    const badBody = await call(`${base}/groups/${groupId}/grade`, 'POST', { headers: booted.teacher.bearer, body: { status: 'Needs_Review', reason: '' } });
    expect([badBody.status, badBody.body.error.code]).toEqual([400, 'INVALID_PAYLOAD']);
    const noItem = await call(`${booted.app.url}/api/exams/${exam.examId}/items/9/groups`, 'GET', { headers: booted.teacher.bearer });
    expect([noItem.status, noItem.body.error.code]).toEqual([404, 'EXAM_QUESTION_NOT_FOUND']);
    const nobody = await call(`${base}/answers/someone-else/move-out`, 'POST', { headers: booted.teacher.bearer });
    expect([nobody.status, nobody.body.error.code]).toEqual([404, 'EXAM_STUDENT_NOT_FOUND']);

    expect((await call(`${base}/answers/${student.sessionId}/move-out`, 'POST', { headers: booted.teacher.bearer })).status).toBe(200);
    expect(await booted.app.store.hgetall(examKeys.examDetached(exam.examId, 2))).toHaveProperty(student.sessionId);
    expect((await call(`${booted.app.url}/api/exams/${exam.examId}`, 'DELETE', { headers: booted.teacher.bearer })).status).toBe(204);
    expect(await booted.app.store.hgetall(examKeys.examDetached(exam.examId, 2))).toEqual({});
  });
});
