/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AI1 — One interface, three models. `createModel` chooses the offline model without a Gemini key and Gemini with
 *   one (an OpenAI-compatible server with `OPENAI_BASE_URL`, OA6); all are metered.
 * - AI8 — Metering. Calls, tokens and latency are counted per role, and usage is attributed to the session, room and
 *   material (streamed text once its result settles); errors are counted by code …
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createModel } from '../src/llm/index.js';
import { meterModel } from '../src/llm/metered-model.js';
import { ModelError } from '../src/llm/model-error.js';
import type { LanguageModel } from '../src/llm/model.js';
import { createOfflineModel, type OfflineTasks } from '../src/llm/offline-model.js';
import { loadConfig } from '../src/kernel/config.js';
import { createMetrics, type Metrics } from '../src/kernel/metrics.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/store.js';
import { FakeOpenAI } from './support/fake-openai.js';
import { usageKeys } from '../src/llm/usage-keys.js';

const Out = z.object({ value: z.string() });
const tasks: OfflineTasks = {
  'test.object': { object: () => ({ value: 'x'.repeat(40) }) },
  'test.invalid': { object: () => ({ value: 1 }) },
  'test.text': { text: () => '하나 둘 셋 넷' },
};

let metrics: Metrics;
let store: MemoryStore;

beforeEach(() => {
  metrics = createMetrics();
  store = new MemoryStore();
});

afterEach(async () => {
  await store.close();
});

/** A sample's value by full sample name (histograms: `<name>_count`), summed over the series matching `labels`. */
async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metricName = name.replace(/_count$/, '');
  const metric = await metrics.registry.getSingleMetric(metricName)?.get();
  return (metric?.values ?? [])
    .filter((entry) => ((entry as { metricName?: string }).metricName ?? metricName) === name)
    .filter((entry) => Object.entries(labels).every(([key, label]) => (entry.labels as Record<string, unknown>)[key] === label))
    .reduce((sum, entry) => sum + entry.value, 0);
}

const prompt = 'p'.repeat(80); // 20 approximate tokens

describe('AI8 meterModel', () => {
  it('counts calls, tokens and latency, and attributes usage to session, room and material', async () => {
    const model = meterModel(createOfflineModel(tasks), { metrics, store });
    const result = await model.generateObject({
      task: 'test.object',
      input: {},
      prompt,
      schema: Out,
      role: 'judge',
      attribution: { sessionId: 's1', roomId: 'r1', materialId: 'm1' },
    });
    expect(result.usage).toEqual({ inputTokens: 20, outputTokens: 13 });
    expect(await value('lectern_model_calls_total', { role: 'judge', kind: 'offline', method: 'generateObject' })).toBe(1);
    expect(await value('lectern_model_tokens_total', { role: 'judge', direction: 'input' })).toBe(20);
    expect(await value('lectern_model_tokens_total', { role: 'judge', direction: 'output' })).toBe(13);
    expect(await value('lectern_model_latency_seconds_count', { role: 'judge', method: 'generateObject' })).toBe(1);
    for (const key of [usageKeys.usage('session', 's1'), usageKeys.usage('room', 'r1'), usageKeys.usage('material', 'm1')]) {
      expect(await store.hgetall(key)).toEqual({ input: '20', output: '13', 'judge:input': '20', 'judge:output': '13' });
    }
  });

  it('accumulates usage across calls and attributes streamed text when its result settles', async () => {
    const model = meterModel(createOfflineModel(tasks), { metrics, store });
    const attribution = { sessionId: 's2' };
    await model.generateObject({ task: 'test.object', input: {}, prompt, schema: Out, attribution });
    const stream = model.streamText({ task: 'test.text', input: {}, prompt, attribution });
    const deltas: string[] = [];
    for await (const delta of stream) deltas.push(delta);
    const streamed = await stream.result;
    expect(deltas.join('')).toBe('하나 둘 셋 넷');
    expect(await value('lectern_model_calls_total', { role: 'generation', method: 'streamText' })).toBe(1);
    expect(await value('lectern_model_latency_seconds_count', { method: 'streamText' })).toBe(1);
    expect(await store.hgetall(usageKeys.usage('session', 's2'))).toMatchObject({
      input: String(20 + streamed.usage.inputTokens),
      output: String(13 + streamed.usage.outputTokens),
    });
  });

  it('counts errors by code and still attributes the tokens an invalid reply used', async () => {
    const model = meterModel(createOfflineModel(tasks), { metrics, store });
    await expect(
      model.generateObject({ task: 'test.invalid', input: {}, prompt, schema: Out, attribution: { roomId: 'r9' } }),
    ).rejects.toBeInstanceOf(ModelError);
    await expect(model.generateObject({ task: 'missing', input: {}, prompt, schema: Out })).rejects.toMatchObject({
      code: 'UNKNOWN_TASK',
    });
    const stream = model.streamText({ task: 'missing', input: {}, prompt });
    await expect(stream.result).rejects.toMatchObject({ code: 'UNKNOWN_TASK' });
    expect(await value('lectern_model_errors_total', { role: 'generation', code: 'MODEL_OUTPUT_INVALID' })).toBe(1);
    expect(await value('lectern_model_errors_total', { role: 'generation', code: 'UNKNOWN_TASK' })).toBe(2);
    expect((await store.hgetall(usageKeys.usage('room', 'r9')))['input']).toBe('20');
  });

  it('counts embed calls under the embedding role', async () => {
    const model = meterModel(createOfflineModel(tasks), { metrics });
    await model.embed(['가나다']);
    expect(await value('lectern_model_calls_total', { role: 'embedding', method: 'embed' })).toBe(1);
    expect(await value('lectern_model_latency_seconds_count', { role: 'embedding', method: 'embed' })).toBe(1);
  });

  it('logs a failure to record usage and never fails the call', async () => {
    const warnings: unknown[] = [];
    const failingStore = new Proxy(store, {
      get: (target, property, receiver) =>
        property === 'hincrby' ? () => Promise.reject(new Error('store down')) : Reflect.get(target, property, receiver),
    }) as Store;
    const logger = { warn: (...args: unknown[]) => warnings.push(args) } as unknown as Parameters<typeof meterModel>[1]['logger'];
    const model = meterModel(createOfflineModel(tasks), { metrics, store: failingStore, logger });
    const result = await model.generateObject({ task: 'test.object', input: {}, prompt, schema: Out, attribution: { sessionId: 's3' } });
    expect(result.object.value).toHaveLength(40);
    expect(warnings).toHaveLength(1);
  });
});

