/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QR1 — Recovery on every store. A player socket whose transport drops (even one that joined as a guest, with no
 *   token in its handshake) is recovered by socket.io on the memory store and on Redis …
 */
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionPayload, RevealPayload, RoomStatePayload } from '../src/protocol/quiz.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { createQuiz, createRoom, fetchResults, joinRoom, openHost, QuizClient, rejoin, sampleItems } from './support/quiz-client.js';

/**
 * QR1 (test/SPEC.md): a player whose connection drops comes back through socket.io's connection-state recovery on
 * both stores — on Redis through the streams adapter, as a multi-node deployment runs — with its identity, score,
 * phase, remaining time and recorded answer, and nothing lost or doubled. The player joined on a socket without a
 * token in its handshake, so only a recovered connection can still be that player.
 */

const redis = suiteRedis();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function boot(store: 'memory' | 'redis', nodeId?: string): Promise<TestApp> {
  let app: TestApp;
  if (store === 'memory') app = await startTestApp();
  else {
    const adapterClient = new Redis(redis.url, { maxRetriesPerRequest: null });
    app = await startTestApp(
      { REDIS_URL: redis.url, TOKEN_SECRET: 'recovery-secret' },
      { socketAdapter: createAdapter(adapterClient), ...(nodeId ? { nodeId } : {}) },
    );
    cleanups.push(() => adapterClient.quit());
  }
  cleanups.push(() => app.stop());
  return app;
}

type State = RoomStatePayload & { remainingMs?: number; question?: { index: number }; reveal?: RevealPayload };

/** Drops the player's transport (an unexpected loss, not a disconnect() call) and waits until the server saw it. */
async function drop(player: QuizClient, host: QuizClient, nickname: string): Promise<void> {
  const gone = host.next<{ players: { nickname: string; connected: boolean }[] }>('room:players', (update) =>
    update.players.some((row) => row.nickname === nickname && !row.connected),
  );
  const closed = new Promise((resolve) => player.socket.once('disconnect', resolve));
  player.socket.io.engine.close();
  await closed;
  await gone;
}

/** Reconnects the dropped socket; resolves with whether it was recovered and the `room:state` it got. */
async function comeBack(player: QuizClient): Promise<{ recovered: boolean; state: State }> {
  const state = player.next<State>('room:state');
  const connected = new Promise<boolean>((resolve) => player.socket.once('connect', () => resolve(player.socket.recovered)));
  player.socket.connect();
  return { recovered: await connected, state: await state };
}

