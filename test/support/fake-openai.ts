import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LanguageModel } from '../../src/llm/model.js';
import { createOpenAIModel, type OpenAIModelOptions } from '../../src/llm/openai-model.js';
import { fakeEmbedding } from './fake-gemini.js';
import { ResponsePacer } from './response-pacer.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * A local stand-in for an OpenAI-compatible server (what Ollama, vLLM, LM Studio and llama.cpp serve under `/v1`)
 * that speaks the real wire format, so tests drive the real `openai` SDK over real HTTP. Replies are scripted per
 * test with a queue, or by a `respond` function; every request is recorded for assertions.
 *
 * Routes: `POST /v1/chat/completions` — JSON, or with `stream: true` Server-Sent Events (`data: <chunk json>\n\n`
 * per chunk, a role-only first chunk, the finish reason on the last choice chunk, then with
 * `stream_options.include_usage` one chunk with `choices: []` and the usage, then `data: [DONE]`); and
 * `POST /v1/embeddings` (`{data: [{object, index, embedding}], usage}`, floats or base64 as asked).
 * `jsonSchema: 'rejected'` makes the server answer a `response_format` of type `json_schema` with the 400 a server
 * without structured output sends; `dimensions: 'rejected'` does the same for the embeddings' `dimensions`.
 */

export interface FakeUsage {
  input: number;
  output: number;
}

interface ReplyCommon {
  /** OpenAI finish reason on the (last) choice; default 'stop'. */
  finishReason?: string;
  usage?: FakeUsage;
}

export type FakeReply =
  /** A reply whose content is JSON.stringify(json). */
  | ({ json: unknown } & ReplyCommon)
  | ({ text: string } & ReplyCommon)
  /**
   * A streamed reply, one SSE chunk per element. With `splitBytes` the HTTP body is written a few bytes at a time,
   * cutting through SSE lines and multi-byte UTF-8 characters. `delayMs` spaces the chunks. `streamError` ends the
   * stream with an error event (`data: {"error":…}`) after `afterChunks` chunks; `stall` stops sending after
   * `afterChunks` chunks.
   */
  | ({
      stream: string[];
      splitBytes?: boolean;
      delayMs?: number;
      streamError?: { afterChunks: number; code: number; message?: string };
      stall?: { afterChunks: number };
    } & ReplyCommon)
  /** An HTTP error with OpenAI's error body; `retryAfterMs` sets the `retry-after-ms` header. */
  | { status: number; message?: string; param?: string; retryAfterMs?: number }
  /** Accept the request and send nothing (not even headers) for `stallMs`, then drop the connection. */
  | { stallMs: number }
  /** A well-formed HTTP reply whose content is broken JSON (a truncated structured reply). */
  | ({ malformed: true } & ReplyCommon)
  | { embeddings: number[][] };

export interface RecordedRequest {
  method: string;
  path: string;
  endpoint: 'chat' | 'embeddings' | 'other';
  model: string;
  /** `stream: true` on a chat request. */
  stream: boolean;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when it did not parse). */
  body: unknown;
  receivedAt: number;
}

/** The chat request body as the SDK sends it (the parts tests look at). */
export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  temperature?: number;
  max_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown>; strict?: boolean } };
}

export interface EmbeddingsBody {
  model?: string;
  input?: string | string[];
  encoding_format?: 'float' | 'base64';
  dimensions?: number;
}

export interface FakeOpenAIOptions {
  /** Answers requests when the queue is empty. Default: deterministic embeddings, 400 for chat. */
  respond?: (request: RecordedRequest) => FakeReply;
  /** 'rejected': a `response_format` of type json_schema gets a 400, as on a server without structured output. */
  jsonSchema?: 'supported' | 'rejected';
  /** 'rejected': embeddings with `dimensions` get a 400. */
  dimensions?: 'supported' | 'rejected';
  /** Size of an embedding when none is asked for (default 768, nomic-embed-text's). */
  embeddingSize?: number;
  /** Required bearer key (401 otherwise); none by default, like a local server. */
  apiKey?: string;
}

let completionCounter = 0;

export class FakeOpenAI {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: FakeReply[] = [];
  private readonly server: Server;
  private readonly open = new Set<ServerResponse>();
  private readonly pacer = new ResponsePacer();
  private port = 0;

