/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QS1 — A seed per quiz. Every generated quiz gets its own random 128-bit seed, stored with it (and shown to its
 *   owner).
 * - QS2 — Shuffled on the server. Whatever order the model wrote the choices in (a model that always answers A), the
 *   server orders each item's choices with the quiz's seed; the right choice stays right.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { QuizItem } from '../src/protocol/quiz.js';
import { difficultyPlan, generateQuiz } from '../src/quiz/quiz-agent.js';
import { newQuizSeed, QUIZ_SEED, shuffleChoices } from '../src/quiz/quiz-seed.js';
import { fakeGeminiModel, FakeGemini } from './support/fake-gemini.js';
import { SAMPLE_MATERIAL_TEXT } from './support/hand-material.js';
import { countTerm, QUIZ_MATERIAL, quizMaterials, quizRetriever, withoutChoiceOrder, withoutIds } from './support/quiz-material.js';

/**
 * K rules (test/SPEC.md): every generated quiz has its own seed, so the answer key of a quiz cannot be predicted by
 * generating it again from the same material. The seeds here are fixed, so every assertion is deterministic.
 */

const SEEDS = ['0'.repeat(32), '1'.repeat(32), '2'.repeat(32), '3'.repeat(32), '4'.repeat(32), '5'.repeat(32), '6'.repeat(32), '7'.repeat(32)];
const model = createOfflineModel(offlineTasks);
const retriever = quizRetriever();
const offline = async (seed: string, difficulty?: 'easy' | 'medium' | 'hard') =>
  withoutIds((await generateQuiz({ model, materials: quizMaterials(), retriever, materialId: QUIZ_MATERIAL.id, seed, ...(difficulty ? { difficulty } : {}) })).items);
const answerKey = (items: Pick<QuizItem, 'answer'>[]) => items.map((item) => item.answer);
const choiceOrders = (items: Pick<QuizItem, 'choices'>[]) => items.map((item) => item.choices.join('|'));

describe('quiz seeds (offline model)', () => {
  it('QS1 two seeds give the same material different choice orders and answer indices; one seed always the same quiz', async () => {
    const first = await offline(SEEDS[0]!);
    const second = await offline(SEEDS[1]!);
    expect(choiceOrders(second)).not.toEqual(choiceOrders(first));
    expect(answerKey(second)).not.toEqual(answerKey(first));
    expect(await offline(SEEDS[0]!)).toEqual(first);
    expect(await offline(SEEDS[1]!)).toEqual(second);
  });

  it('QS1 across seeds the answer sits in every position and the questions asked vary where the material has a surplus', async () => {
    const quizzes = await Promise.all(SEEDS.map((seed) => offline(seed)));
    const positions = new Set(quizzes.flatMap(answerKey));
    expect([...positions].sort()).toEqual([0, 1, 2, 3]);
    const questionSets = new Set(quizzes.map((items) => items.map((item) => item.question).join('\n')));
    expect(questionSets.size).toBeGreaterThan(1);
  });

  it('QS1 every seed still gives five valid items on the difficulty plan (easy asks frequent terms, hard a rarer one)', async () => {
    for (const seed of SEEDS) {
      const items = await offline(seed);
      expect(items.map((item) => item.difficulty)).toEqual(difficultyPlan());
      for (const item of items) expect(QuizItem.safeParse(item).success).toBe(true);
      expect(new Set(items.map((item) => item.question)).size).toBe(5);
      const counts = items.map((item) => countTerm(SAMPLE_MATERIAL_TEXT, item.choices[item.answer] ?? ''));
      expect(Math.min(counts[0]!, counts[1]!), seed).toBeGreaterThan(counts[4]!);
      const hard = await offline(seed, 'hard');
      expect(hard.map((item) => item.difficulty)).toEqual(difficultyPlan('hard'));
    }
  });

  it('QS1 seeds are 128 random bits in hex, a new one each time', () => {
    const seeds = new Set(Array.from({ length: 100 }, () => newQuizSeed()));
    expect(seeds.size).toBe(100);
    for (const seed of seeds) expect(seed).toMatch(QUIZ_SEED);
  });
});

describe('quiz seeds (Gemini)', () => {
  let fake: FakeGemini;
  beforeEach(async () => {
    fake = await FakeGemini.start();
  });
  afterEach(async () => {
    await fake.close();
  });

  /** Five valid items that all put the answer first, as models tend to. */
  const answerFirst = () =>
    (['easy', 'easy', 'medium', 'medium', 'hard'] as const).map((difficulty, index) => ({
      question: `${index + 1}번: 기댓값을 구하는 방법으로 옳은 것은?`,
      choices: ['값에 확률을 곱해 모두 더한다', '가장 큰 값을 고른다', '가운데 값을 고른다', '값을 모두 곱한다'],
      answer: 0,
      explanation: '기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.',
      difficulty,
      sources: [1],
    }));

  const gemini = async (seed: string) => {
    fake.enqueue({ json: { items: answerFirst() } });
    const model = fakeGeminiModel(fake, { maxAttempts: 1 });
    return withoutIds((await generateQuiz({ model, materials: quizMaterials(), retriever, materialId: QUIZ_MATERIAL.id, seed })).items);
  };

  it('QS2 a model that always answers A gets its choices shuffled by the seed; the right choice stays right', async () => {
    const first = await gemini(SEEDS[0]!);
    const second = await gemini(SEEDS[1]!);
    for (const items of [first, second]) {
      expect(new Set(answerKey(items)).size).toBeGreaterThan(1);
      for (const item of items) expect(item.choices[item.answer]).toBe('값에 확률을 곱해 모두 더한다');
      expect(items.map(withoutChoiceOrder)).toEqual(answerFirst().map((item) => withoutChoiceOrder(item)));
    }
    expect(answerKey(second)).not.toEqual(answerKey(first));
    expect(await gemini(SEEDS[0]!)).toEqual(first);
  });

  it('QS2 the shuffle is a permutation that keeps the answer with its choice', () => {
    const { sources: _sources, ...item } = answerFirst()[0]!;
    for (const seed of SEEDS) {
      const shuffled = shuffleChoices(item, seed);
      expect([...shuffled.choices].sort()).toEqual([...item.choices].sort());
      expect(shuffled.choices[shuffled.answer]).toBe(item.choices[item.answer]);
    }
  });
});
