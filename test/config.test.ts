/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EL17 — Settings. (`test/config.test.ts`).
 * - OA6 — Configuration. `LLM_PROVIDER` (`gemini|openai|offline`) chooses; unset, Gemini with a key, else openai with
 *   `OPENAI_BASE_URL`, else offline.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/kernel/config.js';

describe('config', () => {
  it('runs with no environment at all: port 3000, memory store, offline model', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBeUndefined();
    expect(config.gemini).toBeUndefined();
    expect(config.limits.maxPdfBytes).toBe(50 * 1024 * 1024);
    expect(config.limits.maxPdfPages).toBe(500);
    expect(config.lectureConcurrency).toBe(3);
  });

  it('switches to Gemini with GEMINI_API_KEY or GOOGLE_API_KEY and keeps model names per role', () => {
    const viaGoogle = loadConfig({ GOOGLE_API_KEY: 'k', GEMINI_BASE_URL: 'http://127.0.0.1:9999' });
    expect(viaGoogle.gemini?.apiKey).toBe('k');
    expect(viaGoogle.gemini?.baseUrl).toBe('http://127.0.0.1:9999');
    expect(viaGoogle.gemini?.models).toEqual({
      generation: 'gemini-flash-latest',
      judge: 'gemini-pro-latest',
      embedding: 'gemini-embedding-001',
    });
    const custom = loadConfig({ GEMINI_API_KEY: 'a', GOOGLE_API_KEY: 'b', GEMINI_MODEL: 'm1', GEMINI_JUDGE_MODEL: 'm2' });
    expect(custom.gemini?.apiKey).toBe('a');
    expect(custom.gemini?.models.generation).toBe('m1');
    expect(custom.gemini?.models.judge).toBe('m2');
  });

  it('OA6 chooses the provider: LLM_PROVIDER, else gemini with a key, else openai with OPENAI_BASE_URL, else offline', () => {
    const openai = { OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'qwen3:8b', OPENAI_EMBEDDING_MODEL: 'nomic-embed-text' };
    expect(loadConfig({}).provider).toBe('offline');
    expect(loadConfig({ GEMINI_API_KEY: 'k' }).provider).toBe('gemini');
    expect(loadConfig({ GEMINI_API_KEY: 'k', ...openai }).provider).toBe('gemini');
    const local = loadConfig(openai);
    expect(local.provider).toBe('openai');
    expect(local.gemini).toBeUndefined();
    expect(local.openai).toEqual({
      baseUrl: 'http://localhost:11434/v1',
      apiKey: undefined,
      models: { generation: 'qwen3:8b', judge: 'qwen3:8b', embedding: 'nomic-embed-text' },
      timeoutMs: 300_000,
      idleTimeoutMs: 120_000,
      maxAttempts: 3,
    });
    const chosen = loadConfig({ GEMINI_API_KEY: 'k', ...openai, LLM_PROVIDER: 'openai', OPENAI_API_KEY: 'sk', OPENAI_JUDGE_MODEL: 'big' });
    expect(chosen.provider).toBe('openai');
    expect(chosen.gemini).toBeUndefined();
    expect(chosen.openai?.apiKey).toBe('sk');
    expect(chosen.openai?.models.judge).toBe('big');
    const offline = loadConfig({ GEMINI_API_KEY: 'k', ...openai, LLM_PROVIDER: 'offline' });
    expect([offline.provider, offline.gemini, offline.openai]).toEqual(['offline', undefined, undefined]);
  });

  it.each([
    [{ LLM_PROVIDER: 'gemini' }, ['GEMINI_API_KEY']],
    [{ LLM_PROVIDER: 'openai' }, ['OPENAI_BASE_URL', 'OPENAI_MODEL', 'OPENAI_EMBEDDING_MODEL']],
    [{ OPENAI_BASE_URL: 'http://localhost:11434/v1', OPENAI_MODEL: 'qwen3:8b' }, ['OPENAI_EMBEDDING_MODEL']],
    [{ LLM_PROVIDER: 'llama' }, ['LLM_PROVIDER']],
  ])('OA6 a provider whose settings are missing stops the start naming each variable (%o)', (env, variables) => {
    let caught: unknown;
    try {
      loadConfig(env);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).issues.map((issue) => issue.variable)).toEqual(variables);
    for (const variable of variables) expect((caught as ConfigError).message).toContain(variable);
  });

  it('treats empty values as unset', () => {
    const config = loadConfig({ PORT: '', REDIS_URL: '', GEMINI_API_KEY: '  ' });
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBeUndefined();
    expect(config.gemini).toBeUndefined();
  });

  it('the Redis command timeout is a setting, 1 s unless set', () => {
    expect(loadConfig({}).redisCommandTimeoutMs).toBe(1_000);
    expect(loadConfig({ REDIS_COMMAND_TIMEOUT_MS: '5000' }).redisCommandTimeoutMs).toBe(5_000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['GEMINI_BASE_URL', 'not a url'],
    ['OPENAI_BASE_URL', 'localhost:11434'],
    ['OPENAI_TIMEOUT_MS', '10'],
    ['LOG_LEVEL', 'loud'],
    ['MAX_PDF_MB', '0'],
    ['REDIS_COMMAND_TIMEOUT_MS', '0'],
    ['PRELOAD_SAMPLE', 'maybe'],
    ['TOKEN_SECRET', 'new,,old'],
    ['TOKEN_SECRET', 'new,'],
    ['MATH_JUDGE_NETWORK_POLICY', 'retry'],
    ['MATH_JUDGE_THRESHOLDS', 'easy:4'],
    ['MATH_JUDGE_THRESHOLDS', 'extreme:4/3.5'],
    ['MATH_JUDGE_THRESHOLDS', 'hard:6/4'],
    ['MATH_JUDGE_THRESHOLDS', 'hard:0/4'],
    ['JOB_LEASE_MS', '10'],
    ['EXAM_SCORE_WEIGHTS', 'Correct=one'],
    ['EXAM_SCORE_WEIGHTS', 'Perfect=2'],
    ['EXAM_SWEEP_MS', '5'],
    ['EXAM_GRADE_RETRIES', '99'],
  ])('an invalid %s (%s) stops the start with a message naming the variable', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [variable]: value });
    } catch (error) {
      expect((error as ConfigError).message).toContain(variable);
      expect((error as ConfigError).issues.map((issue) => issue.variable)).toContain(variable);
    }
  });

  it('O2 TOKEN_SECRET holds one secret or several, newest first (new,old)', () => {
    expect(loadConfig({}).tokenSecrets).toBeUndefined();
    expect(loadConfig({ TOKEN_SECRET: 'only' }).tokenSecrets).toEqual(['only']);
    expect(loadConfig({ TOKEN_SECRET: 'new-secret, old-secret' }).tokenSecrets).toEqual(['new-secret', 'old-secret']);
  });

  it('MJ8 the math judge policy, its thresholds per difficulty and the job lease are settings with the seed\'s defaults', () => {
    const seed = { consistency: 4, others: 3.5 };
    expect(loadConfig({}).mathJudge).toEqual({ onNetworkError: 'pass-unjudged', thresholds: { easy: seed, medium: seed, hard: seed } });
    expect(loadConfig({}).jobs).toEqual({ leaseMs: 15_000 });
    const config = loadConfig({ MATH_JUDGE_NETWORK_POLICY: 'fail', MATH_JUDGE_THRESHOLDS: ' hard:4.5/4 , easy:3/3 ', JOB_LEASE_MS: '5000' });
    expect(config.mathJudge).toEqual({ onNetworkError: 'fail', thresholds: { easy: { consistency: 3, others: 3 }, medium: seed, hard: { consistency: 4.5, others: 4 } } });
    expect(config.jobs.leaseMs).toBe(5000);
    expect(loadConfig({ MATH_JUDGE_THRESHOLDS: '' }).mathJudge.thresholds.hard).toEqual(seed);
  });

  it('EL17 the live exams\' score weights, sweep and retry policy are settings with seed 000\'s defaults', () => {
    expect(loadConfig({}).exams).toEqual({ scoreWeights: { Correct: 1, Partial_Correct: 0.5, Incorrect: 0 }, sweepMs: 5_000, gradeRetries: 5, gradeRetryMs: 30_000, gradingLeaseMs: 15_000 });
    const config = loadConfig({ EXAM_SCORE_WEIGHTS: ' Correct=2, Partial_Correct=1 ', EXAM_SWEEP_MS: '1000', EXAM_GRADE_RETRIES: '0', EXAM_GRADE_RETRY_MS: '500', EXAM_GRADING_LEASE_MS: '300' });
    expect(config.exams).toEqual({ scoreWeights: { Correct: 2, Partial_Correct: 1, Incorrect: 0 }, sweepMs: 1_000, gradeRetries: 0, gradeRetryMs: 500, gradingLeaseMs: 300 });
  });
});