  private constructor(private readonly options: FakeOpenAIOptions) {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`fake-openai crashed: ${String(error)}`);
      });
    });
  }

  static async start(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
    const fake = new FakeOpenAI(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** The value for `baseURL` / OPENAI_BASE_URL (with the `/v1` prefix, as Ollama documents it). */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  enqueue(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Chat requests only (what a scenario's assertions are usually about). */
  get chats(): RecordedRequest[] {
    return this.requests.filter((request) => request.endpoint === 'chat');
  }

  async close(): Promise<void> {
    this.pacer.clear();
    for (const response of this.open) response.destroy();
    this.open.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body = undefined;
    }
    const endpoint = url.pathname === '/v1/chat/completions' ? 'chat' : url.pathname === '/v1/embeddings' ? 'embeddings' : 'other';
    const record = (body ?? {}) as { model?: unknown; stream?: unknown };
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: url.pathname,
      endpoint,
      model: typeof record.model === 'string' ? record.model : '',
      stream: record.stream === true,
      headers: request.headers,
      body,
      receivedAt: performance.now(),
    };
    this.requests.push(recorded);
    if (request.method !== 'POST' || endpoint === 'other') {
      sendError(response, 404, `fake-openai: no route for ${request.method} ${url.pathname}`);
      return;
    }
    if (this.options.apiKey !== undefined && request.headers.authorization !== `Bearer ${this.options.apiKey}`) {
      sendError(response, 401, 'Incorrect API key provided.', undefined, 'invalid_api_key');
      return;
    }
    if (endpoint === 'chat' && this.options.jsonSchema === 'rejected' && (body as ChatBody).response_format?.type === 'json_schema') {
      // What a server without structured output answers (the wording of an older vLLM / llama.cpp release).
      sendError(response, 400, "response_format type 'json_schema' is not supported by this server", 'response_format');
      return;
    }
    if (endpoint === 'embeddings' && this.options.dimensions === 'rejected' && (body as EmbeddingsBody).dimensions !== undefined) {
      sendError(response, 400, 'This model does not support specifying dimensions.', 'dimensions');
      return;
    }
    this.open.add(response);
    response.on('close', () => this.open.delete(response));
    const reply = this.queue.shift() ?? (this.options.respond ?? ((entry) => this.defaultReply(entry)))(recorded);
    await this.reply(recorded, reply, response);
  }

  private defaultReply(request: RecordedRequest): FakeReply {
    if (request.endpoint === 'embeddings') {
      const body = request.body as EmbeddingsBody;
      const inputs = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
      return { embeddings: inputs.map((text) => fakeEmbedding(text, body.dimensions ?? this.options.embeddingSize ?? 768)) };
    }
    return { status: 400, message: 'fake-openai: no reply queued for chat' };
  }

  private async reply(request: RecordedRequest, reply: FakeReply, response: ServerResponse): Promise<void> {
    if ('status' in reply) {
      sendError(response, reply.status, reply.message, reply.param, undefined, reply.retryAfterMs);
      return;
    }
    if ('stallMs' in reply) {
      await this.pacer.wait(reply.stallMs, response);
      response.destroy();
      return;
    }
    if ('embeddings' in reply) {
      const base64 = (request.body as EmbeddingsBody).encoding_format === 'base64';
      sendJson(response, 200, {
        object: 'list',
        data: reply.embeddings.map((values, index) => ({
          object: 'embedding',
          index,
          embedding: base64 ? Buffer.from(new Float32Array(values).buffer).toString('base64') : values,
        })),
        model: request.model,
        usage: { prompt_tokens: 8 * reply.embeddings.length, total_tokens: 8 * reply.embeddings.length },
      });
      return;
    }
    const pieces = 'stream' in reply ? reply.stream : ['json' in reply ? JSON.stringify(reply.json) : 'text' in reply ? reply.text : '{"answer": "unfinished'];
    if (request.stream) {
      await this.sendStream(response, pieces, 'stream' in reply ? reply : { ...reply }, request);
      return;
    }
    const content = pieces.join('');
    sendJson(response, 200, {
      id: `chatcmpl-${++completionCounter}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, logprobs: null, finish_reason: reply.finishReason ?? 'stop' }],
      usage: usageFor(request, content, reply.usage),
    });
  }

  private async sendStream(
    response: ServerResponse,
    pieces: string[],
    reply: {
      splitBytes?: boolean;
      delayMs?: number;
      streamError?: { afterChunks: number; code: number; message?: string };
      stall?: { afterChunks: number };
      finishReason?: string;
      usage?: FakeUsage;
    },
    request: RecordedRequest,
  ): Promise<void> {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.socket?.setNoDelay(true);
    response.flushHeaders();
    const id = `chatcmpl-${++completionCounter}`;
    const created = Math.floor(Date.now() / 1000);
    const chunkOf = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: request.model, choices, ...extra })}\n\n`;
    const split = reply.splitBytes === true;
    // Servers open with a role-only delta.
    if (!(await this.pacer.write(response, chunkOf([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]), split))) return;
    for (let index = 0; index < pieces.length; index++) {
      if (reply.streamError !== undefined && reply.streamError.afterChunks === index) break;
      if (reply.stall !== undefined && reply.stall.afterChunks === index) {
        await this.pacer.wait(60_000, response);
        response.destroy();
        return;
      }
      const last = index === pieces.length - 1;
      const choice = { index: 0, delta: { content: pieces[index] ?? '' }, finish_reason: last ? (reply.finishReason ?? 'stop') : null };
      if (!(await this.pacer.write(response, chunkOf([choice]), split))) return;
      if (reply.delayMs !== undefined && reply.delayMs > 0) await this.pacer.wait(reply.delayMs, response);
    }
    if (reply.streamError !== undefined && reply.streamError.afterChunks <= pieces.length) {
      const { code, message } = reply.streamError;
      await this.pacer.write(response, `data: ${JSON.stringify({ error: { message: message ?? `fake-openai stream error ${code}`, type: 'server_error', code } })}\n\n`, false);
      response.end();
      return;
    }
    if ((request.body as ChatBody).stream_options?.include_usage === true) {
      await this.pacer.write(response, chunkOf([], { usage: usageFor(request, pieces.join(''), reply.usage) }), split);
    }
    await this.pacer.write(response, 'data: [DONE]\n\n', split);
    response.end();
  }

}

const ERROR_TYPES: Record<number, string> = { 400: 'invalid_request_error', 401: 'invalid_request_error', 404: 'not_found_error', 429: 'rate_limit_error' };

function sendError(response: ServerResponse, status: number, message?: string, param?: string, code?: string, retryAfterMs?: number): void {
  const body = JSON.stringify({
    error: { message: message ?? `fake-openai error ${status}`, type: ERROR_TYPES[status] ?? 'server_error', param: param ?? null, code: code ?? null },
  });
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...(retryAfterMs === undefined ? {} : { 'retry-after-ms': String(retryAfterMs) }),
  });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

/** Explicit usage when the test gives one, otherwise about four characters per token. */
function usageFor(request: RecordedRequest, output: string, usage: FakeUsage | undefined) {
  const input = usage?.input ?? Math.ceil(JSON.stringify((request.body as ChatBody | undefined)?.messages ?? '').length / 4);
  const outputTokens = usage?.output ?? Math.ceil(output.length / 4);
  return { prompt_tokens: input, completion_tokens: outputTokens, total_tokens: input + outputTokens };
}

/** The chat body of a recorded request. */
export function chatBody(request: RecordedRequest): ChatBody {
  return (request.body ?? {}) as ChatBody;
}

/**
 * The real OpenAI-compatible adapter (and SDK) pointed at `fake`: test model names, fast retries, and
 * timeouts a loaded machine does not reach (a stream the test holds, or a busy event loop, pauses for seconds); a test
 * of the timeouts passes its own.
 */
export function fakeOpenAIModel(fake: FakeOpenAI, overrides: Partial<OpenAIModelOptions> = {}): LanguageModel {
  return createOpenAIModel({
    baseUrl: fake.baseUrl,
    models: { generation: 'gen-model', judge: 'judge-model', embedding: 'embed-model' },
    timeoutMs: WAIT_TIMEOUT_MS,
    idleTimeoutMs: WAIT_TIMEOUT_MS / 2,
    maxAttempts: 3,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...overrides,
  });
}
