import { ErrorCode, type WireError } from './protocol/wire/error-codes.js';

export interface AppErrorOptions {
  /** HTTP status to answer with when this error reaches an HTTP boundary. */
  status?: number;
  cause?: unknown;
  /** Whether repeating the same operation may succeed (decided once, where the error is made). */
  retryable?: boolean;
}

/**
 * An expected failure with a stable wire code. Anything else that is thrown is unexpected and becomes
 * `INTERNAL` at the boundary (with the detail logged, never sent).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? 500;
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
    super(ErrorCode.STORE_UNAVAILABLE, message, { status: 503, retryable: true, cause });
    this.name = 'StoreUnavailableError';
  }
}

/** Converts any thrown value to the wire shape; unexpected errors never leak their message. */
export function toWireError(error: unknown): { status: number; body: WireError } {
  if (isAppError(error)) return { status: error.status, body: error.toWire() };
  return { status: 500, body: { code: ErrorCode.INTERNAL, message: '서버 내부 오류가 발생했습니다.' } };
}
