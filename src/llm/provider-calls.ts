import type { ModelRole } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { addUsage, CallControl, IdleTimer, toModelError, ZERO_USAGE } from './call-control.js';
import type {
  FinishReason,
  GenerateObjectRequest,
  GenerateObjectResult,
  ModelRequestBase,
  StreamTextResult,
  TextStream,
  Usage,
} from './model.js';
import { ModelError } from './model-error.js';
import { fence } from '../text/index.js';
import { loadPrompt } from './prompt-loader.js';
import {
  DEFAULT_RETRY_POLICY,
  classifyError,
  withRetry,
  type RetryDecision,
  type RetryInfo,
  type RetryOptions,
  type RetryPolicy,
} from './retry.js';
import { parseWithSchema } from './safe-json.js';
import { createTextStream } from './text-stream.js';

/**
 * What every network adapter (Gemini, OpenAI-compatible) does the same way around its vendor calls: retries with
 * the shared policy, the overall and idle timeouts, abort, one repair turn for a structured reply that does not
 * validate, and the mapping of failures to ModelError. An adapter supplies only the vendor call and the mapping
 * of its replies; the policy lives here once.
 */

export interface ProviderCallOptions {
  /** Bound on one whole call, retries and backoff included. */
  timeoutMs: number;
  /** Longest silence tolerated while a stream is open (reset by every chunk). */
  idleTimeoutMs: number;
  maxAttempts: number;
  logger?: Logger | undefined;
  retry?: Partial<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> & Pick<RetryOptions, 'sleep' | 'random'>> | undefined;
}

/** A vendor reply mapped to our terms. */
export interface MappedReply {
  text: string;
  usage: Usage;
  finishReason: FinishReason;
}

/** One streamed chunk mapped to our terms; usage and finish reason only when the chunk carries them. */
export interface MappedChunk {
  text: string;
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
}

/** The repair turn's inputs: the model's own previous reply and the instruction saying what was wrong. */
export interface RepairTurn {
  previousText: string;
  instruction: string;
}

