import type OpenAI from 'openai';
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ModelRole, ProviderModels } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { type CallControl, ZERO_USAGE, unitLength } from './call-control.js';
import type {
  EmbedOptions,
  FinishReason,
  GenerateObjectRequest,
  GenerateObjectResult,
  LanguageModel,
  ModelCapabilities,
  ModelRequestBase,
  TextStream,
  Usage,
} from './model.js';
import { modelForRole } from './model.js';
import { ModelError } from './model-error.js';
import { approximateTokens } from './offline-model.js';
import { loadPrompt } from './prompt-loader.js';
import { createProviderCalls, type MappedChunk, type MappedReply, type ProviderCallOptions } from './provider-calls.js';
import { classifyError, errorStatus, type RetryDecision } from './retry.js';
import { toResponseSchema } from './response-schema.js';

/**
 * The adapter for OpenAI-compatible chat servers (Ollama, vLLM, LM Studio, llama.cpp's server, OpenAI itself) on
 * the official `openai` SDK. Vendor types stay in this file; the call policy (retries, timeouts, idle, abort, the
 * repair turn) is the shared one in provider-calls.ts, so the SDK's own retries are off.
 *
 * Differences from Gemini that stay inside: structured output asks for `response_format: json_schema` and, on a
 * server that refuses it (a 400 naming the response format), switches that model to `json_object` with the schema
 * in the prompt, remembered for the model's lifetime; embeddings are fitted to the dimension the caller asks for
 * (see {@link fitDimensions}); these servers read text only, so attached files are not sent.
 */

export interface OpenAIModelOptions extends ProviderCallOptions {
  baseUrl: string;
  /** Optional: local servers need none. */
  apiKey?: string | undefined;
  models: ProviderModels;
}

const EMBED_BATCH_SIZE = 100;

/**
 * Text in, text out: OpenAI-compatible servers get the extracted text path (no PDF input, so scanned PDFs are
 * refused as offline), write from prompts like Gemini, and embed with a real embedding model.
 */
export const OPENAI_CAPABILITIES: ModelCapabilities = { pdfInput: false, followsPrompts: true, semanticEmbeddings: true, deterministic: false };

