import type {
  Content,
  GoogleGenAI,
  GenerateContentConfig,
  GenerateContentResponse,
  GenerateContentResponseUsageMetadata,
  Part,
} from '@google/genai';
import type { ModelRole, ProviderModels } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { type CallControl, unitLength, ZERO_USAGE } from './call-control.js';
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
import { toResponseSchema } from './response-schema.js';
import { createProviderCalls, type MappedChunk, type MappedReply, type ProviderCallOptions } from './provider-calls.js';

/**
 * The Gemini adapter on @google/genai. Every vendor type stays in this file: requests are built from our
 * ModelRequestBase, replies and chunks are mapped to our Usage / FinishReason, and every failure leaves as a
 * ModelError. The SDK's own retries stay off (it never retries inside a stream and ignores RetryInfo); the shared
 * policy in provider-calls.ts (retries, timeouts, idle, abort, repair turn) decides instead.
 */

export interface GeminiModelOptions extends ProviderCallOptions {
  apiKey: string;
  baseUrl?: string | undefined;
  models: ProviderModels;
}

const EMBED_BATCH_SIZE = 100;
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
export const GEMINI_CAPABILITIES: ModelCapabilities = { pdfInput: true, followsPrompts: true, semanticEmbeddings: true, deterministic: false };

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
  const calls = createProviderCalls('gemini', options);

  const generate = async (
    role: ModelRole,
    contents: Content[],
    config: GenerateContentConfig,
    call: CallControl,
  ): Promise<MappedReply> => {
    const response = await calls.retry(call, 'generateObject', role, async (signal) =>
      (await sdk()).models.generateContent({ model: modelForRole(options.models, role), contents, config: { ...config, abortSignal: signal } }),
    );
    return mapResponse(response);
  };

  return {
    kind: 'gemini',
    capabilities: GEMINI_CAPABILITIES,

    modelName: (role) => modelForRole(options.models, role),

    generateObject<T>(request: GenerateObjectRequest<T>): Promise<GenerateObjectResult<T>> {
      const role = request.role ?? 'generation';
      const config = baseConfig(request);
      config.responseMimeType = 'application/json';
      config.responseJsonSchema = toResponseSchema(request.schema);
      const contents: Content[] = [userContent(request)];
      return calls.object(request, (call, repair) =>
        generate(
          role,
          repair === undefined
            ? contents
            : [
                ...contents,
                ...(repair.previousText === '' ? [] : [{ role: 'model', parts: [{ text: repair.previousText }] }]),
                { role: 'user', parts: [{ text: repair.instruction }] },
              ],
          config,
          call,
        ),
      );
    },

    streamText(request: ModelRequestBase): TextStream {
      const role = request.role ?? 'generation';
      const config = baseConfig(request);
      const contents: Content[] = [userContent(request)];
      return calls.stream(
        request,
        async (signal) =>
          (await sdk()).models.generateContentStream({ model: modelForRole(options.models, role), contents, config: { ...config, abortSignal: signal } }),
        mapChunk,
      );
    },

    async embed(texts: string[], embedOptions?: EmbedOptions): Promise<number[][]> {
      if (texts.length === 0) return [];
      const dimensions = embedOptions?.dimensions;
      return calls.run([embedOptions?.signal], async (call) => {
        const vectors: number[][] = [];
        for (let start = 0; start < texts.length; start += EMBED_BATCH_SIZE) {
          const batch = texts.slice(start, start + EMBED_BATCH_SIZE);
          const response = await calls.retry(call, 'embed', 'embedding', async (signal) =>
            (await sdk()).models.embedContent({
              model: options.models.embedding,
              contents: batch,
              config: {
                abortSignal: signal,
                ...(embedOptions?.taskType === undefined ? {} : { taskType: embedOptions.taskType }),
                ...(dimensions === undefined ? {} : { outputDimensionality: dimensions }),
              },
            }),
          );
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
      });
    },
  };
}

function baseConfig(request: ModelRequestBase): GenerateContentConfig {
  const config: GenerateContentConfig = {};
  if (request.system !== undefined) config.systemInstruction = request.system;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
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

function mapResponse(response: GenerateContentResponse): MappedReply {
  const chunk = mapChunk(response);
  return { text: chunk.text, usage: chunk.usage ?? ZERO_USAGE, finishReason: chunk.finishReason ?? 'other' };
}

function mapChunk(response: GenerateContentResponse): MappedChunk {
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
