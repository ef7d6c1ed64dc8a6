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

export type MathDifficulty = 'easy' | 'medium' | 'hard';
export interface MathThresholdSetting {
  consistency: number;
  others: number;
}
/** Seed 002's rule for every difficulty: consistency ≥ 4 and the mean of the other three criteria ≥ 3.5. */
const SEED_MATH_THRESHOLD: MathThresholdSetting = { consistency: 4, others: 3.5 };
const MATH_THRESHOLD_ENTRY = /^(easy|medium|hard):([1-5](?:\.\d+)?)\/([1-5](?:\.\d+)?)$/;
/**
 * `easy:4/3.5,medium:4/3.5,hard:4.5/4`: per difficulty, `consistency/others` (each 1–5). A difficulty left out keeps
 * the seed's 4/3.5.
 */
/** `Correct=1,Partial_Correct=0.5,Incorrect=0`: points per grading status (seed 000's; any subset replaces its defaults). */
const examScoreWeights = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((value, context) => {
      const weights = { Correct: 1, Partial_Correct: 0.5, Incorrect: 0 };
      for (const entry of (value ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '')) {
        const match = /^(Correct|Partial_Correct|Incorrect)=(\d+(?:\.\d+)?)$/.exec(entry);
        if (!match || Number(match[2]) > 100) {
          context.addIssue({ code: 'custom', message: `"${entry}" is not status=points (e.g. Correct=1,Partial_Correct=0.5,Incorrect=0)` });
          return z.NEVER;
        }
        weights[match[1] as keyof typeof weights] = Number(match[2]);
      }
      return weights;
    }),
);

const mathThresholds = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((value, context) => {
      const thresholds: Record<MathDifficulty, MathThresholdSetting> = { easy: SEED_MATH_THRESHOLD, medium: SEED_MATH_THRESHOLD, hard: SEED_MATH_THRESHOLD };
      for (const entry of (value ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '')) {
        const match = MATH_THRESHOLD_ENTRY.exec(entry);
        const consistency = Number(match?.[2]);
        const others = Number(match?.[3]);
        if (!match || consistency > 5 || others > 5) {
          context.addIssue({ code: 'custom', message: `"${entry}" is not difficulty:consistency/others (e.g. easy:4/3.5, scores 1–5)` });
          return z.NEVER;
        }
        thresholds[match[1] as MathDifficulty] = { consistency, others };
      }
      return thresholds;
    }),
);

