/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AI3 — Gemini objects. `generateObject` returns the validated object with usage and finish reason; the request
 *   carries the schema, temperature, system instruction and an inline PDF before the prompt.
 * - AI4 — Retries. HTTP 408, 429 and 5xx, network errors (found anywhere in the cause chain, or by their messages)
 *   and our own errors flagged retryable are retried; other 4xx …
 * - AI5 — Time and cancellation. A call is bounded overall and a stream also by its idle time (`MODEL_TIMEOUT`); the
 *   caller's signal aborts with `MODEL_ABORTED`, also during a retry wait …
 * - AI6 — Streams. Chunks split inside multi-byte Korean characters reassemble exactly; usage comes from the last
 *   chunk and the finish reason is mapped …
 * - AI7 — Gemini embeddings. `embed` goes through `batchEmbedContents` with the embedding model, in batches of 100,
 *   keeping the order …
 */
import { createServer } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { GeminiModelOptions } from '../src/llm/gemini-model.js';
import { ModelError } from '../src/llm/model-error.js';
import type { TextStream } from '../src/llm/model.js';
import { fakeEmbedding, fakeGeminiModel, FakeGemini } from './support/fake-gemini.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';

/** Every test goes through the real @google/genai SDK over HTTP to the fake Gemini server. */

const Answer = z.object({ answer: z.string(), score: z.number().int().min(0).max(5) });

let fake: FakeGemini;

beforeEach(async () => {
  fake = await FakeGemini.start();
});

afterEach(async () => {
  await fake.close();
});

