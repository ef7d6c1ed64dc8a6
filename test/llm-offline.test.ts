/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AI2 — Offline model. Kind `offline`, one fixed model name; `generateObject` dispatches on the task and validates
 *   the handler's output with the request's schema (`MODEL_OUTPUT_INVALID` with the raw …
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ModelError } from '../src/llm/model-error.js';
import type { TextStream } from '../src/llm/model.js';
import { createOfflineModel, embedOffline, splitIntoPieces, type OfflineTasks } from '../src/llm/offline-model.js';
import { cosineSimilarity } from '../src/text/index.js';

const Summary = z.object({ title: z.string(), points: z.array(z.string()).min(1) });

const tasks: OfflineTasks = {
  'test.summary': {
    object: (input) => {
      const { text } = input as { text: string };
      return { title: text.split(' ')[0], points: text.split('. ').filter(Boolean) };
    },
  },
  'test.async': { object: async () => ({ title: 'async', points: ['p'] }) },
  'test.broken': { object: () => ({ title: 3 }) },
  'test.lecture': { text: (input) => `오늘은 ${(input as { topic: string }).topic}을 배웁니다. [질문] 무엇일까요? [\\질문]` },
  'test.segments': { text: () => ['첫 부분, ', '둘째 부분'] },
};

const model = createOfflineModel(tasks);
const request = { prompt: '프롬프트 본문', input: { text: '미분은 변화율이다. 적분은 넓이다.' } };

async function collect(stream: TextStream): Promise<string[]> {
  const deltas: string[] = [];
  for await (const delta of stream) deltas.push(delta);
  return deltas;
}

async function modelError(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

describe('AI2 offline model', () => {
  it('is kind offline with one fixed model name', () => {
    expect(model.kind).toBe('offline');
    expect(model.modelName('generation')).toBe('offline-v1');
    expect(model.modelName('judge')).toBe('offline-v1');
  });

  it('dispatches generateObject on the task and validates with the schema', async () => {
    const result = await model.generateObject({ ...request, task: 'test.summary', schema: Summary });
    expect(result.object).toEqual({ title: '미분은', points: ['미분은 변화율이다', '적분은 넓이다.'] });
    expect(result.finishReason).toBe('stop');
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect((await model.generateObject({ ...request, task: 'test.async', schema: Summary })).object.title).toBe('async');
  });

  it('is deterministic', async () => {
    const first = await model.generateObject({ ...request, task: 'test.summary', schema: Summary });
    const second = await model.generateObject({ ...request, task: 'test.summary', schema: Summary });
    expect(second).toEqual(first);
    const lecture = { ...request, task: 'test.lecture', input: { topic: '극한' } };
    expect(await collect(model.streamText(lecture))).toEqual(await collect(model.streamText(lecture)));
    expect(embedOffline('같은 문장')).toEqual(embedOffline('같은 문장'));
  });

  it('rejects a handler output that does not match the schema, with the raw output', async () => {
    const error = await modelError(model.generateObject({ ...request, task: 'test.broken', schema: Summary }));
    expect(error.code).toBe('MODEL_OUTPUT_INVALID');
    expect(error.rawText).toBe('{"title":3}');
    expect(error.usage?.outputTokens).toBeGreaterThan(0);
  });

  it('answers an unknown task (or a missing handler kind) with UNKNOWN_TASK', async () => {
    expect((await modelError(model.generateObject({ ...request, task: 'nope', schema: Summary }))).code).toBe('UNKNOWN_TASK');
    expect((await modelError(model.generateObject({ ...request, task: 'test.lecture', schema: Summary }))).code).toBe('UNKNOWN_TASK');
    expect((await modelError(model.generateObject({ ...request, task: 'toString', schema: Summary }))).code).toBe('UNKNOWN_TASK');
    const stream = model.streamText({ ...request, task: 'test.summary' });
    await expect(collect(stream)).rejects.toMatchObject({ code: 'UNKNOWN_TASK' });
    await expect(stream.result).rejects.toMatchObject({ code: 'UNKNOWN_TASK' });
  });

  it('streams the text in word-sized pieces that join back exactly', async () => {
    const stream = model.streamText({ ...request, task: 'test.lecture', input: { topic: '극한' } });
    const deltas = await collect(stream);
    expect(deltas).toEqual(['오늘은 ', '극한을 ', '배웁니다. ', '[질문] ', '무엇일까요? ', '[\\질문]']);
    const result = await stream.result;
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBe(Math.ceil(deltas.join('').length / 4));
  });

  it('streams handler segments, splitting each into words', async () => {
    expect(await collect(model.streamText({ ...request, task: 'test.segments' }))).toEqual(['첫 ', '부분, ', '둘째 ', '부분']);
    expect(splitIntoPieces('  a  b\n')).toEqual(['  ', 'a  ', 'b\n']);
  });

  it('honours the abort signal', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(
      (await modelError(model.generateObject({ ...request, task: 'test.summary', schema: Summary, signal: controller.signal }))).code,
    ).toBe('MODEL_ABORTED');
    const live = new AbortController();
    const stream = model.streamText({ ...request, task: 'test.lecture', input: { topic: '극한' }, signal: live.signal });
    const deltas: string[] = [];
    await expect(
      (async () => {
        for await (const delta of stream) {
          deltas.push(delta);
          live.abort();
        }
      })(),
    ).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
    expect(deltas).toEqual(['오늘은 ']);
    await expect(model.embed(['x'], { signal: controller.signal })).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
  });

  it('embeds deterministically into L2-normalised vectors of a fixed dimension', async () => {
    const [a, empty] = await model.embed(['미분의 정의', '']);
    expect(a).toHaveLength(512);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 10);
    expect(empty!.every((value) => value === 0)).toBe(true);
    expect(Math.hypot(...embedOffline('가'))).toBeCloseTo(1, 10);
  });

  it('puts similar Korean texts closer than unrelated ones', async () => {
    const [query, similar, unrelated] = await model.embed([
      '함수의 극한과 연속성',
      '극한과 연속인 함수의 성질',
      '조선 시대의 과거 제도와 관리 등용',
    ]);
    const close = cosineSimilarity(query!, similar!);
    const far = cosineSimilarity(query!, unrelated!);
    expect(close).toBeGreaterThan(far + 0.2);
    expect(cosineSimilarity(query!, query!)).toBeCloseTo(1, 10);
  });
});
