/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - H7 — Reconnect. A student who reconnects mid-dialogue (new socket, same token) and sends `session:resume
 *   {lastSeq}` gets exactly the missed dialogue events (L7) …
 * - H8 — Restart. When the server dies mid-dialogue, a new server on the same Redis (same `TOKEN_SECRET`) resumes it:
 *   the same token and `session:resume` …
 * - H9 — Monitor. An instructor on `/monitor` of the student's class sees `hand:raised {sessionId, raisedAt}` when
 *   the hand goes up …
 * - H13 — Sources. `tutor:reply-end` of an `answer` or `explain` reply carries `sources: [{chapter, chapterTitle,
 *   startPage, endPage}]` (one per chapter, pages from the first to the last passage used) …
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { SessionSnapshot, TranscriptItem } from '../src/protocol/wire/tutor.js';
import {
  answerChecks,
  askHand,
  dialogueOf,
  findEvent,
  lectureBefore,
  lectureDeltasBetween,
  nextTurn,
  raiseHand,
  replyHand,
  SessionTap,
  SPECIFIC_QUESTION,
  VAGUE_QUESTION,
} from './support/hand-client.js';
import { connectInstructor, createClass, joinClass } from './support/classroom-client.js';
import { connectedOrThrow, joinLecture, loadSample, samplePdfBytes, type LectureClient } from './support/lecture-client.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The raise-hand dialogue across reconnects and server restarts (rules H7 and H8 of test/SPEC.md, with L7–L9): the
 * student comes back with the same token on a new socket, mid-dialogue, and the dialogue goes on to its end.
 */

let redis: RedisServer;
// The reconnect tests share one server (each has its own session); the restart tests boot their own on Redis.
let shared: { app: TestApp; material: Material };
/** Tells the tests what the shared server emitted, per session. */
const tap = new SessionTap();
beforeAll(async () => {
  await samplePdfBytes();
  redis = await startRedisServer();
  const app = await startTestApp({}, { observer: tap.observer });
  shared = { app, material: await loadSample(app) };
});
afterAll(async () => {
  await shared?.app.stop();
  await redis?.stop();
});

async function boot(context: TestContext, env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp(env);
  context.onTestFinished(() => app.stop());
  return app;
}

async function reconnect(client: LectureClient, app: TestApp, token: string): Promise<void> {
  const socket = app.socket('/tutor', { token });
  client.use(socket);
  await connectedOrThrow(socket);
}

function disconnected(client: LectureClient): Promise<void> {
  const socket = client.socket;
  if (socket.disconnected) return Promise.resolve();
  return new Promise((resolve) => socket.once('disconnect', () => resolve()));
}

/**
 * Starts the lecture and raises the hand while it streams; resolves with the index of the first dialogue event and
 * the display offset where the lecture stopped (the place of every dialogue item in the transcript).
 */
/**
 * `from`: where the raise was sent; `acked`: where its ack came (lecture text the server sent before it read the raise
 * can arrive between the two, more so on a busy machine); `at`: the text's length at the ack.
 */
async function raiseWhileStreaming(client: LectureClient): Promise<{ from: number; acked: number; at: number }> {
  await client.ok('lecture:speed', { tokensPerSecond: 30 });
  await client.ok('lecture:start');
  await client.waitForText(0, 40);
  const { sent, acked } = await raiseHand(client);
  const at = client.text.get(0)?.length ?? 0;
  await client.ok('lecture:speed', { tokensPerSecond: 200 });
  await client.waitForEvent('assistant:prompt', { from: sent });
  return { from: sent, acked, at };
}

/** H4 once the dialogue closed: the lecture reaches the first question with exactly the generated text. */
async function expectLectureResumes(app: TestApp, material: Material, client: LectureClient): Promise<void> {
  await client.waitForEvent('lecture:question', { from: findEvent(client.events, 'hand:closed') });
  expect(client.text.get(0)).toBe(await lectureBefore(app, material.id, 0, 1));
  expect(client.seqErrors).toEqual([]);
}

/** A snapshot's dialogue items (the raise-hand part of the transcript). */
const dialogueItems = (snapshot: SessionSnapshot | undefined): TranscriptItem[] =>
  (snapshot?.transcript ?? []).filter((item) => ['assistant', 'student', 'reply', 'hand-closed'].includes(item.type));