function gemini(overrides: Partial<GeminiModelOptions> = {}) {
  return fakeGeminiModel(fake, { maxAttempts: 3, ...overrides });
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

type Body = {
  contents: { role: string; parts: { text?: string; inlineData?: { mimeType: string; data: string } }[] }[];
  systemInstruction?: { parts: { text: string }[] };
  generationConfig?: Record<string, unknown>;
  requests?: { model: string; content: { parts: { text: string }[] } }[];
};

const bodyOf = (index: number) => fake.requests[index]?.body as Body;

describe('gemini generateObject', () => {
  it('AI3 returns the validated object with usage and finish reason', async () => {
    fake.enqueue({ json: { answer: '미분', score: 4 }, usage: { input: 12, output: 5 } });
    const result = await gemini().generateObject({ ...baseRequest, schema: Answer });
    expect(result).toEqual({ object: { answer: '미분', score: 4 }, usage: { inputTokens: 12, outputTokens: 5 }, finishReason: 'stop' });
  });

  it('AI3 sends the schema, temperature, system instruction and an inline PDF before the prompt', async () => {
    fake.enqueue({ json: { answer: 'x', score: 1 } });
    const pdf = new TextEncoder().encode('%PDF-1.7 fake');
    await gemini().generateObject({
      ...baseRequest,
      role: 'judge',
      schema: Answer,
      system: '당신은 채점자입니다.',
      temperature: 0.2,
      files: [{ mimeType: 'application/pdf', data: pdf }],
    });
    const request = fake.requests[0];
    expect(request?.path).toBe('/v1beta/models/judge-model:generateContent');
    const body = bodyOf(0);
    expect(body.generationConfig).toMatchObject({ temperature: 0.2, responseMimeType: 'application/json' });
    expect(body.generationConfig?.['responseJsonSchema']).toEqual({
      type: 'object',
      properties: {
        answer: { type: 'string' },
        score: { type: 'integer', minimum: 0, maximum: 5 },
      },
      required: ['answer', 'score'],
    });
    expect(body.systemInstruction?.parts[0]?.text).toBe('당신은 채점자입니다.');
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [
          { inlineData: { mimeType: 'application/pdf', data: Buffer.from(pdf).toString('base64') } },
          { text: '질문에 답하세요.' },
        ],
      },
    ]);
  });

  it('AI3 accepts a reply wrapped in a ```json fence', async () => {
    fake.enqueue({ text: '```json\n{"answer":"적분","score":2}\n```' });
    const result = await gemini().generateObject({ ...baseRequest, schema: Answer });
    expect(result.object).toEqual({ answer: '적분', score: 2 });
    expect(fake.requests).toHaveLength(1);
  });

  it('AI3 repairs broken JSON once, showing the model its reply and the parse error', async () => {
    fake.enqueue({ malformed: true, usage: { input: 10, output: 3 } }, { json: { answer: '극한', score: 3 }, usage: { input: 20, output: 4 } });
    const result = await gemini().generateObject({ ...baseRequest, schema: Answer });
    expect(result.object).toEqual({ answer: '극한', score: 3 });
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 7 });
    expect(fake.requests).toHaveLength(2);
    const repair = bodyOf(1).contents;
    expect(repair.map((content) => content.role)).toEqual(['user', 'model', 'user']);
    expect(repair[1]?.parts[0]?.text).toBe('{"answer": "unfinished');
    expect(repair[2]?.parts[0]?.text).toContain('not valid JSON');
    expect(bodyOf(1).generationConfig?.['responseJsonSchema']).toEqual(bodyOf(0).generationConfig?.['responseJsonSchema']);
  });

  it('AI3 repairs a schema violation with the failing path in the repair turn', async () => {
    fake.enqueue({ json: { answer: '극한', score: 9 } }, { json: { answer: '극한', score: 5 } });
    const result = await gemini().generateObject({ ...baseRequest, schema: Answer });
    expect(result.object.score).toBe(5);
    const repairText = bodyOf(1).contents[2]?.parts[0]?.text ?? '';
    expect(repairText).toContain('does not match the schema');
    expect(repairText).toContain('score');
  });

  it('AI3 fails with MODEL_OUTPUT_INVALID carrying raw text, summed usage and finish reason when the repair is bad too', async () => {
    fake.enqueue(
      { json: { answer: 1 }, usage: { input: 10, output: 2 } },
      { text: '{"answer": "still wrong"}', usage: { input: 15, output: 3 }, finishReason: 'MAX_TOKENS' },
    );
    const error = await modelError(gemini().generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.rawText).toBe('{"answer": "still wrong"}');
    expect(error.usage).toEqual({ inputTokens: 25, outputTokens: 5 });
    expect(error.finishReason).toBe('length');
    expect(fake.requests).toHaveLength(2);
  });

  it('AI4 retries a 429 no sooner than its RetryInfo retryDelay', async () => {
    fake.enqueue({ status: 429, retryDelay: '0.2s' }, { json: { answer: 'ok', score: 1 } });
    const result = await gemini().generateObject({ ...baseRequest, schema: Answer });
    expect(result.object.answer).toBe('ok');
    const [first, second] = fake.requests;
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(195);
  });

  it('AI4 retries a 503 and then succeeds', async () => {
    fake.enqueue({ status: 503 }, { json: { answer: 'ok', score: 1 } });
    const result = await gemini().generateObject({ ...baseRequest, schema: Answer });
    expect(result.object.answer).toBe('ok');
    expect(fake.requests).toHaveLength(2);
  });

  it('AI4 gives up with MODEL_UNAVAILABLE (retryable, provider status kept) when the attempts are spent', async () => {
    fake.enqueue({ status: 503 }, { status: 500 }, { status: 503 }, { json: { answer: 'never', score: 1 } });
    const error = await modelError(gemini({ maxAttempts: 3 }).generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.providerStatus).toBe(503);
    expect(error.retryable).toBe(true);
    expect(error.cause).toBeInstanceOf(Error);
    expect(fake.requests).toHaveLength(3);
  });

  it('AI4 does not retry a 400', async () => {
    fake.enqueue({ status: 400, message: 'bad schema' }, { json: { answer: 'never', score: 1 } });
    const error = await modelError(gemini().generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.providerStatus).toBe(400);
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it('AI4 retries a refused connection, then reports MODEL_UNAVAILABLE', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const attempts: number[] = [];
    const model = gemini({
      baseUrl: `http://127.0.0.1:${closedPort}`,
      retry: { baseDelayMs: 1, maxDelayMs: 2, sleep: async (ms) => void attempts.push(ms) },
    });
    const error = await modelError(model.generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    expect(attempts).toHaveLength(2);
  });

  it('AI5 times out a reply that never comes (overall timeout)', async () => {
    fake.enqueue({ stallMs: 5_000 });
    const error = await modelError(gemini({ timeoutMs: 200 }).generateObject({ ...baseRequest, schema: Answer }));
    expect(error.code).toBe('MODEL_TIMEOUT');
    expect(error.message).toBe('AI 모델이 제한 시간 안에 응답하지 않았습니다.');
  });

  it('AI5 aborts on the caller signal, also during a retry wait', async () => {
    fake.enqueue({ status: 429, retryDelay: '5s' });
    const controller = new AbortController();
    const pending = modelError(gemini().generateObject({ ...baseRequest, schema: Answer, signal: controller.signal }));
    // Abort once the first attempt has been answered 429, i.e. during the 5 s retry wait (a fixed delay could fire
    // before the lazily loaded SDK even sent the request on a busy machine).
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1), { timeout: WAIT_TIMEOUT_MS });
    controller.abort();
    const error = await pending;
    expect(error.code).toBe('MODEL_ABORTED');
    // Ended during the wait: the retry was never sent.
    expect(fake.requests).toHaveLength(1);
  });
});