const EnvSchema = z.object({
  PORT: int(0, 65_535, 3000),
  HOST: z.preprocess(emptyToUndefined, z.string().default('0.0.0.0')),
  REDIS_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^rediss?$/ }).optional()),
  REDIS_COMMAND_TIMEOUT_MS: int(100, 600_000, 1_000),
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
  // A PDF whose streams inflate past this (or one stream past 64 MB, or a quarter of this if smaller), or that holds
  // more objects, is refused before any parser reads it (src/materials/pdf-budget.ts).
  PDF_MAX_INFLATED_MB: int(1, 4096, 256),
  PDF_MAX_OBJECTS: int(100, 10_000_000, 250_000),
  LECTURE_CONCURRENCY: int(1, 32, 3),
  PACER_WINDOW_MS: int(50, 1_000, 50),
  QUIZ_ANSWER_GRACE_MS: int(0, 2_000, 250),
  QUIZ_JOIN_BURST: int(1, 100_000, 120),
  QUIZ_JOIN_PER_SECOND: int(1, 100_000, 20),
  PRELOAD_SAMPLE: bool(true),
  // limits against abuse and cost (see README "Limits").
  RATE_WINDOW_SECONDS: int(1, 86_400, 60),
  RATE_ADDRESS_MAX: int(1, 1_000_000, 300),
  RATE_ACCOUNT_MAX: int(1, 1_000_000, 300),
  RATE_STRICT_WINDOW_SECONDS: int(1, 86_400, 600),
  RATE_AUTH_MAX: int(1, 1_000_000, 20),
  RATE_GENERATION_MAX: int(1, 1_000_000, 30),
  RATE_DRAFT_MAX: int(1, 1_000_000, 120),
  RATE_DRAFT_ADDRESS_MAX: int(1, 10_000_000, 10_000),
  JOIN_ATTEMPT_POINTS: int(1, 1_000_000, 300),
  JOIN_ATTEMPT_WINDOW_SECONDS: int(1, 86_400, 30),
  JOIN_FAILURE_COST: int(1, 1_000, 5),
  SOCKET_COMMAND_BURST: int(1, 100_000, 20),
  SOCKET_COMMANDS_PER_SECOND: int(1, 100_000, 10),
  MAX_SOCKETS_PER_ADDRESS: int(1, 1_000_000, 400),
  SOCKET_AUTH_TIMEOUT_MS: int(100, 600_000, 10_000),
  // A request must send its headers, and then all of its body, within these (slow or stalled clients hold connections).
  HTTP_HEADERS_TIMEOUT_MS: int(1_000, 600_000, 15_000),
  HTTP_REQUEST_TIMEOUT_MS: int(1_000, 3_600_000, 120_000),
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, 'at least 16 characters').optional()),
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65_535).optional()),
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  // Data lifecycle: how long a class's student data is kept (sessions, rosters, room results); at least 30 days.
  RETENTION_DAYS: int(30, 36_500, 365),
  PUBLIC_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  // Which proxies' X-Forwarded-* headers are believed (express "trust proxy"): the client address and https.
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\w.:/, -]{1,500}$/, 'loopback, uniquelocal, an address or a CIDR range, comma-separated (e.g. loopback,uniquelocal)')
      .default('loopback'),
  ),
  // Single sign-on (OpenID Connect): all three or none. http:// only for a provider on this machine (development).
  OIDC_ISSUER: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/ }).optional()),
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_NAME: optionalString,
  // Accounts (ACC)
  SIGNUP: z.preprocess(emptyToUndefined, z.enum(['open', 'invite', 'closed']).optional()),
  SESSION_TTL_DAYS: int(1, 365, 30),
  // per-account quotas and the daily model budget (src/quota/, src/llm/model-budget.ts).
  MAX_MATERIALS_PER_ACCOUNT: int(1, 1_000_000, 200),
  MAX_PDF_BYTES_PER_ACCOUNT: int(1, Number.MAX_SAFE_INTEGER, 2 * 1024 ** 3),
  MAX_QUIZZES_PER_CLASS: int(1, 1_000_000, 200),
  MAX_OPEN_ROOMS_PER_ACCOUNT: int(1, 1_000_000, 10),
  MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT: int(1, Number.MAX_SAFE_INTEGER, 100 * 1024 ** 2),
  MODEL_DAILY_TOKENS: int(0, Number.MAX_SAFE_INTEGER, 2_000_000),
  // Math problems (seed 002): the judge's error policy and pass thresholds; background jobs' lease.
  MATH_JUDGE_NETWORK_POLICY: z.preprocess(emptyToUndefined, z.enum(['pass-unjudged', 'fail']).default('pass-unjudged')),
  MATH_JUDGE_THRESHOLDS: mathThresholds,
  JOB_LEASE_MS: int(1_000, 600_000, 15_000),
  // Live exams (src/exams/): points per status, the deadline sweep and the background regrading of Ungraded items.
  EXAM_SCORE_WEIGHTS: examScoreWeights,
  EXAM_SWEEP_MS: int(100, 600_000, 5_000),
  EXAM_GRADE_RETRIES: int(0, 20, 5),
  EXAM_GRADE_RETRY_MS: int(10, 3_600_000, 30_000),
  EXAM_GRADING_LEASE_MS: int(100, 600_000, 15_000),
  // The "AI 품질" console (src/quality/): sampling of agent outputs and their background grading.
  QUALITY_SAMPLE_RATE: z.preprocess(emptyToUndefined, z.coerce.number().min(0).max(1).default(0.05)),
  QUALITY_SAMPLE_RATES: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .transform((value) => value.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0))
      .pipe(
        z.array(z.string().regex(/^[a-z][a-z0-9._-]{0,63}=(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)$/, 'agent=rate pairs, comma-separated, each rate 0–1 (e.g. lecture.write=0.2,tutor.judge=0)')),
      )
      .transform((entries) => Object.fromEntries(entries.map((entry) => [entry.slice(0, entry.indexOf('=')), Number(entry.slice(entry.indexOf('=') + 1))])))
      .optional(),
  ),
  QUALITY_DAILY_TOKENS: int(0, Number.MAX_SAFE_INTEGER, 200_000),
  QUALITY_RETENTION_DAYS: int(1, 36_500, 90),
  QUALITY_QUEUE_MAX: int(1, 1_000_000, 1_000),
  // LMS integration (LTI 1.3, src/lti/): grade passback retries (the wait doubles from LTI_GRADE_RETRY_MS).
  LTI_GRADE_RETRY_MS: int(100, 24 * 3_600_000, 60_000),
  LTI_GRADE_ATTEMPTS: int(1, 30, 8),
});

