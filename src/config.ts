import path from 'node:path';
import { z } from 'zod';

/**
 * The only reader of process.env. Every variable is parsed here; an invalid value stops the start with a
 * message naming the variable (see {@link ConfigError}).
 */

const emptyToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const optionalString = z.preprocess(emptyToUndefined, z.string().optional());
const int = (min: number, max: number, fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().min(min).max(max).default(fallback));
/** `new,old`: comma-separated, newest first, none empty (spaces around each are dropped). */
const secretList = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .transform((value) => value.split(',').map((secret) => secret.trim()))
    .refine((secrets) => secrets.every((secret) => secret.length > 0), 'comma-separated secrets (new,old), none empty')
    .optional(),
);
const bool = (fallback: boolean) =>
  z.preprocess(
    emptyToUndefined,
    z
      .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => ['1', 'true', 'yes', 'on'].includes(value)),
  );

const EnvSchema = z.object({
  PORT: int(0, 65_535, 3000),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  REDIS_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^rediss?$/ }).optional()),
  GEMINI_API_KEY: optionalString,
  GOOGLE_API_KEY: optionalString,
  GEMINI_BASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  GEMINI_MODEL: z.preprocess(emptyToUndefined, z.string().default('gemini-flash-latest')),
  GEMINI_JUDGE_MODEL: z.preprocess(emptyToUndefined, z.string().default('gemini-pro-latest')),
  GEMINI_EMBEDDING_MODEL: z.preprocess(emptyToUndefined, z.string().default('gemini-embedding-001')),
  GEMINI_TIMEOUT_MS: int(1_000, 600_000, 120_000),
  GEMINI_IDLE_TIMEOUT_MS: int(500, 300_000, 30_000),
  GEMINI_MAX_ATTEMPTS: int(1, 10, 4),
  LLM_PROVIDER: z.preprocess(emptyToUndefined, z.enum(['gemini', 'openai', 'offline']).optional()),
  OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  OPENAI_API_KEY: optionalString,
  OPENAI_MODEL: optionalString,
  OPENAI_JUDGE_MODEL: optionalString,
  OPENAI_EMBEDDING_MODEL: optionalString,
  // A local model on a CPU can take minutes for a chapter and long seconds before its first token.
  OPENAI_TIMEOUT_MS: int(1_000, 1_800_000, 300_000),
  OPENAI_IDLE_TIMEOUT_MS: int(500, 600_000, 120_000),
  OPENAI_MAX_ATTEMPTS: int(1, 10, 3),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('data')),
  TOKEN_SECRET: secretList,
  NODE_ID: z.preprocess(emptyToUndefined, z.string().regex(/^[\w.-]{1,64}$/).optional()),
  MAX_PDF_MB: int(1, 1024, 50),
  MAX_PDF_PAGES: int(1, 10_000, 500),
  PDF_TIMEOUT_MS: int(500, 600_000, 30_000),
  LECTURE_CONCURRENCY: int(1, 32, 3),
  PACER_WINDOW_MS: int(50, 1_000, 50),
  QUIZ_ANSWER_GRACE_MS: int(0, 2_000, 250),
  QUIZ_JOIN_BURST: int(1, 100_000, 120),
  QUIZ_JOIN_PER_SECOND: int(1, 100_000, 20),
  PRELOAD_SAMPLE: bool(true),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'at least 16 characters').optional()),
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65_535).optional()),
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
});

export type ModelRole = 'generation' | 'judge' | 'embedding';

export type LlmProvider = 'gemini' | 'openai' | 'offline';

/** How to reach a model provider's API: per-role model names and the call policy's bounds. */
interface ProviderSettings {
  baseUrl: string | undefined;
  models: Record<ModelRole, string>;
  timeoutMs: number;
  idleTimeoutMs: number;
  maxAttempts: number;
}

