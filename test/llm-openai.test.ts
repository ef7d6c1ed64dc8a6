/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - OA1 — Requests. Structured calls send the role's model, system and user messages, the temperature and
 *   `response_format: {type: "json_schema", json_schema: {name, schema, strict: false}}` with the zod …
 * - OA2 — JSON mode fallback. A 400/422 naming the response format (or its schema) switches that model to
 *   `response_format: {type: "json_object"}` with the JSON Schema on the prompt's last line …
 * - OA3 — Policy. Retries, overall timeout, idle timeout and abort are the shared policy (`provider-calls.ts`):
 *   408/429/5xx and network failures retry with backoff …
 * - OA4 — Streams. Deltas arrive exactly, whatever the byte splits; usage comes from the final chunk (estimated at
 *   about four characters per token when a server sends none) and `finish_reason` maps to …
 * - OA5 — Embeddings. `/v1/embeddings` with `encoding_format: "float"` and `dimensions` when the caller asks a size,
 *   in batches of 100 in order …
 */
import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ModelError } from '../src/llm/model-error.js';
import type { TextStream } from '../src/llm/model.js';
import { fitDimensions, type OpenAIModelOptions } from '../src/llm/openai-model.js';
import { fakeEmbedding } from './support/fake-gemini.js';
import { chatBody, fakeOpenAIModel, FakeOpenAI, type EmbeddingsBody, type FakeOpenAIOptions } from './support/fake-openai.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';

/** Every test goes through the real `openai` SDK over HTTP to the fake OpenAI-compatible server. Rule ids: test/SPEC.md. */

const Answer = z.object({ answer: z.string(), score: z.number().int().min(0).max(5) });

let fake: FakeOpenAI;
const extra: FakeOpenAI[] = [];

beforeEach(async () => {
  fake = await FakeOpenAI.start();
});

afterEach(async () => {
  await fake.close();
  for (const other of extra.splice(0)) await other.close();
});

async function server(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  const started = await FakeOpenAI.start(options);
  extra.push(started);
  return started;
}

function openai(overrides: Partial<OpenAIModelOptions> = {}, on: FakeOpenAI = fake) {
  return fakeOpenAIModel(on, { maxAttempts: 3, ...overrides });
}

const baseRequest = { task: 'test.answer', input: {}, prompt: '질문에 답하세요.' };

async function collect(stream: TextStream): Promise<{ deltas: string[]; error: unknown }> {
  const deltas: string[] = [];
  try {
    for await (const delta of stream) deltas.push(delta);
    return { deltas, error: undefined };
  } catch (error) {
    return { deltas, error };
  }
}

async function modelError(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

const body = (index: number, on: FakeOpenAI = fake) => chatBody(on.requests[index]!);

/** The JSON Schema sent for Answer: what zod 4 makes of it, without `$schema`. */
function answerSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(Answer, { io: 'input' });
  return schema;
}

