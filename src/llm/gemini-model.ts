import type {
  Content,
  GoogleGenAI,
  GenerateContentConfig,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import { z } from 'zod';
import type { ModelRole } from '../config.js';
import type { Logger } from '../logger.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type {
  EmbedOptions,
  FinishReason,
  GenerateObjectRequest,
  GenerateObjectResult,
  LanguageModel,
  ModelCapabilities,
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
 * The Gemini adapter on @google/genai. Every vendor type stays in this file: requests are built from our
 * ModelRequestBase, replies and chunks are mapped to our Usage / FinishReason, and every failure leaves as a
 * ModelError. The SDK's own retries stay off (it never retries inside a stream and ignores RetryInfo); retry.ts
 * decides instead.
 */

export interface GeminiModelOptions {
  apiKey: string;
  baseUrl?: string | undefined;
  models: Record<ModelRole, string>;
  /** Bound on one whole call, retries and backoff included. */
  timeoutMs: number;
  /** Longest silence tolerated while a stream is open (reset by every chunk). */
  idleTimeoutMs: number;
  maxAttempts: number;
  logger?: Logger | undefined;
  retry?: Partial<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'> & Pick<RetryOptions, 'sleep' | 'random'>> | undefined;
}

interface MappedReply {
  text: string;
  usage: Usage;
  finishReason: FinishReason;
}

const EMBED_BATCH_SIZE = 100;
const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0 };
const NOT_RETRYABLE: RetryDecision = { retryable: false, status: undefined, minimumDelayMs: undefined };
const SAFETY_REASONS = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
]);

/** Gemini reads PDFs (page images too), follows any prompt and embeds by meaning. */
export const GEMINI_CAPABILITIES: ModelCapabilities = { pdfInput: true, followsPrompts: true, semanticEmbeddings: true };