/** Reconnects with lastSeq 0 and returns the snapshot (the client's text is replaced by the snapshot's). */
async function snapshotAfterReconnect(client: LectureClient, app: TestApp, token: string): Promise<SessionSnapshot> {
  client.socket.disconnect();
  await reconnect(client, app, token);
  const resumed = await client.ok('session:resume', { lastSeq: 0 });
  expect(resumed.snapshot).toBe(true);
  expect(client.lastSeq).toBe(resumed.seq);
  const snapshot = client.snapshots.at(-1);
  if (!snapshot) throw new Error('no snapshot');
  return snapshot;
}

/** What the transcript must hold for a finished dialogue the client recorded from `from`, all at `at`. */
function expectedItems(client: LectureClient, from: number, at: number): TranscriptItem[] {
  const place = { chapter: 0, at };
  const view = dialogueOf(client.events, from);
  const replies = new Map(view.replies.map((reply) => [reply.replyId, reply]));
  return client.events.slice(from).flatMap((event): TranscriptItem[] => {
    switch (event.event) {
      case 'assistant:prompt':
      case 'assistant:check':
        return [{ type: 'assistant', ...place, text: event.payload.text }];
      case 'hand:asked':
        return [{ type: 'student', ...place, text: event.payload.text }];
      case 'client:hand':
        return event.payload.command === 'reply' ? [{ type: 'student', ...place, text: event.payload.text ?? '' }] : [];
      case 'tutor:reply-end': {
        const reply = replies.get(event.payload.replyId);
        if (!reply || event.payload.abandoned) return [];
        // H13: a snapshot's reply keeps the sources its reply-end carried.
        const sources = event.payload.sources ? { sources: event.payload.sources } : {};
        return [{ type: 'reply', ...place, replyId: reply.replyId, kind: reply.kind as 'explain', text: reply.text, complete: true, ...sources }];
      }
      case 'hand:closed':
        return [{ type: 'hand-closed', ...place, kind: event.payload.kind }];
      default:
        return [];
    }
  });
}

