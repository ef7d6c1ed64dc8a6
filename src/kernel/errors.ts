import { ErrorCode, type WireError } from '../protocol/wire/error-codes.js';
import { ERROR_MESSAGES } from '../protocol/wire/error-messages.js';

export interface AppErrorOptions {
  /**
   * The HTTP status, only where it differs from the code's own (`ERROR_STATUS` in src/boundary/error-status.ts, the one
   * table of statuses, read at the HTTP edge).
   */
  status?: number;
  cause?: unknown;
  /** Whether repeating the same operation may succeed (decided once, where the error is made). */
  retryable?: boolean;
}

/**
 * An expected failure with a stable wire code. Anything else that is thrown is unexpected and becomes
 * `INTERNAL` at the boundary (with the detail logged, never sent). The message defaults to the code's Korean one
 * (`ERROR_MESSAGES`); give one only where the default does not say enough.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** The HTTP status where it differs from the code's own; undefined otherwise. */
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string = ERROR_MESSAGES[code], options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status;
    this.retryable = options.retryable ?? false;
  }

  toWire(): WireError {
    return { code: this.code, message: this.message };
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The store could not be reached; the operation may succeed later. */
export class StoreUnavailableError extends AppError {
  constructor(message = '저장소에 연결할 수 없습니다. 잠시 후 다시 시도해 주세요.', cause?: unknown) {
    super(ErrorCode.STORE_UNAVAILABLE, message, { retryable: true, cause });
    this.name = 'StoreUnavailableError';
  }
}

/**
 * Converts any thrown value to the wire shape; unexpected errors never leak their message. The HTTP status is the
 * edge's to choose (`httpStatusOf` in src/boundary/error-status.ts).
 */
export function toWireError(error: unknown): { body: WireError } {
  if (isAppError(error)) return { body: error.toWire() };
  return { body: { code: ErrorCode.INTERNAL, message: '서버 내부 오류가 발생했습니다.' } };
}

/**
 * A limit was reached (429 RATE_LIMITED). `retryAfterSeconds` becomes the HTTP `Retry-After` header (see
 * http/error-middleware.ts) and a field of the wire error, so socket clients know when to try again too.
 */
export class RateLimitedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message = `요청이 너무 많습니다. ${retryAfterSeconds}초 후에 다시 시도해 주세요.`,
  ) {
    super(ErrorCode.RATE_LIMITED, message, { retryable: true });
    this.name = 'RateLimitedError';
  }

  override toWire(): WireError & { retryAfterSeconds: number } {
    return { ...super.toWire(), retryAfterSeconds: this.retryAfterSeconds };
  }
}

/** which quota a refusal names (stable, for programs); the message names it in words for people. */
export type QuotaName = 'materials' | 'pdf-bytes' | 'quizzes-per-class' | 'open-rooms' | 'quiz-image-bytes';

/**
 * an account (a class, for its quizzes) holds all it may (429 QUOTA_EXCEEDED). Unlike RATE_LIMITED, waiting
 * does not help: something must be deleted (or a room ended) first, so there is no Retry-After.
 */
export class QuotaExceededError extends AppError {
  constructor(
    readonly quota: QuotaName,
    readonly limit: number,
    message: string,
  ) {
    super(ErrorCode.QUOTA_EXCEEDED, message);
    this.name = 'QuotaExceededError';
  }

  override toWire(): WireError & { quota: QuotaName; limit: number } {
    return { ...super.toWire(), quota: this.quota, limit: this.limit };
  }
}

/**
 * the account's model budget for the UTC day is spent (429 MODEL_BUDGET_EXCEEDED), raised before a model call
 * starts. `limit` is MODEL_DAILY_TOKENS; the message never says "토큰" (people read it).
 */
export class ModelBudgetExceededError extends AppError {
  constructor(
    readonly limit: number,
    message = '이 계정이 오늘 쓸 수 있는 AI 사용량을 모두 사용했습니다. 사용량은 매일 오전 9시(한국 시간)에 다시 채워집니다.',
  ) {
    super(ErrorCode.MODEL_BUDGET_EXCEEDED, message);
    this.name = 'ModelBudgetExceededError';
  }

  override toWire(): WireError & { limit: number } {
    return { ...super.toWire(), limit: this.limit };
  }
}