/** Creates the Gemini-backed LanguageModel (kind 'gemini'). */
export function createGeminiModel(options: GeminiModelOptions): LanguageModel {
  // The SDK is loaded on first use: a third of a CPU-second that every start with the offline model would pay.
  let client: Promise<GoogleGenAI> | undefined;
  const sdk = () =>
    (client ??= import('@google/genai').then(
      ({ GoogleGenAI }) =>
        new GoogleGenAI({
          apiKey: options.apiKey,
          ...(options.baseUrl === undefined ? {} : { httpOptions: { baseUrl: options.baseUrl } }),
        }),
    ));
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
    ...(options.retry?.sleep === undefined ? {} : { sleep: options.retry.sleep }),
    ...(options.retry?.random === undefined ? {} : { random: options.retry.random }),
    onRetry: (info: RetryInfo) =>
      logger?.warn(
        { method, role, attempt: info.attempt, delayMs: info.delayMs, status: info.decision.status, err: info.error },
        'gemini call failed; retrying',
      ),
  });

  const generate = async (
    role: ModelRole,
    contents: Content[],
    config: GenerateContentConfig,
    call: CallControl,
  ): Promise<MappedReply> => {
    const response = await withRetry(async (attempt) => {
      call.attempts = attempt;
      return (await sdk()).models.generateContent({
        model: options.models[role],
        contents,
        config: { ...config, abortSignal: call.signal },
      });
    }, retryOptions(call.signal, 'generateObject', role));
    return mapResponse(response);
  };

  return {
    kind: 'gemini',
    capabilities: GEMINI_CAPABILITIES,

    modelName: (role) => options.models[role],

    async generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
      const role = request.role ?? 'generation';
      const config = baseConfig(request);
      config.responseMimeType = 'application/json';
      config.responseJsonSchema = toResponseSchema(request.schema);
      const contents: Content[] = [userContent(request)];
      const call = new CallControl(options.timeoutMs, [request.signal]);
      try {
        const first = await generate(role, contents, config, call);
        const firstParse = parseWithSchema(first.text, request.schema);
        if (firstParse.ok) return { object: firstParse.value, usage: first.usage, finishReason: first.finishReason };
        logger?.warn({ task: request.task, role, error: firstParse.error }, 'gemini reply did not validate; asking for a repair');

        // One repair turn: the model sees its own reply and exactly what was wrong with it.
        const repairContents: Content[] = [
          ...contents,
          ...(first.text === '' ? [] : [{ role: 'model', parts: [{ text: first.text }] }]),
          { role: 'user', parts: [{ text: repairPrompt.render({ error: fence('validation_error', firstParse.error) }) }] },
        ];
        const second = await generate(role, repairContents, config, call);
        const usage = addUsage(first.usage, second.usage);
        const secondParse = parseWithSchema(second.text, request.schema);
        if (secondParse.ok) return { object: secondParse.value, usage, finishReason: second.finishReason };
        throw new ModelError(ErrorCode.MODEL_OUTPUT_INVALID, 'AI 모델의 응답 형식이 올바르지 않습니다.', {
          rawText: second.text,
          usage,
          finishReason: second.finishReason,
          cause: new Error(`${request.task}: ${secondParse.error}`),
        });
      } catch (error) {
        throw toModelError(error, call);
      } finally {
        call.dispose();
      }
    },

    streamText(request: ModelRequestBase): TextStream {
      const role = request.role ?? 'generation';
      return createTextStream(async (push, cancelSignal) => {
        const call = new CallControl(options.timeoutMs, [request.signal, cancelSignal]);
        const config = baseConfig(request);
        const contents: Content[] = [userContent(request)];
        let yielded = false;
        try {
          return await withRetry(
            async (attempt) => {
              call.attempts = attempt;
              // The idle timer is per attempt and restarts on every chunk; the SDK's httpOptions.timeout would
              // bound the whole body instead, which is the overall timeout's job.
              const idle = new IdleTimer(options.idleTimeoutMs, () => {
                call.idleTimedOut = true;
              });
              try {
                const stream = await (await sdk()).models.generateContentStream({
                  model: options.models[role],
                  contents,
                  config: { ...config, abortSignal: AbortSignal.any([call.signal, idle.signal]) },
                });
                let usage: Usage = ZERO_USAGE;
                let finishReason: FinishReason = 'other';
                for await (const chunk of stream) {
                  idle.reset();
                  const mapped = mapChunk(chunk);
                  if (mapped.usage !== undefined) usage = mapped.usage;
                  if (mapped.finishReason !== undefined) finishReason = mapped.finishReason;
                  if (mapped.text !== '') {
                    yielded = true;
                    push(mapped.text);
                  }
                }
                return { usage, finishReason } satisfies StreamTextResult;
              } finally {
                idle.dispose();
              }
            },
            {
              ...retryOptions(call.signal, 'streamText', role),
              // Once a delta reached the consumer a retry would repeat text, so a later failure is the caller's.
              classify: (error) => (yielded || call.idleTimedOut ? NOT_RETRYABLE : classifyError(error)),
            },
          );
        } catch (error) {
          throw toModelError(error, call);
        } finally {
          call.dispose();
        }
      });
    },

    async embed(texts: string[], embedOptions?: EmbedOptions): Promise<number[][]> {
      if (texts.length === 0) return [];
      const dimensions = embedOptions?.dimensions;
      const call = new CallControl(options.timeoutMs, [embedOptions?.signal]);
      try {
        const vectors: number[][] = [];
        for (let start = 0; start < texts.length; start += EMBED_BATCH_SIZE) {
          const batch = texts.slice(start, start + EMBED_BATCH_SIZE);
          const response = await withRetry(async (attempt) => {
            call.attempts = attempt;
            return (await sdk()).models.embedContent({
              model: options.models.embedding,
              contents: batch,
              config: {
                abortSignal: call.signal,
                ...(embedOptions?.taskType === undefined ? {} : { taskType: embedOptions.taskType }),
                ...(dimensions === undefined ? {} : { outputDimensionality: dimensions }),
              },
            });
          }, retryOptions(call.signal, 'embed', 'embedding'));
          const embeddings = response.embeddings ?? [];
          if (embeddings.length !== batch.length || embeddings.some((embedding) => !Array.isArray(embedding.values))) {
            throw new ModelError(ErrorCode.MODEL_OUTPUT_INVALID, 'AI 모델의 임베딩 응답이 올바르지 않습니다.', {
              cause: new Error(`expected ${batch.length} embeddings, got ${embeddings.length}`),
            });
          }
          // Gemini normalises only its full-size vectors; a truncated one must be normalised by us.
          for (const embedding of embeddings) {
            const values = embedding.values ?? [];
            vectors.push(dimensions === undefined ? values : unitLength(values));
          }
        }
        return vectors;
      } catch (error) {
        throw toModelError(error, call);
      } finally {
        call.dispose();
      }
    },
  };
}

