/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GR5 — Needs_Review. (`test/exams-needs-review.integration.test.ts`). An exam item graded below the confidence
 *   threshold (src/judges/verdict-confidence.ts, `CONFIDENT_AT`) is `Needs_Review` (검토 중): pending for the student,
 *   no credit, no provisional status or proposal in their result, a report still written; the teacher's results list
 *   the student first with the grader's `proposed` status and `confidence`; `gradeHold()` holds the LMS score; the
 *   teacher's override decides it. A status the keyword rules decide (a key keyword missing) is never held.
 * - GR24 — A decided item no longer says what the grader said. Once the teacher decides a held item, or changes the
 *   status of a graded one (test/exams-live.integration.test.ts, EL6), its feedback is the teacher's decision and
 *   reason, in the student's result, the teacher's results and the CSV's misconceptions: "검토하고 있습니다" (or the
 *   praise of an overruled Correct) is gone everywhere; the pages say the decision once (test/e2e/exams.e2e.test.ts,
 *   GR16). A status the teacher keeps keeps the grader's feedback.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { NEEDS_REVIEW_MESSAGE } from '../src/exams/exam-grader.js';
import { gradeHold } from '../src/lti/grade-rules.js';
import { EXAM_STATUS_LABELS } from '../src/protocol/wire/exams.js';
import { bootExamClass, draft, end, join, makeExam, publish, results, submit } from './support/exam-class.js';
import { call } from './support/http-call.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';

/**
 * GR5 and GR14 (test/SPEC.md, "Grading: … confidence and review"): an exam item the grader is not sure of is
 * `Needs_Review` on the real server (offline grader, memory store and Redis): the student sees no provisional status,
 * the teacher's results list it first with the grader's proposal, nothing is sent to an LMS, and the teacher's
 * override decides it.
 */

const redis = suiteRedis();
const boot = (context: TestContext, store: 'memory' | 'redis') => bootExamClass(context, store, () => redis.url);
beforeAll(samplePdfBytes);

/** Item 2's model answer is `기댓값이 같다.`: this answer says the opposite of why, with the keyword in it. */
const UNSURE = '표본을 많이 뽑으면 기댓값이 커지기 때문이다';
const SURE = '기댓값이 같아서';

type Item = { question_id: number; result_status: string; feedback_message: string; evidence: { confidence?: number; proposed?: string } | null };
type Student = { sessionId: string; nickname: string; pending: boolean; report: unknown; items: Item[] };

