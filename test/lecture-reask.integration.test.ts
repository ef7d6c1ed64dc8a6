import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { lectureSignals } from '../src/exams/index.js';
import { buildPriorProfile } from '../src/exams/prior-profile.js';
import { shortQuestion, toPublicPhase } from '../src/lecture/session-state.js';
import type { Material } from '../src/materials/index.js';
import { chapterGenerated, generatedChapter, joinLecture, loadSample, samplePdfBytes, WRONG_ANSWER, type AnswerPolicy } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * SD13 — Seed 003's remediation loop closes. After the subconcept exchanges of a wrong answer, the tutor asks the
 * parent question again in short form (`tutor:reask`, id `<parent>.r`, the phase awaiting that answer) before the
 * supplement; the reply is judged by the same judge and context as the first answer; the verdict is a
 * `tutor:verdict` on the re-ask id, both are in the transcript, and the learner profile's signals record whether the
 * student now has it (`afterRemediation`), which counts as an outcome in the profile. Offline model, the sample
 * material, real socket.io-client, on the memory store and on a real Redis.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

async function boot(store: 'memory' | 'redis', context: TestContext): Promise<{ app: TestApp; material: Material }> {
  const app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url } : {});
  context.onTestFinished(() => app.stop());
  return { app, material: await loadSample(app) };
}

describe.concurrent.each(['memory', 'redis'] as const)('SD13 the parent question asked again after its subconcepts (%s store)', (store) => {
  it.for(['good', 'bad'] as const)('SD13 re-asks the parent in short form, judges the reply (%s) and records it', async (outcome, context) => {
    const { app, material } = await boot(store, context);
    // The first lecture question is answered wrongly; every subquestion with its own explanation; the re-ask by hand.
    let first: string | undefined;
    const policy: AnswerPolicy = async (asked, client) => {
      if (asked.reask) return undefined;
      if (asked.parentQuestionId === undefined) {
        first ??= asked.questionId;
        return asked.questionId === first ? WRONG_ANSWER : undefined;
      }
      const record = await app.lectures.repository.load(client.sessionId);
      const state = record?.state;
      return (state?.kind === 'tutoring' ? state.subconcepts?.[(asked.index ?? 1) - 1]?.explanation : undefined) ?? WRONG_ANSWER;
    };
    const { client } = await joinLecture(app, material.id, { policy });
    try {
      await client.ok('lecture:speed', { tokensPerSecond: 200 });
      await client.ok('lecture:start');
      const question = await client.waitForEvent('lecture:question');
      const id = question.questionId;
      const reask = await client.waitForEvent('tutor:reask');
      expect(reask).toMatchObject({ questionId: `${id}.r`, parentQuestionId: id, text: shortQuestion(question.text) });
      expect(reask.text.length).toBeGreaterThan(0);
      expect(reask.text.length).toBeLessThanOrEqual(question.text.length);
      // Every subquestion was asked and judged before the re-ask; no supplement yet.
      const subs = client.all('tutor:subquestion');
      expect(subs.length).toBeGreaterThanOrEqual(2);
      const verdictIds = client.all('tutor:verdict').map((verdict) => verdict.questionId);
      expect(verdictIds).toEqual([id, ...subs.map((sub) => sub.questionId)]);
      expect(client.all('tutor:reply-start').filter((reply) => reply.kind === 'supplement')).toEqual([]);

      // The stored state waits for the re-ask, and a reloading page is told so.
      const record = await app.lectures.repository.load(client.sessionId);
      expect(record && toPublicPhase(record.state)).toEqual({ kind: 'awaiting-answer', chapter: question.chapter, questionId: `${id}.r`, text: reask.text, parentQuestionId: id });
      const resumed = await client.ok('session:resume', { lastSeq: 0 });
      expect(resumed).toBeDefined();

      let answer = WRONG_ANSWER;
      if (outcome === 'good') {
        await chapterGenerated(app, material.id, question.chapter);
        const lecture = (await generatedChapter(app, material.id, question.chapter)).text;
        answer = (await app.lectures.tutor.modelAnswer({ question: question.text, lecture })).modelAnswer;
      }
      await client.ok('answer:submit', { questionId: `${id}.r`, text: answer.slice(0, 2000) });
      const verdict = await client.waitForEvent('tutor:verdict', { where: (payload) => payload.questionId === 'c0q1.r' });
      expect(verdict.verdict).toBe(outcome);
      const supplement = await client.waitForEvent('tutor:reply-start', { where: (payload) => payload.kind === 'supplement' });
      await client.waitForEvent('tutor:reply-end', { where: (payload) => payload.replyId === supplement.replyId });

      const transcript = await app.lectures.repository.readTranscript(client.sessionId);
      const types = transcript.filter((item) => 'questionId' in item && item.questionId === `${id}.r`).map((item) => item.type);
      expect(types).toEqual(['reask', 'answer', 'verdict']);
      const signals = lectureSignals(transcript);
      expect(signals.lectureVerdicts[0]).toMatchObject({ verdict: 'bad', afterRemediation: outcome });
      expect(signals.lectureVerdicts[0]?.concepts.length).toBeGreaterThanOrEqual(2);
      // The re-ask is an outcome of its own in the profile: one bad verdict and the re-ask make two.
      const profile = buildPriorProfile(null, 'short_answer', { ...signals, quizAnswers: [], exams: [] }, 0);
      const evidence = profile.user_status.weak_topics.flatMap((topic) => topic.evidence);
      expect(evidence.some((text) => text.includes(outcome === 'good' ? '다시 물었을 때 이해함' : '다시 물었을 때도 오답'))).toBe(true);
      expect(client.answerErrors).toEqual([]);
      expect(client.seqErrors).toEqual([]);
    } finally {
      client.socket.disconnect();
    }
  });
});
