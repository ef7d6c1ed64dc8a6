import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGeminiModel, type GeminiModelOptions } from '../../src/llm/gemini-model.js';
import type { LanguageModel } from '../../src/llm/model.js';
import { ResponsePacer } from './response-pacer.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * A local stand-in for the Gemini API that speaks its real wire format, so tests drive the real @google/genai SDK
 * over real HTTP. Replies are scripted per test with a queue; every request is recorded for assertions.
 *
 * Paths (any `/v1…/` version prefix): `POST /{version}/models/{model}:generateContent` (JSON),
 * `:streamGenerateContent?alt=sse` (Server-Sent Events, one `data: <json>\n\n` per event) and `:batchEmbedContents`
 * (@google/genai 2.32 embeds through batchEmbedContents even for one text; `:embedContent` is Vertex-only there).
 */

export interface FakeUsage {
  input: number;
  output: number;
}

interface ReplyCommon {
  /** Gemini finish reason on the (last) candidate; default 'STOP'. */
  finishReason?: string;
  usage?: FakeUsage;
}

export type FakeReply =
  /** A reply whose text is JSON.stringify(json). */
  | ({ json: unknown } & ReplyCommon)
  | ({ text: string } & ReplyCommon)
  /**
   * A streamed reply, one SSE event per element. With `splitBytes` the HTTP body is written a few bytes at a time,
   * cutting through SSE lines and multi-byte UTF-8 characters. `delayMs` spaces the events. `streamError` ends the
   * stream with an error event after `afterChunks` events; `stall` stops sending after `afterChunks` events.
   */
  | ({
      stream: string[];
      splitBytes?: boolean;
      delayMs?: number;
      streamError?: { afterChunks: number; code: number; message?: string };
      stall?: { afterChunks: number };
    } & ReplyCommon)
  /** An error event before any chunk (HTTP 200, then `data: {"error":…}`). */
  | { streamError: { afterChunks: 0; code: number; message?: string } }
  /** An HTTP error with Google's error body; `retryDelay` adds a RetryInfo detail (e.g. '0.2s'). */
  | { status: number; message?: string; retryDelay?: string }
  /** Accept the request and send nothing (not even headers) for `stallMs`, then drop the connection. */
  | { stallMs: number }
  /** A well-formed HTTP reply whose model text is broken JSON (what a truncated structured reply looks like). */
  | ({ malformed: true } & ReplyCommon)
  /** An HTTP 200 whose body is not JSON at all. */
  | { malformedBody: true }
  | { embeddings: number[][] }
  /** `reply`, sent once `gate` settles (a test holds a model call open until it has looked, or forever). */
  | { gate: Promise<unknown>; reply: FakeReply };

export interface RecordedRequest {
  method: string;
  path: string;
  /** e.g. 'v1beta' */
  version: string;
  model: string;
  action: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when it did not parse). */
  body: unknown;
  /** performance.now() when the request arrived. */
  receivedAt: number;
}

export interface FakeGeminiOptions {
  /** Answers requests when the queue is empty. Default: deterministic embeddings, 400 for anything else. */
  respond?: (request: RecordedRequest) => FakeReply;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const PATH = /^\/(v1[a-z0-9]*)\/models\/([^/:]+):([A-Za-z]+)$/;

export class FakeGemini {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: FakeReply[] = [];
  private readonly server: Server;
  private readonly open = new Set<ServerResponse>();
  private readonly pacer = new ResponsePacer();
  private port = 0;

