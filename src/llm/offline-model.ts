import type { ModelRole } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type {
  EmbedOptions,
  GenerateObjectRequest,
  GenerateObjectResult,
  LanguageModel,
  ModelCapabilities,
  ModelRequestBase,
  TextStream,
  Usage,
} from './model.js';
import { ModelError } from './model-error.js';
import { validateWithSchema } from './safe-json.js';
import { createTextStream } from './text-stream.js';
import { hashedTermVector } from '../text/index.js';

/**
 * The offline model: deterministic and network-free, so the whole product runs without a key. It never reads
 * the prompt; each task's handler works from the request's structured `input`, and the feature folder that owns
 * the agent supplies it. A task without a handler is an UNKNOWN_TASK error, never an invented answer.
 */

export interface OfflineTaskHandlers {
  /** Produces the object for generateObject; it is validated with the request's schema like any model reply. */
  object?: (input: unknown) => unknown;
  /** Produces the text for streamText, whole or already in segments. */
  text?: (input: unknown) => string | Iterable<string>;
}

export type OfflineTasks = Record<string, OfflineTaskHandlers>;

export const OFFLINE_MODEL_NAME = 'offline-v1';
/** Dimension of offline embeddings; large enough that bigram hash collisions rarely matter for short passages. */
export const OFFLINE_EMBEDDING_DIMENSION = 512;

/** The offline model never reads a prompt or a PDF, and its embeddings are hashed bigrams. */
export const OFFLINE_CAPABILITIES: ModelCapabilities = { pdfInput: false, followsPrompts: false, semanticEmbeddings: false, deterministic: true };

/** Creates the offline LanguageModel (kind 'offline'). */
export function createOfflineModel(tasks: OfflineTasks): LanguageModel {
  const handlerFor = <K extends keyof OfflineTaskHandlers>(task: string, kind: K): NonNullable<OfflineTaskHandlers[K]> => {
    const handler = Object.hasOwn(tasks, task) ? tasks[task]?.[kind] : undefined;
    if (handler === undefined) {
      throw new ModelError(ErrorCode.UNKNOWN_TASK, `오프라인 모델이 처리할 수 없는 작업입니다: ${task}`, {
        cause: new Error(`no offline '${kind}' handler for task '${task}'`),
      });
    }
    return handler;
  };

  return {
    kind: 'offline',
    capabilities: OFFLINE_CAPABILITIES,

    modelName: (_role: ModelRole) => OFFLINE_MODEL_NAME,

    async generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
      throwIfAborted(request.signal);
      const handler = handlerFor(request.task, 'object');
      const output: unknown = await handler(request.input);
      throwIfAborted(request.signal);
      const rawText = safeStringify(output);
      const usage: Usage = { inputTokens: promptTokens(request), outputTokens: approximateTokens(rawText) };
      const validated = validateWithSchema(output, request.schema);
      if (!validated.ok) {
        throw new ModelError(ErrorCode.MODEL_OUTPUT_INVALID, '오프라인 모델의 응답 형식이 올바르지 않습니다.', {
          rawText,
          usage,
          finishReason: 'stop',
          cause: new Error(`${request.task}: ${validated.error}`),
        });
      }
      return { object: validated.value, usage, finishReason: 'stop' };
    },

    streamText(request: ModelRequestBase): TextStream {
      return createTextStream(async (push, cancelSignal) => {
        const signals = [request.signal, cancelSignal].filter((signal): signal is AbortSignal => signal !== undefined);
        throwIfAborted(...signals);
        const handler = handlerFor(request.task, 'text');
        const produced = handler(request.input);
        let outputChars = 0;
        for (const segment of typeof produced === 'string' ? [produced] : produced) {
          for (const piece of splitIntoPieces(segment)) {
            // Yield to the event loop between pieces, as a network stream would, so consumers interleave and
            // an abort lands between pieces.
            await new Promise<void>((resolve) => setImmediate(resolve));
            throwIfAborted(...signals);
            outputChars += piece.length;
            push(piece);
          }
        }
        return {
          usage: { inputTokens: promptTokens(request), outputTokens: Math.ceil(outputChars / 4) },
          finishReason: 'stop',
        };
      });
    },

    async embed(texts: string[], options?: EmbedOptions): Promise<number[][]> {
      throwIfAborted(options?.signal);
      // Hashed bigrams are the same for passages and queries: the task type changes nothing here.
      return texts.map((text) => embedOffline(text, options?.dimensions ?? OFFLINE_EMBEDDING_DIMENSION));
    },
  };
}

/**
 * Splits text into word-sized pieces (each word keeps its trailing whitespace), so concatenating the pieces gives
 * back the text exactly. Deterministic, and small enough that consumers see realistic streaming.
 */
export function splitIntoPieces(text: string): string[] {
  return text.match(/\s+|\S+\s*/gu) ?? [];
}

/** The offline model's embedding: hashed character bigrams (`text/term-vectors.ts`) at the requested dimension. */
export function embedOffline(text: string, dimension = OFFLINE_EMBEDDING_DIMENSION): number[] {
  return hashedTermVector(text, dimension);
}

/** About four characters per token: rough, but keeps token metrics and usage attribution non-zero offline. */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function promptTokens(request: ModelRequestBase): number {
  return approximateTokens(request.prompt) + approximateTokens(request.system ?? '');
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function throwIfAborted(...signals: (AbortSignal | undefined)[]): void {
  if (signals.some((signal) => signal?.aborted === true)) {
    throw new ModelError(ErrorCode.MODEL_ABORTED, 'AI 모델 호출이 취소되었습니다.');
  }
}