describe('AI1 createModel', () => {
  it('chooses the offline model without a key and the Gemini model with one, both metered', async () => {
    const offline: LanguageModel = createModel(loadConfig({}), { metrics, offlineTasks: tasks });
    expect(offline.kind).toBe('offline');
    await offline.generateObject({ task: 'test.object', input: {}, prompt, schema: Out });
    expect(await value('lectern_model_calls_total', { kind: 'offline' })).toBe(1);

    const gemini = createModel(loadConfig({ GEMINI_API_KEY: 'k', GEMINI_MODEL: 'gemini-test' }), { metrics, offlineTasks: tasks });
    expect(gemini.kind).toBe('gemini');
    expect(gemini.modelName('generation')).toBe('gemini-test');
    expect(gemini.modelName('embedding')).toBe('gemini-embedding-001');
  });

  it('OA6 meters an OpenAI-compatible server like any model: the usage it reports, streamed or not, attributed', async () => {
    const fake = await FakeOpenAI.start();
    try {
      fake.enqueue({ json: { value: '평균' }, usage: { input: 30, output: 4 } }, { stream: ['하나 ', '둘'], usage: { input: 12, output: 2 } });
      const model = createModel(
        loadConfig({ OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'qwen3:8b', OPENAI_EMBEDDING_MODEL: 'nomic-embed-text' }),
        { metrics, store, offlineTasks: tasks },
      );
      await model.generateObject({ task: 'test.object', input: {}, prompt, schema: Out, role: 'judge', attribution: { sessionId: 's9' } });
      const stream = model.streamText({ task: 'test.text', input: {}, prompt, attribution: { sessionId: 's9' } });
      for await (const _delta of stream) void _delta;
      await stream.result;
      expect(await value('lectern_model_calls_total', { kind: 'openai' })).toBe(2);
      expect(await value('lectern_model_tokens_total', { direction: 'input' })).toBe(42);
      expect(await store.hgetall(usageKeys.usage('session', 's9'))).toEqual({
        input: '42',
        output: '6',
        'judge:input': '30',
        'judge:output': '4',
        'generation:input': '12',
        'generation:output': '2',
      });
    } finally {
      await fake.close();
    }
  });

  it('OA6 chooses the OpenAI-compatible model with OPENAI_BASE_URL, metered under its kind', () => {
    const openai = createModel(
      loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_MODEL: 'qwen3:8b', OPENAI_EMBEDDING_MODEL: 'nomic-embed-text' }),
      { metrics, offlineTasks: tasks },
    );
    expect(openai.kind).toBe('openai');
    expect([openai.modelName('generation'), openai.modelName('judge'), openai.modelName('embedding')]).toEqual(['qwen3:8b', 'qwen3:8b', 'nomic-embed-text']);
  });
});