  private constructor(private readonly options: FakeGeminiOptions) {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`fake-gemini crashed: ${String(error)}`);
      });
    });
  }

  static async start(options: FakeGeminiOptions = {}): Promise<FakeGemini> {
    const fake = new FakeGemini(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** The value for `httpOptions.baseUrl` / GEMINI_BASE_URL. */
  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  enqueue(...replies: FakeReply[]): this {
    this.queue.push(...replies);
    return this;
  }

  /** Replies still queued (a test can assert they were all used). */
  get pending(): number {
    return this.queue.length;
  }

  /** Ends open streams and stalls, then stops listening. */
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
    const match = PATH.exec(url.pathname);
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      path: url.pathname,
      version: match?.[1] ?? '',
      model: match?.[2] ?? '',
      action: match?.[3] ?? '',
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body,
      receivedAt: performance.now(),
    };
    this.requests.push(recorded);
    if (request.method !== 'POST' || match === null) {
      this.sendError(response, 404, `fake-gemini: no route for ${request.method} ${url.pathname}`);
      return;
    }
    this.open.add(response);
    response.on('close', () => this.open.delete(response));
    const reply = this.queue.shift() ?? (this.options.respond ?? defaultResponder)(recorded);
    await this.reply(recorded, reply, response);
  }

  private async reply(request: RecordedRequest, reply: FakeReply, response: ServerResponse): Promise<void> {
    if ('gate' in reply) {
      await reply.gate;
      if (response.destroyed) return;
      await this.reply(request, reply.reply, response);
      return;
    }
    if ('status' in reply) {
      this.sendError(response, reply.status, reply.message, reply.retryDelay);
      return;
    }
    if ('stallMs' in reply) {
      await this.pacer.wait(reply.stallMs, response);
      response.destroy();
      return;
    }
    if ('malformedBody' in reply) {
      response.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      response.end('{"candidates": [{"content": ');
      return;
    }
    if ('embeddings' in reply) {
      sendJson(response, 200, { embeddings: reply.embeddings.map((values) => ({ values })) });
      return;
    }
    const streaming = request.action === 'streamGenerateContent';
    if (!('stream' in reply)) {
      if ('streamError' in reply) {
        await this.sendStream(response, [], { streamError: reply.streamError }, request);
        return;
      }
      const replyText = 'json' in reply ? JSON.stringify(reply.json) : 'text' in reply ? reply.text : '{"answer": "unfinished';
      if (streaming) {
        await this.sendStream(response, [replyText], reply, request);
      } else {
        sendJson(response, 200, responseBody(replyText, reply.finishReason ?? 'STOP', usageFor(request, replyText, reply.usage)));
      }
      return;
    }
    if (!streaming) {
      const joined = reply.stream.join('');
      sendJson(response, 200, responseBody(joined, reply.finishReason ?? 'STOP', usageFor(request, joined, reply.usage)));
      return;
    }
    await this.sendStream(response, reply.stream, reply, request);
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
    const total = pieces.join('');
    const finalUsage = usageFor(request, total, reply.usage);
    for (let index = 0; index < pieces.length; index++) {
      if (reply.streamError !== undefined && reply.streamError.afterChunks === index) break;
      if (reply.stall !== undefined && reply.stall.afterChunks === index) {
        // Stop sending until the client gives up or the fake is closed.
        await this.pacer.wait(60_000, response);
        response.destroy();
        return;
      }
      const piece = pieces[index] ?? '';
      const last = index === pieces.length - 1;
      const event = {
        candidates: [
          {
            content: { parts: [{ text: piece }], role: 'model' },
            index: 0,
            ...(last ? { finishReason: reply.finishReason ?? 'STOP' } : {}),
          },
        ],
        // Gemini sends usage on every chunk; only the last one carries the output count.
        usageMetadata: last
          ? finalUsage
          : { promptTokenCount: finalUsage.promptTokenCount, totalTokenCount: finalUsage.promptTokenCount },
        modelVersion: request.model,
      };
      const ok = await this.pacer.write(response, `data: ${JSON.stringify(event)}\n\n`, reply.splitBytes === true);
      if (!ok) return;
      if (reply.delayMs !== undefined && reply.delayMs > 0) await this.pacer.wait(reply.delayMs, response);
    }
    if (reply.streamError !== undefined && reply.streamError.afterChunks <= pieces.length) {
      const { code, message } = reply.streamError;
      const event = { error: { code, message: message ?? `fake-gemini stream error ${code}`, status: STATUS_NAMES[code] ?? 'UNKNOWN' } };
      await this.pacer.write(response, `data: ${JSON.stringify(event)}\n\n`, false);
    }
    response.end();
  }

  private sendError(response: ServerResponse, status: number, message?: string, retryDelay?: string): void {
    const details =
      retryDelay === undefined ? undefined : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }];
    sendJson(response, status, {
      error: {
        code: status,
        message: message ?? `fake-gemini error ${status}`,
        status: STATUS_NAMES[status] ?? 'UNKNOWN',
        ...(details === undefined ? {} : { details }),
      },
    });
  }
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function responseBody(text: string, finishReason: string, usage: ReturnType<typeof usageFor>) {
  return {
    candidates: [{ content: { parts: [{ text }], role: 'model' }, finishReason, index: 0 }],
    usageMetadata: usage,
    modelVersion: 'fake-gemini',
  };
}