export interface ProviderCalls {
  /** Runs one vendor operation under the retry policy (the operation gets the call's signal). */
  retry<T>(call: CallControl, method: string, role: ModelRole, operation: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Runs `body` with a CallControl for the request's signals; every failure leaves as a ModelError. */
  run<T>(signals: (AbortSignal | undefined)[], body: (call: CallControl) => Promise<T>): Promise<T>;
  /**
   * generateObject: `generate` is called for the first turn (repair undefined) and, when the reply does not
   * validate, once more with the repair turn; it runs its vendor call through `retry`.
   */
  object<T>(
    request: GenerateObjectRequest<T>,
    generate: (call: CallControl, repair: RepairTurn | undefined) => Promise<MappedReply>,
  ): Promise<GenerateObjectResult<T>>;
  /**
   * streamText: `open` starts one attempt's vendor stream with the given signal (overall deadline, caller and idle
   * timer); `map` turns a chunk into text, usage and finish reason. Attempts retry until a delta reached the caller.
   */
  stream<C>(request: ModelRequestBase, open: (signal: AbortSignal) => Promise<AsyncIterable<C>>, map: (chunk: C) => MappedChunk): TextStream;
}

const NOT_RETRYABLE: RetryDecision = { retryable: false, status: undefined, minimumDelayMs: undefined };

/**
 * @param provider names the provider in logs
 * @param classify how the provider's errors are classified (default: retry.ts's classifyError)
 */
export function createProviderCalls(
  provider: string,
  options: ProviderCallOptions,
  classify: (error: unknown) => RetryDecision = classifyError,
): ProviderCalls {
  const policy: RetryPolicy = {
    maxAttempts: options.maxAttempts,
    baseDelayMs: options.retry?.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.retry?.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
  const logger = options.logger;
  // Loaded at creation so a missing prompt file fails the start, not the first invalid reply.
  const repairPrompt = loadPrompt('json-repair');

  const retryOptions = (signal: AbortSignal, method: string, role: ModelRole): RetryOptions => ({
    policy,
    signal,
    classify,
    ...(options.retry?.sleep === undefined ? {} : { sleep: options.retry.sleep }),
    ...(options.retry?.random === undefined ? {} : { random: options.retry.random }),
    onRetry: (info: RetryInfo) =>
      logger?.warn(
        { method, role, attempt: info.attempt, delayMs: info.delayMs, status: info.decision.status, err: info.error },
        `${provider} call failed; retrying`,
      ),
  });

  const run = async <T>(signals: (AbortSignal | undefined)[], body: (call: CallControl) => Promise<T>): Promise<T> => {
    const call = new CallControl(options.timeoutMs, signals);
    try {
      return await body(call);
    } catch (error) {
      throw toModelError(error, call);
    } finally {
      call.dispose();
    }
  };

  const retry = <T>(call: CallControl, method: string, role: ModelRole, operation: (signal: AbortSignal) => Promise<T>) =>
    withRetry(async (attempt) => {
      call.attempts = attempt;
      return operation(call.signal);
    }, retryOptions(call.signal, method, role));

  return {
    retry,
    run,

    object: <T>(request: GenerateObjectRequest<T>, generate: (call: CallControl, repair: RepairTurn | undefined) => Promise<MappedReply>) =>
      run([request.signal], async (call): Promise<GenerateObjectResult<T>> => {
        const role = request.role ?? 'generation';
        const first = await generate(call, undefined);
        const firstParse = parseWithSchema(first.text, request.schema);
        if (firstParse.ok) return { object: firstParse.value, usage: first.usage, finishReason: first.finishReason };
        logger?.warn({ task: request.task, role, error: firstParse.error }, `${provider} reply did not validate; asking for a repair`);

        // One repair turn: the model sees its own reply and exactly what was wrong with it.
        const instruction = repairPrompt.render({ error: fence('validation_error', firstParse.error) });
        const second = await generate(call, { previousText: first.text, instruction });
        const usage = addUsage(first.usage, second.usage);
        const secondParse = parseWithSchema(second.text, request.schema);
        if (secondParse.ok) return { object: secondParse.value, usage, finishReason: second.finishReason };
        throw new ModelError(ErrorCode.MODEL_OUTPUT_INVALID, 'AI 모델의 응답 형식이 올바르지 않습니다.', {
          rawText: second.text,
          usage,
          finishReason: second.finishReason,
          cause: new Error(`${request.task}: ${secondParse.error}`),
        });
      }),

    stream: <C>(request: ModelRequestBase, open: (signal: AbortSignal) => Promise<AsyncIterable<C>>, map: (chunk: C) => MappedChunk) => {
      const role = request.role ?? 'generation';
      return createTextStream((push, cancelSignal) =>
        run([request.signal, cancelSignal], async (call) => {
          let yielded = false;
          return withRetry(
            async (attempt) => {
              call.attempts = attempt;
              // The idle timer is per attempt and restarts on every chunk; an SDK's own request timeout would
              // bound the whole body instead, which is the overall timeout's job.
              const idle = new IdleTimer(options.idleTimeoutMs, () => {
                call.idleTimedOut = true;
              });
              try {
                const signal = AbortSignal.any([call.signal, idle.signal]);
                const chunks = await open(signal);
                let usage: Usage = ZERO_USAGE;
                let finishReason: FinishReason = 'other';
                for await (const chunk of chunks) {
                  idle.reset();
                  const mapped = map(chunk);
                  if (mapped.usage !== undefined) usage = mapped.usage;
                  if (mapped.finishReason !== undefined) finishReason = mapped.finishReason;
                  if (mapped.text !== '') {
                    yielded = true;
                    push(mapped.text);
                  }
                }
                // Some SDKs (openai's) end the iteration quietly when the signal aborts: a cut stream is no reply.
                signal.throwIfAborted();
                return { usage, finishReason } satisfies StreamTextResult;
              } finally {
                idle.dispose();
              }
            },
            {
              ...retryOptions(call.signal, 'streamText', role),
              // Once a delta reached the consumer a retry would repeat text, so a later failure is the caller's.
              classify: (error) => (yielded || call.idleTimedOut ? NOT_RETRYABLE : classify(error)),
            },
          );
        }),
      );
    },
  };
}
