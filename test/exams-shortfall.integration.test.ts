/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - XA12 — The exam keeps its shortfall. An exam generated from material that cannot bear the count asked for is
 *   stored with fewer items and its shortfall (requested, made, reason, the Korean sentence) on the record:
 *   `GET /api/exams/:id` answers it long after the job is gone (the exam editor shows the sentence). An exam
 *   that got every item has none. Offline model, memory store.
 */
import type { Socket } from 'socket.io-client';
import { describe, expect, it, type TestContext } from 'vitest';
import { bodyLines, buildPdf } from '../scripts/pdf-fixtures.js';
import type { JobState } from '../src/protocol/wire/jobs.js';
import { signUp, type SignedUpAccount } from './support/accounts.js';
import { storeReady } from './support/classroom-client.js';
import { uploadPdf } from './support/data-flow.js';
import { call } from './support/http-call.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Resolves with the job's first finished state (events only: no poll deadline). */
function finished(socket: Socket): Promise<JobState> {
  return new Promise((resolve) => {
    socket.on('job:state', (state: JobState) => {
      if (state.status === 'succeeded' || state.status === 'failed' || state.status === 'cancelled') resolve(state);
    });
  });
}

async function generate(app: TestApp, teacher: SignedUpAccount, materialId: string, body: Record<string, unknown>): Promise<{ job: JobState; exam: Record<string, unknown> }> {
  const started = await call(`${app.url}/api/materials/${materialId}/exams`, 'POST', { headers: teacher.bearer, body });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const socket = app.socket('/jobs', { token: started.body.jobToken as string });
  const job = await finished(socket);
  socket.disconnect();
  expect([job.status, job.error]).toEqual(['succeeded', null]);
  const examId = (job.result as { examId: string }).examId;
  const detail = await call(`${app.url}/api/exams/${examId}`, 'GET', { headers: teacher.bearer });
  expect(detail.status).toBe(200);
  return { job, exam: detail.body as Record<string, unknown> };
}

async function boot(context: TestContext): Promise<{ app: TestApp; teacher: SignedUpAccount }> {
  const app = await startTestApp({ SIGNUP: 'open' });
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  return { app, teacher: await signUp(app) };
}

describe('the exam keeps what it could not make', () => {
  it('XA12 an exam from a three-sentence handout stores its shortfall with the record and answers it in the detail; a full exam has none', async (context) => {
    const { app, teacher } = await boot(context);
    const tiny = await uploadPdf(app, await buildPdf({ korean: true, title: '짧은 안내문', pages: [{ lines: bodyLines(3, 3, true) }] }), 'short.pdf', teacher);
    const { job, exam } = await generate(app, teacher, tiny.id, { count: 10, descriptive: 2 });
    const shortfall = exam.shortfall as { requested: number; made: number; reason: string; message: string };
    expect(shortfall).toMatchObject({ requested: 10, made: (exam.problems as unknown[]).length });
    expect(shortfall.made).toBeLessThan(10);
    expect(shortfall.message).toContain(`${shortfall.made}개`);
    // The same figures the job reported when it ended.
    expect((job.result as { shortfall?: unknown }).shortfall).toEqual(shortfall);

    const sample = await uploadPdf(app, await buildPdf({ korean: true, title: '긴 자료', pages: Array.from({ length: 6 }, (_, page) => ({ heading: `${page + 1}장 개요`, lines: bodyLines(page * 7 + 1, 14, true) })) }), 'long.pdf', teacher);
    const full = await generate(app, teacher, sample.id, { count: 3, descriptive: 1 });
    expect((full.exam.problems as unknown[]).length).toBe(3);
    expect(full.exam).not.toHaveProperty('shortfall');
  });
});
