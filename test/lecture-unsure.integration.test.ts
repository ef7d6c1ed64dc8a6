/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GR8 — Unsure lecture verdict. (`test/lecture-unsure.integration.test.ts`). Below the threshold the tutor sends
 *   `tutor:unsure` (the model answer, 비슷하게 답했어요 / 다시 볼래요) instead of a verdict; `answer:self-assess` records a
 *   self-assessed verdict (`selfAssessed: true`) in the transcript and the tutoring goes on (supplement or
 *   subconcepts); a choice for another question, or twice, is refused.
 * - GR9 — Confident verdicts are told. A confident answer gets its verdict directly, never `tutor:unsure`.
 * - GR10 — Self-assessment weighs less. In the prior profile a self-assessed lecture verdict counts 0.5
 *   (`SELF_ASSESSED_WEIGHT`) against 1 for a tutor's verdict.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { lectureSignals } from '../src/exams/learner-signals.js';
import { buildPriorProfile } from '../src/exams/prior-profile.js';
import { UNSURE_TEXT } from '../src/lecture/tutoring-steps.js';
import type { Material } from '../src/materials/index.js';
import type { TranscriptItem } from '../src/protocol/wire/tutor.js';
import { chapterGenerated, generatedChapter, joinLecture, loadSample, samplePdfBytes, type AnswerPolicy, type Asked } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * GR8–GR9 (test/SPEC.md, "Grading: … confidence and review"): the lecture's unsure path through the real `/tutor`
 * socket on the sample material with the offline tutor: an answer the judge is not sure of gets `tutor:unsure` with
 * the model answer and the two choices instead of a verdict; the student's choice becomes a self-assessed verdict
 * in the transcript, the tutoring goes on from it, and it counts with a lower weight in the learner profile.
 */

/** The first chapter's question about 평균 itself (as in lecture-judge.integration.test.ts). */
const isTarget = (asked: Asked): boolean => asked.parentQuestionId === undefined && /^c0q/u.test(asked.questionId) && /(?:^|[^본모])평균/u.test(asked.text);
/** Half of the definition in other words: the offline judge cannot tell whether it is enough. */
const UNSURE_ANSWER = '자료를 대표하는 가운데 값이에요.';
/** The definition in the student's words: judged with confidence. */
const SURE_ANSWER = '값을 모두 더한 뒤 그 개수로 나눈 값이고, 자료의 무게중심 같은 거예요.';

let app: TestApp;
let material: Material;

beforeAll(async () => {
  await samplePdfBytes();
  app = await startTestApp();
  material = await loadSample(app);
  return () => app.stop();
});

async function transcriptOf(sessionId: string): Promise<TranscriptItem[]> {
  return (await app.lectures.transcriptPage(sessionId, undefined, 500)).items;
}

/** A student who answers the target question with `answer` and every question before it with the model answer. */
async function join(answer: string) {
  const policy: AnswerPolicy = async (asked) => {
    if (isTarget(asked)) return answer;
    if (asked.parentQuestionId !== undefined) return undefined;
    await chapterGenerated(app, material.id, 0);
    const lecture = (await generatedChapter(app, material.id, 0)).text;
    return (await app.lectures.tutor.modelAnswer({ question: asked.text, lecture })).modelAnswer;
  };
  const joined = await joinLecture(app, material.id, { policy });
  await joined.client.ok('lecture:speed', { tokensPerSecond: 200 });
  await joined.client.ok('lecture:start', {});
  const question = await joined.client.waitForEvent('lecture:question', { where: (payload) => isTarget(payload) });
  return { ...joined, question };
}