describe('gemini streamText', () => {
  const korean = ['안녕하세요, 여러분. ', '오늘은 미적분의 ', '기본 정리를 배웁니다. ', '[질문] 도함수란? [\\질문]'];

  it('AI6 reassembles chunks split inside multi-byte Korean characters exactly', async () => {
    fake.enqueue({ stream: korean, splitBytes: true });
    const { deltas, error } = await collect(gemini().streamText(baseRequest));
    expect(error).toBeUndefined();
    expect(deltas).toEqual(korean);
    expect(fake.requests[0]?.path).toBe('/v1beta/models/gen-model:streamGenerateContent');
    expect(fake.requests[0]?.query).toEqual({ alt: 'sse' });
  });

  it('AI6 reports usage from the last chunk and maps the finish reason', async () => {
    fake.enqueue({ stream: ['하나 ', '둘'], usage: { input: 7, output: 11 }, finishReason: 'MAX_TOKENS' });
    const stream = gemini().streamText(baseRequest);
    await collect(stream);
    await expect(stream.result).resolves.toEqual({ usage: { inputTokens: 7, outputTokens: 11 }, finishReason: 'length' });
  });

  it('AI6 settles result without iterating (the request starts eagerly)', async () => {
    fake.enqueue({ stream: ['a', 'b'], finishReason: 'SAFETY' });
    const result = await gemini().streamText(baseRequest).result;
    expect(result.finishReason).toBe('safety');
  });

  it('AI4 AI6 retries an error event that arrives before any delta', async () => {
    fake.enqueue({ streamError: { afterChunks: 0, code: 503 } }, { stream: ['다시 ', '시작'] });
    const stream = gemini().streamText(baseRequest);
    const { deltas, error } = await collect(stream);
    expect(error).toBeUndefined();
    expect(deltas).toEqual(['다시 ', '시작']);
    expect(fake.requests).toHaveLength(2);
  });

  it('AI4 AI6 retries an HTTP 503 before the stream opens', async () => {
    fake.enqueue({ status: 503 }, { stream: ['ok'] });
    const { deltas } = await collect(gemini().streamText(baseRequest));
    expect(deltas).toEqual(['ok']);
    expect(fake.requests).toHaveLength(2);
  });

  it('AI6 fails with a retryable MODEL_UNAVAILABLE on an error event after deltas, without retrying', async () => {
    fake.enqueue({ stream: ['첫 문장. ', '둘째 문장.'], streamError: { afterChunks: 1, code: 503 } }, { stream: ['never'] });
    const stream = gemini().streamText(baseRequest);
    const { deltas, error } = await collect(stream);
    expect(deltas).toEqual(['첫 문장. ']);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('MODEL_UNAVAILABLE');
    expect((error as ModelError).retryable).toBe(true);
    expect((error as ModelError).providerStatus).toBe(503);
    await expect(stream.result).rejects.toBe(error);
    expect(fake.requests).toHaveLength(1);
  });

  it('AI5 ends a stalled stream with MODEL_TIMEOUT after the idle timeout', async () => {
    fake.enqueue({ stream: ['하나 ', '둘 ', '셋'], stall: { afterChunks: 1 } });
    // The first chunk comes well within the idle timeout on a loaded machine; the message shows which timeout ended it.
    const stream = gemini({ idleTimeoutMs: 1_000 }).streamText(baseRequest);
    const { deltas, error } = await collect(stream);
    expect(deltas).toEqual(['하나 ']);
    expect((error as ModelError).code).toBe('MODEL_TIMEOUT');
    expect((error as ModelError).message).toBe('AI 모델의 응답이 중간에 멈췄습니다.');
    expect(fake.requests).toHaveLength(1);
  });

  it('AI5 times out when nothing at all arrives within the idle timeout', async () => {
    fake.enqueue({ stallMs: 5_000 });
    const { error } = await collect(gemini({ idleTimeoutMs: 150 }).streamText(baseRequest));
    expect((error as ModelError).code).toBe('MODEL_TIMEOUT');
  });

  it('AI5 applies the overall timeout to a stream that keeps trickling', async () => {
    fake.enqueue({ stream: Array.from({ length: 150 }, (_, index) => `${index} `), delayMs: 30 });
    const stream = gemini({ timeoutMs: 1_500, idleTimeoutMs: 10_000 }).streamText(baseRequest);
    const { deltas, error } = await collect(stream);
    expect((error as ModelError).code).toBe('MODEL_TIMEOUT');
    expect((error as ModelError).message).toBe('AI 모델이 제한 시간 안에 응답하지 않았습니다.');
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.length).toBeLessThan(150);
  });

  it('AI5 aborts with MODEL_ABORTED on the caller signal and never retries', async () => {
    fake.enqueue({ stream: ['하나 ', '둘 ', '셋 ', '넷'], delayMs: 100 }, { stream: ['never'] });
    const controller = new AbortController();
    const stream = gemini().streamText({ ...baseRequest, signal: controller.signal });
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
    await expect(stream.result).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
    expect(fake.requests).toHaveLength(1);
  });

  it('AI5 cancels the request when the consumer stops iterating', async () => {
    fake.enqueue({ stream: ['하나 ', '둘'], stall: { afterChunks: 1 } });
    const stream = gemini().streamText(baseRequest);
    for await (const delta of stream) {
      expect(delta).toBe('하나 ');
      break;
    }
    await expect(stream.result).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
  });

  it('AI6 never leaves an unhandled rejection when result is not observed', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      fake.enqueue({ status: 400 });
      const { error } = await collect(gemini().streamText(baseRequest));
      expect((error as ModelError).code).toBe('MODEL_UNAVAILABLE');
      const ignored = gemini().streamText(baseRequest); // never iterated, result never read: the fake answers 400 by default
      // A barrier, not a sleep: wait until `result` has rejected, read through inspect so that no handler is attached
      // (one would hide the very rejection this test looks for). Node reports an unhandled rejection once the
      // microtasks of the turn that rejected it have run, so one more turn of the event loop after that is enough.
      await expect.poll(() => inspect(ignored.result)).toContain('<rejected>');
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('gemini embed', () => {
  it('AI7 embeds a batch through batchEmbedContents with the embedding model', async () => {
    fake.enqueue({ embeddings: [[0.1, 0.2], [0.3, 0.4]] });
    const vectors = await gemini().embed(['미분', '적분']);
    expect(vectors).toEqual([[0.1, 0.2], [0.3, 0.4]]);
    expect(fake.requests[0]?.path).toBe('/v1beta/models/embed-model:batchEmbedContents');
    expect(bodyOf(0).requests).toEqual([
      { model: 'models/embed-model', content: { parts: [{ text: '미분' }], role: 'user' } },
      { model: 'models/embed-model', content: { parts: [{ text: '적분' }], role: 'user' } },
    ]);
  });

  it('AI7 splits large inputs into batches of 100 and keeps the order', async () => {
    const texts = Array.from({ length: 150 }, (_, index) => 'x'.repeat(index + 1));
    const vectors = await gemini().embed(texts);
    expect(fake.requests).toHaveLength(2);
    expect(vectors).toEqual(texts.map((text) => fakeEmbedding(text)));
  });

  it('AI7 R12 asks for a task type and a dimension, and normalises the truncated vectors', async () => {
    const vectors = await gemini().embed(['미분의 정의', 'derivative'], { taskType: 'RETRIEVAL_QUERY', dimensions: 768 });
    expect(bodyOf(0).requests).toEqual([
      { model: 'models/embed-model', content: { parts: [{ text: '미분의 정의' }], role: 'user' }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 768 },
      { model: 'models/embed-model', content: { parts: [{ text: 'derivative' }], role: 'user' }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 768 },
    ]);
    expect(vectors.map((vector) => vector.length)).toEqual([768, 768]);
    // The fake, like Gemini, answers truncated vectors that are not of unit length.
    expect(Math.hypot(...fakeEmbedding('미분의 정의', 768))).not.toBeCloseTo(1, 3);
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
  });

  it('AI4 AI7 retries a 503 and rejects a reply with the wrong number of vectors', async () => {
    fake.enqueue({ status: 503 }, { embeddings: [[1]] });
    const error = await modelError(gemini().embed(['a', 'b']));
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(fake.requests).toHaveLength(2);
  });
});
