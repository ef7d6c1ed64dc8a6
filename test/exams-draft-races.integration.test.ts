/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - XA6 — A draft is never acknowledged and then missed. (`test/exams-draft-races.integration.test.ts`, both stores;
 *   a real store whose next write the test holds).
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { createStore } from '../src/store/index.js';
import { bootExamClass, draft, end, join, makeExam, publish, submit, type Booted } from './support/exam-class.js';
import { holdingStore } from './support/holding-store.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';

/**
 * XA6 (test/SPEC.md, "Exam lifecycle"): a draft is never acknowledged and then missed. The app runs on a real store
 * whose next draft (or submission) write a test holds, so the race that a busy server sometimes loses is played
 * every time: the draft's write arrives after 시험 종료 read the drafts, or while a submission of the item is in
 * flight.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

async function bootHolding(context: TestContext, store: 'memory' | 'redis') {
  const real = createStore({ redisUrl: store === 'redis' ? redis.url : undefined });
  const holding = holdingStore(real);
  const booted = await bootExamClass(context, store, () => redis.url, {}, { store: holding.store });
  // The app leaves a store it was given open: closed after the app (finished-hooks run last first).
  context.onTestFinished(() => real.close());
  return { booted, holding };
}

/** What was submitted for item 1 (the text graded). */
async function submittedText(booted: Booted, examId: string, sessionId: string): Promise<string | undefined> {
  return (await booted.app.exams.repository.submissions(examId, sessionId)).items.get(1)?.text;
}

const isItemDraftWrite = (method: string, key: string, fields: string[]) => (method === 'hset' || method === 'hsetUnless') && key.includes(':drafts:') && fields.includes('1');

describe.each(['memory', 'redis'] as const)('drafts racing the end and a submission (%s store)', (store) => {
  it('XA6 a draft whose write lands after 시험 종료 began is refused (EXAM_CLOSED), never acknowledged: the graded text is the last one acknowledged', async (context) => {
    const { booted, holding } = await bootHolding(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    expect((await draft(booted, exam.examId, student.headers, { 1: '분산' })).status).toBe(200);
    const held = holding.holdNext(isItemDraftWrite);
    const late = draft(booted, exam.examId, student.headers, { 1: '늦은 답' });
    await held.reached;
    await end(booted, exam.examId);
    held.release();
    const reply = await late;
    expect([reply.status, reply.body?.error?.code]).toEqual([409, 'EXAM_CLOSED']);
    expect(await submittedText(booted, exam.examId, student.sessionId)).toBe('분산');
  });

  it('XA6 a draft of an item whose submission is in flight is refused (EXAM_ALREADY_SUBMITTED): the submitted text is the last one acknowledged', async (context) => {
    const { booted, holding } = await bootHolding(context, store);
    const exam = await makeExam(booted);
    await publish(booted, exam.examId);
    const student = await join(booted, '민지');
    expect((await draft(booted, exam.examId, student.headers, { 1: '처음 답' })).status).toBe(200);
    // The submission has read the drafts and is about to write item 1.
    const held = holding.holdNext((method, key) => method === 'hsetnx' && key.includes(':submitted:'));
    const submitting = submit(booted, exam.examId, student.headers, [1]);
    await held.reached;
    const during = await draft(booted, exam.examId, student.headers, { 1: '고친 답' });
    held.release();
    expect((await submitting).status).toBe(200);
    expect([during.status, during.body?.error?.code]).toEqual([409, 'EXAM_ALREADY_SUBMITTED']);
    expect(await submittedText(booted, exam.examId, student.sessionId)).toBe('처음 답');
  });
});