/**
 * One call's abort plumbing: the caller's signals plus the overall deadline, and a record of which of our own
 * timers fired, so an abort can be reported as what it was (caller abort vs. timeout).
 */
class CallControl {
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

class IdleTimer {
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
function toModelError(error: unknown, call: CallControl): ModelError {
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

function baseConfig(request: ModelRequestBase): GenerateContentConfig {
  const config: GenerateContentConfig = {};
  if (request.system !== undefined) config.systemInstruction = request.system;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  return config;
}

/** Files go before the prompt text: Gemini answers better when the document precedes the question about it. */
function userContent(request: ModelRequestBase): Content {
  const parts: Part[] = (request.files ?? []).map((file) => ({
    inlineData: { mimeType: file.mimeType, data: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength).toString('base64') },
  }));
  parts.push({ text: request.prompt });
  return { role: 'user', parts };
}

/**
 * The JSON Schema Gemini should follow. `io: 'input'` describes what our zod schema accepts (the model's output is
 * our parser's input, so defaulted fields are optional); `$schema` is dropped because Gemini rejects unknown keys.
 */
function toResponseSchema(schema: z.ZodType): Record<string, unknown> {
  const jsonSchema: Record<string, unknown> = { ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) };
  delete jsonSchema['$schema'];
  return jsonSchema;
}

function mapResponse(response: GenerateContentResponse): MappedReply {
  const chunk = mapChunk(response);
  return { text: chunk.text, usage: chunk.usage ?? ZERO_USAGE, finishReason: chunk.finishReason ?? 'other' };
}

function mapChunk(response: GenerateContentResponse): {
  text: string;
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
} {
  const candidate = response.candidates?.[0];
  // Our own join instead of `response.text`, which warns on non-text parts; thought summaries are not the answer.
  const text = (candidate?.content?.parts ?? [])
    .filter((part) => typeof part.text === 'string' && part.thought !== true)
    .map((part) => part.text)
    .join('');
  const blocked = response.promptFeedback?.blockReason !== undefined;
  return {
    text,
    usage: mapUsage(response.usageMetadata),
    finishReason: blocked ? 'safety' : mapFinishReason(candidate?.finishReason),
  };
}

function mapFinishReason(reason: string | undefined): FinishReason | undefined {
  if (reason === undefined) return undefined;
  if (reason === 'STOP') return 'stop';
  if (reason === 'MAX_TOKENS') return 'length';
  if (SAFETY_REASONS.has(reason)) return 'safety';
  return 'other';
}

function mapUsage(metadata: GenerateContentResponseUsageMetadata | undefined): Usage | undefined {
  if (metadata === undefined) return undefined;
  return {
    inputTokens: metadata.promptTokenCount ?? 0,
    // Thinking tokens are billed as output.
    outputTokens: (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0),
  };
}

function unitLength(values: number[]): number[] {
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  return norm === 0 ? values : values.map((value) => value / norm);
}

function addUsage(a: Usage, b: Usage): Usage {
  return { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens };
}