describe('openai generateObject', () => {
  it('OA1 sends json_schema with the zod schema, system, temperature and model; returns the object, usage and finish reason', async () => {
    fake.enqueue({ json: { answer: '미분', score: 4 }, usage: { input: 12, output: 5 } });
    const result = await openai().generateObject({ ...baseRequest, schema: Answer, system: '너는 튜터다.', temperature: 0.2, role: 'judge' });
    expect(result).toEqual({ object: { answer: '미분', score: 4 }, usage: { inputTokens: 12, outputTokens: 5 }, finishReason: 'stop' });
    const sent = body(0);
    expect(fake.requests[0]?.path).toBe('/v1/chat/completions');
    expect(sent.model).toBe('judge-model');
    expect(sent.stream).toBe(false);
    expect(sent.temperature).toBe(0.2);
    expect(sent.messages).toEqual([
      { role: 'system', content: '너는 튜터다.' },
      { role: 'user', content: '질문에 답하세요.' },
    ]);
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'test_answer', strict: false, schema: answerSchema() },
    });
    // A local server needs no key, and gets no Authorization header at all.
    expect(fake.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('OA1 sends the API key as a bearer token when one is configured', async () => {
    const keyed = await server({ apiKey: 'sk-test' });
    keyed.enqueue({ json: { answer: 'ok', score: 1 } });
    await openai({ apiKey: 'sk-test' }, keyed).generateObject({ ...baseRequest, schema: Answer });
    expect(keyed.requests[0]?.headers.authorization).toBe('Bearer sk-test');
  });

  it('OA2 falls back to json_object mode with the schema in the prompt when the server refuses json_schema, and remembers it', async () => {
    const plain = await server({ jsonSchema: 'rejected' });
    plain.enqueue({ json: { answer: '적분', score: 2 } }, { json: { answer: '극한', score: 3 } });
    const model = openai({}, plain);
    const first = await model.generateObject({ ...baseRequest, schema: Answer });
    expect(first.object).toEqual({ answer: '적분', score: 2 });
    expect(plain.requests.map((request) => chatBody(request).response_format?.type)).toEqual(['json_schema', 'json_object']);
    const prompt = body(1, plain).messages?.at(-1)?.content ?? '';
    expect(prompt.startsWith('질문에 답하세요.')).toBe(true);
    expect(prompt).toContain('JSON');
    expect(prompt.endsWith(`\n${JSON.stringify(answerSchema())}\n`)).toBe(true);

    // The second call goes straight to json_object: the refusal is remembered for the model.
    const second = await model.generateObject({ ...baseRequest, schema: Answer });
    expect(second.object.answer).toBe('극한');
    expect(plain.requests.map((request) => chatBody(request).response_format?.type)).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it('OA2 a 400 that is not about the response format is reported, not taken for a refusal', async () => {
    fake.enqueue({ status: 400, message: 'context length exceeded' }, { json: { answer: 'never', score: 1 } });
    const error = await modelError(openai().generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.providerStatus).toBe(400);
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('OA2 repairs an invalid reply in JSON mode once, showing the model its reply and the error', async () => {
    const plain = await server({ jsonSchema: 'rejected' });
    plain.enqueue({ text: 'Sure! {"answer": "극한", "score": 9}', usage: { input: 10, output: 3 } }, { json: { answer: '극한', score: 5 }, usage: { input: 20, output: 4 } });
    const result = await openai({}, plain).generateObject({ ...baseRequest, schema: Answer });
    expect(result.object).toEqual({ answer: '극한', score: 5 });
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 7 });
    const repair = body(2, plain).messages ?? [];
    expect(repair.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(repair[1]?.content).toBe('Sure! {"answer": "극한", "score": 9}');
    expect(repair[2]?.content).toContain('<validation_error>');
    expect(body(2, plain).response_format).toEqual({ type: 'json_object' });
  });

  it('OA1 reads the JSON after a reasoning model\'s <think> block written into the content', async () => {
    fake.enqueue({ text: '<think>\n점수는 4점이 맞다. {"answer": 1}\n</think>\n\n{"answer":"미분","score":4}' });
    const result = await openai().generateObject({ ...baseRequest, schema: Answer });
    expect(result.object).toEqual({ answer: '미분', score: 4 });
    expect(fake.requests).toHaveLength(1);
  });

  it('fails with MODEL_OUTPUT_INVALID carrying raw text, summed usage and finish reason when the repair is bad too', async () => {
    fake.enqueue(
      { json: { answer: 1 }, usage: { input: 10, output: 2 } },
      { text: '{"answer": "still wrong"}', usage: { input: 15, output: 3 }, finishReason: 'length' },
    );
    const error = await modelError(openai().generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.rawText).toBe('{"answer": "still wrong"}');
    expect(error.usage).toEqual({ inputTokens: 25, outputTokens: 5 });
    expect(error.finishReason).toBe('length');
    expect(fake.requests).toHaveLength(2);
  });

  it('OA3 retries a 429 no sooner than its retry-after-ms, and a 503', async () => {
    fake.enqueue({ status: 429, retryAfterMs: 200 }, { status: 503 }, { json: { answer: 'ok', score: 1 } });
    const result = await openai().generateObject({ ...baseRequest, schema: Answer });
    expect(result.object.answer).toBe('ok');
    const [first, second] = fake.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(195);
    expect(fake.requests).toHaveLength(3);
  });

  it('OA3 gives up with MODEL_UNAVAILABLE (retryable, provider status kept) when the attempts are spent', async () => {
    fake.enqueue({ status: 503 }, { status: 500 }, { status: 503 }, { json: { answer: 'never', score: 1 } });
    const error = await modelError(openai({ maxAttempts: 3 }).generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.providerStatus).toBe(503);
    expect(error.retryable).toBe(true);
    expect(fake.requests).toHaveLength(3);
  });

  it('OA3 retries a refused connection, then reports MODEL_UNAVAILABLE', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const waits: number[] = [];
    const model = openai({
      baseUrl: `http://127.0.0.1:${closedPort}/v1`,
      retry: { baseDelayMs: 1, maxDelayMs: 2, sleep: async (ms) => void waits.push(ms) },
    });
    const error = await modelError(model.generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    expect(waits).toHaveLength(2);
  });

  it('OA3 times out a reply that never comes (overall timeout)', async () => {
    fake.enqueue({ stallMs: 5_000 });
    const error = await modelError(openai({ timeoutMs: 200 }).generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_TIMEOUT');
  });

  it('OA3 aborts on the caller signal, also during a retry wait', async () => {
    fake.enqueue({ status: 429, retryAfterMs: 5_000 });
    const controller = new AbortController();
    const pending = modelError(openai().generateObject({ ...baseRequest, schema: Answer, signal: controller.signal }));
    // Abort after the first attempt reached the server, i.e. during the retry wait, however busy the machine is.
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1), { timeout: WAIT_TIMEOUT_MS });
    controller.abort();
    const error = await pending;
    expect(error.code).toBe('MODEL_ABORTED');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('openai streamText', () => {
  const korean = ['안녕하세요, 여러분. ', '오늘은 미적분의 ', '기본 정리를 배웁니다. ', '[질문] 도함수란? [\\질문]'];

  it('OA4 streams SSE chunks split inside multi-byte Korean characters exactly, asking for usage in the last chunk', async () => {
    fake.enqueue({ stream: korean, splitBytes: true, usage: { input: 7, output: 11 }, finishReason: 'length' });
    const stream = openai().streamText({ ...baseRequest, system: '시스템' });
    const { deltas, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(deltas).toEqual(korean);
    await expect(stream.result).resolves.toEqual({ usage: { inputTokens: 7, outputTokens: 11 }, finishReason: 'length' });
    const sent = body(0);
    expect(sent.stream).toBe(true);
    expect(sent.stream_options).toEqual({ include_usage: true });
    expect(sent.model).toBe('gen-model');
    expect(sent.messages?.map((message) => message.role)).toEqual(['system', 'user']);
  });

  it('OA4 declares the text path: no PDF input, prompts followed, semantic embeddings', () => {
    expect(openai().capabilities).toEqual({ pdfInput: false, followsPrompts: true, semanticEmbeddings: true, deterministic: false });
  });

  it('OA4 sends no attached file (the text path) and settles result without iterating', async () => {
    fake.enqueue({ stream: ['a', 'b'], finishReason: 'content_filter' });
    const result = await openai().streamText({ ...baseRequest, files: [{ mimeType: 'application/pdf', data: new Uint8Array([37, 80, 68, 70]) }] })
      .result;
    expect(result.finishReason).toBe('safety');
    expect(body(0).messages).toEqual([{ role: 'user', content: '질문에 답하세요.' }]);
  });

  it('OA4 retries an error event that arrives before any delta, and an HTTP 503', async () => {
    fake.enqueue({ stream: [], streamError: { afterChunks: 0, code: 503 } }, { status: 503 }, { stream: ['다시 ', '시작'] });
    const { deltas, error } = await collect(openai().streamText(baseRequest));
    expect(error).toBeUndefined();
    expect(deltas).toEqual(['다시 ', '시작']);
    expect(fake.requests).toHaveLength(3);
  });

  it('OA4 fails with a retryable MODEL_UNAVAILABLE on an error event after deltas, without retrying', async () => {
    fake.enqueue({ stream: ['첫 문장. ', '둘째 문장.'], streamError: { afterChunks: 1, code: 503 } }, { stream: ['never'] });
    const stream = openai().streamText(baseRequest);
    const { deltas, error } = await collect(stream);
    expect(deltas).toEqual(['첫 문장. ']);
    expect((error as ModelError).code).toBe('MODEL_UNAVAILABLE');
    expect((error as ModelError).retryable).toBe(true);
    expect((error as ModelError).providerStatus).toBe(503);
    await expect(stream.result).rejects.toBe(error);
    expect(fake.requests).toHaveLength(1);
  });

  it('OA4 ends a stalled stream with MODEL_TIMEOUT after the idle timeout, and applies the overall timeout to a trickle', async () => {
    fake.enqueue({ stream: ['하나 ', '둘 ', '셋'], stall: { afterChunks: 1 } });
    // Windows wide enough for a loaded machine: the first chunk comes within the idle timeout, and the trickle's gaps
    // stay far below its idle timeout, so what ends each stream shows in its message, not in a timing.
    const stalled = await collect(openai({ idleTimeoutMs: 1_000 }).streamText(baseRequest));
    expect(stalled.deltas).toEqual(['하나 ']);
    expect((stalled.error as ModelError).code).toBe('MODEL_TIMEOUT');
    expect((stalled.error as ModelError).message).toBe('AI 모델의 응답이 중간에 멈췄습니다.');

    fake.enqueue({ stream: Array.from({ length: 150 }, (_, index) => `${index} `), delayMs: 30 });
    const trickle = await collect(openai({ timeoutMs: 1_500, idleTimeoutMs: 10_000 }).streamText(baseRequest));
    expect((trickle.error as ModelError).code).toBe('MODEL_TIMEOUT');
    expect((trickle.error as ModelError).message).toBe('AI 모델이 제한 시간 안에 응답하지 않았습니다.');
    expect(trickle.deltas.length).toBeGreaterThan(0);
    expect(trickle.deltas.length).toBeLessThan(150);
  });

  it('OA4 aborts with MODEL_ABORTED on the caller signal and never retries; stopping iteration cancels', async () => {
    fake.enqueue({ stream: ['하나 ', '둘 ', '셋 ', '넷'], delayMs: 100 }, { stream: ['never'] });
    const controller = new AbortController();
    const stream = openai().streamText({ ...baseRequest, signal: controller.signal });
    const deltas: string[] = [];
    let error: unknown;
    try {
      for await (const delta of stream) {
        deltas.push(delta);
        controller.abort();
      }
    } catch (caught) {
      error = caught;
    }
    expect(deltas).toEqual(['하나 ']);
    expect((error as ModelError).code).toBe('MODEL_ABORTED');
    expect(fake.requests).toHaveLength(1);

    // The retry queued above was never asked for.
    expect(fake.pending).toBe(1);
    const other = await server({});
    other.enqueue({ stream: ['하나 ', '둘'], stall: { afterChunks: 1 } });
    const stopped = openai({}, other).streamText(baseRequest);
    for await (const delta of stopped) {
      expect(delta).toBe('하나 ');
      break;
    }
    await expect(stopped.result).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
  });
});

describe('openai embed', () => {
  it('OA5 embeds through /v1/embeddings as floats with the embedding model, asking for the dimension; vectors are unit length', async () => {
    const vectors = await openai().embed(['미분의 정의', 'derivative'], { taskType: 'RETRIEVAL_QUERY', dimensions: 256 });
    const sent = fake.requests[0]?.body as EmbeddingsBody;
    expect(fake.requests[0]?.path).toBe('/v1/embeddings');
    expect(sent).toEqual({ model: 'embed-model', input: ['미분의 정의', 'derivative'], encoding_format: 'float', dimensions: 256 });
    expect(vectors.map((vector) => vector.length)).toEqual([256, 256]);
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    expect(vectors[0]).toEqual(fitDimensions(fakeEmbedding('미분의 정의', 256), 256));
  });

  it('OA5 a server that refuses dimensions is asked without them from then on; its vectors are fitted locally', async () => {
    const fixed = await server({ dimensions: 'rejected', embeddingSize: 384 });
    const model = openai({}, fixed);
    const vectors = await model.embed(['평균', '분산'], { dimensions: 768 });
    await model.embed(['표준편차'], { dimensions: 768 });
    expect(fixed.requests.map((request) => (request.body as EmbeddingsBody).dimensions)).toEqual([768, undefined, undefined]);
    expect(vectors.map((vector) => vector.length)).toEqual([768, 768]);
    // Zero padding keeps cosine similarity exactly.
    const [a, b] = [fakeEmbedding('평균', 384), fakeEmbedding('분산', 384)];
    const cosine = (x: number[], y: number[]) => x.reduce((sum, value, index) => sum + value * (y[index] ?? 0), 0) / (Math.hypot(...x) * Math.hypot(...y));
    expect(cosine(vectors[0]!, vectors[1]!)).toBeCloseTo(cosine(a, b), 6);
  });

  it('OA5 fitDimensions cuts longer vectors and pads shorter ones, always to unit length', () => {
    expect(fitDimensions([3, 4, 12], 2)).toEqual([0.6, 0.8]);
    expect(fitDimensions([3, 4], 3)).toEqual([0.6, 0.8, 0]);
    expect(fitDimensions([0, 0], 2)).toEqual([0, 0]);
  });

  it('OA5 splits large inputs into batches of 100 in order, retries a 503 and rejects a wrong number of vectors', async () => {
    const texts = Array.from({ length: 150 }, (_, index) => 'x'.repeat(index + 1));
    const vectors = await openai().embed(texts);
    expect(fake.requests).toHaveLength(2);
    expect(vectors).toEqual(texts.map((text) => fakeEmbedding(text, 768)));

    fake.enqueue({ status: 503 }, { embeddings: [[1]] });
    const error = await modelError(openai().embed(['a', 'b']));
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(fake.requests).toHaveLength(4);
  });
});
