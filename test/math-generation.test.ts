/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MP5 — Partial regeneration. Passed problems are kept; only the failed slots are written again, with the judge's
 *   feedback in the prompt; one batch judge call per attempt at temperature 0.1 …
 * - MP6 — No judge call for a decided problem. A final answer different from the key is rejected by the server and
 *   never shown to the judge.
 * - MP7 — Batch fallback. A batch reply that answers a problem twice or not at all is completed one call per problem.
 * - MP8 — Network-error policy. An unreachable judge passes problems with scores of 4 and `judged: false`
 *   (`pass-unjudged`), or fails them (`fail`).
 * - MP9 — Three attempts. Then `MathGenerationError` with the passed and rejected problems.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadQuizSource, type QuizSource } from '../src/quiz/index.js';
import {
  DEFAULT_MATH_JUDGE_POLICY,
  generateMathProblems,
  MATH_JUDGE_TEMPERATURE,
  MathGenerationError,
  MathJudge,
  type MathJudgePolicy,
  type MathProgress,
  type RawMathProblem,
} from '../src/math-problems/index.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { QUIZ_MATERIAL, quizMaterials, quizRetriever } from './support/quiz-material.js';

/**
 * MP5–MP9 (test/SPEC.md, "Math problems"): seed 002's generation loop through the real adapter and SDK of each network
 * provider against its fake server: partial regeneration, one batch judgement per attempt, deterministic checks that
 * spare the judge, the network-error policy, and the typed failure that keeps what passed.
 */

