import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../src/materials/index.js';
import { isConceptPhrase } from '../src/lecture/material-concepts.js';
import {
  chapterGenerated,
  generatedChapter,
  joinLecture,
  loadSample,
  samplePdfBytes,
  WRONG_ANSWER,
  type AnswerPolicy,
  type Asked,
} from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A bad answer's remediation on the offline model walks real concepts (rule SC2 of test/SPEC.md): the sample
 * material through the real `/tutor` socket; the student gives up on the first chapter's question about 평균, gets
 * the first sub-question wrong too and answers the others with the explanation the tutor holds for them.
 */

/** The first chapter's question about 평균 itself (not 표본평균 or 모평균). */
const isTarget = (asked: Asked): boolean =>
  asked.parentQuestionId === undefined && /^c0q/u.test(asked.questionId) && /(?:^|[^본모])평균/u.test(asked.text);

let app: TestApp;
let material: Material;
beforeAll(async () => {
  await samplePdfBytes();
  app = await startTestApp();
  material = await loadSample(app);
});
afterAll(async () => {
  await app?.stop();
});

describe('SC2: the offline remediation of a bad answer (sample material, /tutor)', () => {
  it('asks about concepts the lecture defines, each explained by its definition, never numbers, variables or the cover', async () => {
    let lecture = '';
    const policy: AnswerPolicy = async (asked, client) => {
      await chapterGenerated(app, material.id, 0);
      lecture = (await generatedChapter(app, material.id, 0)).text;
      if (isTarget(asked)) return WRONG_ANSWER;
      if (asked.parentQuestionId !== undefined) {
        if (asked.index === 1) return WRONG_ANSWER;
        const record = await app.lectures.repository.load(client.sessionId);
        const state = record?.state;
        const explanation = state?.kind === 'tutoring' ? state.subconcepts?.[(asked.index ?? 1) - 1]?.explanation : undefined;
        return explanation ?? WRONG_ANSWER;
      }
      return (await app.lectures.tutor.modelAnswer({ question: asked.text, lecture })).modelAnswer;
    };
    const { client } = await joinLecture(app, material.id, { policy });
    try {
      await client.ok('lecture:speed', { tokensPerSecond: 200 });
      await client.ok('lecture:start');
      const question = await client.waitForEvent('lecture:question', { where: (payload) => isTarget(payload) });
      const verdict = await client.waitForEvent('tutor:verdict', { where: (payload) => payload.questionId === question.questionId });
      expect(verdict.verdict).toBe('bad');
      const start = await client.waitForEvent('tutor:reply-start', { where: (payload) => payload.kind === 'supplement' });
      await client.waitForEvent('tutor:reply-end', { where: (payload) => payload.replyId === start.replyId });

      const subquestions = client.all('tutor:subquestion').filter((sub) => sub.parentQuestionId === question.questionId);
      const concepts = subquestions.map((sub) => sub.concept);
      expect(concepts.length).toBeGreaterThanOrEqual(2);
      expect(concepts.length).toBeLessThanOrEqual(3);
      for (const sub of subquestions) {
        expect(isConceptPhrase(sub.concept)).toBe(true);
        expect(lecture).toContain(sub.concept);
        expect(sub.concept).not.toMatch(/^(?:평균|산술평균|자료|기초 통계)$/u);
        expect(sub.text).toContain(sub.concept);
      }
      // The wrong first sub-answer is remediated with the sub-concept's own definition sentence, not an example.
      const remedial = client.all('tutor:reply-start').find((reply) => reply.kind === 'remedial');
      expect(remedial).toBeDefined();
      const text = client
        .all('tutor:reply-delta')
        .filter((delta) => delta.replyId === remedial?.replyId)
        .map((delta) => delta.text)
        .join('');
      expect(text).toContain(`'${concepts[0]}'`);
      const explanation = text.split('\n\n')[1] ?? '';
      expect(explanation).toContain(concepts[0]);
      expect(explanation).not.toMatch(/^(?:예|예를 들어)|이 자료는|\d+장 /u);
      expect(client.answerErrors).toEqual([]);
    } finally {
      client.socket.disconnect();
    }
  });
});
