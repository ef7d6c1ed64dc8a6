import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Usage } from './model.js';
import { ModelError } from './model-error.js';
import { classifyError } from './retry.js';

/**
 * The abort plumbing every network adapter shares: one call's caller signals plus its overall deadline, the idle
 * timer of a stream, and the mapping of whatever a call threw to a ModelError that says what happened (caller
 * abort, timeout, stalled stream, or the provider's failure).
 */

/**
 * One call's signals: the caller's plus the overall deadline, and a record of which of our own timers fired, so
 * an abort can be reported as what it was (caller abort vs. timeout).
 */
export class CallControl {
  readonly signal: AbortSignal;
  attempts = 0;
  idleTimedOut = false;
  private readonly deadline = new AbortController();
  private readonly callerSignals: AbortSignal[];
  private readonly timer: NodeJS.Timeout;

  constructor(readonly timeoutMs: number, signals: (AbortSignal | undefined)[]) {
    this.callerSignals = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    this.timer = setTimeout(() => this.deadline.abort(new DOMException('Model call timed out', 'TimeoutError')), timeoutMs);
    this.signal = AbortSignal.any([...this.callerSignals, this.deadline.signal]);
  }

  get callerAborted(): boolean {
    return this.callerSignals.some((signal) => signal.aborted);
  }

  get timedOut(): boolean {
    return this.deadline.signal.aborted;
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

/** Aborts its signal after `idleMs` without a `reset()`: the longest silence a stream may keep. */
export class IdleTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {
    this.reset();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  reset(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.onIdle();
      this.controller.abort(new DOMException('Model stream idle', 'TimeoutError'));
    }, this.idleMs);
  }

  dispose(): void {
    clearTimeout(this.timer);
  }
}

/** Maps any failure of a call to a ModelError; which of our signals fired decides between abort and timeout. */
export function toModelError(error: unknown, call: CallControl): ModelError {
  if (error instanceof ModelError) return error;
  if (call.callerAborted) {
    return new ModelError(ErrorCode.MODEL_ABORTED, 'AI 모델 호출이 취소되었습니다.', { cause: error });
  }
  if (call.timedOut) {
    return new ModelError(ErrorCode.MODEL_TIMEOUT, 'AI 모델이 제한 시간 안에 응답하지 않았습니다.', {
      cause: new Error(`no complete reply within ${call.timeoutMs} ms`, { cause: error }),
      retryable: true,
    });
  }
  if (call.idleTimedOut) {
    return new ModelError(ErrorCode.MODEL_TIMEOUT, 'AI 모델의 응답이 중간에 멈췄습니다.', {
      cause: new Error('the stream went idle', { cause: error }),
      retryable: true,
    });
  }
  const decision = classifyError(error);
  return new ModelError(ErrorCode.MODEL_UNAVAILABLE, 'AI 모델을 사용할 수 없습니다. 잠시 후 다시 시도해 주세요.', {
    cause: error,
    retryable: decision.retryable,
    ...(decision.status === undefined ? {} : { providerStatus: decision.status }),
  });
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}

/** L2-normalises a vector (a zero vector stays as it is). */
export function unitLength(values: number[]): number[] {
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  return norm === 0 ? values : values.map((value) => value / norm);
}
