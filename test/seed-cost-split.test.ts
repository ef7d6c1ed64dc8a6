/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SD4 — Seed 002's cost split. Math problems are written on the stronger model (role `problems`: the judge's name,
 *   `gemini-pro-latest` by default) and judged on the faster one (role `problem-judge`: generation's, flash) at
 *   temperature 0.1 with `max_output_tokens` 512 (512 per problem in a batch); OpenAI-compatible splits the same way.
 *   `test/seed-cost-split.test.ts`
 * - SD5 — The judge's log. One log line per judged problem (`math problem VALID|INVALID`) with its four scores, pass
 *   or fail and attempt, matching the stored judgement.
 * - SD6 — An honest failure. "통과한 문제는 남겨 두었습니다" only when some problem passed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/kernel/config.js';
import { modelForRole } from '../src/llm/model.js';
import { generateMathProblems, MATH_JUDGE_TEMPERATURE, MathGenerationError, MathJudge, type RawMathProblem } from '../src/math-problems/index.js';
import { loadQuizSource, type QuizSource } from '../src/quiz/index.js';
import { captureLogs } from './support/log-capture.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { QUIZ_MATERIAL, quizMaterials, quizRetriever } from './support/quiz-material.js';

/**
 * SD4–SD6 (test/SPEC.md): seed 002's cost split and log, through the real adapter and SDK of each network provider
 * against its fake server: problems written on the stronger model and judged on the faster one with a 512-token
 * reply, one log line per judged problem, and a failure message that claims kept problems only when there are some.
 */

describe('SD4 the configured split', () => {
  it('SD4 Gemini writes problems on the pro model and judges them on flash by default; OpenAI-compatible splits by its judge setting', () => {
    const gemini = loadConfig({ GEMINI_API_KEY: 'k' }).gemini;
    if (!gemini) throw new Error('no gemini settings');
    expect(modelForRole(gemini.models, 'problems')).toBe('gemini-pro-latest');
    expect(modelForRole(gemini.models, 'problem-judge')).toBe('gemini-flash-latest');
    const openai = loadConfig({ LLM_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1', OPENAI_MODEL: 'qwen3:4b', OPENAI_JUDGE_MODEL: 'qwen3:32b', OPENAI_EMBEDDING_MODEL: 'nomic-embed-text' }).openai;
    if (!openai) throw new Error('no openai settings');
    expect(modelForRole(openai.models, 'problems')).toBe('qwen3:32b');
    expect(modelForRole(openai.models, 'problem-judge')).toBe('qwen3:4b');
  });
});

describe.each(['gemini', 'openai'] as const)('seed 002 cost split and log with %s', (provider) => {
  let fake: ScriptedProvider;
  let source: QuizSource;

  beforeEach(async () => {
    fake = await startScriptedProvider(provider);
    source = await loadQuizSource(quizMaterials(), quizRetriever(), QUIZ_MATERIAL.id, { chapter: 1 });
  });
  afterEach(async () => {
    await fake.close();
  });

  let counter = 0;
  const mc = (): RawMathProblem => {
    counter += 1;
    return {
      type: 'multiple_choice',
      question: `${counter}번: $X$가 1, 2, 3을 같은 확률로 가질 때 $E[X]$는?`,
      choices: ['$1$', '$2$', '$3$', '$\\frac{5}{2}$'],
      correct_answer: 'B',
      explanation: '$E[X] = \\frac{1+2+3}{3}$\n$= 2$',
      final_answer: '2',
      difficulty: 'easy',
      sources: [1],
    };
  };
  const verdict = (consistency: number, feedback = '좋은 문제입니다.') => ({ mathematical_accuracy: 5, consistency, completeness: 4, logic_flow: 5, feedback });
  type Body = { generationConfig?: { temperature?: number; maxOutputTokens?: number } };
  const configOf = (request: ReturnType<ScriptedProvider['requests']>[number] | undefined) => ((request?.body ?? {}) as Body).generationConfig ?? {};

  function run(count: number, logger = captureLogs().logger) {
    const model = fake.model({ maxAttempts: 1 });
    return generateMathProblems({ model, judge: new MathJudge({ model }), source, request: { count, multipleChoice: count, difficulty: 'easy' }, logger });
  }

  it('SD4 problems go to the stronger model, judgements to the faster one with max_output_tokens 512 (per problem in a batch)', async () => {
    fake.enqueue(
      { json: { problems: [mc(), mc()] } },
      { json: { results: [{ index: 1, ...verdict(5) }, { index: 2, ...verdict(2, '풀이의 답이 다릅니다.') }] } },
      { json: { problems: [mc()] } },
      { json: verdict(5) },
    );
    const result = await run(2);
    expect(result.problems).toHaveLength(2);
    const [write, batch, rewrite, single] = fake.requests();
    expect([write?.model, rewrite?.model]).toEqual(['judge-model', 'judge-model']);
    expect([batch?.model, single?.model]).toEqual(['gen-model', 'gen-model']);
    expect(configOf(single)).toMatchObject({ temperature: MATH_JUDGE_TEMPERATURE, maxOutputTokens: 512 });
    expect(configOf(batch).maxOutputTokens).toBe(1024);
    expect(configOf(write).maxOutputTokens).toBeUndefined();
    expect(result.problems.every((problem) => problem.judgement.model === 'gen-model')).toBe(true);
  });

  it('SD5 one log line per judged problem with its four scores, pass or fail and attempt; the stored judgement says the same', async () => {
    const logs = captureLogs();
    fake.enqueue(
      { json: { problems: [mc(), mc()] } },
      { json: { results: [{ index: 1, ...verdict(5) }, { index: 2, ...verdict(2, '풀이의 답이 다릅니다.') }] } },
      { json: { problems: [mc()] } },
      { json: verdict(5) },
    );
    const result = await run(2, logs.logger);
    const judged = logs.lines().filter((line) => /^math problem (VALID|INVALID)$/.test(line.msg));
    expect(judged.map((line) => [line.attempt, line.passed, line.msg])).toEqual([
      [1, true, 'math problem VALID'],
      [1, false, 'math problem INVALID'],
      [2, true, 'math problem VALID'],
    ]);
    for (const line of judged) expect(Object.keys(line.scores as object).sort()).toEqual(['completeness', 'consistency', 'logic_flow', 'mathematical_accuracy']);
    expect(judged[1]).toMatchObject({ scores: { consistency: 2 }, feedback: '풀이의 답이 다릅니다.' });
    const stored = [...result.problems, ...result.rejected];
    for (const line of judged) {
      const problem = stored.find((entry) => entry.problemId === line.problemId);
      expect(problem?.judgement).toMatchObject({ attempt: line.attempt, passed: line.passed, scores: line.scores });
    }
  });

  it('SD6 the failure says problems were kept only when some passed', async () => {
    fake.enqueue(
      { json: { problems: [mc()] } },
      { json: verdict(1, '모순') },
      { json: { problems: [mc()] } },
      { json: verdict(1, '모순') },
      { json: { problems: [mc()] } },
      { json: verdict(1, '모순') },
    );
    const none = await run(1).catch((error: unknown) => error);
    expect(none).toBeInstanceOf(MathGenerationError);
    expect((none as MathGenerationError).passed).toHaveLength(0);
    expect((none as Error).message).not.toContain('남겨 두었습니다');
    expect((none as Error).message).toMatch(/통과한 수학 문제가 없습니다/);
  });
});
