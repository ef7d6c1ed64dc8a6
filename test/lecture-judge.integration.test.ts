/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TJ1 — Never good. A give-up ("잘 모르겠어요", "idk"), the question echoed back, a passage pasted from the lecture that
 *   is not the model answer, and an answer that negates … are bad; a bare keyword list is not good either, but the
 *   tutor is not sure of it (a list of terms can be what a question asks for) and asks the student to compare.
 * - TJ2 — Paraphrases. A correct paraphrase of the model answer in the student's own words gets `verdict: "good"`
 *   with feedback that starts "좋아요"; so do "표본이 많아질수록 표본평균이 모평균에 가까워져요", "표본평균은 표본마다 다릅니다.
 * - TJ3 — Model answers. The model answer is made of the lecture's definition and explanation sentences about the
 *   question's concept (`평균(산술평균)은 …`, `…을 표본평균이라고 합니다`, `확률변수 X는 …` …
 * - TJ5 — Model answers come through the Retriever. The tutor's model answer is written from the passages the
 *   Retriever finds for the question (the chapter's first, then the material's …
 * - TJ4 — Feedback. A bad verdict's feedback names, in quotes, at most two ideas of the model answer the answer left
 *   out (`'개수'라는 생각이 빠져 있어요`), never numbers, variables, symbols …
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../src/materials/index.js';
import {
  chapterGenerated,
  generatedChapter,
  joinLecture,
  loadSample,
  samplePdfBytes,
  type AnswerPolicy,
  type Asked,
} from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The offline tutor's judgement of a student's answer, through the real `/tutor` socket on the sample material:
 * each case is one student answering the question about 평균 in the first chapter (questions before it are answered
 * with the tutor's own model answer). Rule ids: test/SPEC.md (TJ).
 */

/** The sample's definition of 평균 (src/materials/sample-pdf.ts, page 2). */
const DEFINITION = '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.';
/** Two sentences of the lecture that are not about what 평균 is (page 3): pasting them is not an answer. */
const PASSAGE = '각 값에서 평균을 뺀 편차를 모두 더하면 항상 0이 됩니다. 평균은 아주 크거나 작은 값(이상값)에 크게 흔들립니다.';

/** The question the cases answer: the first chapter's question about 평균 itself (not 표본평균 or 모평균). */
const isTarget = (asked: Asked): boolean =>
  asked.parentQuestionId === undefined && /^c0q/u.test(asked.questionId) && /(?:^|[^본모])평균/u.test(asked.text);

interface Outcome {
  question: string;
  /** `unsure`: the tutor was not sure and asked the student to compare with the model answer (GR8). */
  verdict: 'good' | 'bad' | 'unsure';
  feedback: string;
  /** The reply that followed the verdict when it was good (the supplement), else undefined. */
  supplement: string | undefined;
  /** The passages the supplement's model answer was written from, as its `tutor:reply-end` cites them. */
  supplementSources: { chapter: number; chapterTitle: string; startPage: number; endPage: number }[] | undefined;
}

let app: TestApp;
let material: Material;

beforeAll(async () => {
  await samplePdfBytes();
  app = await startTestApp();
  material = await loadSample(app);
  return () => app.stop();
});

/** A student who answers the target question with `answer(question)` and every question before it well. */
async function answerTarget(answer: (question: string) => string): Promise<Outcome> {
  const policy: AnswerPolicy = async (asked) => {
    if (isTarget(asked)) return answer(asked.text);
    if (asked.parentQuestionId !== undefined) return undefined;
    await chapterGenerated(app, material.id, 0);
    const lecture = (await generatedChapter(app, material.id, 0)).text;
    return (await app.lectures.tutor.modelAnswer({ question: asked.text, lecture })).modelAnswer;
  };
  const { client } = await joinLecture(app, material.id, { policy });
  try {
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start', {});
    const question = await client.waitForEvent('lecture:question', { where: (payload) => isTarget(payload) });
    const told = await client.waitFor(
      (event) => (event.event === 'tutor:verdict' || event.event === 'tutor:unsure') && event.payload.questionId === question.questionId,
    );
    const verdict = told.event === 'tutor:verdict' ? (told.payload as { verdict: 'good' | 'bad'; feedback: string }) : { verdict: 'unsure' as const, feedback: '' };
    let supplement: string | undefined;
    let supplementSources: Outcome['supplementSources'];
    if (verdict.verdict === 'good') {
      const start = await client.waitForEvent('tutor:reply-start', { where: (payload) => payload.kind === 'supplement' });
      const end = await client.waitForEvent('tutor:reply-end', { where: (payload) => payload.replyId === start.replyId });
      supplementSources = end.sources;
      supplement = client
        .all('tutor:reply-delta')
        .filter((delta) => delta.replyId === start.replyId)
        .map((delta) => delta.text)
        .join('');
    }
    expect(client.answerErrors).toEqual([]);
    return { question: question.text, verdict: verdict.verdict, feedback: verdict.feedback, supplement, supplementSources };
  } finally {
    client.socket.disconnect();
  }
}

describe('the offline tutor judges answers with the answer assessor (sample material, /tutor)', () => {
  it('TJ1: a give-up, an echo, a pasted passage, a keyword list and a negated model answer are never good', async () => {
    const cases: Record<string, (question: string) => string> = {
      'give-up': () => '잘 모르겠어요',
      echo: (question) => question,
      'pasted passage': () => PASSAGE,
      'keyword list': () => '평균, 자료, 개수, 무게중심',
      negation: () => '평균은 자료의 무게중심이 아닙니다.',
      'negated definition': () => '평균은 자료의 값을 모두 더한 뒤 개수로 나눈 값이 아니에요.',
    };
    const outcomes = await Promise.all(Object.values(cases).map((answer) => answerTarget(answer)));
    const verdicts = Object.fromEntries(Object.keys(cases).map((name, index) => [name, outcomes[index]?.verdict]));
    expect(verdicts).toEqual(Object.fromEntries(Object.keys(cases).map((name) => [name, name === 'keyword list' ? 'unsure' : 'bad'])));
    for (const outcome of outcomes.filter((entry) => entry.verdict === 'bad')) {
      // TJ4: the feedback is Korean prose about ideas, never numbers or symbols picked from examples.
      expect(outcome.feedback).toMatch(/[가-힣]/u);
      expect(outcome.feedback).not.toMatch(/\d|x̄|μ|'[A-Za-z]'/u);
    }
    expect(outcomes[0]?.feedback).toMatch(/^괜찮아요/u);
    expect(outcomes[4]?.feedback).toContain('반대');
    // The pasted passage really is the lecture's text, as the student saw it (a formula sits between its sentences).
    const lecture = (await generatedChapter(app, material.id, 0)).text.replace(/\s+/gu, ' ');
    for (const sentence of PASSAGE.split(/(?<=\.) /u)) expect(lecture).toContain(sentence);
  });

  it('TJ2 TJ3: a paraphrase is good, and the model answer shown after the verdict is the definition sentence', async () => {
    const outcome = await answerTarget(() => '값을 모두 더한 뒤 그 개수로 나눈 값이고, 자료의 무게중심 같은 거예요.');
    expect(outcome.verdict).toBe('good');
    expect(outcome.feedback).toMatch(/^좋아요/u);
    // TJ3: after the verdict the student reads the model answer: the material's definition, not the title page,
    // the contents, a running header or the salary example.
    expect(outcome.supplement).toContain(DEFINITION);
    expect(outcome.supplement).toContain('평균은 자료의 무게중심입니다.');
    for (const never of ['기초 통계', '1장', '예:', '연봉', '14825', '50000', '첫걸음']) expect(outcome.supplement).not.toContain(never);
  });

  it('TJ5: the model answer is written from the material passages the Retriever finds, and the supplement cites them', async () => {
    const outcome = await answerTarget(() => '값을 모두 더한 뒤 그 개수로 나눈 값이고, 자료의 무게중심 같은 거예요.');
    expect(outcome.verdict).toBe('good');
    // The definition of 평균 is on page 2 of chapter 1: the supplement that states the model answer cites it.
    expect(outcome.supplementSources).toEqual(expect.arrayContaining([expect.objectContaining({ chapter: 0, startPage: expect.any(Number) })]));
    const first = outcome.supplementSources?.find((source) => source.chapter === 0);
    expect(first?.startPage).toBeLessThanOrEqual(2);
    expect(first?.endPage).toBeGreaterThanOrEqual(2);

    // With no lecture text at all (a chapter still being written), the passages alone give the definition.
    const fromPassages = await app.lectures.tutor.modelAnswer({ question: '평균이란 무엇인가요?', lecture: '', source: { materialId: material.id, chapter: 0 } });
    expect(fromPassages.modelAnswer).toContain(DEFINITION);
    expect(fromPassages.sources.map((source) => source.chapter)).toContain(0);
    // Without a material there is nothing to retrieve: no sources, and the question stands in for an answer.
    const nowhere = await app.lectures.tutor.modelAnswer({ question: '평균이란 무엇인가요?', lecture: '' });
    expect(nowhere.sources).toEqual([]);
  });

  it('TJ4: a bad answer is told which idea of the model answer it left out, in quotes', async () => {
    // A sum is half of the definition: the count it is divided by is missing. The offline judge is not sure enough
    // of a half answer to tell it (GR8: the student compares with the model answer); its feedback names the idea.
    const answer = '값들을 전부 더한 합계를 말해요.';
    const outcome = await answerTarget(() => answer);
    expect(outcome.verdict).toBe('unsure');
    await chapterGenerated(app, material.id, 0);
    const lecture = (await generatedChapter(app, material.id, 0)).text;
    const judged = await app.lectures.tutor.judge({ question: outcome.question, lecture, modelAnswer: DEFINITION, answer });
    expect(judged.verdict).toBe('bad');
    expect(judged.confidence).toBeLessThan(0.75);
    expect(judged.feedback).toMatch(/'[가-힣]+'(?:, '[가-힣]+')?(?:이)?라는 생각이 빠져 있어요/u);
    expect(judged.feedback).toContain("'개수'");
  });
});
