/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - SC3 — Which part. A raised hand whose question names nothing ("잘 모르겠어요", "모르겠어요", "이해가 안 돼요", "?") gets
 *   `assistant:prompt {text, choices}` asking which part …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../src/materials/index.js';
import { answerChecks, askHand, dialogueOf, findEvent, raiseHand } from './support/hand-client.js';
import { joinLecture, loadSample, samplePdfBytes } from './support/lecture-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A raised hand whose question names nothing (rule SC3 of test/SPEC.md), end to end on the offline model: a real
 * server on port 0, the sample material, a student on `/tutor`. The hand goes up in the first chapter (평균의 의미).
 */

/**
 * What the first chapter defines or emphasises, in its order (src/materials/sample-pdf.ts, pages 2–4); `평균(산술평균)`
 * is one concept under two names, offered once.
 */
const FIRST_CHAPTER_CONCEPTS = ['평균', '이상값', '표본평균', '모평균', '모집단'];

let app: TestApp;
let material: Material;
beforeAll(async () => {
  await samplePdfBytes();
  app = await startTestApp();
  material = await loadSample(app);
});
afterAll(async () => {
  await app?.stop();
});

describe.concurrent('SC3: a vague raised hand with no topic is asked which part', () => {
  it.each(['잘 모르겠어요', '모르겠어요', '이해가 안 돼요', '?'])('"%s" gets a which-part prompt listing the chapter\'s concepts; a pick is explained', async (vague) => {
    const { client } = await joinLecture(app, material.id);
    try {
      await client.ok('lecture:speed', { tokensPerSecond: 30 });
      await client.ok('lecture:start');
      await client.waitForText(0, 40);
      const { sent } = await raiseHand(client);
      await client.ok('lecture:speed', { tokensPerSecond: 200 });
      const first = await client.waitForEvent('assistant:prompt', { from: sent });
      expect(first.choices).toBeUndefined();

      await askHand(client, vague);
      const asked = findEvent(client.events, 'hand:asked', sent);
      const which = await client.waitForEvent('assistant:prompt', { from: asked });
      expect(which.text).toContain('어느 부분이 궁금한지');
      expect(which.choices).toEqual(FIRST_CHAPTER_CONCEPTS);
      // Nothing was explained about a made-up concept, and the dialogue waits for the question again.
      expect(dialogueOf(client.events, sent).replies).toEqual([]);
      // A snapshot (a reload) offers the same choices while the question is awaited.
      await client.waitFor((event) => event.event === 'assistant:prompt' && event.payload.seq === which.seq);
      const resumed = await client.ok('session:resume', { lastSeq: 0 });
      expect(resumed.snapshot).toBe(true);
      expect(client.snapshots.at(-1)?.phase).toEqual({ kind: 'hand-raised', chapter: 0, waiting: 'ask', choices: FIRST_CHAPTER_CONCEPTS });

      // The student clicks a choice: the page sends it as the next question.
      const picked = '표본평균';
      const before = client.events.length;
      await askHand(client, picked);
      expect(await client.waitForEvent('hand:asked', { from: before })).toMatchObject({ text: picked });
      expect((await answerChecks(client, before, () => '네')).kind).toBe('vague');
      const view = dialogueOf(client.events, before);
      expect(view.checks.at(-1)?.concept).toBe(picked);
      const explains = view.replies.filter((reply) => reply.kind === 'explain');
      expect(explains.at(-1)?.text).toContain(`**${picked}**`);
      expect(explains.map((reply) => reply.text).join('\n')).toContain('모집단에서 일부를 뽑은 표본의 평균을 표본평균 x̄라고 합니다.');
      expect(client.all('assistant:prompt').map((prompt) => prompt.text).join('\n')).not.toContain('질문한 개념');
      expect(view.replies.map((reply) => reply.text).join('\n')).not.toContain('질문한 개념');
    } finally {
      client.socket.disconnect();
    }
  });
});
