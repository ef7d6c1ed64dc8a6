import type { LanguageModel } from '../../src/llm/model.js';
import { fakeEmbedding, fakeGeminiModel, FakeGemini, type FakeReply as GeminiReply, type RecordedRequest as GeminiRequest } from './fake-gemini.js';
import { chatBody, fakeOpenAIModel, FakeOpenAI, type EmbeddingsBody, type FakeReply, type RecordedRequest } from './fake-openai.js';

/**
 * The scripted scenarios (lecture, raise hand, quiz: test/support/lecture-gemini.ts, hand-gemini.ts) are written
 * against the requests the fake Gemini records. Rather than a second copy of each script, an OpenAI chat request is
 * shown to them in that shape — the same prompt turns, streaming or not, the same JSON Schema — and their replies,
 * which use only the variants both fakes share (JSON, streamed pieces, stream errors, HTTP errors), go back through
 * the fake OpenAI-compatible server's own wire format.
 */

/** An OpenAI chat request as the Gemini-shaped scripts see it. */
export function geminiShaped(request: RecordedRequest): GeminiRequest {
  const body = chatBody(request);
  const messages = body.messages ?? [];
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  return {
    method: request.method,
    path: request.path,
    version: 'v1',
    model: request.model,
    action: request.endpoint === 'embeddings' ? 'batchEmbedContents' : request.stream ? 'streamGenerateContent' : 'generateContent',
    query: {},
    headers: request.headers,
    body: {
      contents: messages
        .filter((message) => message.role !== 'system')
        .map((message) => ({ role: message.role === 'assistant' ? 'model' : 'user', parts: [{ text: message.content }] })),
      ...(system.length === 0 ? {} : { systemInstruction: { parts: system.map((text) => ({ text })) } }),
      generationConfig: {
        ...(body.temperature === undefined ? {} : { temperature: body.temperature }),
        ...(body.max_tokens === undefined ? {} : { maxOutputTokens: body.max_tokens }),
        ...(responseSchema(request) === undefined ? {} : { responseMimeType: 'application/json', responseJsonSchema: responseSchema(request) }),
      },
    },
    receivedAt: request.receivedAt,
  };
}

/**
 * The schema a chat request asks for: `response_format.json_schema`, or in JSON mode the schema the adapter put on
 * the prompt's last line (as a model in JSON mode would have to read it).
 */
export function responseSchema(request: RecordedRequest): Record<string, unknown> | undefined {
  const format = chatBody(request).response_format;
  if (format?.type === 'json_schema') return format.json_schema?.schema;
  if (format?.type !== 'json_object') return undefined;
  const prompt = chatBody(request).messages?.filter((message) => message.role === 'user')[0]?.content ?? '';
  const line = prompt.trimEnd().split('\n').at(-1) ?? '';
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const FINISH_REASONS: Record<string, string> = { STOP: 'stop', MAX_TOKENS: 'length', SAFETY: 'content_filter' };

/** A scripted Gemini reply in the fake OpenAI-compatible server's terms. */
export function openaiReply(reply: GeminiReply): FakeReply {
  if ('status' in reply) return { status: reply.status, ...(reply.message === undefined ? {} : { message: reply.message }) };
  if ('streamError' in reply && !('stream' in reply)) return { stream: [], streamError: reply.streamError };
  if ('malformedBody' in reply) return { status: 500, message: 'malformed body' };
  if ('finishReason' in reply && reply.finishReason !== undefined) {
    return { ...reply, finishReason: FINISH_REASONS[reply.finishReason] ?? 'stop' } as FakeReply;
  }
  return reply as FakeReply;
}

/**
 * A `respond` function for FakeOpenAI from a Gemini-shaped script; embeddings are answered as the fake answers them
 * by default (the scripts only know chat).
 */
export function openaiScript(script: (request: GeminiRequest) => GeminiReply): (request: RecordedRequest) => FakeReply {
  return (request) => {
    if (request.endpoint === 'embeddings') {
      const body = request.body as EmbeddingsBody;
      const inputs = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
      return { embeddings: inputs.map((text) => fakeEmbedding(text, body.dimensions ?? 768)) };
    }
    return openaiReply(script(geminiShaped(request)));
  };
}

/**
 * A scripted fake of either provider behind one face, so one test file can run its script on both: replies are
 * enqueued in the Gemini fake's terms and requests are read in its shape (see {@link geminiShaped}).
 */
export interface ScriptedProvider {
  readonly name: 'gemini' | 'openai';
  enqueue(...replies: GeminiReply[]): void;
  /** Every model request so far, Gemini-shaped. */
  requests(): GeminiRequest[];
  readonly pending: number;
  /** The real adapter and SDK pointed at the fake (short timeouts, fast retries). */
  model(overrides?: { maxAttempts?: number }): LanguageModel;
  /** The environment that makes the app use this fake, with one attempt per call. */
  env(): Record<string, string>;
  clearRequests(): void;
  close(): Promise<void>;
}

export async function startScriptedProvider(name: 'gemini' | 'openai'): Promise<ScriptedProvider> {
  if (name === 'gemini') {
    const fake = await FakeGemini.start();
    return {
      name,
      enqueue: (...replies) => void fake.enqueue(...replies),
      requests: () => fake.requests,
      get pending() {
        return fake.pending;
      },
      model: (overrides = {}) => fakeGeminiModel(fake, overrides),
      env: () => ({ GEMINI_API_KEY: 'test-key', GEMINI_BASE_URL: fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' }),
      clearRequests: () => void fake.requests.splice(0),
      close: () => fake.close(),
    };
  }
  const fake = await FakeOpenAI.start();
  return {
    name,
    enqueue: (...replies) => void fake.enqueue(...replies.map(openaiReply)),
    requests: () => fake.chats.map(geminiShaped),
    get pending() {
      return fake.pending;
    },
    model: (overrides = {}) => fakeOpenAIModel(fake, overrides),
    env: () => ({ OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'local-chat', OPENAI_EMBEDDING_MODEL: 'local-embed', OPENAI_MAX_ATTEMPTS: '1' }),
    clearRequests: () => void fake.requests.splice(0),
    close: () => fake.close(),
  };
}
