import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelError } from '../src/llm/model-error.js';
import { ErrorCode } from '../src/protocol/wire/error-codes.js';
import { QuizItem, type Difficulty } from '../src/protocol/quiz.js';
import { generateQuiz, MAX_GENERATION_ROUNDS, QUIZ_TEMPERATURE } from '../src/quiz/quiz-agent.js';
import type { RecordedRequest } from './support/fake-gemini.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { QUIZ_MATERIAL, quizMaterials, quizRetriever, withoutChoiceOrder } from './support/quiz-material.js';

/**
 * The QuizAgent through the real adapter and SDK of each network provider, against its fake server: Gemini, and an
 * OpenAI-compatible server (OA7), with one script (requests read Gemini-shaped, see test/support/openai-scripts.ts).
 */

describe.each(['gemini', 'openai'] as const)('QuizAgent with %s', (provider) => {
  let fake: ScriptedProvider;

  beforeEach(async () => {
    fake = await startScriptedProvider(provider);
  });

  afterEach(async () => {
    await fake.close();
  });

  const MATERIAL = QUIZ_MATERIAL;
  const materials = quizMaterials();
  const retriever = quizRetriever();

  async function quiz(options: { chapter?: number; difficulty?: Difficulty } = {}) {
    const model = fake.model({ maxAttempts: 1 });
    return (await generateQuiz({ model, materials, retriever, materialId: MATERIAL.id, ...options })).items;
  }

  type Body = {
    contents: { role: string; parts: { text?: string }[] }[];
    generationConfig?: { temperature?: number; responseMimeType?: string; responseJsonSchema?: { properties?: Record<string, unknown> } };
  };
  const bodyOf = (request: RecordedRequest | undefined) => request?.body as Body;
  const promptOf = (request: RecordedRequest | undefined) => bodyOf(request).contents[0]?.parts.at(-1)?.text ?? '';

  let counter = 0;
  /** A valid item with a question no other call makes. */
  function item(difficulty: Difficulty, overrides: Partial<Record<keyof QuizItem, unknown>> = {}): Record<string, unknown> {
    counter += 1;
    return {
      question: `${counter}번: 기댓값을 구하는 방법으로 옳은 것은?`,
      choices: ['값에 확률을 곱해 모두 더한다', '가장 큰 값을 고른다', '가운데 값을 고른다', '값을 모두 곱한다'],
      answer: counter % 4,
      explanation: '기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.',
      difficulty,
      sources: [1],
      ...overrides,
    };
  }
  const mixed = () => [item('easy'), item('easy'), item('medium'), item('medium'), item('hard')];

    it('QA4 QA6 asks the generation model once at temperature 0.7 with the retrieved passages inside <참고_자료>, and returns five valid items', async () => {
      const reply = mixed();
      fake.enqueue({ json: { items: reply } });
      const items = await quiz();
      // The same items; their choices in the quiz seed's order (K2).
      expect(items.map(withoutChoiceOrder)).toEqual(reply.map((entry) => withoutChoiceOrder(entry as QuizItem)));
      expect(fake.requests()).toHaveLength(1);
      const request = fake.requests()[0];
      expect(request?.model).toBe('gen-model');
      expect(request?.action).toBe('generateContent');
      const config = bodyOf(request).generationConfig;
      expect(config?.temperature).toBe(QUIZ_TEMPERATURE);
      expect(QUIZ_TEMPERATURE).toBe(0.7);
      expect(config?.responseMimeType).toBe('application/json');
      expect(Object.keys(config?.responseJsonSchema?.properties ?? {})).toEqual(['items']);
      const prompt = promptOf(request);
      const passages = await retriever.retrieve({ materialId: MATERIAL.id, query: MATERIAL.title, k: 10 });
      expect(prompt).toContain('<참고_자료>\n- [1] ');
      expect(prompt).toContain(`- [1] ${passages[0]?.text.replace(/\s+/gu, ' ').trim()} (`);
      expect(prompt).toContain('난이도 구성: easy 2문항, medium 2문항, hard 1문항 (이 순서로)');
      expect(prompt).toContain('자료 「기초 통계」 전체');
    });

    it('QA4 quizzes one chapter at one difficulty when asked', async () => {
      const reply = Array.from({ length: 5 }, () => item('hard'));
      fake.enqueue({ json: { items: reply } });
      expect((await quiz({ chapter: 1, difficulty: 'hard' })).map(withoutChoiceOrder)).toEqual(reply.map((entry) => withoutChoiceOrder(entry as QuizItem)));
      const prompt = promptOf(fake.requests()[0]);
      expect(prompt).toContain('자료 「기초 통계」 2장 「기댓값」');
      expect(prompt).toContain('난이도 구성: 5문항 모두 hard');
      expect(prompt).toContain('확률변수 X는 실험의 결과마다');
      expect(prompt).not.toContain('평균(산술평균)은');
    });

    it('QA5 regenerates only the broken items (three choices, duplicate choices) and returns five valid ones', async () => {
      const first = mixed();
      first[1] = item('easy', { choices: ['평균', '분산', '중앙값'] });
      first[3] = item('medium', { choices: ['평균', '분산', 'E[X]', 'e[x]'] });
      const second = [item('easy'), item('medium')];
      fake.enqueue({ json: { items: first } }, { json: { items: second } });

      const items = await quiz();
      expect(fake.requests()).toHaveLength(2);
      expect(items).toHaveLength(5);
      for (const entry of items) expect(QuizItem.safeParse(entry).success).toBe(true);
      expect(items.map((entry) => entry.difficulty)).toEqual(['easy', 'easy', 'medium', 'medium', 'hard']);
      expect(items.map(withoutChoiceOrder)).toEqual([first[0], second[0], first[2], second[1], first[4]].map((entry) => withoutChoiceOrder(entry as QuizItem)));
      // The second round asks for the two missing slots and shows the accepted questions to avoid.
      const prompt = promptOf(fake.requests()[1]);
      expect(prompt).toContain('난이도 구성: easy 1문항, medium 1문항 (이 순서로)');
      expect(prompt).toContain('정확히 2개의 문항');
      for (const kept of [first[0], first[2], first[4]]) expect(prompt).toContain(`- ${String(kept?.question)}`);
    });

    it('QA5 drops repeated questions, answers out of range, unlisted difficulties and malformed items, and asks again', async () => {
      const first = mixed();
      first[1] = { ...item('easy'), question: ` ${String(first[0]?.question)}  ` };
      first[2] = item('medium', { answer: 4 });
      first[3] = item('hard');
      first.push({ question: 7, choices: 'a' });
      const second = [item('easy'), item('medium'), item('medium')];
      fake.enqueue({ json: { items: first } }, { json: { items: second } });

      const items = await quiz();
      expect(fake.requests()).toHaveLength(2);
      expect(items.map((entry) => entry.difficulty)).toEqual(['easy', 'easy', 'medium', 'medium', 'hard']);
      expect(new Set(items.map((entry) => entry.question.trim())).size).toBe(5);
      expect(promptOf(fake.requests()[1])).toContain('난이도 구성: easy 1문항, medium 2문항 (이 순서로)');
    });

    it('QA5 a reply that does not even parse is one failed round, not the end', async () => {
      const reply = mixed();
      fake.enqueue({ malformed: true }, { malformed: true }, { json: { items: reply } });
      expect((await quiz()).map(withoutChoiceOrder)).toEqual(reply.map((entry) => withoutChoiceOrder(entry as QuizItem)));
      // Round 1: the reply and the adapter's repair turn; round 2: a good reply.
      expect(fake.requests()).toHaveLength(3);
    });

    it('QA5 gives up with MODEL_OUTPUT_INVALID (502) when the model keeps sending broken items', async () => {
      const broken = () => ({ json: { items: Array.from({ length: 5 }, () => item('easy', { choices: ['a', 'b', 'c'] })) } });
      fake.enqueue(...Array.from({ length: MAX_GENERATION_ROUNDS }, broken));
      await expect(quiz()).rejects.toMatchObject({ code: ErrorCode.MODEL_OUTPUT_INVALID });
      expect(fake.requests()).toHaveLength(MAX_GENERATION_ROUNDS);
      expect(fake.pending).toBe(0);
    });

    it('passes other model failures through at once, without more rounds', async () => {
      fake.enqueue({ status: 400, message: 'bad request' });
      const error = await quiz().then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ModelError);
      expect(error).toMatchObject({ code: ErrorCode.MODEL_UNAVAILABLE });
      expect(fake.requests()).toHaveLength(1);
    });
});
