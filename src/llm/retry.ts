import { isAppError } from '../kernel/index.js';
import { parseJson } from './safe-json.js';

/**
 * The retry policy for calls to a model provider, decided here and nowhere else: which failures are worth
 * repeating, how long to wait, and how often. The adapter supplies the operation; this file knows no vendor type.
 */

export interface RetryPolicy {
  /** Total attempts including the first one. */
  maxAttempts: number;
  /** The backoff ceiling for the first retry; it doubles per attempt up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000 };

export interface RetryDecision {
  retryable: boolean;
  /** HTTP status of the failure, when there was one. */
  status: number | undefined;
  /** The server's own minimum wait (a 429's RetryInfo.retryDelay), in ms. */
  minimumDelayMs: number | undefined;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  error: unknown;
  decision: RetryDecision;
}

export interface RetryOptions {
  policy: RetryPolicy;
  /** Aborts the wait between attempts (and is checked before each retry). */
  signal?: AbortSignal | undefined;
  /** Injectable so tests need not wait. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable so tests can pin the jitter; returns [0, 1). */
  random?: () => number;
  /** Overrides the classification, e.g. to refuse retries once a stream has produced output. */
  classify?: (error: unknown, attempt: number) => RetryDecision;
  onRetry?: (info: RetryInfo) => void;
}

const RETRYABLE_STATUS = new Set([408, 429]);

// Transport failures seen from Node's fetch (undici) and net: the request may not have reached the server, or
// the connection died under it; either way the same request may succeed on a fresh connection.
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
]);
const NETWORK_MESSAGES = [
  'fetch failed',
  'socket hang up',
  'premature close',
  'other side closed',
  'terminated',
  'econnreset',
  'econnrefused',
];

/** Whether a status is worth retrying: timeouts, rate limits and server errors. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUS.has(status) || (status >= 500 && status <= 599);
}

/** Decides whether a failure may succeed when repeated, and how long the server asked us to wait. */
export function classifyError(error: unknown): RetryDecision {
  if (isAbortError(error)) return { retryable: false, status: undefined, minimumDelayMs: undefined };
  if (isAppError(error)) return { retryable: error.retryable, status: undefined, minimumDelayMs: undefined };
  const status = errorStatus(error);
  if (status !== undefined) {
    return {
      retryable: isRetryableStatus(status),
      status,
      minimumDelayMs: status === 429 ? retryDelayFromError(error) : undefined,
    };
  }
  return { retryable: isNetworkError(error), status: undefined, minimumDelayMs: undefined };
}

/** The HTTP status carried by a provider error (`status`, or a numeric `code` in the HTTP range). */
export function errorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as Record<string, unknown>;
  for (const value of [record['status'], record['code']]) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 100 && value <= 599) return value;
  }
  return undefined;
}

export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** True for transport failures anywhere along the `cause` chain. */
export function isNetworkError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const record = current as Record<string, unknown>;
    if (typeof record['code'] === 'string' && NETWORK_CODES.has(record['code'])) return true;
    if (typeof record['message'] === 'string') {
      const message = record['message'].toLowerCase();
      if (NETWORK_MESSAGES.some((fragment) => message.includes(fragment))) return true;
    }
    current = record['cause'];
  }
  return false;
}

/**
 * Parses a protobuf Duration as Google writes it in JSON ("2s", "0.5s", "1.250s"); undefined when it is not one.
 */
export function parseRetryDelay(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(value);
  if (match?.[1] === undefined) return undefined;
  return Math.round(Number(match[1]) * 1000);
}

/**
 * Finds `RetryInfo.retryDelay` in a Google error: in an own `details` array, or inside the JSON the SDK puts in
 * the error message (the HTTP body, or "got status: …. {json}" for an error event in a stream).
 */
export function retryDelayFromError(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as Record<string, unknown>;
  const own = retryDelayFromDetails(record['details']);
  if (own !== undefined) return own;
  const message = record['message'];
  if (typeof message !== 'string') return undefined;
  const start = message.indexOf('{');
  if (start === -1) return undefined;
  const parsed = parseJson(message.slice(start));
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return undefined;
  const body = (parsed.value as Record<string, unknown>)['error'];
  if (typeof body !== 'object' || body === null) return undefined;
  return retryDelayFromDetails((body as Record<string, unknown>)['details']);
}

function retryDelayFromDetails(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details as unknown[]) {
    if (typeof detail !== 'object' || detail === null) continue;
    const entry = detail as Record<string, unknown>;
    const type = entry['@type'];
    if (typeof type === 'string' && !type.endsWith('RetryInfo')) continue;
    const delay = parseRetryDelay(entry['retryDelay']);
    if (delay !== undefined) return delay;
  }
  return undefined;
}

/**
 * Exponential backoff with full jitter (uniform in [0, min(cap, base·2^(attempt-1))]), never shorter than the
 * server's own minimum. Full jitter spreads a burst of clients that failed together instead of re-synchronising them.
 * @param attempt the attempt that just failed, 1-based
 */
export function backoffDelayMs(
  attempt: number,
  policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
  minimumDelayMs = 0,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  return Math.max(jittered, minimumDelayMs);
}

/** A setTimeout promise that rejects with the signal's reason as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal | undefined): unknown {
  const reason: unknown = signal?.reason;
  return reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Runs `operation` until it succeeds, fails with a non-retryable error, or the attempts are spent; the last
 * error is rethrown unchanged so the caller maps it to its own error type.
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;
  const classify = options.classify ?? ((error: unknown) => classifyError(error));
  const maxAttempts = Math.max(1, Math.floor(options.policy.maxAttempts));
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation(attempt);
    } catch (error) {
      if (options.signal?.aborted || attempt >= maxAttempts) throw error;
      const decision = classify(error, attempt);
      if (!decision.retryable) throw error;
      const delayMs = backoffDelayMs(attempt, options.policy, random, decision.minimumDelayMs);
      options.onRetry?.({ attempt, delayMs, error, decision });
      await wait(delayMs, options.signal);
    }
  }
}
