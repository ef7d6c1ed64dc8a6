/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - L7 — Resume by replay. A client that reconnects (new socket, same token) and sends `session:resume {lastSeq}`
 *   receives exactly the events after `lastSeq` (also those the server sent but the client …
 * - L8 — Resume by snapshot. `session:resume {lastSeq: 0}` (or a `lastSeq` the log cannot serve) answers one
 *   `session:state` whose `chapters[].text` is exactly the text delivered so far …
 * - L9 — Restart. When the server process dies mid-lecture, a new server on the same Redis (same `TOKEN_SECRET`)
 *   accepts the same token and resumes the session by L7 (after the dead node's driver lease …
 * - L18 — Pause. `lecture:pause` stops the lecture text, or a tutor reply, at once (nothing more streams after its
 *   ack) and `lecture:resume` continues exactly where it stopped.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { AppOverrides } from '../src/app.js';
import { parseLecture } from '../src/lecture/marker-parser.js';
import {
  connectedOrThrow,
  EmittedEvents,
  episodes,
  generatedChapter,
  joinLecture,
  loadSample,
  offlineStudent,
  samplePdfBytes,
  type LectureClient,
} from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { scopedToTest, sharedFixture } from './fixtures/shared-app.js';

/**
 * Resume (rules L7–L9 in test/SPEC.md): a student who loses the socket mid-chapter, or whose server dies, comes
 * back with the same token on a new socket and ends up with exactly the lecture text: no gap, no duplicate.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

async function boot(context: TestContext, env: Record<string, string> = {}, overrides: AppOverrides = {}): Promise<TestApp> {
  const app = await startTestApp(env, overrides);
  context.onTestFinished(() => app.stop());
  return app;
}

/**
 * The tests on one server share one app (booted, given the sample and its generated lecture once): each has its own
 * session and sockets, so they still run side by side. A test sees the app through a view whose sockets close when
 * that test finishes (its session stops streaming instead of running on under the next tests).
 */
const emitted = new EmittedEvents();
const shared = sharedFixture(
  async () => {
    const app = await startTestApp({}, { observer: emitted.observer });
    return { app, material: await loadSample(app) };
  },
  ({ app }) => app.stop(),
);

function sharedApp(context: TestContext): { app: TestApp; material: Material } {
  const { app, material } = shared();
  return { app: scopedToTest(app, context), material };
}

/** Every question answered well: the shortest tutoring, so the tests spend their time on the lecture. */
const goodStudent = (app: TestApp, material: Material) => offlineStudent(app, material.id, () => true);

/** Connects the client to `app` on a new socket with the same token; waits for the handshake. */
async function reconnect(client: LectureClient, app: TestApp, token: string): Promise<void> {
  const socket = app.socket('/tutor', { token });
  client.use(socket);
  await connectedOrThrow(socket);
}

function expectRefusal(ack: unknown, code: string): void {
  expect(ack).toMatchObject({ ok: false, error: { code } });
}

function disconnected(client: LectureClient): Promise<void> {
  const socket = client.socket;
  if (socket.disconnected) return Promise.resolve();
  return new Promise((resolve) => socket.once('disconnect', () => resolve()));
}

async function expectChapterText(app: TestApp, material: Material, client: LectureClient, chapter: number): Promise<void> {
  expect(client.text.get(chapter)).toBe((await generatedChapter(app, material.id, chapter)).text);
}

describe.concurrent('reconnecting on the same server', () => {
  it('L7: a new socket mid-chapter with session:resume {lastSeq} gets exactly the missed events', async (context) => {
    const { app, material } = sharedApp(context);
    const { client, token } = await joinLecture(app, material.id);
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForText(0, 60);

    // The network loses the next few events, then the socket drops while the chapter is streaming.
    client.deafen();
    const before = client.text.get(0) ?? '';
    await emitted.reach(client.sessionId, client.lastSeq + 3);
    client.socket.disconnect();
    await reconnect(client, app, token);
    const resumed = await client.ok('session:resume', { lastSeq: client.lastSeq });
    expect(resumed.snapshot).toBe(false);
    expect(resumed.replayed).toBeGreaterThanOrEqual(3);
    expect(client.snapshots).toEqual([]);

    // Up to the first question the student has exactly the chapter's text, each character once.
    const question = await client.waitForEvent('lecture:question');
    const generated = await generatedChapter(app, material.id, 0);
    expect(question.text).toBe(generated.questions[0]);
    expect(client.text.get(0)?.startsWith(before)).toBe(true);
    expect(client.text.get(0)).toBe(parseLecture(generated.raw.slice(0, generated.raw.indexOf('[질문]')))[0]?.text);
    expect(client.seqErrors).toEqual([]);
  });

  it('L7: several drops in a row, one of them while a question waits, still give the exact text', async (context) => {
    const { app, material } = sharedApp(context);
    const { client, token } = await joinLecture(app, material.id, { policy: goodStudent(app, material) });
    const policy = client.policy;
    client.policy = undefined; // the first question is answered by hand, after a reconnect
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');

    await client.waitForText(0, 30);
    client.socket.disconnect();
    await reconnect(client, app, token);
    await client.ok('session:resume', { lastSeq: client.lastSeq });

    const question = await client.waitForEvent('lecture:question');
    client.socket.disconnect();
    await reconnect(client, app, token);
    // Nothing was missed: the resume replays nothing and the question is still the pending one.
    expect(await client.ok('session:resume', { lastSeq: client.lastSeq })).toMatchObject({ replayed: 0, snapshot: false });
    client.policy = policy;
    const answer = await policy?.({ questionId: question.questionId, text: question.text }, client);
    if (answer === undefined) throw new Error('the student has no answer');
    await client.ok('answer:submit', { questionId: question.questionId, text: answer });

    const textAfterQuestion = client.text.get(0)?.length ?? 0;
    await client.waitForText(0, textAfterQuestion + 40);
    client.socket.disconnect();
    await reconnect(client, app, token);
    await client.ok('session:resume', { lastSeq: client.lastSeq });

    await client.waitForEvent('lecture:chapter-end', { where: (event) => event.chapter === 0 });
    await expectChapterText(app, material, client, 0);
    expect(client.all('tutor:verdict').map((verdict) => verdict.verdict)[0]).toBe('good');
    expect(client.seqErrors).toEqual([]);
    expect(client.answerErrors).toEqual([]);
  });

  it('L8: session:resume {lastSeq: 0} gets a session:state snapshot whose text is what was delivered, then the rest', async (context) => {
    const { app, material } = sharedApp(context);
    const { client, token } = await joinLecture(app, material.id, { policy: goodStudent(app, material) });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    // Into chapter 1, past the questions of chapter 0.
    await client.waitForEvent('lecture:chapter-start', { where: (event) => event.chapter === 1 });
    await client.waitForText(1, 40);
    // Pause first: its ack comes after every event the pause settled, so the client has all that was delivered.
    // A question (or its tutoring) may come between the text we waited for and the pause: then the pause is refused
    // NOT_STREAMING, and we pause again once the chapter's text streams on.
    for (let attempt = 1; ; attempt += 1) {
      const ack = await client.command('lecture:pause');
      if (ack.ok) {
        expect(ack).toMatchObject({ state: 'paused' });
        break;
      }
      expect(ack.error.code).toBe('NOT_STREAMING');
      expect(attempt).toBeLessThan(5);
      await client.waitForText(1, (client.text.get(1)?.length ?? 0) + 1);
    }
    const delivered = new Map(client.text);
    const verdicts = client.all('tutor:verdict').length;

    client.socket.disconnect();
    await reconnect(client, app, token);
    const resumed = await client.ok('session:resume', { lastSeq: 0 });
    expect(resumed.snapshot).toBe(true);
    const snapshot = client.snapshots.at(-1);
    expect(snapshot?.phase).toEqual({ kind: 'paused', chapter: 1, reason: 'student' });
    expect(snapshot?.speed).toBe(200);
    expect(snapshot?.chapters.map((chapter) => [chapter.index, chapter.text, chapter.complete])).toEqual([
      [0, delivered.get(0), true],
      [1, delivered.get(1), false],
    ]);
    expect(snapshot?.material.chapters.map((chapter) => chapter.index)).toEqual(material.chapters.map((chapter) => chapter.index));
    // The transcript renders the tutoring so far: every question, answer, verdict and finished reply.
    const transcript = snapshot?.transcript ?? [];
    expect(transcript.filter((item) => item.type === 'question').map((item) => item.questionId)).toEqual(
      client.all('lecture:question').map((question) => question.questionId),
    );
    expect(transcript.filter((item) => item.type === 'verdict')).toHaveLength(verdicts);
    expect(transcript.filter((item) => item.type === 'reply').every((item) => item.type === 'reply' && item.complete && item.text.length > 0)).toBe(
      true,
    );
    expect(client.lastSeq).toBe(resumed.seq);

    await client.ok('lecture:resume');
    await client.waitForEvent('lecture:chapter-end', { where: (event) => event.chapter === 1 });
    await expectChapterText(app, material, client, 0);
    await expectChapterText(app, material, client, 1);
    expect(client.seqErrors).toEqual([]);
  });

  it('L7: a reconnect in the middle of a tutor reply neither repeats nor truncates it', async (context) => {
    const { app, material } = sharedApp(context);
    const { client, token } = await joinLecture(app, material.id, { policy: goodStudent(app, material) });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForEvent('tutor:reply-start');
    await client.ok('lecture:speed', { tokensPerSecond: 5 });
    await client.waitForEvent('tutor:reply-delta');
    client.socket.disconnect();
    await reconnect(client, app, token);
    await client.ok('session:resume', { lastSeq: client.lastSeq });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.waitForEvent('lecture:delta', { from: client.events.findIndex((event) => event.event === 'tutor:reply-start') });

    const [episode] = episodes(client.events);
    expect(client.seqErrors).toEqual([]);
    expect(episode?.replies).toHaveLength(1);
    expect(episode?.shape).toBe('answer verdict:good reply:supplement');
  });
});

describe.concurrent('pausing', () => {
  /** A few command round trips: anything the server still streamed after a pause would arrive before their acks. */
  async function roundTrips(client: LectureClient): Promise<void> {
    for (let turn = 0; turn < 3; turn += 1) await client.ok('lecture:speed', { tokensPerSecond: 200 });
  }

  it('L18: lecture:pause stops lecture and reply text at once, lecture:resume goes on exactly there', async (context) => {
    const { app, material } = sharedApp(context);
    const { client } = await joinLecture(app, material.id);
    expectRefusal(await client.command('lecture:pause'), 'NOT_STREAMING');
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    expectRefusal(await client.command('lecture:resume'), 'NOT_PAUSED');

    // Mid-text.
    await client.waitForText(0, 40);
    expect(await client.ok('lecture:pause')).toMatchObject({ state: 'paused' });
    let paused = client.events.length;
    await roundTrips(client);
    expect(client.events.slice(paused)).toEqual([]);
    expect(await client.ok('lecture:resume')).toMatchObject({ state: 'streaming' });

    // Nothing to pause while a question waits for its answer.
    const question = await client.waitForEvent('lecture:question');
    expectRefusal(await client.command('lecture:pause'), 'NOT_STREAMING');
    const answer = await offlineStudent(app, material.id, () => true)({ questionId: question.questionId, text: question.text }, client);
    await client.ok('answer:submit', { questionId: question.questionId, text: answer });

    // Mid-reply: slow the pace so the pause lands inside the supplement.
    await client.waitForEvent('tutor:reply-start');
    await client.ok('lecture:speed', { tokensPerSecond: 5 });
    await client.waitForEvent('tutor:reply-delta');
    expect(await client.ok('lecture:pause')).toMatchObject({ state: 'paused' });
    paused = client.events.length;
    await roundTrips(client);
    expect(client.events.slice(paused)).toEqual([]);
    await client.ok('lecture:resume');
    await client.ok('lecture:speed', { tokensPerSecond: 200 });

    await client.waitForEvent('lecture:question', { where: (next) => next.questionId !== question.questionId });
    const [episode] = episodes(client.events);
    // (answered by hand, so no client:answer in the recording)
    expect(episode?.shape).toBe('verdict:good reply:supplement');
    const generated = await generatedChapter(app, material.id, 0);
    const secondQuestion = generated.raw.indexOf('[질문]', generated.raw.indexOf('[질문]') + 1);
    expect(client.text.get(0)).toBe(
      parseLecture(generated.raw.slice(0, secondQuestion))
        .flatMap((segment) => (segment.type === 'text' ? [segment.text] : []))
        .join(''),
    );
    expect(client.seqErrors).toEqual([]);
  });

});

describe.concurrent('a server restart on Redis', () => {
  it('L9: server A dies mid-chapter; server B on the same Redis resumes the session to the end with no gap or duplicate', async (context) => {
    const env = { REDIS_URL: redis.url, TOKEN_SECRET: 'lecture-restart-test-secret' };
    const emitted = new EmittedEvents();
    const a = await boot(context, env, { observer: emitted.observer });
    const material = await loadSample(a);
    let current = a;
    const { client, token } = await joinLecture(a, material.id, { policy: offlineStudent(() => current, material.id, () => true) });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForEvent('lecture:question');
    await client.waitForEvent('tutor:reply-end');
    await client.waitForText(0, (client.text.get(0)?.length ?? 0) + 50);

    // A sends a few more events that never arrive, then dies: its Redis connection goes first (so it writes
    // nothing more and never releases the session's driver lease), then every socket drops. B must wait for the
    // lease to expire before it drives the session.
    client.deafen();
    await emitted.reach(client.sessionId, client.lastSeq + 3);
    const gone = disconnected(client);
    await a.store.close();
    void a.server.close();
    await gone;
    const seenBeforeCrash = client.lastSeq;

    const b = await boot(context, env);
    current = b;
    await reconnect(client, b, token);
    const resumed = await client.ok('session:resume', { lastSeq: client.lastSeq });
    expect(resumed).toMatchObject({ snapshot: false });
    expect(resumed.replayed).toBeGreaterThanOrEqual(3);
    expect(resumed.seq).toBe(seenBeforeCrash + resumed.replayed);
    await client.waitForEvent('lecture:end');

    expect(client.seqErrors).toEqual([]);
    expect(client.answerErrors).toEqual([]);
    for (const chapter of material.chapters) await expectChapterText(b, material, client, chapter.index);
    expect(client.events.at(-1)?.event).toBe('lecture:end');
  });
});