describe.each(['memory', 'redis'] as const)('a dropped quiz connection on the %s store', (store) => {
  it(`QR1 is recovered with identity, score, phase, remaining time and recorded answer (${store})`, async () => {
    const app = await boot(store);
    const setup = await createQuiz(app, sampleItems(2));
    const room = await createRoom(app, setup, { questionSeconds: 60, previewSeconds: 0 });
    const host = await openHost(app.url, room.hostToken);
    cleanups.push(async () => host.close());

    // 하나 joins on a guest socket (no token in its handshake); 둘 is a second player who keeps questions open.
    const one = await QuizClient.open(app.url).ready();
    cleanups.push(async () => one.close());
    const joined = await one.emit<{ playerId: string; playerToken: string }>('room:join', { code: room.code, nickname: '하나' });
    if (!joined.ok) throw new Error(`join: ${joined.error.code}`);
    await one.state();
    const two = await joinRoom(app.url, room.code, '둘');
    cleanups.push(async () => two.client.close());
    await host.next('room:players', (update: { playerCount: number }) => update.playerCount === 2);

    // Question 0: 하나 right, 둘 wrong; everyone answered, so it closes at once.
    const right0 = setup.items[0]!.answer;
    const opened0 = one.next<QuestionPayload>('room:question', (payload) => payload.phase === 'open' && payload.question.index === 0);
    expect((await host.emit('room:start')).ok).toBe(true);
    await opened0;
    const revealed0 = one.next<RevealPayload>('room:reveal', (payload) => payload.question.index === 0);
    expect(await one.emit('answer:submit', { questionIndex: 0, choice: right0 })).toMatchObject({ ok: true, duplicate: false });
    expect((await two.client.emit('answer:submit', { questionIndex: 0, choice: (right0 + 1) % 4 })).ok).toBe(true);
    const score0 = (await revealed0).you!.score;
    expect(score0).toBeGreaterThan(0);

    // Question 1 opens; 하나 answers, 둘 not yet.
    const opened1 = one.next<QuestionPayload>('room:question', (payload) => payload.phase === 'open' && payload.question.index === 1);
    expect((await host.emit('room:next')).ok).toBe(true);
    expect((await host.emit('room:next')).ok).toBe(true);
    const question1 = await opened1;
    const choice1 = (setup.items[1]!.answer + 2) % 4;
    expect(await one.emit('answer:submit', { questionIndex: 1, choice: choice1 })).toMatchObject({ ok: true, duplicate: false });
    const socketId = one.socket.id;

    // Drop 1, mid-question: back as the same socket, with the question, the time left and the recorded answer.
    await drop(one, host, '하나');
    const first = await comeBack(one);
    expect(first.recovered).toBe(true);
    expect(one.socket.id).toBe(socketId);
    expect(first.state).toMatchObject({
      phase: 'open',
      question: { index: 1 },
      me: { playerId: joined.playerId, nickname: '하나', score: score0, rank: 1, answer: { questionIndex: 1, choice: choice1 } },
    });
    expect(first.state.remainingMs).toBeGreaterThan(0);
    expect(first.state.remainingMs).toBeLessThanOrEqual(question1.remainingMs);
    // Answering again is a duplicate of the recorded answer, not a second one.
    expect(await one.emit('answer:submit', { questionIndex: 1, choice: (choice1 + 1) % 4 })).toMatchObject({ ok: true, duplicate: true, choice: choice1 });

    // Drop 2, while the question closes (둘 answers: everyone connected has answered): back in the reveal.
    await drop(one, host, '하나');
    const closed = host.next<RevealPayload>('room:reveal', (payload) => payload.question.index === 1);
    expect((await two.client.emit('answer:submit', { questionIndex: 1, choice: setup.items[1]!.answer })).ok).toBe(true);
    await closed;
    const second = await comeBack(one);
    expect(second.recovered).toBe(true);
    expect(second.state.phase).toBe('reveal');
    expect(second.state.reveal?.question.index).toBe(1);
    expect(second.state.reveal?.you).toMatchObject({ choice: choice1, correct: false, score: score0 });
    expect(second.state.me).toMatchObject({ playerId: joined.playerId, nickname: '하나', score: score0 });

    // A reload with the player token (no recovery) draws the same player.
    const reloaded = await rejoin(app.url, joined.playerToken);
    cleanups.push(async () => reloaded.close());
    expect((await reloaded.state()).me).toEqual(second.state.me);

    // Exactly one answer per question was recorded for 하나.
    const results = (await fetchResults(app, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    const mine = results.players.find((player) => player.playerId === joined.playerId);
    expect(mine?.answers.map((answer) => [answer.questionIndex, answer.choice])).toEqual([
      [0, right0],
      [1, choice1],
    ]);
  });
});

describe('a dropped quiz connection on two nodes', () => {
  it('QR1 is recovered on the other node of a Redis deployment, as the same player with its answer', async () => {
    const nodeA = await boot('redis', 'recovery-a');
    const nodeB = await boot('redis', 'recovery-b');
    const setup = await createQuiz(nodeA, sampleItems(1));
    const room = await createRoom(nodeA, setup, { questionSeconds: 60, previewSeconds: 0 });
    const host = await openHost(nodeA.url, room.hostToken);
    cleanups.push(async () => host.close());
    const one = await QuizClient.open(nodeA.url).ready();
    cleanups.push(async () => one.close());
    const joined = await one.emit<{ playerId: string }>('room:join', { code: room.code, nickname: '이사' });
    if (!joined.ok) throw new Error(`join: ${joined.error.code}`);
    await one.state();
    const two = await joinRoom(nodeA.url, room.code, '머묾');
    cleanups.push(async () => two.client.close());

    const opened = one.next<QuestionPayload>('room:question', (payload) => payload.phase === 'open');
    expect((await host.emit('room:start')).ok).toBe(true);
    await opened;
    expect(await one.emit('answer:submit', { questionIndex: 0, choice: 3 })).toMatchObject({ ok: true, duplicate: false });
    const socketId = one.socket.id;

    await drop(one, host, '이사');
    // The load balancer sends the reconnect to the other node (the manager's address is private in the typings).
    (one.socket.io as unknown as { uri: string }).uri = nodeB.url;
    const back = await comeBack(one);
    expect(back.recovered).toBe(true);
    expect(one.socket.id).toBe(socketId);
    expect(back.state).toMatchObject({ phase: 'open', me: { playerId: joined.playerId, nickname: '이사', answer: { questionIndex: 0, choice: 3 } } });
    expect(await one.emit('answer:submit', { questionIndex: 0, choice: 1 })).toMatchObject({ ok: true, duplicate: true, choice: 3 });
  });
});
