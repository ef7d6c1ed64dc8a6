/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - H12 — Passages, chapter first. The assistant finds its passages through the `Retriever`
 *   (`src/lecture/hand/assistant-passages.ts`) …
 * - H14 — Lazy index, fallback. A hand raised on a material without a retrieval index (ingested before indexes
 *   existed) is answered: the first retrieval builds and stores the index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { TutorServerEvents } from '../src/protocol/wire/index.js';
import { fixturePdf, TRADE_HANDBOOK } from '../scripts/retrieval-fixtures.js';
import { askHand, dialogueOf, findEvent, lowerHand, raiseHand } from './support/hand-client.js';
import { joinLecture, type LectureClient } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * H12–H14 (test/SPEC.md) through the real app on both stores: the raise-hand assistant finds its passages with the
 * Retriever, the current chapter first, and reaches into another chapter when the answer is there; its replies name
 * their sources; a material without a retrieval index is indexed by the first question. The material is the Korean
 * trade handbook (an outline with one chapter per entry): the hand goes up in chapter 1 (trade terms) and the
 * question is about the export declaration certificate, which only the second chapter (the export procedure) explains.
 */

const redis = suiteRedis();
const QUESTION = '수출신고필증은 언제 받나요?';
/** A sentence only the second chapter has, and that answers when (the offline assistant quotes the material). */
const ANSWER_SENTENCE = '수출신고는 물품을 선적하기 전에 마쳐야 합니다.';

let pdf: Uint8Array;
beforeAll(async () => {
  pdf = await fixturePdf(TRADE_HANDBOOK);
});

/** Raises the hand a little into chapter 1's lecture, asks QUESTION; resolves with the first reply that ended. */
async function askInChapterOne(client: LectureClient): Promise<{ reply: TutorServerEvents['tutor:reply-end']; text: string; from: number }> {
  await client.ok('lecture:speed', { tokensPerSecond: 30 });
  await client.ok('lecture:start');
  await client.waitForText(0, 20);
  const { sent } = await raiseHand(client);
  await client.ok('lecture:speed', { tokensPerSecond: 200 });
  await client.waitForEvent('assistant:prompt', { from: sent });
  await askHand(client, QUESTION);
  const ended = await client.waitFor((event) => event.event === 'tutor:reply-end' && event.payload.abandoned !== true, { from: sent });
  if (ended.event !== 'tutor:reply-end') throw new Error('not a reply end');
  const view = dialogueOf(client.events, sent);
  const reply = view.replies.find((candidate) => candidate.replyId === ended.payload.replyId);
  return { reply: ended.payload, text: reply?.text ?? '', from: sent };
}

/** Lowers the hand if the dialogue is still open (a vague reading explains part by part) and waits for it to close. */
async function finish(client: LectureClient, from: number): Promise<void> {
  if (findEvent(client.events, 'hand:closed', from) === -1) await lowerHand(client).catch(() => undefined);
  await client.waitForEvent('hand:closed', { from });
}

describe.each(['memory', 'redis'] as const)('the raise-hand assistant over the Retriever (%s store)', (kind) => {
  let app: TestApp;
  let material: Material;

  beforeAll(async () => {
    app = await startTestApp(kind === 'redis' ? { REDIS_URL: redis.url, TOKEN_SECRET: 'hand-retrieval-secret' } : {});
    ({ material } = await app.materials.ingest({ bytes: pdf, filename: 'trade.pdf' }));
    // The chapter plan joins the short chapters 2 and 3 into the material's second chapter.
    expect(material.chapters.map((chapter) => chapter.title).slice(0, 2)).toEqual(['1. 무역 거래 조건의 기초', '2. 수출 절차 · 3. 무역 서류']);
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('H12 H13: a question raised in chapter 1 is answered from chapter 2, and the reply names chapter 2 and its pages', async () => {
    const { client } = await joinLecture(app, material.id);
    const { reply, text, from } = await askInChapterOne(client);
    expect(text).toContain(ANSWER_SENTENCE);
    const chapter = material.chapters[1];
    expect(reply.sources).toContainEqual({ chapter: 1, chapterTitle: chapter?.title, startPage: chapter?.startPage, endPage: expect.any(Number) as number });
    for (const source of reply.sources ?? []) {
      const range = material.chapters[source.chapter];
      expect(source.chapterTitle).toBe(range?.title);
      expect(source.startPage).toBeGreaterThanOrEqual(range?.startPage ?? Infinity);
      expect(source.endPage).toBeLessThanOrEqual(range?.endPage ?? -Infinity);
      expect(source.startPage).toBeLessThanOrEqual(source.endPage);
    }
    await finish(client, from);
    // A snapshot keeps the sources with the reply (a reload shows them again).
    const snapshot = client.waitForEvent('session:state', { from: client.events.length });
    await client.ok('session:resume', { lastSeq: 0 });
    const { state } = await snapshot;
    const item = state.transcript.find((entry) => entry.type === 'reply' && entry.replyId === reply.replyId);
    expect(item).toMatchObject({ type: 'reply', sources: reply.sources });
  });

  it('H14: a material without a retrieval index (ingested before indexes existed) is indexed by the first question', async () => {
    await app.retrieval.deleteIndex(material.id);
    expect(await app.retrieval.status(material.id)).toBeNull();
    const { client } = await joinLecture(app, material.id);
    const { reply, text, from } = await askInChapterOne(client);
    expect(text).toContain(ANSWER_SENTENCE);
    expect(reply.sources?.some((source) => source.chapter === 1)).toBe(true);
    expect(await app.retrieval.status(material.id)).toMatchObject({ chunks: expect.any(Number) as number });
    await finish(client, from);
  });
});
