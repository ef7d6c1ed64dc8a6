import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

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

  it('treats empty values as unset', () => {
    const config = loadConfig({ PORT: '', REDIS_URL: '', GEMINI_API_KEY: '  ' });
    expect(config.port).toBe(3000);
    expect(config.redisUrl).toBeUndefined();
    expect(config.gemini).toBeUndefined();
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['GEMINI_BASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['MAX_PDF_MB', '0'],
    ['PRELOAD_SAMPLE', 'maybe'],
    ['TOKEN_SECRET', 'new,,old'],
    ['TOKEN_SECRET', 'new,'],
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
});
