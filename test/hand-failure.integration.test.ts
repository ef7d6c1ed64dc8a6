/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - H11 — Failure. A dialogue step whose model call fails sends `session:error {code:"MODEL_UNAVAILABLE"}` and keeps
 *   the dialogue where it was; `lecture:resume` runs the step again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ModelError } from '../src/llm/model-error.js';
import { connected, once, startTestApp, type TestApp } from './support/test-app.js';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

describe('a raise-hand step whose model call fails', () => {
  it('H11: sends session:error MODEL_UNAVAILABLE, keeps the dialogue, and lecture:resume runs the step again', async () => {
    app = await startTestApp();
    const material = await app.materials.preloadSample();
    const response = await fetch(`${app.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ materialId: material.id, nickname: '민지' }),
    });
    const { token } = (await response.json()) as { token: string };

    const assistant = app.lectures.assistant;
    const classify = assistant.classify.bind(assistant);
    let failures = 1;
    assistant.classify = async (request) => {
      if (failures-- > 0) throw new ModelError('MODEL_UNAVAILABLE', 'fake outage', { retryable: true });
      return classify(request);
    };

    const socket = app.socket('/tutor', { token });
    await connected(socket);
    await socket.emitWithAck('session:resume', { lastSeq: 0 });
    await socket.emitWithAck('lecture:start', {});
    await once(socket, 'lecture:question');
    expect(await socket.emitWithAck('hand:raise', {})).toMatchObject({ ok: true });

    const error = once<{ code: string }>(socket, 'session:error');
    expect(await socket.emitWithAck('hand:ask', { text: '기댓값 공식에서 확률을 왜 곱하는지 모르겠어요' })).toMatchObject({ ok: true });
    expect((await error).code).toBe('MODEL_UNAVAILABLE');

    const closed = once<{ kind: string }>(socket, 'hand:closed');
    expect(await socket.emitWithAck('lecture:resume', {})).toMatchObject({ ok: true, state: 'hand-raised' });
    expect((await closed).kind).toBe('specific');
  });
});