describe.concurrent('reconnecting during the dialogue', () => {
  it('H7: events missed mid-explanation are replayed on session:resume {lastSeq}; the dialogue completes', async () => {
    const { app, material } = shared;
    const { client, token, sessionId } = await joinLecture(app, material.id);
    const { from, at } = await raiseWhileStreaming(client);
    await askHand(client, VAGUE_QUESTION);
    // The network loses the end of the first explanation and its check; then the socket drops.
    await client.waitForEvent('tutor:reply-delta', { from });
    client.deafen();
    await tap.reach(sessionId, 'assistant:check', 1);
    client.socket.disconnect();
    await reconnect(client, app, token);
    const resumed = await client.ok('session:resume', { lastSeq: client.lastSeq });
    expect(resumed.snapshot).toBe(false);
    expect(resumed.replayed).toBeGreaterThanOrEqual(2);
    expect(client.events.at(-1)?.event).toBe('assistant:check');

    expect(await answerChecks(client, from, () => '네')).toMatchObject({ kind: 'vague' });
    await expectLectureResumes(app, material, client);
    const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt', from));
    expect(view.replies.map((reply) => reply.kind)).toEqual([...view.checks.slice(1).map(() => 'explain'), 'explain', 'summary']);
    expect(view.replies.every((reply) => reply.ended && !reply.abandoned)).toBe(true);
    expect(view.replies[0]?.text).toMatch(/^\*\*1\/\d\. .+\*\*\n\n[\s\S]+바탕이 됩니다\.\n$/u);

    // The record agrees with what the student saw: every item once, whole, at the place of the hand.
    const snapshot = await snapshotAfterReconnect(client, app, token);
    expect(dialogueItems(snapshot)).toEqual(expectedItems(client, from, at));
  });

  it('H7: a socket dropped while an explanation streams resumes it without repeating or cutting it', async () => {
    const { app, material } = shared;
    const { client, token } = await joinLecture(app, material.id);
    const { from, at } = await raiseWhileStreaming(client);
    await client.ok('lecture:speed', { tokensPerSecond: 10 });
    await askHand(client, VAGUE_QUESTION);
    await client.waitForEvent('tutor:reply-delta', { from });
    client.socket.disconnect();
    await reconnect(client, app, token);
    await client.ok('session:resume', { lastSeq: client.lastSeq });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });

    expect(await answerChecks(client, from, () => '네')).toMatchObject({ kind: 'vague' });
    await expectLectureResumes(app, material, client);
    const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt', from));
    expect(view.shape.filter((item) => item === 'explain' || item.startsWith('explain('))).toHaveLength(view.checks.length);
    expect(view.replies[0]?.text).toMatch(/^\*\*1\/\d\. .+\*\*\n\n[\s\S]+바탕이 됩니다\.\n$/u);
    const snapshot = await snapshotAfterReconnect(client, app, token);
    expect(dialogueItems(snapshot)).toEqual(expectedItems(client, from, at));
  });

  it('H7 H9: session:resume {lastSeq: 0} snapshots the dialogue (waiting for the question, then for a check) and it continues', async () => {
    const { app, material } = shared;
    // A class member, so the instructor's view of the reconnects is checked too.
    const created = await createClass(app, { name: '재접속', materialId: material.id });
    const { monitor } = await connectInstructor(app, created.instructorToken);
    const { client, token, sessionId } = await joinClass(app, created.code, '하린');
    const { from, at } = await raiseWhileStreaming(client);
    const delivered = client.text.get(0);

    // Waiting for the question.
    let snapshot = await snapshotAfterReconnect(client, app, token);
    expect(snapshot.phase).toEqual({ kind: 'hand-raised', chapter: 0, waiting: 'ask' });
    expect(snapshot.chapters).toEqual([{ index: 0, title: '평균의 의미', text: delivered, complete: false }]);
    expect(dialogueItems(snapshot)).toEqual([{ type: 'assistant', chapter: 0, at, text: '무엇이 궁금한가요? 궁금한 내용을 적어 주세요.' }]);

    // Waiting for the reply to the second check.
    await askHand(client, VAGUE_QUESTION);
    const first = await nextTurn(client, from);
    await replyHand(client, '아니요');
    const again = await nextTurn(client, first.index + 1);
    await replyHand(client, '네');
    const second = await nextTurn(client, again.index + 1);
    const recorded = client.events.length;
    snapshot = await snapshotAfterReconnect(client, app, token);
    if (!second.check) throw new Error('no second check');
    const { seq: _seq, ...check } = second.check;
    expect(snapshot.phase).toEqual({ kind: 'hand-raised', chapter: 0, waiting: 'reply', check });
    expect(check).toMatchObject({ index: 1 });
    expect(snapshot.chapters[0]?.text).toBe(delivered);
    expect(dialogueItems(snapshot)).toEqual(expectedItems(client, from, at));
    expect(dialogueItems(snapshot).map((item) => item.type)).toEqual([
      'assistant',
      'student',
      'reply',
      'assistant',
      'student',
      'reply',
      'assistant',
      'student',
      'reply',
      'assistant',
    ]);
    expect(client.events.length).toBe(recorded + 1);
    // Dropping the socket does not lower the hand on the roster.
    expect((await app.classes.info(created.classId)).students[0]?.hand).toMatchObject({ question: VAGUE_QUESTION });

    // The dialogue goes on from the snapshot: the student answers the check its phase shows.
    await replyHand(client, '네');
    expect(await answerChecks(client, recorded, () => '네')).toMatchObject({ kind: 'vague' });
    await expectLectureResumes(app, material, client);
    snapshot = await snapshotAfterReconnect(client, app, token);
    expect(snapshot.phase).toMatchObject({ kind: 'awaiting-answer', chapter: 0 });
    expect(dialogueItems(snapshot).at(-1)).toEqual({ type: 'hand-closed', chapter: 0, at, kind: 'vague' });
    expect(dialogueItems(snapshot).filter((item) => item.type === 'reply').map((item) => item.type === 'reply' && item.kind)).toEqual([
      ...Array.from({ length: check.total + 1 }, () => 'explain'),
      'summary',
    ]);
    // Replays and snapshots go to the student only: the instructor saw one hand, raised, asked and resolved once.
    expect(monitor.all('hand:raised').map((hand) => hand.question ?? null)).toEqual([null, VAGUE_QUESTION]);
    expect(await monitor.waitFor('hand:resolved')).toEqual({ sessionId, kind: 'vague' });
    expect(monitor.all('hand:resolved')).toHaveLength(1);
  });
});

