/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - FK1 — Offline. Over 200 quizzes of the offline model no position holds more than 30 % of the keys, and no quiz
 *   puts three of its five keys in one position (each run of four items uses every position …
 * - FK2 — Any model. The same for a model that always keys the first choice (the fake Gemini).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { generateQuizItems, loadQuizSource } from '../src/quiz/quiz-agent.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { QUIZ_MATERIAL, quizMaterials, quizRetriever } from './support/quiz-material.js';

/**
 * FK1–FK2 (test/SPEC.md "Fair keys"): over 200 generated quizzes no position holds more than 30 % of the keys, and no
 * quiz puts three of its five keys in one place — with the offline model, and with a model that always keys the
 * first choice (the fake Gemini).
 */

const QUIZZES = 200;
const seedOf = (index: number) => index.toString(16).padStart(32, '0');

function shares(positions: readonly number[][]): { overall: number[]; worstQuiz: number } {
  const overall = [0, 0, 0, 0];
  let worstQuiz = 0;
  for (const quiz of positions) {
    const counts = [0, 0, 0, 0];
    for (const position of quiz) {
      overall[position] = (overall[position] ?? 0) + 1;
      counts[position] = (counts[position] ?? 0) + 1;
    }
    worstQuiz = Math.max(worstQuiz, ...counts);
  }
  const total = overall.reduce((sum, value) => sum + value, 0);
  return { overall: overall.map((value) => value / total), worstQuiz };
}

describe('FK1 fair keys on the offline model', () => {
  it('spreads the keys of 200 quizzes over the four positions', async () => {
    const model = createOfflineModel(offlineTasks);
    const source = await loadQuizSource(quizMaterials(), quizRetriever(), QUIZ_MATERIAL.id);
    const positions: number[][] = [];
    for (let index = 0; index < QUIZZES; index += 1) {
      const items = await generateQuizItems({ model, source, seed: seedOf(index) });
      positions.push(items.map((item) => item.answer));
    }
    const { overall, worstQuiz } = shares(positions);
    for (const share of overall) expect(share).toBeLessThanOrEqual(0.3);
    expect(worstQuiz).toBeLessThanOrEqual(2);
  });
});

describe('FK2 fair keys on a model that always keys the first choice (fake Gemini)', () => {
  let fake: ScriptedProvider;
  beforeEach(async () => {
    fake = await startScriptedProvider('gemini');
  });
  afterEach(async () => {
    await fake.close();
  });

  it('spreads the keys of 200 quizzes over the four positions', async () => {
    const source = await loadQuizSource(quizMaterials(), quizRetriever(), QUIZ_MATERIAL.id);
    const model = fake.model({ maxAttempts: 1 });
    const positions: number[][] = [];
    for (let index = 0; index < QUIZZES; index += 1) {
      const items = ['easy', 'easy', 'medium', 'medium', 'hard'].map((difficulty, slot) => ({
        question: `${index}-${slot}: 기댓값을 구하는 방법으로 옳은 것은?`,
        choices: ['값에 확률을 곱해 모두 더한다', '가장 큰 값을 고른다', '가운데 값을 고른다', '값을 모두 곱한다'],
        answer: 0,
        explanation: '기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.',
        difficulty,
        sources: [1],
      }));
      fake.enqueue({ json: { items } });
      const generated = await generateQuizItems({ model, source, seed: seedOf(index) });
      for (const item of generated) expect(item.choices[item.answer]).toBe('값에 확률을 곱해 모두 더한다');
      positions.push(generated.map((item) => item.answer));
    }
    const { overall, worstQuiz } = shares(positions);
    for (const share of overall) expect(share).toBeLessThanOrEqual(0.3);
    expect(worstQuiz).toBeLessThanOrEqual(2);
  });
});
