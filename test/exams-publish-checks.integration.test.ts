/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - XA11 — Open complaints block publishing on the server. (`test/exams-publish-checks.integration.test.ts`, both
 *   stores).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootExamClass, makeExam, type Booted } from './support/exam-class.js';
import { call } from './support/http-call.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';

/**
 * XA11 (test/SPEC.md, "Exam lifecycle"): a draft exam whose validator complaints are open is not published as it is:
 * the server refuses with EXAM_COMPLAINTS_OPEN naming the items until each is fixed (the item edited: its complaints
 * leave it) or accepted by the instructor.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

const publish = (booted: Booted, examId: string, body: Record<string, unknown>) =>
  call(`${booted.app.url}/api/exams/${examId}/publish`, 'POST', { headers: booted.teacher.bearer, body: { classId: booted.classId, ...body } });

describe.each(['memory', 'redis'] as const)('publishing with open complaints (%s store)', (store) => {
  it('XA11 publish (timed or as self-study) is 409 EXAM_COMPLAINTS_OPEN with the items while complaints are open; an edit clears its item\'s complaints, 지적 확인 accepts an item; then it publishes', async (context) => {
    const booted = await bootExamClass(context, store, () => redis.url);
    const { app } = booted;
    const made = await makeExam(booted);
    const exam = await app.exams.create({
      ...made,
      valid: false,
      complaints: [
        { id: 1, message: '[질문 명확성] 질문에 정답이 들어 있습니다.' },
        { id: 3, message: '[사실 확인] 모범 답안이 자료에 없습니다.' },
        { id: 3, message: '[키워드] 키워드가 모범 답안에 없습니다.' },
      ],
    });
    const timed = await publish(booted, exam.examId, { timeLimitMinutes: 20 });
    expect(timed.status).toBe(409);
    expect(timed.body.error).toMatchObject({ code: 'EXAM_COMPLAINTS_OPEN', items: [1, 3] });
    expect(timed.body.error.message).toContain('1, 3번');
    expect((await publish(booted, exam.examId, { selfStudy: true })).body.error?.code).toBe('EXAM_COMPLAINTS_OPEN');

    // Item 1 edited: its complaint leaves it (the detail shows only item 3's).
    const edited = await call(`${app.url}/api/exams/${exam.examId}/problems/1`, 'PATCH', { headers: booted.teacher.bearer, body: { question_content: '자료에서 흩어진 정도를 나타내는 값의 이름은?' } });
    expect(edited.status).toBe(200);
    const detail = await call(`${app.url}/api/exams/${exam.examId}`, 'GET', { headers: booted.teacher.bearer });
    expect(detail.body.complaints.map((complaint: { id: number }) => complaint.id)).toEqual([3, 3]);
    expect(detail.body.accepted).toEqual([]);
    expect((await publish(booted, exam.examId, { timeLimitMinutes: 20 })).body.error).toMatchObject({ code: 'EXAM_COMPLAINTS_OPEN', items: [3] });

    // Item 3 accepted as it is: the complaints stay on record, and no longer hold it back.
    const accepted = await call(`${app.url}/api/exams/${exam.examId}/problems/3/accept`, 'POST', { headers: booted.teacher.bearer, body: {} });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ accepted: [3], complaints: [{ id: 3 }, { id: 3 }] });
    expect((await call(`${app.url}/api/exams/${exam.examId}/problems/9/accept`, 'POST', { headers: booted.teacher.bearer, body: {} })).status).toBe(404);
    const published = await publish(booted, exam.examId, { timeLimitMinutes: 20 });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect((await call(`${app.url}/api/exams/${exam.examId}/problems/1/accept`, 'POST', { headers: booted.teacher.bearer, body: {} })).body.error?.code).toBe('EXAM_ALREADY_PUBLISHED');
  });
});