/** Creates the LanguageModel for an OpenAI-compatible server (kind 'openai'). */
export function createOpenAIModel(options: OpenAIModelOptions): LanguageModel {
  const logger: Logger | undefined = options.logger;
  // Loaded on first use, like the Gemini SDK: a start with another provider never pays for it.
  let client: Promise<OpenAI> | undefined;
  const sdk = () =>
    (client ??= import('openai').then(
      ({ default: OpenAIClient }) =>
        new OpenAIClient({
          baseURL: options.baseUrl,
          // The SDK insists on a key; without one no Authorization header is sent at all.
          apiKey: options.apiKey ?? 'unused',
          ...(options.apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
          maxRetries: 0,
          // Our own deadline (and the idle timer) end calls first; this only backs them up.
          timeout: options.timeoutMs + 5_000,
        }),
    ));
  const calls = createProviderCalls('openai', options, classifyOpenAIError);
  const jsonObjectPrompt = loadPrompt('json-object');
  /** Models whose server refused `json_schema`: they get `json_object` from then on. */
  const jsonSchemaRefused = new Set<string>();
  /** Embedding models whose server refused the `dimensions` parameter. */
  const dimensionsRefused = new Set<string>();
  let warnedFiles = false;

  const messagesFor = (request: ModelRequestBase, prompt: string = request.prompt): ChatCompletionMessageParam[] => {
    if ((request.files?.length ?? 0) > 0 && !warnedFiles) {
      // Agents ask for the capability first; reaching here means one did not, and the text path must do.
      warnedFiles = true;
      logger?.warn({ task: request.task }, 'openai-compatible servers read no attached files; sending the prompt text only');
    }
    return [
      ...(request.system === undefined ? [] : [{ role: 'system' as const, content: request.system }]),
      { role: 'user', content: prompt },
    ];
  };

  const complete = async (
    role: ModelRole,
    body: Omit<ChatCompletionCreateParamsNonStreaming, 'model'>,
    call: CallControl,
  ): Promise<MappedReply> => {
    const completion = await calls.retry(call, 'generateObject', role, async (signal) =>
      (await sdk()).chat.completions.create({ ...body, model: modelForRole(options.models, role), stream: false }, { signal }),
    );
    return mapCompletion(completion, body.messages);
  };

  return {
    kind: 'openai',
    capabilities: OPENAI_CAPABILITIES,

    modelName: (role) => modelForRole(options.models, role),

    generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
      const role = request.role ?? 'generation';
      const model = modelForRole(options.models, role);
      const schema = toResponseSchema(request.schema);
      return calls.object(request, async (call, repair) => {
        const turns = (messages: ChatCompletionMessageParam[]): ChatCompletionMessageParam[] =>
          repair === undefined
            ? messages
            : [
                ...messages,
                ...(repair.previousText === '' ? [] : [{ role: 'assistant' as const, content: repair.previousText }]),
                { role: 'user', content: repair.instruction },
              ];
        const common = {
          ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
          ...(request.maxOutputTokens === undefined ? {} : { max_tokens: request.maxOutputTokens }),
        };
        if (!jsonSchemaRefused.has(model)) {
          try {
            return await complete(
              role,
              {
                ...common,
                messages: turns(messagesFor(request)),
                response_format: { type: 'json_schema', json_schema: { name: schemaName(request.task), schema, strict: false } },
              },
              call,
            );
          } catch (error) {
            if (!refusesJsonSchema(error)) throw error;
            jsonSchemaRefused.add(model);
            logger?.warn({ model, err: error }, 'the server refused response_format json_schema; using json_object mode for this model');
          }
        }
        // JSON mode: the schema travels in the prompt (JSON mode also wants the word "JSON" there), zod checks it.
        const prompt = `${request.prompt}\n\n${jsonObjectPrompt.render({ schema: JSON.stringify(schema) })}`;
        return complete(role, { ...common, messages: turns(messagesFor(request, prompt)), response_format: { type: 'json_object' } }, call);
      });
    },

    streamText(request: ModelRequestBase): TextStream {
      const role = request.role ?? 'generation';
      const messages = messagesFor(request);
      let usage: Usage | undefined;
      let outputChars = 0;
      return calls.stream(
        request,
        async (signal) => {
          usage = undefined;
          outputChars = 0;
          return (await sdk()).chat.completions.create(
            {
              model: modelForRole(options.models, role),
              messages,
              stream: true,
              // Usage arrives in one last chunk with no choices; servers that ignore this get an estimate.
              stream_options: { include_usage: true },
              ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
              ...(request.maxOutputTokens === undefined ? {} : { max_tokens: request.maxOutputTokens }),
            },
            { signal },
          );
        },
        (chunk: ChatCompletionChunk): MappedChunk => {
          const choice = chunk.choices[0];
          const text = choice?.delta.content ?? '';
          outputChars += text.length;
          if (chunk.usage) usage = mapUsage(chunk.usage);
          const finishReason = mapFinishReason(choice?.finish_reason);
          // The finish chunk may come before the usage chunk: report an estimate until the real count arrives.
          const reported = usage ?? (finishReason === undefined ? undefined : estimateUsage(messages, outputChars));
          return { text, usage: reported, finishReason };
        },
      );
    },

    async embed(texts: string[], embedOptions?: EmbedOptions): Promise<number[][]> {
      if (texts.length === 0) return [];
      const model = options.models.embedding;
      const dimensions = embedOptions?.dimensions;
      return calls.run([embedOptions?.signal], async (call) => {
        const vectors: number[][] = [];
        for (let start = 0; start < texts.length; start += EMBED_BATCH_SIZE) {
          const batch = texts.slice(start, start + EMBED_BATCH_SIZE);
          const request = (withDimensions: boolean) =>
            calls.retry(call, 'embed', 'embedding', async (signal) =>
              (await sdk()).embeddings.create(
                {
                  model,
                  input: batch,
                  // Explicit: the SDK otherwise asks for base64, which not every compatible server speaks.
                  encoding_format: 'float',
                  ...(withDimensions && dimensions !== undefined ? { dimensions } : {}),
                },
                { signal },
              ),
            );
          let response;
          try {
            response = await request(dimensions !== undefined && !dimensionsRefused.has(model));
          } catch (error) {
            if (dimensions === undefined || dimensionsRefused.has(model) || !refusesParameter(error, /dimension/i)) throw error;
            dimensionsRefused.add(model);
            logger?.warn({ model, err: error }, 'the server refused the dimensions parameter; fitting vectors locally');
            response = await request(false);
          }
          const data = [...response.data].sort((a, b) => a.index - b.index);
          if (data.length !== batch.length || data.some((entry) => !Array.isArray(entry.embedding))) {
            throw new ModelError(ErrorCode.MODEL_OUTPUT_INVALID, 'AI 모델의 임베딩 응답이 올바르지 않습니다.', {
              cause: new Error(`expected ${batch.length} embeddings, got ${data.length}`),
            });
          }
          for (const entry of data) vectors.push(dimensions === undefined ? entry.embedding : fitDimensions(entry.embedding, dimensions));
        }
        return vectors;
      });
    },
  };
}