describe.each(['gemini', 'openai'] as const)('math problems with %s', (provider) => {
  let fake: ScriptedProvider;
  let source: QuizSource;

  beforeEach(async () => {
    fake = await startScriptedProvider(provider);
    // Chapter 2 of the sample (기댓값): the passages the problems are written from.
    source = await loadQuizSource(quizMaterials(), quizRetriever(), QUIZ_MATERIAL.id, { chapter: 1 });
  });

  afterEach(async () => {
    await fake.close();
  });

  let counter = 0;
  function mc(overrides: Partial<RawMathProblem> = {}): RawMathProblem {
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
      ...overrides,
    };
  }
  function short(overrides: Partial<RawMathProblem> = {}): RawMathProblem {
    counter += 1;
    return {
      type: 'short_answer',
      question: `${counter}번: 주사위 한 개를 던질 때 나오는 눈의 기댓값은?`,
      choices: [],
      correct_answer: '\\frac{7}{2}',
      explanation: '$E[X] = \\frac{1+2+3+4+5+6}{6}$\n$= 3.5$',
      final_answer: '3.5',
      difficulty: 'easy',
      sources: [1],
      ...overrides,
    };
  }
  const verdict = (consistency: number, feedback = '좋은 문제입니다.') => ({
    mathematical_accuracy: 5,
    consistency,
    completeness: 5,
    logic_flow: 5,
    feedback,
  });

  function run(options: { policy?: MathJudgePolicy; count?: number; multipleChoice?: number; progress?: MathProgress[] } = {}) {
    const model = fake.model({ maxAttempts: 1 });
    const judge = new MathJudge({ model, policy: options.policy });
    return generateMathProblems({
      model,
      judge,
      source,
      request: { count: options.count ?? 4, multipleChoice: options.multipleChoice ?? 2, difficulty: 'easy' },
      onProgress: (progress) => void options.progress?.push(progress),
    });
  }

  type Body = {
    contents?: { parts?: { text?: string }[] }[];
    generationConfig?: { temperature?: number; responseJsonSchema?: { properties?: Record<string, unknown> } };
  };
  type Request = ReturnType<ScriptedProvider['requests']>[number];
  const bodyOf = (request: Request | undefined) => (request?.body ?? {}) as Body;
  const schemaOf = (request: Request | undefined) => bodyOf(request).generationConfig?.responseJsonSchema?.properties ?? {};
  const promptOf = (request: Request | undefined) => bodyOf(request).contents?.[0]?.parts?.at(-1)?.text ?? '';

  it('MP5 keeps the passed problems and writes only the failed ones again, with the judge feedback; one batch judgement per attempt', async () => {
    fake.enqueue(
      { json: { problems: [mc(), mc(), short(), short()] } },
      { json: { results: [{ index: 1, ...verdict(5) }, { index: 2, ...verdict(3, '보기 B가 정답이 아닙니다.') }, { index: 3, ...verdict(5) }, { index: 4, ...verdict(2, '풀이가 답과 다릅니다.') }] } },
      { json: { problems: [mc(), short()] } },
      { json: { results: [{ index: 1, ...verdict(5) }, { index: 2, ...verdict(4) }] } },
    );
    const progress: MathProgress[] = [];
    const result = await run({ progress });

    expect(result.attempts).toBe(2);
    expect(result.problems).toHaveLength(4);
    expect(result.problems.map((problem) => problem.type)).toEqual(['multiple_choice', 'multiple_choice', 'short_answer', 'short_answer']);
    expect(result.problems.every((problem) => problem.judgement.passed && problem.judgement.judged)).toBe(true);
    expect(result.problems.map((problem) => problem.judgement.attempt).sort()).toEqual([1, 1, 2, 2]);
    // Seed 002's cost split: judged on the faster model (the adapter's generation model), written on the stronger.
    expect(result.problems.every((problem) => problem.judgement.model === 'gen-model')).toBe(true);
    expect(result.rejected.map((problem) => problem.judgement.feedback)).toEqual(['보기 B가 정답이 아닙니다.', '풀이가 답과 다릅니다.']);
    expect(new Set(result.problems.map((problem) => problem.problemId)).size).toBe(4);
    expect(result.problems[0]?.sources[0]).toMatchObject({ chapter: 1 });
    expect(progress.map((entry) => [entry.attempt, entry.passed, entry.wanted])).toEqual([
      [1, 2, 4],
      [2, 4, 4],
    ]);

    const requests = fake.requests();
    expect(requests).toHaveLength(4);
    const [, firstJudge, rewrite, secondJudge] = requests;
    expect('results' in schemaOf(firstJudge)).toBe(true);
    expect(bodyOf(firstJudge).generationConfig?.temperature).toBe(MATH_JUDGE_TEMPERATURE);
    expect(promptOf(secondJudge).match(/<수학_문제>\nProblem \d/gu)).toHaveLength(2);
    // The rewrite asks for the two missing problems, one of each type, with what the judge said about them.
    expect(promptOf(rewrite)).toContain('객관식(multiple_choice) easy 1문제, 단답형(short_answer) easy 1문제');
    expect(promptOf(rewrite)).toContain('보기 B가 정답이 아닙니다.');
    expect(promptOf(rewrite)).toContain('풀이가 답과 다릅니다.');
  });

  it('MP6 a final answer different from the key fails without a judge call; the judge sees only the other problem', async () => {
    const wrong = mc({ correct_answer: 'D' });
    fake.enqueue({ json: { problems: [wrong, mc()] } }, { json: verdict(5) }, { json: { problems: [mc()] } }, { json: verdict(5) });
    const result = await run({ count: 2, multipleChoice: 2 });
    expect(result.problems).toHaveLength(2);
    const rejected = result.rejected[0];
    expect(rejected?.judgement).toMatchObject({ judged: false, passed: false, check: 'equivalence', equivalence: 'different', model: '' });
    const judged = fake.requests().filter((request) => 'consistency' in schemaOf(request) || 'results' in schemaOf(request));
    expect(judged).toHaveLength(2);
    for (const request of judged) expect(promptOf(request)).not.toContain(wrong.question);
  });

  it('MP7 a batch reply that misses a problem is completed one call per missing problem', async () => {
    fake.enqueue(
      { json: { problems: [mc(), mc()] } },
      { json: { results: [{ index: 1, ...verdict(5) }, { index: 1, ...verdict(5) }] } },
      { json: verdict(5) },
      { json: verdict(5) },
    );
    const result = await run({ count: 2, multipleChoice: 2 });
    expect(result.attempts).toBe(1);
    expect(result.problems).toHaveLength(2);
    // Index 1 came twice: neither copy is trusted, both problems are asked one by one.
    expect(fake.requests().filter((request) => 'consistency' in schemaOf(request))).toHaveLength(2);
  });

  it('MP8 network-error policy: a judge that cannot be reached passes the problems unjudged with 4.0, or fails them when configured', async () => {
    fake.enqueue({ json: { problems: [mc(), mc()] } }, { stallMs: 10 });
    const passed = await run({ count: 2, multipleChoice: 2 });
    expect(passed.problems).toHaveLength(2);
    for (const problem of passed.problems) {
      expect(problem.judgement).toMatchObject({ judged: false, passed: true });
      expect(problem.judgement.scores).toEqual({ mathematical_accuracy: 4, consistency: 4, completeness: 4, logic_flow: 4 });
      expect(problem.judgement.feedback).toContain('검증 안 됨');
    }

    fake.clearRequests();
    const strict: MathJudgePolicy = { ...DEFAULT_MATH_JUDGE_POLICY, onNetworkError: 'fail' };
    fake.enqueue(
      { json: { problems: [mc()] } },
      { stallMs: 10 },
      { json: { problems: [mc()] } },
      { stallMs: 10 },
      { json: { problems: [mc()] } },
      { stallMs: 10 },
    );
    const failure = await run({ count: 1, multipleChoice: 1, policy: strict }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MathGenerationError);
  });

  it('MP9 after three attempts the generation fails with a typed error that keeps what passed', async () => {
    fake.enqueue(
      { json: { problems: [mc(), mc()] } },
      { json: { results: [{ index: 1, ...verdict(5) }, { index: 2, ...verdict(1, '모순') }] } },
      { json: { problems: [mc()] } },
      { json: verdict(1, '모순') },
      { json: { problems: [mc()] } },
      { json: verdict(1, '모순') },
    );
    const error = await run({ count: 2, multipleChoice: 2 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MathGenerationError);
    const failure = error as MathGenerationError;
    expect(failure.passed).toHaveLength(1);
    expect(failure.rejected).toHaveLength(3);
    expect(failure.message).toContain('2문제 중 1문제');
    expect(fake.pending).toBe(0);
  });
});