describe.each(['memory', 'redis'] as const)('Needs_Review (%s store)', (store) => {
  it('GR5 an item below the confidence threshold is Needs_Review: pending for the student with no provisional status, first in the teacher\'s list with the proposal; the override decides it', async (context) => {
    const booted = await boot(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    // 지호 joins and submits first; 민지's item 2 is the unsure one, so she is listed first anyway.
    const jiho = await join(booted, '지호');
    const minji = await join(booted, '민지');
    await draft(booted, exam.examId, jiho.headers, { 1: '분산', 2: SURE, 3: '표준편차' });
    await submit(booted, exam.examId, jiho.headers);
    await draft(booted, exam.examId, minji.headers, { 1: '분산', 2: UNSURE, 3: '표준편차' });
    await submit(booted, exam.examId, minji.headers);
    await end(booted, exam.examId);

    let students: Student[] = [];
    await expect
      .poll(async () => {
        students = ((await results(booted, exam.examId)).body?.students ?? []) as Student[];
        return students.length === 2 && students.every((student) => student.report !== null);
      }, { interval: 50 })
      .toBe(true);
    expect(students.map((student) => student.nickname)).toEqual(['민지', '지호']);
    const held = students[0]?.items.find((item) => item.question_id === 2);
    expect(held?.result_status).toBe('Needs_Review');
    // The teacher sees what the grader would have said and how sure it was.
    expect(held?.evidence?.proposed).toBe('Correct');
    expect(held?.evidence?.confidence).toBeLessThan(0.75);
    expect(students[0]?.pending).toBe(true);
    expect(students[1]?.pending).toBe(false);
    expect(students[1]?.items.find((item) => item.question_id === 2)?.result_status).toBe('Correct');

    // The student: pending, the item said to be under review, no proposal, no credit for it.
    const resultUrl = `${booted.app.url}/api/class-exams/${exam.examId}/result`;
    const mine = await call(resultUrl, 'GET', { headers: minji.headers });
    expect(mine.body).toMatchObject({ status: 'pending', score: 2, maxScore: 3 });
    const item = (mine.body.log.evaluation_items as Item[]).find((entry) => entry.question_id === 2);
    expect(item).toMatchObject({ result_status: 'Needs_Review', feedback_message: NEEDS_REVIEW_MESSAGE });
    expect(JSON.stringify(mine.body)).not.toContain('proposed');
    expect(EXAM_STATUS_LABELS.Needs_Review).toBe('검토 중');
    // Nothing of this student's goes to an LMS gradebook while an item waits for the teacher.
    expect(gradeHold(mine.body.log.evaluation_items as Item[])).toBe('review');

    // The teacher decides: the item is final, the student no longer pending.
    const override = await call(`${booted.app.url}/api/exams/${exam.examId}/students/${minji.sessionId}/items/2/override`, 'POST', {
      headers: booted.teacher.bearer,
      body: { status: 'Incorrect', reason: '기댓값이 커지는 것이 아니라 모평균과 같습니다.' },
    });
    expect(override.status, JSON.stringify(override.body)).toBe(200);
    const after = await call(resultUrl, 'GET', { headers: minji.headers });
    expect(after.body).toMatchObject({ status: 'graded', score: 2 });
    expect(gradeHold(after.body.log.evaluation_items as Item[])).toBeNull();
    // GR24: the decided item's feedback is the teacher's reason, not "being reviewed", wherever it is read.
    const decided = (after.body.log.evaluation_items as Item[]).find((entry) => entry.question_id === 2);
    expect(decided?.feedback_message).toBe('선생님이 답을 검토해 판정했습니다: 기댓값이 커지는 것이 아니라 모평균과 같습니다.');
    const teacherView = (await results(booted, exam.examId)).body as { students: Student[] };
    const teacherItem = teacherView.students.find((student) => student.sessionId === minji.sessionId)?.items.find((entry) => entry.question_id === 2);
    expect(teacherItem?.feedback_message).not.toContain('검토하고 있습니다');
    const csv = await (await fetch(`${booted.app.url}/api/exams/${exam.examId}/results.csv`, { headers: booted.teacher.bearer })).text();
    expect(csv).toContain('기댓값이 커지는 것이 아니라 모평균과 같습니다');
    expect(csv).not.toContain('검토하고 있습니다');

    // GR14: the teacher's decision is exported as a labelled JSON line, with no student identity.
    const exported = await fetch(`${booted.app.url}/api/exams/${exam.examId}/decisions.jsonl`, { headers: booted.teacher.bearer });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toContain('application/x-ndjson');
    const text = await exported.text();
    const lines = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        examId: exam.examId,
        questionId: 2,
        type: 'Descriptive',
        question: exam.problems[1]?.question_content,
        reference: exam.problems[1]?.model_answer,
        keywords: exam.problems[1]?.key_keywords,
        answer: UNSURE,
        graderStatus: 'Needs_Review',
        graderProposed: 'Correct',
        graderConfidence: held?.evidence?.confidence,
        teacherStatus: 'Incorrect',
        reason: '기댓값이 커지는 것이 아니라 모평균과 같습니다.',
      },
    ]);
    expect(text).not.toContain(minji.sessionId);
    expect(text).not.toContain('민지');
    // Only the exam's owner reads it.
    expect((await fetch(`${booted.app.url}/api/exams/${exam.examId}/decisions.jsonl`, { headers: minji.headers })).status).not.toBe(200);
  });
});
