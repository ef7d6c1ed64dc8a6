/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SD17 — The grader's related topic is the item's concept. `related_topic` is read from the item's key keywords and
 *   the source passage (the keyword the source uses most, any synonym, spaces and case aside; ties to the earlier;
 *   no source or none used: the first keyword; no keywords: the plan's target topic, else the question's start), not
 *   a copy of the planned topic and not the model's phrase for one answer: every student's answer to an item carries
 *   the same concept, so the learner profile and the feedback report still group by it. A question that names its
 *   concept (`X가 무엇인지 …`, `X와 Y의 차이를 …`) has that concept, whatever its keywords (what an answer must say
 *   about it). `test/seed-related-topic.test.ts`
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExamGrader, buildPriorProfile, relatedTopicOf, type ExamProblem } from '../src/exams/index.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';

/**
 * SD17 (test/SPEC.md): seed 000's `Agent_ShortAnswerGrader` `related_topic`, on the offline model and through the real
 * OpenAI-compatible adapter against its fake (a model proposing a different phrase per answer).
 */

const SOURCE =
  '표본평균은 표본에 속한 값들의 평균이다. 표본의 크기가 커지면 표본평균의 분산은 작아진다. 분산은 흩어진 정도를 나타낸다. 모분산을 표본 크기로 나눈 값이 표본평균의 분산이다.';
const PLANNED = '표본평균의 성질';
const VARIANCE: ExamProblem = {
  id: 2,
  type: 'Descriptive',
  question_content: '표본의 크기가 커지면 표본평균의 분산은 어떻게 되는지 설명하시오.',
  model_answer: '표본의 크기가 커지면 표본평균의 분산은 작아진다. 표본평균의 분산은 모분산을 표본 크기로 나눈 값이기 때문이다.',
  key_keywords: ['작아진다|감소', '표본 크기', 'Variance/분산'],
  intent_diagnosis: '표본 크기와 표본평균의 분산의 관계를 이해하는지 확인한다.',
};
const context = { materialId: 'material-1', accountId: 'account-1', source: SOURCE, topic: PLANNED };

describe('SD17 the concept of an item', () => {
  it('SD17 the keyword the source uses most (any synonym), ties to the earlier; else the first keyword, the plan’s topic, the question', () => {
    // 분산 (a synonym of Variance) four times, 표본 크기 twice (spaces aside), 작아진다 once: the first synonym is named.
    expect(relatedTopicOf(VARIANCE, { source: SOURCE, planned: PLANNED })).toBe('Variance');
    expect(relatedTopicOf({ ...VARIANCE, key_keywords: ['작아진다', '흩어진 정도'] }, { source: SOURCE })).toBe('작아진다');
    expect(relatedTopicOf(VARIANCE, { planned: PLANNED })).toBe('작아진다');
    expect(relatedTopicOf({ ...VARIANCE, key_keywords: ['모평균', '중앙값'] }, { source: SOURCE })).toBe('모평균');
    expect(relatedTopicOf({ ...VARIANCE, key_keywords: [] }, { source: SOURCE, planned: PLANNED })).toBe(PLANNED);
    expect(relatedTopicOf({ ...VARIANCE, key_keywords: [] }, { source: SOURCE })).toBe(VARIANCE.question_content);
  });

  it('SD17 a question that names its concept has that concept, not its first keyword', () => {
    const process = { question_content: 'process가 무엇인지 자료의 내용을 바탕으로 설명하시오.', key_keywords: ['address space', 'program', 'PCB'] };
    expect(relatedTopicOf(process, { source: 'A process is a program in execution, with its own address space.' })).toBe('process');
    const division = { question_content: '체세포 분열과 감수 분열의 차이를 자료의 정의를 바탕으로 설명하시오.', key_keywords: ['염색체 수', '생식세포'] };
    expect(relatedTopicOf(division)).toBe('체세포 분열과 감수 분열');
    // A question that names no concept keeps the keyword reading.
    expect(relatedTopicOf({ question_content: '표본평균의 분산은 어떻게 되는가?', key_keywords: ['분산', '작아진다'] })).toBe('분산');
  });

  it('SD17 offline: every answer to the item carries its concept, not the planned topic; the profile groups the item’s answers under it', async () => {
    const grader = new ExamGrader({ model: createOfflineModel(offlineTasks) });
    const answers = ['표본 크기가 커질수록 표본평균의 분산은 작아진다. 모분산을 표본 크기로 나누기 때문이다.', '표본이 커지면 분산도 커진다.', '모르겠어요'];
    const graded = await Promise.all(answers.map((answer) => grader.grade(VARIANCE, answer, context)));
    expect(graded.map((item) => item.related_topic)).toEqual(['Variance', 'Variance', 'Variance']);
    expect(graded.map((item) => item.result_status)).toEqual(['Correct', 'Incorrect', 'Incorrect']);
    // Two students' wrong answers to the item, in their exams: one weak topic, the item's concept.
    const profile = buildPriorProfile(null, 'short_answer', { lectureVerdicts: [], handTopics: [], quizAnswers: [], exams: [{ examId: 'e1', log: { evaluation_items: [graded[1]!, { ...graded[2]!, question_id: 3 }] } }] }, 1);
    expect(profile.user_status.weak_topics.map((topic) => topic.topic)).toEqual(['Variance']);
  });
});

describe('SD17 through the OpenAI-compatible adapter', () => {
  let fake: ScriptedProvider;
  beforeEach(async () => {
    fake = await startScriptedProvider('openai');
  });
  afterEach(async () => {
    await fake.close();
  });

  it('SD17 the model’s phrase for each answer is not the topic: both answers carry the item’s concept', async () => {
    const grader = new ExamGrader({ model: fake.model({ maxAttempts: 1 }) });
    fake.enqueue({ json: { result_status: 'Correct', related_topic: '표본평균의 분산 감소', feedback_message: '정확합니다.' } });
    fake.enqueue({ json: { result_status: 'Partial_Correct', related_topic: '중심극한정리', feedback_message: '이유가 부족합니다.' } });
    const first = await grader.grade(VARIANCE, '표본 크기가 커지면 표본평균의 분산이 작아진다. 모분산을 표본 크기로 나누기 때문이다.', context);
    const second = await grader.grade(VARIANCE, '표본 크기가 커지면 분산이 작아진다고 배웠다.', context);
    expect([first.related_topic, second.related_topic]).toEqual(['Variance', 'Variance']);
  });
});
