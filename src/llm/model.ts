import type { z } from 'zod';
import type { ModelRole, ProviderModels } from '../kernel/index.js';

export type { ModelRole, ProviderModels };

/** The model name of a role (see ModelRole): `problems` falls back to the judge's, `problem-judge` to generation's. */
export function modelForRole(models: ProviderModels, role: ModelRole): string {
  if (role === 'problems') return models.problems ?? models.judge;
  if (role === 'problem-judge') return models['problem-judge'] ?? models.generation;
  return models[role];
}

/**
 * Our own model interface. Agents call these two methods and never know whether Gemini, the offline model or
 * a test server answers. Vendor types stay inside the adapter files.
 */

export interface ModelFile {
  mimeType: string;
  data: Uint8Array;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export type FinishReason = 'stop' | 'length' | 'safety' | 'other';

/** Who a call's token usage is billed to (recorded per call by the metered model). */
export interface Attribution {
  sessionId?: string;
  roomId?: string;
  materialId?: string;
  /**
   * the account paying for the call (its daily model budget, MODEL_DAILY_TOKENS). When absent the metered
   * model takes the one of the surrounding {@link runBilledTo} (an HTTP request an account started).
   */
  accountId?: string;
}

export interface ModelRequestBase {
  /** Stable task name, e.g. 'lecture.write'. The offline model dispatches on it. */
  task: string;
  /** The structured input the prompt was built from; the offline model works from this, never the prompt text. */
  input: unknown;
  /** The rendered user prompt (see prompt-loader.ts). */
  prompt: string;
  system?: string;
  temperature?: number;
  /** A cap on the reply's length in tokens (seed 002's judge: 512); the provider's default when absent. */
  maxOutputTokens?: number;
  role?: ModelRole;
  files?: ModelFile[];
  signal?: AbortSignal;
  attribution?: Attribution;
}

export interface GenerateObjectRequest<T> extends ModelRequestBase {
  schema: z.ZodType<T>;
}

export interface GenerateObjectResult<T> {
  object: T;
  usage: Usage;
  finishReason: FinishReason;
}

export interface StreamTextResult {
  usage: Usage;
  finishReason: FinishReason;
}

/** An async iterable of text deltas; `result` settles after the last delta (or with the stream's error). */
export interface TextStream extends AsyncIterable<string> {
  readonly result: Promise<StreamTextResult>;
}

/** What an embedding is for (Gemini's task types; other providers ignore it): passages and queries differ. */
export type EmbeddingTask = 'RETRIEVAL_DOCUMENT' | 'RETRIEVAL_QUERY';

export interface EmbedOptions {
  signal?: AbortSignal;
  attribution?: Attribution;
  taskType?: EmbeddingTask;
  /** Length of each vector; the vectors are then L2-normalised (a truncated Gemini embedding is not). */
  dimensions?: number;
}

/**
 * What a model can do. Agents ask for a capability, never for a provider: a new provider declares its own, and no
 * agent changes.
 */
export interface ModelCapabilities {
  /** Reads PDF files attached to a request (`files`), scanned pages included. */
  readonly pdfInput: boolean;
  /**
   * Writes answers from the prompt for any task. False for the offline model, which answers only the tasks it has a
   * handler for, from their structured input: agents with no offline handler are skipped rather than called.
   */
  readonly followsPrompts: boolean;
  /**
   * Its embeddings carry meaning (similar texts, similar vectors, across wording). False for the offline model's
   * hashed character bigrams, a noisier copy of the lexical signal: retrieval then lets BM25 decide.
   */
  readonly semanticEmbeddings: boolean;
  /**
   * Gives the same answer to the same request (the offline model). Asking it again cannot fill what it could not
   * fill once: a generator then returns what it has with a shortfall, never a retryable server error.
   */
  readonly deterministic: boolean;
}

export interface LanguageModel {
  /** The provider, for logs and metrics labels; agents ask `capabilities` instead. */
  readonly kind: 'offline' | 'gemini' | 'openai';
  readonly capabilities: ModelCapabilities;
  /** The model name used for a role; part of every generation cache key. */
  modelName(role: ModelRole): string;
  generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>>;
  streamText(request: ModelRequestBase): TextStream;
  embed(texts: string[], options?: EmbedOptions): Promise<number[][]>;
}
