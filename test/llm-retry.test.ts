import { describe, expect, it } from 'vitest';
import { ModelError } from '../src/llm/model-error.js';
import {
  backoffDelayMs,
  classifyError,
  isNetworkError,
  parseRetryDelay,
  retryDelayFromError,
  sleep,
  withRetry,
} from '../src/llm/retry.js';

/** The retry policy as pure logic: no network, no real waiting (sleep and random are injected). */

class HttpError extends Error {
  constructor(
    readonly status: number,
    message = `HTTP ${status}`,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const policy = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 8_000 };

function networkError(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

describe('AI4 classifyError', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries HTTP %i', (status) => {
    expect(classifyError(new HttpError(status))).toMatchObject({ retryable: true, status });
  });

  it.each([400, 401, 403, 404, 409, 422])('does not retry HTTP %i', (status) => {
    expect(classifyError(new HttpError(status))).toMatchObject({ retryable: false, status });
  });

  it.each(['ECONNRESET', 'ECONNREFUSED', 'UND_ERR_SOCKET'])('retries network error %s found in the cause chain', (code) => {
    expect(classifyError(networkError(code)).retryable).toBe(true);
  });

  it.each(['socket hang up', 'Premature close', 'fetch failed', 'terminated'])('retries a "%s" message', (message) => {
    expect(isNetworkError(new Error(message))).toBe(true);
  });

  it('never retries an abort or a plain programming error', () => {
    expect(classifyError(new DOMException('aborted', 'AbortError')).retryable).toBe(false);
    expect(classifyError(new DOMException('timed out', 'TimeoutError')).retryable).toBe(false);
    expect(classifyError(new TypeError('x is not a function')).retryable).toBe(false);
  });

  it('trusts the retryable flag of our own errors', () => {
    expect(classifyError(new ModelError('MODEL_UNAVAILABLE', 'x', { retryable: true })).retryable).toBe(true);
    expect(classifyError(new ModelError('MODEL_OUTPUT_INVALID', 'x')).retryable).toBe(false);
  });

  it("reads a 429's RetryInfo from the JSON body the SDK puts in the message", () => {
    const body = {
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' },
        ],
      },
    };
    expect(classifyError(new HttpError(429, JSON.stringify(body)))).toEqual({ retryable: true, status: 429, minimumDelayMs: 2_000 });
  });

  it('reads RetryInfo from an own details array and from a stream error message', () => {
    const withDetails = Object.assign(new HttpError(429), { details: [{ '@type': 'x/google.rpc.RetryInfo', retryDelay: '0.5s' }] });
    expect(retryDelayFromError(withDetails)).toBe(500);
    const streamMessage = `got status: RESOURCE_EXHAUSTED. ${JSON.stringify({ error: { code: 429, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.25s' }] } })}`;
    expect(retryDelayFromError(new HttpError(429, streamMessage))).toBe(1_250);
    expect(retryDelayFromError(new HttpError(429, 'not json {'))).toBeUndefined();
  });
});

describe('AI4 parseRetryDelay', () => {
  it('parses protobuf durations', () => {
    expect(parseRetryDelay('2s')).toBe(2_000);
    expect(parseRetryDelay('0.5s')).toBe(500);
    expect(parseRetryDelay('13.000123s')).toBe(13_000);
    expect(parseRetryDelay('2')).toBeUndefined();
    expect(parseRetryDelay(2)).toBeUndefined();
  });
});

describe('AI4 backoffDelayMs', () => {
  it('uses full jitter below an exponential ceiling', () => {
    expect(backoffDelayMs(1, policy, () => 0.999_999)).toBe(249);
    expect(backoffDelayMs(2, policy, () => 0.999_999)).toBe(499);
    expect(backoffDelayMs(3, policy, () => 0.5)).toBe(500);
    expect(backoffDelayMs(1, policy, () => 0)).toBe(0);
  });

  it('caps the ceiling', () => {
    expect(backoffDelayMs(20, policy, () => 0.999_999)).toBe(7_999);
  });

  it("never waits less than the server's minimum", () => {
    expect(backoffDelayMs(1, policy, () => 0, 2_000)).toBe(2_000);
    expect(backoffDelayMs(10, policy, () => 0.999_999, 2_000)).toBe(7_999);
  });
});

describe('AI4 withRetry', () => {
  const recordingSleep = (delays: number[]) => async (ms: number) => void delays.push(ms);

  it('retries retryable failures with growing delays, then succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async (attempt) => {
        calls++;
        if (attempt < 3) throw new HttpError(503);
        return 'done';
      },
      { policy, sleep: recordingSleep(delays), random: () => 0.5 },
    );
    expect(result).toBe('done');
    expect(calls).toBe(3);
    expect(delays).toEqual([125, 250]);
  });

  it('rethrows the last error unchanged when the attempts are spent', async () => {
    const errors = [new HttpError(500), new HttpError(502), new HttpError(503), new HttpError(504)];
    let calls = 0;
    const failure = withRetry(
      async () => {
        throw errors[calls++];
      },
      { policy, sleep: async () => undefined },
    );
    await expect(failure).rejects.toBe(errors[3]);
    expect(calls).toBe(4);
  });

  it('stops at once on a non-retryable error', async () => {
    let calls = 0;
    const error = new HttpError(400);
    await expect(
      withRetry(
        async () => {
          calls++;
          throw error;
        },
        { policy, sleep: async () => undefined },
      ),
    ).rejects.toBe(error);
    expect(calls).toBe(1);
  });

  it('honours RetryInfo as the minimum delay', async () => {
    const delays: number[] = [];
    const body = JSON.stringify({ error: { code: 429, details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }] } });
    await withRetry(
      async (attempt) => {
        if (attempt === 1) throw new HttpError(429, body);
        return 'ok';
      },
      { policy, sleep: recordingSleep(delays), random: () => 0 },
    );
    expect(delays).toEqual([3_000]);
  });

  it('lets the caller refuse a retry through classify', async () => {
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new HttpError(503);
        },
        { policy, sleep: async () => undefined, classify: () => ({ retryable: false, status: 503, minimumDelayMs: undefined }) },
      ),
    ).rejects.toBeInstanceOf(HttpError);
    expect(calls).toBe(1);
  });

  it('reports each retry', async () => {
    const seen: number[] = [];
    await withRetry(
      async (attempt) => {
        if (attempt < 2) throw new HttpError(503);
        return 'ok';
      },
      { policy, sleep: async () => undefined, random: () => 0, onRetry: (info) => seen.push(info.attempt) },
    );
    expect(seen).toEqual([1]);
  });

  it('AI5 aborts the wait between attempts', async () => {
    const controller = new AbortController();
    let calls = 0;
    const failure = withRetry(
      async () => {
        calls++;
        throw new HttpError(503);
      },
      { policy: { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000 }, random: () => 0.5, signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await expect(failure).rejects.toThrow('stop');
    expect(calls).toBe(1);
  });
});

describe('AI5 sleep', () => {
  it('resolves after the delay and rejects at once when already aborted', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    await expect(sleep(1_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });
});
