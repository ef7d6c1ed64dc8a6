/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SD12 — Feedback from the source. `Generator_feedBack` receives the passages of the items graded Incorrect or
 *   Partial_Correct (seed 000's `source_material`: the material's nearest passage to each question) in the prompt,
 *   fenced by question, chapter and pages; the offline report quotes each one's first sentence under its weak topic.
 *   `test/seed-feedback.test.ts`
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExamFeedback, type ChapterRef, type EvaluationItem, type ExamLog, type LearnerProfile, type SourcePassage } from '../src/exams/index.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';

/**
 * SD12 (test/SPEC.md): seed 000's `Generator_feedBack(log, exam_type, source_material, timestamp)` receives the source
 * passages of the weak items, not only chapter titles, and its report quotes what to review from them.
 */

const CHAPTERS: ChapterRef[] = [
  { chapter: 0, title: '평균과 분산', pages: [1, 2, 3] },
  { chapter: 1, title: '표본평균의 분포', pages: [4, 5] },
];

const graded = (question_id: number, result_status: EvaluationItem['result_status'], related_topic: string): EvaluationItem => ({
  question_id,
  result_status,
  question_content: `${related_topic}을(를) 설명하세요.`,
  user_response: '잘 모르겠습니다.',
  related_topic,
  feedback_message: `${related_topic}의 핵심을 빠뜨렸습니다.`,
  evidence: null,
});

const LOG: ExamLog = { evaluation_items: [graded(1, 'Correct', '평균'), graded(2, 'Incorrect', '분산의 정의'), graded(3, 'Partial_Correct', '표본평균의 분산')] };
const SOURCES: SourcePassage[] = [
  { question_id: 2, chapter: 0, pages: [2, 3], text: '분산은 값들이 평균에서 얼마나 흩어져 있는지를 나타내는 값이다. 편차를 제곱해 평균한다.' },
  { question_id: 3, chapter: 1, pages: [5], text: '표본평균의 분산은 모분산을 표본의 크기로 나눈 값이다.' },
];
const PROFILE: LearnerProfile = {
  learning_goal: { target_depth: 'Basic Recall', description: '' },
  user_status: { proficiency_level: 'Basic', weak_topics: [], strong_topics: [] },
  preferred_question_types: [],
  exams_taken: [],
  updated_at: 1,
};
const request = { log: LOG, examType: 'short_answer' as const, chapters: CHAPTERS, sources: SOURCES, timestamp: 1, examId: 'exam-1', profile: PROFILE, context: { materialId: 'm' } };

describe('SD12 the feedback report quotes the weak items’ source passages', () => {
  it('SD12 offline: each weak topic’s advice quotes its passage’s sentence with chapter and pages', async () => {
    const { report } = await new ExamFeedback({ model: createOfflineModel(offlineTasks) }).feedback(request);
    const advice = (topic: string) => report.weak_topics.find((entry) => entry.topic === topic)?.advice ?? '';
    expect(advice('분산의 정의')).toContain('복습할 내용(1장 p.2–3): 「분산은 값들이 평균에서 얼마나 흩어져 있는지를 나타내는 값이다.」');
    expect(advice('표본평균의 분산')).toContain('복습할 내용(2장 p.5): 「표본평균의 분산은 모분산을 표본의 크기로 나눈 값이다.」');
    // A passage goes with its own question only.
    expect(advice('분산의 정의')).not.toContain('모분산');
  });
});

describe.each(['gemini', 'openai'] as const)('SD12 the feedback model with the fake %s', (provider) => {
  let fake: ScriptedProvider;
  beforeEach(async () => {
    fake = await startScriptedProvider(provider);
  });
  afterEach(async () => {
    await fake.close();
  });

  it('SD12 the prompt carries the weak items’ passages, fenced, by question number, chapter and pages', async () => {
    fake.enqueue({ json: { summary: '요약', strengths: [], weak_topics: [], next_steps: ['복습'] } });
    await new ExamFeedback({ model: fake.model({ maxAttempts: 1 }) }).feedback(request);
    const body = (fake.requests()[0]?.body ?? {}) as { contents?: { parts?: { text?: string }[] }[] };
    const prompt = body.contents?.[0]?.parts?.at(-1)?.text ?? '';
    expect(prompt).toContain('<자료_발췌>\n2번 (1장 p.2–3): 분산은 값들이 평균에서 얼마나 흩어져 있는지를 나타내는 값이다.');
    expect(prompt).toContain('3번 (2장 p.5): 표본평균의 분산은 모분산을 표본의 크기로 나눈 값이다.');
    expect(prompt).toMatch(/quoting in 「」 the sentence of the item's passage/);
  });
});