/** Every environment variable lectern reads (the deployment files are checked against it). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

/** Who may create an account: anyone, holders of an admin's invite, or nobody (the first account always may). */
export type SignupMode = 'open' | 'invite' | 'closed';

/**
 * What a model call is for. Every provider is configured with three names (generation, judge, embedding); seed 002's
 * cost split adds two roles that reuse them: `problems` (writing math problems) on the stronger model — the judge's
 * name, by default `gemini-pro-latest` — and `problem-judge` (judging them) on the faster one — the generation
 * name, by default `gemini-flash-latest`. Either can be named on its own (ProviderModels).
 */
export type ModelRole = 'generation' | 'judge' | 'embedding' | 'problems' | 'problem-judge';

/** The model names of a provider: the three it is configured with, and the roles that fall back to them. */
export type ProviderModels = Record<'generation' | 'judge' | 'embedding', string> & Partial<Record<'problems' | 'problem-judge', string>>;

export type LlmProvider = 'gemini' | 'openai' | 'offline';

/** How to reach a model provider's API: per-role model names and the call policy's bounds. */
interface ProviderSettings {
  baseUrl: string | undefined;
  models: ProviderModels;
  timeoutMs: number;
  idleTimeoutMs: number;
  maxAttempts: number;
}

export interface Config {
  port: number;
  host: string;
  redisUrl: string | undefined;
  /** Longest one Redis command may take on a connected but unresponsive server before it fails as unavailable. */
  redisCommandTimeoutMs: number;
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
    /** PDF_MAX_INFLATED_MB, PDF_MAX_OBJECTS: what a PDF may cost the parsers (src/materials/pdf-budget.ts). */
    pdfBudget: { maxInflatedBytes: number; maxStreamBytes: number; maxObjects: number };
  };
  lectureConcurrency: number;
  /** Shortest spacing of two streamed deltas of one session (the pacer merges what is due meanwhile). */
  pacerWindowMs: number;
  /** Quiz answers this long after a question's deadline still count; later ones are LATE. */
  quizAnswerGraceMs: number;
  /** `room:join` attempts per client address: burst and refill per second. */
  quizJoinLimit: { capacity: number; refillPerSecond: number };
  preloadSample: boolean;
  /** limits against abuse and cost (src/http/rate-limit.ts, src/realtime/socket-caps.ts, command-limits.ts). */
  rateLimits: RateLimitConfig;
  /**
   * Who may read `/metrics`: with `token`, a bearer of it (on the main port, and on the metrics port too); with
   * `port`, anyone who reaches that separate listener (on `host`, localhost by default). Neither: nobody (404).
   */
  metrics: { token: string | undefined; port: number | undefined; host: string };
  /**
   * HTTP_HEADERS_TIMEOUT_MS / HTTP_REQUEST_TIMEOUT_MS: how long a client may take to send a request's headers, and the
   * whole request with its body (a PDF upload on a slow link is the longest); past it the server answers 408 and closes.
   */
  http: { headersTimeoutMs: number; requestTimeoutMs: number };
  /** Days student data with no expiry (quiz rooms' per-player results) is kept after its last write; see data/. */
  retentionDays: number;
  /**
   * PUBLIC_URL: the address people reach this server at (behind a proxy, or the machine's LAN address), as an origin
   * without a trailing slash. The quiz host's join link and QR code use it; unset, they use the address the page was
   * opened at.
   */
  publicUrl: string | undefined;
  /**
   * TRUST_PROXY: the proxies whose X-Forwarded-For/-Proto are believed (express's "trust proxy"): `loopback` by
   * default; behind a reverse proxy in another container, `loopback,uniquelocal` (the private networks), so rate
   * limits see each student's address rather than the proxy's.
   */
  trustProxy: string;
  /** OpenID Connect sign-in when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set; undefined otherwise. */
  oidc: OidcConfig | undefined;
  /** SIGNUP: `open` by default on the memory store (a laptop), `invite` on Redis (a school's deployment). */
  signup: SignupMode;
  /** How long a browser session lasts after sign-in (SESSION_TTL_DAYS). */
  sessionTtlMs: number;
  /** what one account (one class for quizzes) may hold at once; see src/quota/. */
  quotas: QuotaLimits;
  /** MODEL_DAILY_TOKENS: model tokens an account may spend per UTC day (0 = unlimited); see src/llm/model-budget.ts. */
  modelDailyTokens: number;
  /**
   * Seed 002's math judge (src/math-problems/math-judge.ts): MATH_JUDGE_NETWORK_POLICY (`pass-unjudged`: a problem
   * the judge could not be reached for passes with scores of 4, marked unjudged; `fail`: it is written again) and
   * MATH_JUDGE_THRESHOLDS (per difficulty, consistency and the mean of the other three criteria).
   */
  mathJudge: { onNetworkError: 'pass-unjudged' | 'fail'; thresholds: Record<MathDifficulty, MathThresholdSetting> };
  /** Background jobs (src/jobs/): JOB_LEASE_MS, how soon another node resumes the job of a node that died. */
  jobs: { leaseMs: number };
  /**
   * Live exams (src/exams/): EXAM_SCORE_WEIGHTS (points per status), EXAM_SWEEP_MS (how often each node looks for
   * exams past their deadline and gradings to retry), EXAM_GRADE_RETRIES and EXAM_GRADE_RETRY_MS (background
   * regrading of Ungraded items: at most that many tries, the wait doubling from that many ms), EXAM_GRADING_LEASE_MS
   * (a node's hold on a student's grading: another node takes over this long after the holder died).
   */
  exams: { scoreWeights: { Correct: number; Partial_Correct: number; Incorrect: number }; sweepMs: number; gradeRetries: number; gradeRetryMs: number; gradingLeaseMs: number };
  /** The "AI 품질" console: which agent outputs are sampled and graded in the background; see src/quality/. */
  quality: QualityConfig;
  /**
   * LTI 1.3 (src/lti/): a score the LMS refused or could not take is sent again after LTI_GRADE_RETRY_MS, doubling,
   * at most LTI_GRADE_ATTEMPTS times (then it shows as failed on the host page until someone sends it again).
   */
  lti: { gradeRetryMs: number; gradeAttempts: number };
}

