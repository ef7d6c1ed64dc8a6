/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - Q14 — Two nodes on one Redis: killing the node that drives the room mid-question loses no acknowledged answer;
 *   the other node takes over, players reconnect there …
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../scripts/bench-support.js';
import type { QuestionPayload, RevealPayload } from '../src/protocol/quiz.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { basePoints, streakBonus } from '../src/quiz/scoring.js';
import { createQuiz, createRoom, fetchResults, joinRoom, openHost, rejoin, sampleItems, type QuizClient } from './support/quiz-client.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/**
 * Q14 (test/SPEC.md): two real server processes (src/main.ts, as deployed: Redis store, Redis streams adapter, one
 * TOKEN_SECRET, distinct NODE_IDs) on a throwaway redis-server. Mid-question the node holding the room's driver lease
 * is killed with SIGKILL; its sockets reconnect to the other node with their tokens, and the game must finish there
 * with every acknowledged answer and every score intact. No timing asserts: only outcomes, with generous timeouts.
 */

const QUESTION_SECONDS = 8;
const QUESTION_MS = QUESTION_SECONDS * 1000;
const NODE_IDS = ['quiz-node-a', 'quiz-node-b'] as const;

const cleanups: (() => Promise<unknown>)[] = [];
const children = new Set<ServerProcess>();
// A crashed test run must not leave server processes behind.
process.once('exit', () => {
  for (const server of children) server.child.kill('SIGKILL');
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function startNode(redis: RedisServer, nodeId: string, tokenSecret: string): Promise<ServerProcess> {
  const server = await startServerProcess({
    REDIS_URL: redis.url,
    TOKEN_SECRET: tokenSecret,
    NODE_ID: nodeId,
    PRELOAD_SAMPLE: 'false',
    LOG_LEVEL: 'error',
  });
  children.add(server);
  cleanups.push(async () => {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    children.delete(server);
  });
  // The Redis store connects after listen: wait until it answers.
  for (let attempt = 0; ; attempt += 1) {
    const ready = await fetch(`${server.url}/readyz`).then((response) => response.ok, () => false);
    if (ready) return server;
    if (attempt > 300) throw new Error(`${nodeId} never became ready`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

interface Player {
  nickname: string;
  playerId: string;
  playerToken: string;
  client: QuizClient;
  node: number;
}

/** Acknowledged answers, as the players were told: player id -> question -> choice. */
type Acked = Map<string, Map<number, number>>;

async function answer(player: Player, q: number, choice: number, acked: Acked): Promise<void> {
  const ack = await player.client.emit<{ choice: number; duplicate: boolean }>('answer:submit', { questionIndex: q, choice });
  expect(ack, `${player.nickname} q${q}`).toMatchObject({ ok: true, duplicate: false, choice });
  if (ack.ok && !ack.duplicate) {
    const byQuestion = acked.get(player.playerId) ?? new Map<number, number>();
    byQuestion.set(q, ack.choice);
    acked.set(player.playerId, byQuestion);
  }
}

describe('live quiz rooms on two nodes', () => {
  it('Q14 killing the driving node mid-question loses no acknowledged answer; the game finishes on the other node with right scores', async () => {
    const redisServer = await startRedisServer();
    cleanups.push(() => redisServer.stop());
    const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 3 });
    cleanups.push(() => redis.quit());
    const tokenSecret = randomBytes(24).toString('hex');
    const nodes = await Promise.all(NODE_IDS.map((nodeId) => startNode(redisServer, nodeId, tokenSecret)));
    const [nodeA] = nodes as [ServerProcess, ServerProcess];

    const items = sampleItems(3);
    const setup = await createQuiz(nodeA, items);
    const room = await createRoom(nodeA, setup, { questionSeconds: QUESTION_SECONDS, previewSeconds: 0 });
    const clients: QuizClient[] = [];
    cleanups.push(async () => {
      for (const client of clients) client.close();
    });

    let host = await openHost(nodeA.url, room.hostToken);
    clients.push(host);
    const players: Player[] = [];
    for (let index = 0; index < 6; index += 1) {
      const node = index % 2;
      const joined = await joinRoom(nodes[node]!.url, room.code, `플레이어${index + 1}`);
      clients.push(joined.client);
      players.push({ nickname: `플레이어${index + 1}`, playerId: joined.playerId, playerToken: joined.playerToken, client: joined.client, node });
    }
    await host.latest<{ playerCount: number }>('room:players', (update) => update.playerCount === 6);

    const acked: Acked = new Map();
    // Mostly right, some wrong, so streaks both build and break.
    const choiceFor = (index: number, q: number) => ((index + q) % 3 === 0 ? (items[q]!.answer + 1) % 4 : items[q]!.answer);
    const opened = (q: number) =>
      players.map((player) => player.client.next<QuestionPayload>('room:question', (question) => question.phase === 'open' && question.question.index === q));
    const revealed = (q: number, waitMs = 30_000) =>
      players.map((player) => player.client.latest<RevealPayload>('room:reveal', (reveal) => reveal.question.index === q, waitMs));

    // ---- question 1: everyone answers on both nodes; the room closes early.
    const firstOpen = opened(0);
    expect((await host.emit('room:start')).ok).toBe(true);
    await Promise.all(firstOpen);
    await Promise.all(players.map((player, index) => answer(player, 0, choiceFor(index, 0), acked)));
    await Promise.all(revealed(0));
    expect((await host.emit('room:next')).ok).toBe(true); // -> leaderboard

    // ---- question 2: four answer, then the driver dies.
    const secondOpen = opened(1);
    expect((await host.emit('room:next')).ok).toBe(true);
    await Promise.all(secondOpen);
    await Promise.all(players.slice(0, 4).map((player, index) => answer(player, 1, choiceFor(index, 1), acked)));

    const driverKey = quizKeys.roomDriver(room.roomId);
    let driverId: string | null = null;
    for (let attempt = 0; attempt < 100 && !driverId; attempt += 1) {
      driverId = await redis.get(driverKey);
      if (!driverId) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const dead = NODE_IDS.indexOf(driverId as (typeof NODE_IDS)[number]);
    expect(dead, `driver lease holder ${driverId}`).toBeGreaterThanOrEqual(0);
    const alive = 1 - dead;
    const survivor = nodes[alive]!;
    // Which node drives the room is a race; who is on the dead node is not left to it. The host reloads on the
    // driver's node before the kill (Q8), so the host is always among the dropped; the players alternate nodes and
    // the first four answered, so the dead node always holds two players who answered and one who did not.
    const moved = await openHost(nodes[dead]!.url, room.hostToken);
    clients.push(moved);
    host.close();
    host = moved;
    expect(await host.state()).toMatchObject({ phase: 'open', question: { index: 1 } });
    const dropped = players.filter((player) => player.node === dead);
    expect(dropped.map((player) => acked.get(player.playerId)?.has(1) ?? false)).toEqual([true, true, false]);
    const disconnected = [...dropped.map((player) => player.client), host].map(
      (client) => new Promise<void>((resolve) => (client.socket.connected ? client.socket.once('disconnect', () => resolve()) : resolve())),
    );
    nodes[dead]!.child.kill('SIGKILL');
    await Promise.all(disconnected);

    // Everyone who was on the dead node reconnects to the survivor with its token and finds question 2 still open,
    // with its own recorded answer (or none).
    for (const player of dropped) {
      player.client = await rejoin(survivor.url, player.playerToken);
      player.node = alive;
      clients.push(player.client);
      const state = await player.client.state();
      expect(state).toMatchObject({ phase: 'open', question: { index: 1 } });
      const mine = acked.get(player.playerId)?.get(1);
      expect(state.me).toMatchObject({ answer: mine === undefined ? null : { questionIndex: 1, choice: mine } });
    }
    // A dropped player who had answered and submits again (another choice) is told the recorded one.
    const again = dropped[0]!;
    const recorded = acked.get(again.playerId)!.get(1)!;
    const duplicate = await again.client.emit<{ choice: number; duplicate: boolean }>('answer:submit', { questionIndex: 1, choice: (recorded + 1) % 4 });
    expect(duplicate).toMatchObject({ ok: true, duplicate: true, choice: recorded });
    // The host, dropped with the driver, reloads on the survivor and finds the question still open.
    host = await openHost(survivor.url, room.hostToken);
    clients.push(host);
    expect(await host.state()).toMatchObject({ phase: 'open', question: { index: 1 } });

    // Player 5 answers now; player 6 never does, so the question can only close at its deadline, by the survivor's
    // timer once it holds the lease (the dead node's lease expires within a few seconds).
    await answer(players[4]!, 1, choiceFor(4, 1), acked);
    // Only a living driver can close the question: the reveal itself shows the survivor took the dead node's lease
    // (which expired within a few seconds). A driver gives the lease back once the question is closed.
    const secondReveals = await Promise.all(revealed(1, QUESTION_MS + 30_000));
    expect(await redis.get(driverKey)).not.toBe(NODE_IDS[dead]);
    for (const [index, reveal] of secondReveals.entries()) {
      expect(reveal.you?.choice ?? null).toBe(acked.get(players[index]!.playerId)?.get(1) ?? null);
    }
    expect(secondReveals[0]!.answered).toBe(5);

    // ---- question 3, all on the survivor, then the podium and the end.
    expect((await host.emit('room:next')).ok).toBe(true); // -> leaderboard
    const thirdOpen = opened(2);
    expect((await host.emit('room:next')).ok).toBe(true);
    await Promise.all(thirdOpen);
    await Promise.all(players.map((player, index) => answer(player, 2, choiceFor(index, 2), acked)));
    await Promise.all(revealed(2));
    expect((await host.emit('room:next')).ok).toBe(true); // -> leaderboard
    const podiums = players.map((player) => player.client.next('room:podium'));
    expect((await host.emit('room:next')).ok).toBe(true);
    await Promise.all(podiums);
    const ended = host.next('room:ended');
    expect((await host.emit('room:next')).ok).toBe(true);
    await ended;

    // ---- the results: every acknowledged answer is there with its choice; scores follow the formula; ranks follow scores.
    const response = await fetchResults(survivor, room.roomId, room.hostToken);
    expect(response.status).toBe(200);
    const results = response.body as unknown as RoomResults;
    expect(results).toMatchObject({ phase: 'ended', closedQuestions: 3 });
    expect(results.players).toHaveLength(6);
    let acknowledged = 0;
    for (const [playerId, byQuestion] of acked) {
      const row = results.players.find((candidate) => candidate.playerId === playerId);
      for (const [q, choice] of byQuestion) {
        acknowledged += 1;
        expect(row?.answers[q]?.choice, `${row?.nickname ?? playerId} q${q}`).toBe(choice);
      }
    }
    expect(acknowledged).toBe(6 + 5 + 6);
    expect(results.players.find((row) => row.playerId === players[5]!.playerId)?.answers[1]?.choice).toBeNull();

    for (const row of results.players) {
      let streak = 0;
      let total = 0;
      for (const [q, result] of row.answers.entries()) {
        const correct = result.choice !== null && result.choice === items[q]!.answer;
        expect(result.correct, `${row.nickname} q${q}`).toBe(correct);
        streak = correct ? streak + 1 : 0;
        const points = correct ? basePoints(result.responseMs!, QUESTION_MS) + streakBonus(streak) : 0;
        expect(result.points, `${row.nickname} q${q}`).toBe(points);
        total += points;
      }
      expect(row.score, row.nickname).toBe(total);
    }
    const byRank = [...results.players].sort((left, right) => left.rank - right.rank);
    expect(byRank.map((row) => row.rank)).toEqual([1, 2, 3, 4, 5, 6]);
    for (let index = 1; index < byRank.length; index += 1) expect(byRank[index - 1]!.score).toBeGreaterThanOrEqual(byRank[index]!.score);
  });
});