describe.concurrent('a server restart on Redis during the dialogue', () => {
  async function crash(app: TestApp, client: LectureClient): Promise<void> {
    // As in L9: the Redis connection goes first (no more writes, the driver lease is never released), then the sockets.
    // A dead process says nothing more: the student stops hearing A first (A's own word that its store went away,
    // sent when it next writes, is an artefact of this staged death); what A sent and the client missed, B replays.
    client.deafen();
    const gone = disconnected(client);
    await app.store.close();
    void app.server.close();
    await gone;
  }

  it('H8 H9: server A dies while a check waits; server B resumes the dialogue to its end, and the instructor sees it on B', async (context) => {
    const env = { REDIS_URL: redis.url, TOKEN_SECRET: 'hand-restart-test-secret' };
    const a = await boot(context, env);
    const material = await loadSample(a);
    const created = await createClass(a, { name: '재시작', materialId: material.id });
    const { client, token, sessionId } = await joinClass(a, created.code, '도하');
    const { from, acked, at } = await raiseWhileStreaming(client);
    await askHand(client, VAGUE_QUESTION);
    const first = await nextTurn(client, from);
    await replyHand(client, '네');
    const second = await nextTurn(client, first.index + 1);
    await crash(a, client);

    const b = await boot(context, env);
    await reconnect(client, b, token);
    const resumed = await client.ok('session:resume', { lastSeq: client.lastSeq });
    expect(resumed).toMatchObject({ replayed: 0, snapshot: false, seq: client.lastSeq });
    // The hand A saw is on the roster B serves (the roster lives in Redis), question and all.
    const { monitor, roster } = await connectInstructor(b, created.instructorToken);
    expect(roster.students).toEqual([expect.objectContaining({ sessionId, hand: expect.objectContaining({ question: VAGUE_QUESTION }) })]);
    const after = client.events.length;
    await replyHand(client, '아니요');
    // The same check again, after a re-explanation of the same part: B continued A's dialogue.
    const retry = await nextTurn(client, after);
    expect(retry.check).toMatchObject({ index: second.check?.index, concept: second.check?.concept });
    expect(await answerChecks(client, retry.index, () => '네')).toMatchObject({ kind: 'vague' });
    await expectLectureResumes(b, material, client);
    expect(lectureDeltasBetween(client.events, acked, findEvent(client.events, 'hand:closed', acked))).toEqual([]);
    expect(await monitor.waitFor('hand:resolved')).toEqual({ sessionId, kind: 'vague' });
    expect(monitor.all('hand:raised')).toEqual([]);
    expect((await b.classes.info(created.classId)).students[0]?.hand).toBeNull();

    const snapshot = await snapshotAfterReconnect(client, b, token);
    expect(dialogueItems(snapshot)).toEqual(expectedItems(client, from, at));
  });

  it('H8: server A dies while the answer streams; B closes that reply as abandoned and writes it again', async (context) => {
    const env = { REDIS_URL: redis.url, TOKEN_SECRET: 'hand-restart-test-secret' };
    const a = await boot(context, env);
    const material = await loadSample(a);
    const { client, token } = await joinLecture(a, material.id);
    const { from, at } = await raiseWhileStreaming(client);
    await client.ok('lecture:speed', { tokensPerSecond: 5 });
    await askHand(client, SPECIFIC_QUESTION);
    await client.waitForEvent('tutor:reply-delta', { from });
    await crash(a, client);

    const b = await boot(context, env);
    await reconnect(client, b, token);
    await client.ok('session:resume', { lastSeq: client.lastSeq });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    expect(await client.waitForEvent('hand:closed', { from })).toMatchObject({ kind: 'specific' });
    await expectLectureResumes(b, material, client);

    const view = dialogueOf(client.events, findEvent(client.events, 'assistant:prompt', from));
    expect(view.shape.slice(0, 6)).toEqual(['prompt', 'ask', 'asked', 'answer(abandoned)', 'answer', 'closed:specific']);
    const [cut, whole] = view.replies;
    expect(whole?.text.startsWith(cut?.text ?? '?')).toBe(true);
    expect(whole?.text).toContain('기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.');
    const snapshot = await snapshotAfterReconnect(client, b, token);
    expect(dialogueItems(snapshot)).toEqual(expectedItems(client, from, at));
  });
});