/** Explicit usage when the test gives one, otherwise about four characters per token. */
function usageFor(request: RecordedRequest, output: string, usage: FakeUsage | undefined) {
  const input = usage?.input ?? Math.ceil(JSON.stringify(request.body ?? '').length / 4);
  const outputTokens = usage?.output ?? Math.ceil(output.length / 4);
  return { promptTokenCount: input, candidatesTokenCount: outputTokens, totalTokenCount: input + outputTokens };
}

/** One entry of a batchEmbedContents body: `{model, content: {parts: [{text}]}, taskType?, outputDimensionality?}`. */
export interface EmbedEntry {
  text: string;
  taskType: string | undefined;
  outputDimensionality: number | undefined;
}

/** The entries of a batchEmbedContents body, in order. */
export function embedEntries(body: unknown): EmbedEntry[] {
  const record = (body ?? {}) as {
    requests?: { content?: { parts?: { text?: string }[] }; taskType?: string; outputDimensionality?: number }[];
  };
  return (record.requests ?? []).map((entry) => ({
    text: (entry.content?.parts ?? []).map((part) => part.text ?? '').join(''),
    taskType: entry.taskType,
    outputDimensionality: entry.outputDimensionality,
  }));
}

/** Texts sent in a batchEmbedContents body. */
export function embedTexts(body: unknown): string[] {
  return embedEntries(body).map((entry) => entry.text);
}

/** gemini-embedding-001's size when no outputDimensionality is asked for. */
export const FAKE_EMBEDDING_DEFAULT_DIMENSIONS = 3072;

/**
 * What the fake answers for a text: a deterministic embedding from hashed character bigrams and words (signed
 * feature hashing), so texts sharing vocabulary are close and retrieval through the fake means something. Like
 * Gemini's truncated embeddings it is not of unit length (the full-size one is; so is ours below 3072 only after
 * the adapter normalises it), and values are rounded to 6 decimals, as JSON numbers on the wire would be.
 */
export function fakeEmbedding(text: string, dimensions = FAKE_EMBEDDING_DEFAULT_DIMENSIONS): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const folded = text.normalize('NFKC').toLowerCase();
  const characters = Array.from(folded.replace(/\s+/gu, ' ').trim());
  const features: string[] = [];
  for (let index = 0; index + 1 < characters.length; index++) features.push(`b:${characters[index]}${characters[index + 1]}`);
  for (const word of folded.match(/[\p{L}\p{N}]+/gu) ?? []) features.push(`w:${word}`);
  for (const feature of features) {
    let hash = 0x811c9dc5;
    for (let index = 0; index < feature.length; index++) hash = Math.imul(hash ^ feature.charCodeAt(index), 0x01000193) >>> 0;
    const slot = hash % dimensions;
    vector[slot] = (vector[slot] ?? 0) + ((hash >>> 31) & 1 ? -1 : 1);
  }
  const norm = Math.hypot(...vector) || 1;
  const scale = dimensions >= FAKE_EMBEDDING_DEFAULT_DIMENSIONS ? 1 : 0.5 + (characters.length % 7) / 4;
  return vector.map((value) => Math.round(((value / norm) * scale) * 1e6) / 1e6);
}

function defaultResponder(request: RecordedRequest): FakeReply {
  if (request.action === 'batchEmbedContents') {
    return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
  }
  return { status: 400, message: `fake-gemini: no reply queued for ${request.action}` };
}

/**
 * The real Gemini adapter (and SDK) pointed at `fake`: test model names, fast retries, and
 * timeouts a loaded machine does not reach (a stream the test holds, or a busy event loop, pauses for seconds); a test
 * of the timeouts passes its own.
 */
export function fakeGeminiModel(fake: FakeGemini, overrides: Partial<GeminiModelOptions> = {}): LanguageModel {
  return createGeminiModel({
    apiKey: 'test-key',
    baseUrl: fake.baseUrl,
    models: { generation: 'gen-model', judge: 'judge-model', embedding: 'embed-model' },
    timeoutMs: WAIT_TIMEOUT_MS,
    idleTimeoutMs: WAIT_TIMEOUT_MS / 2,
    maxAttempts: 3,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...overrides,
  });
}