/**
 * A vector of exactly `dimensions`, L2-normalised, as the retrieval index stores them. A longer one is cut
 * (Matryoshka-style, what `dimensions` asks of a server that supports it); a shorter one is padded with zeros,
 * which leaves every cosine similarity between padded vectors exactly as it was.
 */
export function fitDimensions(values: number[], dimensions: number): number[] {
  if (values.length === dimensions) return unitLength(values);
  if (values.length > dimensions) return unitLength(values.slice(0, dimensions));
  return unitLength([...values, ...new Array<number>(dimensions - values.length).fill(0)]);
}

/** The shared classification, plus the `retry-after-ms` / `retry-after` headers OpenAI-style servers send. */
export function classifyOpenAIError(error: unknown): RetryDecision {
  const decision = classifyError(error);
  if (!decision.retryable || decision.minimumDelayMs !== undefined) return decision;
  const headers = (error as { headers?: unknown } | null)?.headers;
  if (!(headers instanceof Headers)) return decision;
  const ms = Number(headers.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return { ...decision, minimumDelayMs: Math.min(ms, 60_000) };
  const seconds = Number(headers.get('retry-after'));
  if (Number.isFinite(seconds) && seconds > 0) return { ...decision, minimumDelayMs: Math.min(seconds * 1000, 60_000) };
  return decision;
}

/** A 400/422 that names the response format: the server has no json_schema mode. */
function refusesJsonSchema(error: unknown): boolean {
  return refusesParameter(error, /response_format|json_schema|schema|structured/i);
}

function refusesParameter(error: unknown, pattern: RegExp): boolean {
  const status = errorStatus(error);
  if (status !== 400 && status !== 422) return false;
  const record = error as { message?: unknown; param?: unknown };
  return [record.message, record.param].some((value) => typeof value === 'string' && pattern.test(value));
}

/** json_schema names allow [a-zA-Z0-9_-]{1,64}; task names have dots. */
function schemaName(task: string): string {
  return task.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'reply';
}

/** A reasoning model's thoughts written into the content (older Ollama and llama.cpp builds do): not the answer. */
const LEADING_THOUGHTS = /^\s*<think>[\s\S]*?<\/think>\s*/u;

function mapCompletion(completion: ChatCompletion, messages: ChatCompletionMessageParam[]): MappedReply {
  const choice = completion.choices[0];
  const text = (choice?.message.content ?? '').replace(LEADING_THOUGHTS, '');
  return {
    text,
    usage: completion.usage ? mapUsage(completion.usage) : estimateUsage(messages, text.length),
    finishReason: mapFinishReason(choice?.finish_reason) ?? 'other',
  };
}

function mapFinishReason(reason: string | null | undefined): FinishReason | undefined {
  if (reason === null || reason === undefined) return undefined;
  if (reason === 'stop') return 'stop';
  if (reason === 'length') return 'length';
  if (reason === 'content_filter') return 'safety';
  return 'other';
}

function mapUsage(usage: CompletionUsage): Usage {
  // Reasoning tokens are part of completion_tokens already.
  return { inputTokens: usage.prompt_tokens, outputTokens: usage.completion_tokens };
}

/** About four characters per token (as offline), for servers that report no usage: metering never reads zero. */
function estimateUsage(messages: ChatCompletionMessageParam[], outputChars: number): Usage {
  const input = messages.reduce((sum, message) => sum + (typeof message.content === 'string' ? approximateTokens(message.content) : 0), 0);
  return outputChars === 0 && input === 0 ? ZERO_USAGE : { inputTokens: input, outputTokens: Math.ceil(outputChars / 4) };
}