describe('the unsure lecture verdict (offline tutor, /tutor)', () => {
  it('GR8 an unsure answer gets tutor:unsure with the model answer and two choices; 비슷하게 답했어요 becomes a self-assessed good and the supplement follows', async () => {
    const { client, question, sessionId } = await join(UNSURE_ANSWER);
    try {
      const unsure = await client.waitForEvent('tutor:unsure', { where: (payload) => payload.questionId === question.questionId });
      expect(unsure.text).toBe(UNSURE_TEXT);
      expect(unsure.modelAnswer.length).toBeGreaterThan(10);
      expect(unsure.choices).toEqual([
        { id: 'similar', label: '비슷하게 답했어요' },
        { id: 'review', label: '다시 볼래요' },
      ]);
      // No verdict is told before the student chose.
      expect(client.all('tutor:verdict').filter((verdict) => verdict.questionId === question.questionId)).toEqual([]);
      // A choice for another question is refused.
      expect((await client.command('answer:self-assess', { questionId: 'c9q9', choice: 'similar' })).ok).toBe(false);
      expect(await client.ok('answer:self-assess', { questionId: question.questionId, choice: 'similar' })).toMatchObject({ questionId: question.questionId, verdict: 'good' });
      const verdict = await client.waitForEvent('tutor:verdict', { where: (payload) => payload.questionId === question.questionId });
      expect(verdict).toMatchObject({ verdict: 'good', selfAssessed: true });
      await client.waitForEvent('tutor:reply-start', { where: (payload) => payload.kind === 'supplement' });
      // Asked once: the comparison is over.
      expect((await client.command('answer:self-assess', { questionId: question.questionId, choice: 'review' })).ok).toBe(false);

      const transcript = await transcriptOf(sessionId);
      const mine = transcript.filter((item) => 'questionId' in item && item.questionId === question.questionId).map((item) => item.type);
      expect(mine).toEqual(['question', 'answer', 'unsure', 'verdict']);
      expect(transcript.find((item) => item.type === 'verdict' && item.questionId === question.questionId)).toMatchObject({ verdict: 'good', selfAssessed: true });
      // In the learner profile a self-assessed good counts half as much as a tutor's good.
      const signals = lectureSignals(transcript);
      const self = signals.lectureVerdicts.find((entry) => entry.selfAssessed === true);
      expect(self?.verdict).toBe('good');
    } finally {
      client.socket.disconnect();
    }
  });

  it('GR9 다시 볼래요 becomes a self-assessed bad and the subconcepts follow; a confident answer gets its verdict directly', async () => {
    const unsure = await join(UNSURE_ANSWER);
    try {
      await unsure.client.waitForEvent('tutor:unsure', { where: (payload) => payload.questionId === unsure.question.questionId });
      await unsure.client.ok('answer:self-assess', { questionId: unsure.question.questionId, choice: 'review' });
      const verdict = await unsure.client.waitForEvent('tutor:verdict', { where: (payload) => payload.questionId === unsure.question.questionId });
      expect(verdict).toMatchObject({ verdict: 'bad', selfAssessed: true });
      await unsure.client.waitForEvent('tutor:subquestion', { where: (payload) => payload.parentQuestionId === unsure.question.questionId });
    } finally {
      unsure.client.socket.disconnect();
    }
    const sure = await join(SURE_ANSWER);
    try {
      const verdict = await sure.client.waitForEvent('tutor:verdict', { where: (payload) => payload.questionId === sure.question.questionId });
      expect(verdict.verdict).toBe('good');
      expect(verdict.selfAssessed).toBeUndefined();
      expect(sure.client.all('tutor:unsure')).toEqual([]);
    } finally {
      sure.client.socket.disconnect();
    }
  });

  it('GR10 a self-assessed verdict weighs half of a tutor verdict in the prior profile', () => {
    const signals = (verdicts: { verdict: 'good' | 'bad'; selfAssessed?: true }[]) => ({
      lectureVerdicts: verdicts.map((entry, index) => ({ question: `질문 ${index}`, concepts: [], ...entry })),
      handTopics: [],
      quizAnswers: [],
      exams: [],
    });
    // Four tutor bads and four self-assessed goods: 2 of 6 weighed verdicts good, below the Intermediate bar (half);
    // four and four tutor verdicts are half good, Intermediate.
    const bads = Array.from({ length: 4 }, () => ({ verdict: 'bad' as const }));
    const weighed = buildPriorProfile(null, 'short_answer', signals([...bads, ...Array.from({ length: 4 }, () => ({ verdict: 'good' as const, selfAssessed: true as const }))]), 0);
    const plain = buildPriorProfile(null, 'short_answer', signals([...bads, ...Array.from({ length: 4 }, () => ({ verdict: 'good' as const }))]), 0);
    expect(weighed.user_status.proficiency_level).toBe('Basic');
    expect(plain.user_status.proficiency_level).toBe('Intermediate');
  });
});
