/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GR17 — Unsure on a subconcept too. A reply to a subconcept's question (the remediation after a bad verdict) that
 *   the judge is not sure of (confidence below CONFIDENT_AT) gets `tutor:unsure` for that subquestion, with the
 *   subconcept's explanation to compare with and the two choices, never a told verdict; `answer:self-assess` with the
 *   subquestion's id records a self-assessed verdict (`selfAssessed: true`); 다시 볼래요 is followed by the remedial
 *   explanation, 비슷하게 답했어요 by the next subquestion; a choice for the parent question is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CONFIDENT_AT } from '../src/judges/index.js';
import type { Material } from '../src/materials/index.js';
import { UNSURE_TEXT } from '../src/lecture/tutoring-steps.js';
import type { Subconcept } from '../src/lecture/qa-tutor.js';
import { WRONG_ANSWER, joinLecture, loadSample, samplePdfBytes, type AnswerPolicy, type Asked } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * GR17 (test/SPEC.md, "Grading: … confidence and review"): the unsure path of the lecture's subquestions through the
 * real `/tutor` socket on the sample material with the offline tutor. The first lecture question is answered with a
 * give-up (a confident bad: the subconcepts follow); the reply to the first subquestion is one the offline judge is
 * not sure of, chosen by asking the server's own judge about a few partial replies made of the explanation's words.
 */

let app: TestApp;
let material: Material;

beforeAll(async () => {
  await samplePdfBytes();
  app = await startTestApp();
  material = await loadSample(app);
  return () => app.stop();
});

async function join() {
  let first: string | undefined;
  const policy: AnswerPolicy = (asked: Asked) => {
    if (asked.parentQuestionId !== undefined) return undefined;
    first ??= asked.questionId;
    return asked.questionId === first ? WRONG_ANSWER : undefined;
  };
  const joined = await joinLecture(app, material.id, { policy });
  await joined.client.ok('lecture:speed', { tokensPerSecond: 200 });
  await joined.client.ok('lecture:start', {});
  const sub = await joined.client.waitForEvent('tutor:subquestion', { where: (payload) => payload.index === 1 });
  const record = await app.lectures.repository.load(joined.sessionId);
  const subconcepts: Subconcept[] = record?.state.kind === 'tutoring' ? (record.state.subconcepts ?? []) : [];
  const subconcept = subconcepts[0];
  if (subconcept === undefined) throw new Error('no subconcept in the session record');
  return { ...joined, sub, subconcept, total: subconcepts.length };
}

/** A reply to the subconcept's question the offline judge is not sure of (not an abstention). */
async function unsureReply(subconcept: Subconcept): Promise<string> {
  const words = subconcept.explanation.split(/\s+/u).filter((word) => word.length > 0);
  const candidates = [
    ...[2, 3, 4, 5, 6].map((count) => words.slice(0, count).join(' ')),
    words.slice(0, Math.ceil(words.length / 2)).join(' '),
    `${subconcept.concept} 관련 내용이에요`,
    ...[3, 4, 5].map((count) => words.slice(-count).join(' ')),
  ];
  for (const answer of candidates) {
    const verdict = await app.lectures.tutor.judge({ question: subconcept.question, lecture: subconcept.explanation, modelAnswer: subconcept.explanation, answer });
    if (verdict.confidence < CONFIDENT_AT && verdict.abstained !== true) return answer;
  }
  throw new Error(`no unsure reply found for ${subconcept.question}`);
}

describe('the unsure verdict on a subquestion (offline tutor, /tutor)', () => {
  it('GR17 an unsure reply to a subquestion gets tutor:unsure with the explanation; 다시 볼래요 is self-assessed bad and the remedial explanation follows', async () => {
    const { client, sub, subconcept } = await join();
    try {
      const reply = await unsureReply(subconcept);
      await client.ok('answer:submit', { questionId: sub.questionId, text: reply });
      const unsure = await client.waitForEvent('tutor:unsure', { where: (payload) => payload.questionId === sub.questionId });
      expect(unsure.text).toBe(UNSURE_TEXT);
      expect(unsure.modelAnswer).toBe(subconcept.explanation);
      expect(unsure.choices.map((choice) => choice.id)).toEqual(['similar', 'review']);
      // No verdict is told before the student chose.
      expect(client.all('tutor:verdict').filter((verdict) => verdict.questionId === sub.questionId)).toEqual([]);
      // A choice for the parent question is refused: the comparison is the subquestion's.
      expect((await client.command('answer:self-assess', { questionId: sub.parentQuestionId, choice: 'similar' })).ok).toBe(false);
      expect(await client.ok('answer:self-assess', { questionId: sub.questionId, choice: 'review' })).toMatchObject({ questionId: sub.questionId, verdict: 'bad' });
      const verdict = await client.waitForEvent('tutor:verdict', { where: (payload) => payload.questionId === sub.questionId });
      expect(verdict).toMatchObject({ verdict: 'bad', selfAssessed: true });
      await client.waitForEvent('tutor:reply-start', { where: (payload) => payload.kind === 'remedial' });
      // Asked once: the comparison is over.
      expect((await client.command('answer:self-assess', { questionId: sub.questionId, choice: 'similar' })).ok).toBe(false);
    } finally {
      client.socket.disconnect();
    }
  });

  it('GR17 비슷하게 답했어요 on an unsure subquestion is self-assessed good and the next subquestion (or the supplement) follows, with no remedial reply', async () => {
    const { client, sub, subconcept, total, sessionId } = await join();
    try {
      const reply = await unsureReply(subconcept);
      await client.ok('answer:submit', { questionId: sub.questionId, text: reply });
      await client.waitForEvent('tutor:unsure', { where: (payload) => payload.questionId === sub.questionId });
      await client.ok('answer:self-assess', { questionId: sub.questionId, choice: 'similar' });
      const verdict = await client.waitForEvent('tutor:verdict', { where: (payload) => payload.questionId === sub.questionId });
      expect(verdict).toMatchObject({ verdict: 'good', selfAssessed: true });
      if (total > 1) await client.waitForEvent('tutor:subquestion', { where: (payload) => payload.index === 2 });
      else await client.waitForEvent('tutor:reply-start', { where: (payload) => payload.kind === 'supplement' });
      expect(client.all('tutor:reply-start').filter((payload) => payload.kind === 'remedial')).toEqual([]);
      const transcript = (await app.lectures.transcriptPage(sessionId, undefined, 500)).items;
      const mine = transcript.filter((item) => 'questionId' in item && item.questionId === sub.questionId).map((item) => item.type);
      expect(mine).toEqual(['subquestion', 'answer', 'unsure', 'verdict']);
    } finally {
      client.socket.disconnect();
    }
  });
});
