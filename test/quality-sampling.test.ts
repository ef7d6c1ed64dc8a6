/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QC7 — Which calls are sampled. Drawn per call from the injected random source at the agent's rate (per-agent
 *   rates replace the global one); never the critic's own calls nor embeddings …
 * - QC8 — Sampling never fails the call. A store refusing every write, or a full queue, leaves the sampled call's
 *   answer intact and throws nothing later.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../src/kernel/config.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { createTextStream, type LanguageModel } from '../src/llm/index.js';
import { QualityRepository, QualitySampler, sampleModel } from '../src/quality/index.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/store.js';

/** QC7–QC8 (test/SPEC.md): the sampling decorator, on a model with scripted answers and a memory store; its configuration. */

const DAY_MS = 24 * 60 * 60_000;

/** A model that answers every object with `{answer: 'ok'}` and streams two deltas. */
function scriptedModel(): LanguageModel {
  const offline = createOfflineModel({});
  return {
    ...offline,
    kind: offline.kind,
    capabilities: offline.capabilities,
    modelName: (role) => offline.modelName(role),
    generateObject: async <T>() => ({ object: { answer: 'ok' } as T, usage: { inputTokens: 3, outputTokens: 2 }, finishReason: 'stop' as const }),
    streamText: () =>
      createTextStream(async (push) => {
        push('평균은 ');
        push('합을 개수로 나눈 값입니다.');
        return { usage: { inputTokens: 3, outputTokens: 5 }, finishReason: 'stop' };
      }),
    embed: async (texts) => texts.map(() => [1, 0]),
  };
}

function sampled(store: Store, random: () => number, rate = 0.5, rates: Record<string, number> = {}) {
  const repository = new QualityRepository({ store, retentionMs: DAY_MS, queueMax: 100 });
  const sampler = new QualitySampler({ repository, rate, rates, random });
  return { repository, sampler, model: sampleModel(scriptedModel(), sampler) };
}

const request = { task: 'tutor.supplement', input: { question: '평균이란?', pdf: new Uint8Array(8) }, prompt: '설명하세요.', system: '당신은 튜터입니다.' };

describe('QC7 which calls are sampled', () => {
  it('QC7 the rate is drawn per call from the injected random source; per-agent rates replace it; the critic is never sampled', async () => {
    const draws = [0.4, 0.6];
    const { repository, sampler, model } = sampled(new MemoryStore(), () => draws.shift() ?? 0.99, 0.5, { 'quiz.eval': 0 });
    await model.generateObject({ ...request, schema: z.object({ answer: z.string() }) }); // 0.4 < 0.5: sampled
    await model.generateObject({ ...request, schema: z.object({ answer: z.string() }) }); // 0.6: not
    await model.generateObject({ ...request, task: 'quiz.eval', schema: z.object({ answer: z.string() }) });
    await model.generateObject({ ...request, task: 'critic.grade', schema: z.object({ answer: z.string() }) });
    await model.embed(['텍스트']);
    await sampler.settled();
    expect(await repository.queued()).toBe(1);
    const queued = await repository.takeNext();
    expect(queued).toMatchObject({ agent: 'tutor.supplement', output: '{"answer":"ok"}', instruction: '당신은 튜터입니다.\n\n설명하세요.' });
    expect(JSON.parse(queued?.input ?? '')).toEqual({ question: '평균이란?', pdf: '(binary)' });
  });

  it('QC7 a stream is sampled with its whole text once its consumer read it to the end; one left early is not', async () => {
    const { repository, sampler, model } = sampled(new MemoryStore(), () => 0, 1);
    let text = '';
    for await (const delta of model.streamText({ ...request, task: 'assistant.answer' })) text += delta;
    expect(text).toBe('평균은 합을 개수로 나눈 값입니다.');
    for await (const _delta of model.streamText({ ...request, task: 'assistant.answer' })) break;
    await sampler.settled();
    expect(await repository.queued()).toBe(1);
    expect((await repository.takeNext())?.output).toBe('평균은 합을 개수로 나눈 값입니다.');
  });

  it('QC7 at rate 0 the model is returned unwrapped', () => {
    const inner = scriptedModel();
    const repository = new QualityRepository({ store: new MemoryStore(), retentionMs: DAY_MS, queueMax: 100 });
    expect(sampleModel(inner, new QualitySampler({ repository, rate: 0 }))).toBe(inner);
  });
});

describe('QC8 sampling never fails the sampled call', () => {
  it('QC8 a store that refuses every write: the call still answers, and nothing is thrown later', async () => {
    const broken = new MemoryStore();
    const refuse = async () => {
      throw new Error('store down');
    };
    Object.assign(broken, { zcard: refuse, set: refuse, zadd: refuse });
    const { sampler, model } = sampled(broken, () => 0, 1);
    const result = await model.generateObject({ ...request, schema: z.object({ answer: z.string() }) });
    expect(result.object).toEqual({ answer: 'ok' });
    await expect(sampler.settled()).resolves.toBeUndefined();
  });

  it('QC8 a full queue drops the sample and keeps the call', async () => {
    const store = new MemoryStore();
    const repository = new QualityRepository({ store, retentionMs: DAY_MS, queueMax: 1 });
    const sampler = new QualitySampler({ repository, rate: 1 });
    const model = sampleModel(scriptedModel(), sampler);
    for (let index = 0; index < 3; index += 1) await model.generateObject({ ...request, schema: z.object({ answer: z.string() }) });
    await sampler.settled();
    expect(await repository.queued()).toBe(1);
  });
});

describe('QC7 the sampling configuration', () => {
  it('QC7 QUALITY_SAMPLE_RATE defaults to 0.05, QUALITY_SAMPLE_RATES are agent=rate pairs, and a bad value names its variable', () => {
    expect(loadConfig({}).quality).toEqual({ sampleRate: 0.05, sampleRates: {}, dailyTokens: 200_000, retentionDays: 90, queueMax: 1_000 });
    expect(loadConfig({ QUALITY_SAMPLE_RATE: '0', QUALITY_SAMPLE_RATES: 'lecture.write=0.2, tutor.judge=1' }).quality).toMatchObject({
      sampleRate: 0,
      sampleRates: { 'lecture.write': 0.2, 'tutor.judge': 1 },
    });
    for (const [variable, value] of [
      ['QUALITY_SAMPLE_RATE', '1.5'],
      ['QUALITY_SAMPLE_RATES', 'lecture.write=2'],
      ['QUALITY_SAMPLE_RATES', 'lecture.write'],
      ['QUALITY_DAILY_TOKENS', '-1'],
    ] as const) {
      let caught: unknown;
      try {
        loadConfig({ [variable]: value });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).message).toContain(variable);
    }
  });
});
