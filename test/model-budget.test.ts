/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QT9 — The metered model's gate. A `generateObject` or `streamText` billed to an account that spent its budget is
 *   refused before the inner model is called (the stream's `result` and its iteration both …
 * - QT10 — Billing by context. Calls inside `runBilledTo(a)` are billed to `a` unless they name their own account;
 *   the budget's day is the UTC day.
 * - QT11 — `authorizeModelCall`. An anonymous caller is 401; a caller with a joined class or room passes (billed to
 *   `billTo` when given); an account passes and pays …
 */
import type { Response } from 'express';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isAppError } from '../src/kernel/errors.js';
import { authorizeModelCall } from '../src/http/model-guard.js';
import { ModelBudget, accountUsageId, runBilledTo, utcDay } from '../src/llm/index.js';
import { meterModel } from '../src/llm/metered-model.js';
import type { LanguageModel } from '../src/llm/model.js';
import { createOfflineModel, type OfflineTasks } from '../src/llm/offline-model.js';
import { createMetrics } from '../src/kernel/metrics.js';
import { RETENTION } from '../src/store/retention.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { usageKeys } from '../src/llm/usage-keys.js';

/** QT9–QT11 (test/SPEC.md): the metered model's budget gate, billing by context, and the anonymous-caller guard. */

const Out = z.object({ value: z.string() });
const tasks: OfflineTasks = {
  'test.object': { object: () => ({ value: 'x'.repeat(40) }) },
  'test.text': { text: () => '하나 둘 셋 넷' },
};
const prompt = 'p'.repeat(80); // 20 approximate tokens

let store: MemoryStore;
let calls: string[];

/** The offline model, with every call that reaches it recorded (a refused call must not). */
function counted(): LanguageModel {
  const inner = createOfflineModel(tasks);
  return {
    ...inner,
    generateObject: (request) => {
      calls.push(`object ${request.attribution?.accountId ?? '-'}`);
      return inner.generateObject(request);
    },
    streamText: (request) => {
      calls.push(`text ${request.attribution?.accountId ?? '-'}`);
      return inner.streamText(request);
    },
  };
}

beforeEach(() => {
  store = new MemoryStore();
  calls = [];
});
afterEach(async () => {
  await store.close();
});

const object = (model: LanguageModel, accountId?: string) =>
  model.generateObject({ task: 'test.object', input: {}, prompt, schema: Out, ...(accountId ? { attribution: { accountId } } : {}) });

const code = (error: unknown) => (isAppError(error) ? error.code : String(error));

describe('model budget', () => {
  it('QT9: a call billed to an account that spent its budget is refused before it reaches the model; streams too', async () => {
    const budget = new ModelBudget({ store, dailyTokens: 30 });
    const model = meterModel(counted(), { metrics: createMetrics(), store, budget });
    await object(model, 'a1'); // 20 + 13 tokens: over 30 after, but allowed before
    const key = usageKeys.usage('account', accountUsageId('a1', Date.now()));
    expect(await store.hgetall(key)).toMatchObject({ input: '20', output: '13' });
    expect(await store.pttl(key)).toBeGreaterThan(RETENTION.accountUsageMs - 60_000);

    const refusal = await object(model, 'a1').then(() => 'ok', code);
    expect(refusal).toBe('MODEL_BUDGET_EXCEEDED');
    const stream = model.streamText({ task: 'test.text', input: {}, prompt, attribution: { accountId: 'a1' } });
    expect(await stream.result.then(() => 'ok', code)).toBe('MODEL_BUDGET_EXCEEDED');
    const iterated = async () => {
      for await (const delta of stream) void delta;
    };
    expect(await iterated().then(() => 'ok', code)).toBe('MODEL_BUDGET_EXCEEDED');
    expect(calls).toEqual(['object a1']);

    // Another account, and calls billed to nobody, are unaffected.
    await object(model, 'a2');
    await object(model);
    const open = model.streamText({ task: 'test.text', input: {}, prompt, attribution: { accountId: 'a3' } });
    let text = '';
    for await (const delta of open) text += delta;
    expect(text).toBe('하나 둘 셋 넷');
    expect(calls).toEqual(['object a1', 'object a2', 'object -', 'text a3']);
  });

  it('QT10: runBilledTo bills every call inside it unless a call names its own account; days are UTC', async () => {
    const budget = new ModelBudget({ store, dailyTokens: 1_000 });
    const model = meterModel(counted(), { metrics: createMetrics(), store, budget });
    await runBilledTo('a1', async () => {
      await object(model);
      await object(model, 'a2');
    });
    await runBilledTo(undefined, () => object(model));
    expect(calls).toEqual(['object a1', 'object a2', 'object -']);
    expect(await budget.spentToday('a1')).toBe(33);
    expect(utcDay(Date.UTC(2026, 10, 24, 23, 59))).toBe('2026-11-24');
    expect(utcDay(Date.UTC(2026, 10, 25, 0, 0))).toBe('2026-11-25');
  });

  it('QT11: authorizeModelCall: an account or a joined class/room may start model calls; an anonymous caller may not', () => {
    const response = (locals: Record<string, unknown>) => ({ locals }) as unknown as Response;
    expect(() => authorizeModelCall(response({}))).toThrow(expect.objectContaining({ code: 'UNAUTHORIZED' }));
    expect(authorizeModelCall(response({}), { joined: { classId: 'c1' } })).toEqual({ billTo: undefined });
    expect(authorizeModelCall(response({}), { joined: { roomId: 'r1' }, billTo: 'owner' })).toEqual({ billTo: 'owner' });
    const principal = { accountId: 'a1', email: 'a@school.example', role: 'instructor', via: 'api-token' };
    expect(authorizeModelCall(response({ principal }))).toEqual({ billTo: 'a1' });
    expect(() => authorizeModelCall(response({ csrfRefused: true }), { joined: { classId: 'c1' } })).toThrow(
      expect.objectContaining({ code: 'CSRF_INVALID' }),
    );
  });
});