export interface QualityConfig {
  /** QUALITY_SAMPLE_RATE: the share (0–1) of every agent's outputs sampled for grading; 0 = none. */
  sampleRate: number;
  /** QUALITY_SAMPLE_RATES: per-agent rates (`lecture.write=0.2,…`) that replace `sampleRate` for those agents. */
  sampleRates: Record<string, number>;
  /** QUALITY_DAILY_TOKENS: model tokens the background grading may spend per UTC day (0 = no grading). */
  dailyTokens: number;
  /** QUALITY_RETENTION_DAYS: how long a graded interaction and the daily aggregates are kept. */
  retentionDays: number;
  /** QUALITY_QUEUE_MAX: sampled outputs waiting for grading at most; past it a sample is dropped. */
  queueMax: number;
}

export interface QuotaLimits {
  materialsPerAccount: number;
  pdfBytesPerAccount: number;
  quizzesPerClass: number;
  openRoomsPerAccount: number;
  /** MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT: all the quiz pictures an account has uploaded (default 100 MB). */
  quizImageBytesPerAccount: number;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The sign-in button's label (OIDC_NAME), e.g. "Google Workspace". */
  name: string;
}

export interface RateLimitConfig {
  /** State-changing /api requests per window: per client address and per signed-in account. */
  windowMs: number;
  addressMax: number;
  accountMax: number;
  /** Sign-in/sign-up/reset, and uploads + model generation: per address and per account, in a longer window. */
  strictWindowMs: number;
  authMax: number;
  generationMax: number;
  /**
   * Exam autosaves (`PUT /api/class-exams/:id/draft`) per window: per student (their session token) and, as a flood
   * guard, per address. They do not count against `addressMax`: a class behind one school address autosaves far
   * more than 300 times a minute while its students type.
   */
  draftMax: number;
  draftAddressMax: number;
  /** Class/room join attempts per address: a burst of `points`, then `points` per (sliding) window; a success costs 1, a failure `failureCost`. */
  join: { points: number; windowMs: number; failureCost: number };
  /** Socket commands per identity (session, player, host, instructor), shared by all its sockets on a node. */
  socketCommands: { capacity: number; refillPerSecond: number };
  /** Open connections per client address on a node, and how long one may stay without a connected namespace. */
  maxSocketsPerAddress: number;
  socketAuthTimeoutMs: number;
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
  issues.push(...oidcIssues(e));
  if (issues.length > 0) throw new ConfigError(issues);
  return {
    port: e.PORT,
    host: e.HOST,
    redisUrl: e.REDIS_URL,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
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
      pdfBudget: {
        maxInflatedBytes: e.PDF_MAX_INFLATED_MB * 1024 * 1024,
        maxStreamBytes: Math.min(64, Math.ceil(e.PDF_MAX_INFLATED_MB / 4)) * 1024 * 1024,
        maxObjects: e.PDF_MAX_OBJECTS,
      },
    },
    lectureConcurrency: e.LECTURE_CONCURRENCY,
    pacerWindowMs: e.PACER_WINDOW_MS,
    quizAnswerGraceMs: e.QUIZ_ANSWER_GRACE_MS,
    quizJoinLimit: { capacity: e.QUIZ_JOIN_BURST, refillPerSecond: e.QUIZ_JOIN_PER_SECOND },
    preloadSample: e.PRELOAD_SAMPLE,
    rateLimits: {
      windowMs: e.RATE_WINDOW_SECONDS * 1000,
      addressMax: e.RATE_ADDRESS_MAX,
      accountMax: e.RATE_ACCOUNT_MAX,
      strictWindowMs: e.RATE_STRICT_WINDOW_SECONDS * 1000,
      authMax: e.RATE_AUTH_MAX,
      generationMax: e.RATE_GENERATION_MAX,
      draftMax: e.RATE_DRAFT_MAX,
      draftAddressMax: e.RATE_DRAFT_ADDRESS_MAX,
      join: { points: e.JOIN_ATTEMPT_POINTS, windowMs: e.JOIN_ATTEMPT_WINDOW_SECONDS * 1000, failureCost: e.JOIN_FAILURE_COST },
      socketCommands: { capacity: e.SOCKET_COMMAND_BURST, refillPerSecond: e.SOCKET_COMMANDS_PER_SECOND },
      maxSocketsPerAddress: e.MAX_SOCKETS_PER_ADDRESS,
      socketAuthTimeoutMs: e.SOCKET_AUTH_TIMEOUT_MS,
    },
    http: { headersTimeoutMs: Math.min(e.HTTP_HEADERS_TIMEOUT_MS, e.HTTP_REQUEST_TIMEOUT_MS), requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS },
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST },
    retentionDays: e.RETENTION_DAYS,
    publicUrl: e.PUBLIC_URL === undefined ? undefined : new URL(e.PUBLIC_URL).href.replace(/\/+$/, ''),
    trustProxy: e.TRUST_PROXY,
    oidc:
      e.OIDC_ISSUER === undefined || e.OIDC_CLIENT_ID === undefined || e.OIDC_CLIENT_SECRET === undefined
        ? undefined
        : { issuer: e.OIDC_ISSUER, clientId: e.OIDC_CLIENT_ID, clientSecret: e.OIDC_CLIENT_SECRET, name: e.OIDC_NAME ?? 'SSO' },
    signup: e.SIGNUP ?? (e.REDIS_URL ? 'invite' : 'open'),
    sessionTtlMs: e.SESSION_TTL_DAYS * 24 * 60 * 60_000,
    quotas: {
      materialsPerAccount: e.MAX_MATERIALS_PER_ACCOUNT,
      pdfBytesPerAccount: e.MAX_PDF_BYTES_PER_ACCOUNT,
      quizzesPerClass: e.MAX_QUIZZES_PER_CLASS,
      openRoomsPerAccount: e.MAX_OPEN_ROOMS_PER_ACCOUNT,
      quizImageBytesPerAccount: e.MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT,
    },
    modelDailyTokens: e.MODEL_DAILY_TOKENS,
    mathJudge: { onNetworkError: e.MATH_JUDGE_NETWORK_POLICY, thresholds: e.MATH_JUDGE_THRESHOLDS },
    jobs: { leaseMs: e.JOB_LEASE_MS },
    exams: { scoreWeights: e.EXAM_SCORE_WEIGHTS, sweepMs: e.EXAM_SWEEP_MS, gradeRetries: e.EXAM_GRADE_RETRIES, gradeRetryMs: e.EXAM_GRADE_RETRY_MS, gradingLeaseMs: e.EXAM_GRADING_LEASE_MS },
    quality: {
      sampleRate: e.QUALITY_SAMPLE_RATE,
      sampleRates: e.QUALITY_SAMPLE_RATES ?? {},
      dailyTokens: e.QUALITY_DAILY_TOKENS,
      retentionDays: e.QUALITY_RETENTION_DAYS,
      queueMax: e.QUALITY_QUEUE_MAX,
    },
    lti: { gradeRetryMs: e.LTI_GRADE_RETRY_MS, gradeAttempts: e.LTI_GRADE_ATTEMPTS },
  };
}

const OIDC_VARIABLES = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A half-configured sign-in would only fail at the first click; an http issuer would send the secret in clear. */
function oidcIssues(e: { [variable in (typeof OIDC_VARIABLES)[number]]?: string | undefined }): { variable: string; message: string }[] {
  const given = OIDC_VARIABLES.filter((variable) => e[variable] !== undefined);
  if (given.length === 0) return [];
  const issues = OIDC_VARIABLES.filter((variable) => e[variable] === undefined).map((variable) => ({
    variable,
    message: `required with ${given.join(', ')} (single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET)`,
  }));
  if (e.OIDC_ISSUER !== undefined) {
    const issuer = new URL(e.OIDC_ISSUER);
    if (issuer.protocol === 'http:' && !LOOPBACK_HOSTS.has(issuer.hostname)) {
      issues.push({ variable: 'OIDC_ISSUER', message: 'must be https:// (http:// only for localhost)' });
    }
  }
  return issues;
}