export interface Config {
  port: number;
  host: string;
  redisUrl: string | undefined;
  /** Which model answers: LLM_PROVIDER, else Gemini with a key, else an OpenAI-compatible server, else offline. */
  provider: LlmProvider;
  /** Set exactly when `provider` is 'gemini'. */
  gemini: (ProviderSettings & { apiKey: string }) | undefined;
  /** Set exactly when `provider` is 'openai'; `apiKey` is optional because local servers need none. */
  openai: (ProviderSettings & { baseUrl: string; apiKey: string | undefined }) | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  dataDir: string;
  /**
   * HMAC secrets for tokens, newest first: the first signs, all verify (rotation). When unset, the nodes of a Redis
   * deployment share one generated secret and the memory store uses one per process (see token-secrets.ts).
   */
  tokenSecrets: readonly string[] | undefined;
  /** This process's name among several nodes (leases, logs); random when unset. */
  nodeId: string | undefined;
  limits: {
    maxPdfBytes: number;
    maxPdfPages: number;
    pdfTimeoutMs: number;
  };
  lectureConcurrency: number;
  /** Shortest spacing of two streamed deltas of one session (the pacer merges what is due meanwhile). */
  pacerWindowMs: number;
  /** Quiz answers this long after a question's deadline still count; later ones are LATE. */
  quizAnswerGraceMs: number;
  /** `room:join` attempts per client address: burst and refill per second. */
  quizJoinLimit: { capacity: number; refillPerSecond: number };
  preloadSample: boolean;
  /**
   * Who may read `/metrics`: with `token`, a bearer of it (on the main port, and on the metrics port too); with
   * `port`, anyone who reaches that separate listener (on `host`, localhost by default). Neither: nobody (404).
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
}

export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(`Invalid configuration: ${issues.map((issue) => `${issue.variable}: ${issue.message}`).join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** Parses an environment (process.env by default) into a typed Config, or throws ConfigError naming each bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({ variable: String(issue.path[0] ?? '?'), message: issue.message })),
    );
  }
  const e = parsed.data;
  const apiKey = e.GEMINI_API_KEY ?? e.GOOGLE_API_KEY;
  const provider: LlmProvider = e.LLM_PROVIDER ?? (apiKey !== undefined ? 'gemini' : e.OPENAI_BASE_URL !== undefined ? 'openai' : 'offline');
  const missing = (variable: string, why: string) => ({ variable, message: `required with LLM_PROVIDER=${provider} (${why})` });
  const issues: { variable: string; message: string }[] = [];
  if (provider === 'gemini' && apiKey === undefined) issues.push(missing('GEMINI_API_KEY', 'or GOOGLE_API_KEY'));
  if (provider === 'openai') {
    if (e.OPENAI_BASE_URL === undefined) issues.push(missing('OPENAI_BASE_URL', 'e.g. http://localhost:11434/v1 for Ollama'));
    if (e.OPENAI_MODEL === undefined) issues.push(missing('OPENAI_MODEL', 'the chat model, e.g. qwen3:8b'));
    if (e.OPENAI_EMBEDDING_MODEL === undefined) issues.push(missing('OPENAI_EMBEDDING_MODEL', 'e.g. nomic-embed-text'));
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    port: e.PORT,
    host: e.HOST,
    redisUrl: e.REDIS_URL,
    provider,
    gemini:
      provider !== 'gemini' || apiKey === undefined
        ? undefined
        : {
            apiKey,
            baseUrl: e.GEMINI_BASE_URL,
            models: { generation: e.GEMINI_MODEL, judge: e.GEMINI_JUDGE_MODEL, embedding: e.GEMINI_EMBEDDING_MODEL },
            timeoutMs: e.GEMINI_TIMEOUT_MS,
            idleTimeoutMs: e.GEMINI_IDLE_TIMEOUT_MS,
            maxAttempts: e.GEMINI_MAX_ATTEMPTS,
          },
    openai:
      provider !== 'openai' || e.OPENAI_BASE_URL === undefined || e.OPENAI_MODEL === undefined || e.OPENAI_EMBEDDING_MODEL === undefined
        ? undefined
        : {
            baseUrl: e.OPENAI_BASE_URL,
            apiKey: e.OPENAI_API_KEY,
            models: { generation: e.OPENAI_MODEL, judge: e.OPENAI_JUDGE_MODEL ?? e.OPENAI_MODEL, embedding: e.OPENAI_EMBEDDING_MODEL },
            timeoutMs: e.OPENAI_TIMEOUT_MS,
            idleTimeoutMs: e.OPENAI_IDLE_TIMEOUT_MS,
            maxAttempts: e.OPENAI_MAX_ATTEMPTS,
          },
    logLevel: e.LOG_LEVEL,
    dataDir: path.resolve(e.DATA_DIR),
    tokenSecrets: e.TOKEN_SECRET,
    nodeId: e.NODE_ID,
    limits: {
      maxPdfBytes: e.MAX_PDF_MB * 1024 * 1024,
      maxPdfPages: e.MAX_PDF_PAGES,
      pdfTimeoutMs: e.PDF_TIMEOUT_MS,
    },
    lectureConcurrency: e.LECTURE_CONCURRENCY,
    pacerWindowMs: e.PACER_WINDOW_MS,
    quizAnswerGraceMs: e.QUIZ_ANSWER_GRACE_MS,
    quizJoinLimit: { capacity: e.QUIZ_JOIN_BURST, refillPerSecond: e.QUIZ_JOIN_PER_SECOND },
    preloadSample: e.PRELOAD_SAMPLE,
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
  };
}
