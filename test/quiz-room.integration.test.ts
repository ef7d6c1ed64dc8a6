/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - Q1 — A whole game runs lobby → questions → podium → ended; every correct answer scores `round(1000 × (1 −
 *   (t/T)/2))` plus the streak bonus, ranks follow scores …
 * - Q2 — However many submits a player sends for one question, from however many tabs at once, exactly one is
 *   recorded (the first); every ack names that recorded choice.
 * - Q3 — An answer after the close of its question (deadline + grace, skip, everyone answered) is `LATE`; an answer
 *   for a question not open yet is `QUESTION_NOT_OPEN`.
 * - Q4 — Pause freezes the remaining time (also in a reload's snapshot) and refuses answers (`ROOM_PAUSED`); resume
 *   restarts it; the pause does not count in response times.
 * - Q5 — A kicked player is told, disconnected, cannot reconnect with its token (`KICKED`) and is not ranked.
 * - Q6 — With late join on, a player joining mid-question gets that question and may answer it; with it off a join
 *   after the start is `ROOM_STARTED`.
 * - Q7 — A player reloading mid-question gets the same question, the remaining time from the stored deadline and its
 *   own recorded answer; submitting again is a duplicate.
 * - Q8 — A host reload gets the phase, the player list and the current answer count, and can go on.
 * - Q9 — No frame a player receives (events and acks, raw) carries a question's solution before its reveal, nor ever
 *   an item's `quizId` or `sources` (QZ5).
 * - Q10 — Every host command from a player or guest socket is refused `FORBIDDEN` and changes nothing; bad tokens
 *   cannot connect.
 * - Q11 — Nicknames: trimmed, 1–20 characters, no control characters, unique ignoring case and width; unknown code,
 *   locked and full rooms are refused with their codes …
 * - Q12 — Room creation and results check their tokens; an instructor cannot host another class's quiz.
 * - Q13 — On Redis the same game runs, and a question closes as soon as every player has answered.
 * - Q15 — The class's instructor monitor hears every phase change of the class's rooms (`quiz:room`).
 * - Q16 — A question closes early once every connected player has answered (a player who left does not hold the class
 *   up); with nobody connected, once every player has.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LeaderboardPayload, PodiumPayload, QuestionPayload, RevealPayload, RoomOptions, RoomStatePayload } from '../src/protocol/quiz.js';
import { basePoints, streakBonus } from '../src/quiz/scoring.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import {
  createQuiz,
  createRoom,
  fetchResults,
  joinRoom,
  openHost,
  QuizClient,
  rejoin,
  sampleItems,
  type JoinedPlayer,
} from './support/quiz-client.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { systemRoomClock, type RoomClock } from '../src/quiz/room-clock.js';
import type { AppOverrides } from '../src/app.js';

/** Q rules (test/SPEC.md): live quiz rooms on one node, memory store unless stated. */

/** The Redis of the Redis case: a throwaway server, so the app's keys never reach a shared database. */
const redis = suiteRedis();

let app: TestApp | undefined;
const clients: QuizClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await app?.stop();
  app = undefined;
});

async function boot(env: Record<string, string> = {}, overrides: AppOverrides = {}) {
  app = await startTestApp(env, overrides);
  return app;
}

/** A server, a class with an n-question quiz, a room with `options`, and its host connected. */
async function hostedRoom(questions: number, options: Partial<RoomOptions>, env: Record<string, string> = {}, overrides: AppOverrides = {}) {
  const server = await boot(env, overrides);
  const setup = await createQuiz(server, sampleItems(questions));
  const room = await createRoom(server, setup, options);
  const host = track(await openHost(server.url, room.hostToken));
  return { server, setup, room, host };
}

const track = <T extends { client: QuizClient } | QuizClient>(value: T): T => {
  clients.push(value instanceof QuizClient ? value : value.client);
  return value;
};

async function openQuestion(host: QuizClient, players: JoinedPlayer[], index: number) {
  const opened = players.map((player) => player.client.next<QuestionPayload>('room:question', (q) => q.phase === 'open' && q.question.index === index));
  const ack = await host.emit(index === 0 ? 'room:start' : 'room:next');
  expect(ack.ok).toBe(true);
  return Promise.all(opened);
}

describe('live quiz room', () => {
  it('Q1 runs a 3-question game to the podium: scores follow the formula, ranks follow scores, results match', async () => {
    const { server, setup, room, host } = await hostedRoom(3, { questionSeconds: 10, previewSeconds: 0 });
    const players = [track(await joinRoom(server.url, room.code, '민준')), track(await joinRoom(server.url, room.code, '서연')), track(await joinRoom(server.url, room.code, '지호'))];
    const lobby = await host.next<{ playerCount: number }>('room:players', (update) => update.playerCount === 3);
    expect(lobby.playerCount).toBe(3);

    // 민준 always right, 서연 right on the first two, 지호 always wrong; question 2 nobody but 민준 answers.
    const plans = [
      [0, 1, 2],
      [0, 1, null],
      [1, 0, null],
    ];
    for (let q = 0; q < 3; q += 1) {
      if (q > 0) {
        const leaderboard = host.next<LeaderboardPayload>('room:leaderboard');
        await host.emit('room:next'); // reveal -> leaderboard
        expect((await leaderboard).top[0]!.nickname).toBe('민준');
      }
      const questions = await openQuestion(host, players, q);
      expect(questions[0]!.question).not.toHaveProperty('answer');
      const reveals = players.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === q));
      for (const [index, player] of players.entries()) {
        const choice = plans[index]![q];
        if (choice === null || choice === undefined) continue;
        const ack = await player.client.emit<{ duplicate: boolean }>('answer:submit', { questionIndex: q, choice });
        expect(ack.ok).toBe(true);
      }
      // Everyone who will answer has: the host skips the rest of the time.
      if (plans.some((plan) => plan[q] === null)) await host.emit('room:skip');
      const revealed = await Promise.all(reveals);
      expect(revealed[0]!.correctChoice).toBe(setup.items[q]!.answer);
      expect(revealed[0]!.you?.correct).toBe(true);
      expect(revealed[2]!.you?.correct).toBe(false);
    }
    await host.emit('room:next'); // -> leaderboard
    const podiums = players.map((player) => player.client.next<PodiumPayload>('room:podium'));
    expect((await host.emit('room:next')).ok).toBe(true); // last leaderboard -> podium
    const podium = await podiums[0]!;
    expect(podium.top.map((row) => row.nickname)).toEqual(['민준', '서연', '지호']);
    const ended = players[0]!.client.next('room:ended');
    await host.emit('room:end');
    await ended;

    const results = (await fetchResults(server, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    expect(results.phase).toBe('ended');
    expect(results.closedQuestions).toBe(3);
    for (const player of results.players) {
      let streak = 0;
      let total = 0;
      for (const answer of player.answers) {
        if (answer.correct) {
          streak += 1;
          expect(answer.points).toBe(basePoints(answer.responseMs!, 10_000) + streakBonus(streak));
        } else {
          streak = 0;
          expect(answer.points).toBe(0);
        }
        total += answer.points;
      }
      expect(player.score).toBe(total);
    }
    expect(results.players.map((player) => player.nickname)).toEqual(['민준', '서연', '지호']);
    expect(results.players[0]!.answers[1]!.streakBonus).toBe(100);
    expect(results.questions[2]!.distribution).toEqual([0, 0, 1, 0]);

    const csv = await fetch(`${server.url}/api/rooms/${room.roomId}/results.csv`, { headers: { authorization: `Bearer ${room.hostToken}` } });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).replace(/^\ufeff/, '').trim().split('\r\n');
    // One row per player (3 questions × choice/O-X/points), a blank line, then the question table.
    expect(lines).toHaveLength(1 + 3 + 1 + 1 + 3);
    expect(lines[0]).toMatch(/^순위,닉네임,총점,맞힌 문항 수,응답 시간 합계\(초\),1번 선택,1번 정답 여부,1번 점수,/);
    expect(lines[1]).toMatch(/^1,민준,/);
    expect(lines[4]).toBe('');
  });

  it('Q2 a storm of concurrent and duplicate submits from three tabs of one player records one answer', async () => {
    const { server, setup, room, host } = await hostedRoom(1, { questionSeconds: 20, previewSeconds: 0 });
    const player = track(await joinRoom(server.url, room.code, '폭풍'));
    const other = track(await joinRoom(server.url, room.code, '잔잔'));
    const tabs = [player.client, track(await rejoin(server.url, player.playerToken)), track(await rejoin(server.url, player.playerToken))];
    await openQuestion(host, [player, other], 0);

    // 3 tabs × 6 submits: the tabs share one player's command budget (SOCKET_COMMAND_BURST, 20), see RL test ids.
    const acks = await Promise.all(
      tabs.flatMap((tab, tabIndex) =>
        Array.from({ length: 6 }, (_, index) => tab.emit<{ choice: number; duplicate: boolean }>('answer:submit', { questionIndex: 0, choice: (tabIndex + index) % 4 })),
      ),
    );
    const accepted = acks.filter((ack) => ack.ok);
    expect(accepted).toHaveLength(18);
    const firsts = accepted.filter((ack) => ack.ok && !ack.duplicate);
    expect(firsts).toHaveLength(1);
    const recorded = firsts[0]!.ok ? firsts[0]!.choice : -1;
    expect(accepted.every((ack) => ack.ok && ack.choice === recorded)).toBe(true);

    const reveal = player.client.next<RevealPayload>('room:reveal');
    await host.emit('room:skip');
    expect((await reveal).answered).toBe(1);
    // A retry after the close (its ack lost in a reconnect, say) is told what counts; a first answer now is LATE.
    expect(await tabs[2]!.emit('answer:submit', { questionIndex: 0, choice: (recorded + 1) % 4 })).toMatchObject({ ok: true, duplicate: true, choice: recorded });
    expect(await other.client.emit('answer:submit', { questionIndex: 0, choice: 0 })).toMatchObject({ ok: false, error: { code: 'LATE' } });
    const results = (await fetchResults(server, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    expect(results.questions[0]!.answered).toBe(1);
    expect(results.players.find((row) => row.nickname === '폭풍')!.answers[0]!.choice).toBe(recorded);
  });

  it('Q3 answers after the close are LATE; answers to a question not open yet are refused', async () => {
    const { server, room, host } = await hostedRoom(2, { questionSeconds: 5, previewSeconds: 0 }, { QUIZ_ANSWER_GRACE_MS: '100' });
    const player = track(await joinRoom(server.url, room.code, '늦잠'));
    const early = await player.client.emit('answer:submit', { questionIndex: 0, choice: 1 });
    expect(early).toMatchObject({ ok: false, error: { code: 'QUESTION_NOT_OPEN' } });
    const [opened] = await openQuestion(host, [player], 0);
    expect(opened!.remainingMs).toBeGreaterThan(4_000);
    const ahead = await player.client.emit('answer:submit', { questionIndex: 1, choice: 1 });
    expect(ahead).toMatchObject({ ok: false, error: { code: 'QUESTION_NOT_OPEN' } });
    // Nobody answers: the timer closes the question at its deadline plus grace.
    const reveal = await player.client.next<RevealPayload>('room:reveal', () => true, 10_000);
    expect(reveal.you).toMatchObject({ choice: null, correct: false, points: 0 });
    const late = await player.client.emit('answer:submit', { questionIndex: 0, choice: 0 });
    expect(late).toMatchObject({ ok: false, error: { code: 'LATE' } });
    const results = (await fetchResults(server, room.roomId, room.hostToken)).body as unknown as RoomResults;
    expect(results.questions[0]!.answered).toBe(0);
  });

  it('Q4 pause freezes the remaining time and refuses answers; resume restarts it; response time excludes the pause', async () => {
    // The room's clock is the wall clock moved on by `pausedMs`: the pause lasts 1.5 s of room time without waiting.
    let pausedMs = 0;
    const roomClock: RoomClock = { now: () => Date.now() + pausedMs, schedule: systemRoomClock.schedule };
    const { server, room, host } = await hostedRoom(1, { questionSeconds: 10, previewSeconds: 0 }, {}, { roomClock });
    const player = track(await joinRoom(server.url, room.code, '멈춤'));
    await openQuestion(host, [player], 0);
    const paused = player.client.next<QuestionPayload>('room:question', (q) => q.paused);
    expect((await host.emit('room:pause')).ok).toBe(true);
    const frozen = await paused;
    expect(frozen.remainingMs).toBeGreaterThan(8_000);
    expect(await player.client.emit('answer:submit', { questionIndex: 0, choice: 0 })).toMatchObject({ ok: false, error: { code: 'ROOM_PAUSED' } });
    expect(await host.emit('room:next')).toMatchObject({ ok: false, error: { code: 'WRONG_PHASE' } });
    pausedMs += 1_500;
    // A reload while paused still shows the frozen time.
    const reloaded = track(await rejoin(server.url, player.playerToken));
    const state = await reloaded.state();
    expect(state).toMatchObject({ phase: 'open', paused: true });
    expect((state as { remainingMs: number }).remainingMs).toBe(frozen.remainingMs);
    const resumed = player.client.next<QuestionPayload>('room:question', (q) => !q.paused);
    expect((await host.emit('room:resume')).ok).toBe(true);
    expect((await resumed).remainingMs).toBeGreaterThan(frozen.remainingMs - 500);
    const ack = await player.client.emit<{ responseMs: number }>('answer:submit', { questionIndex: 0, choice: 0 });
    expect(ack).toMatchObject({ ok: true, responseMs: expect.any(Number) });
    expect((ack as { responseMs: number }).responseMs).toBeLessThan(10_000 - frozen.remainingMs + 1_000);
  });

  it('Q5 kick: the player is told and disconnected, its token is refused, it leaves the standings', async () => {
    const { server, room, host } = await hostedRoom(1, { questionSeconds: 10, previewSeconds: 0 });
    const keep = track(await joinRoom(server.url, room.code, '남음'));
    const gone = track(await joinRoom(server.url, room.code, '나감'));
    const kicked = gone.client.next<{ reason: string }>('room:kicked');
    const disconnected = new Promise<void>((resolve) => gone.client.socket.once('disconnect', () => resolve()));
    expect((await host.emit('room:kick', { playerId: gone.playerId })).ok).toBe(true);
    expect((await kicked).reason).toContain('내보냈');
    await disconnected;
    expect(await host.emit('room:kick', { playerId: 'nobody' })).toMatchObject({ ok: false, error: { code: 'PLAYER_NOT_FOUND' } });
    const retry = QuizClient.open(server.url, { token: gone.playerToken });
    clients.push(retry);
    await expect(retry.ready()).rejects.toThrow('KICKED');
    const players = await host.latest<{ players: { nickname: string }[] }>('room:players', (update) => update.players.length === 1);
    expect(players.players.map((row) => row.nickname)).toEqual(['남음']);
    await openQuestion(host, [keep], 0);
    const reveal = keep.client.next<RevealPayload>('room:reveal');
    await keep.client.emit('answer:submit', { questionIndex: 0, choice: 0 });
    await reveal; // everyone left answered: closes early
    const results = (await fetchResults(server, room.roomId, room.hostToken)).body as unknown as RoomResults;
    expect(results.players.map((row) => row.nickname)).toEqual(['남음']);
  });

  it('Q6 late join on: a player joining mid-question gets it and can answer; late join off refuses ROOM_STARTED', async () => {
    const server = await boot();
    const setup = await createQuiz(server, sampleItems(1));
    const open = await createRoom(server, setup, { questionSeconds: 20, previewSeconds: 0, lateJoin: true });
    const host = track(await openHost(server.url, open.hostToken));
    const first = track(await joinRoom(server.url, open.code, '먼저'));
    await openQuestion(host, [first], 0);
    const late = track(await joinRoom(server.url, open.code, '나중'));
    const state = await late.client.state();
    expect(state).toMatchObject({ phase: 'open', question: { index: 0 }, me: { nickname: '나중', score: 0, answer: null } });
    expect((await late.client.emit('answer:submit', { questionIndex: 0, choice: 0 })).ok).toBe(true);

    const closed = await createRoom(server, setup, { lateJoin: false, previewSeconds: 0 });
    const host2 = track(await openHost(server.url, closed.hostToken));
    track(await joinRoom(server.url, closed.code, '일찍'));
    expect((await host2.emit('room:start')).ok).toBe(true);
    const guest = track(await QuizClient.open(server.url).ready());
    expect(await guest.emit('room:join', { code: closed.code, nickname: '지각' })).toMatchObject({ ok: false, error: { code: 'ROOM_STARTED' } });
  });

  it('Q7 a player reload mid-question gets the same question, the remaining time and its own answer back', async () => {
    const { server, room, host } = await hostedRoom(2, { questionSeconds: 30, previewSeconds: 0 });
    const player = track(await joinRoom(server.url, room.code, '새로고침'));
    const other = track(await joinRoom(server.url, room.code, '그대로'));
    const [opened] = await openQuestion(host, [player, other], 0);
    expect((await player.client.emit('answer:submit', { questionIndex: 0, choice: 2 })).ok).toBe(true);
    player.client.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reloaded = track(await rejoin(server.url, player.playerToken));
    const state = (await reloaded.state()) as RoomStatePayload & { phase: 'open'; remainingMs: number };
    expect(state.phase).toBe('open');
    expect(state.question.index).toBe(0);
    expect(state.question.question).toBe(opened!.question.question);
    expect(state.remainingMs).toBeLessThan(opened!.remainingMs);
    expect(state.remainingMs).toBeGreaterThan(25_000);
    expect(state.me).toMatchObject({ nickname: '새로고침', answer: { questionIndex: 0, choice: 2 } });
    // The second submit after the reload is a duplicate of the first.
    const again = await reloaded.emit<{ duplicate: boolean; choice: number }>('answer:submit', { questionIndex: 0, choice: 3 });
    expect(again).toMatchObject({ ok: true, duplicate: true, choice: 2 });
  });

  it('Q7 a player whose connection drops is recovered as the same player, even without a token in its handshake', async () => {
    const { server, room, host } = await hostedRoom(1, { questionSeconds: 30, previewSeconds: 0 });
    const client = track(await QuizClient.open(server.url, {}, { reconnection: true }).ready());
    const joined = await client.emit<{ playerId: string }>('room:join', { code: room.code, nickname: '끊김' });
    expect(joined.ok).toBe(true);
    await client.state();
    const other = track(await joinRoom(server.url, room.code, '안끊김'));
    await openQuestion(host, [other], 0);
    const recovered = new Promise<boolean>((resolve) => client.socket.once('connect', () => resolve(client.socket.recovered)));
    const state = client.next<RoomStatePayload>('room:state');
    client.socket.io.engine.close(); // an unexpected drop: the client reconnects by itself
    expect(await recovered).toBe(true);
    expect(await state).toMatchObject({ phase: 'open', me: { nickname: '끊김', answer: null } });
    expect(await client.emit('answer:submit', { questionIndex: 0, choice: 1 })).toMatchObject({ ok: true, duplicate: false });
  });

  it('Q8 a host reload gets the phase, the player list and the live answer count', async () => {
    const { server, room, host } = await hostedRoom(1, { questionSeconds: 30, previewSeconds: 0 });
    const a = track(await joinRoom(server.url, room.code, '하나'));
    const b = track(await joinRoom(server.url, room.code, '둘'));
    await openQuestion(host, [a, b], 0);
    await a.client.emit('answer:submit', { questionIndex: 0, choice: 1 });
    await host.next('room:answer-count', (count: { answered: number }) => count.answered === 1);
    host.close();
    const again = track(await openHost(server.url, room.hostToken));
    const state = (await again.state()) as RoomStatePayload & { answered?: number };
    expect(state).toMatchObject({ phase: 'open', code: room.code, playerCount: 2, answered: 1 });
    expect(state.players?.map((row) => row.nickname).sort()).toEqual(['둘', '하나']);
    expect(state).not.toHaveProperty('me');
    expect(state.players?.every((row) => row.connected)).toBe(true);
    const left = again.next<{ players: { nickname: string; connected: boolean }[] }>('room:players', (update) =>
      update.players.some((row) => row.nickname === '둘' && !row.connected),
    );
    b.client.close();
    expect((await left).players.find((row) => row.nickname === '하나')?.connected).toBe(true);
    // A socket counted by a node that crashed (no heartbeat) does not make 둘 connected, and the entry is dropped.
    await server.store.hset(quizKeys.roomPresence(room.roomId), { 'crashed-node|socket1': b.playerId });
    const refreshed = again.next<{ players: { nickname: string; connected: boolean }[] }>('room:players');
    track(await joinRoom(server.url, room.code, '셋'));
    expect((await refreshed).players.find((row) => row.nickname === '둘')?.connected).toBe(false);
    expect(await server.store.hget(quizKeys.roomPresence(room.roomId), 'crashed-node|socket1')).toBeNull();
    expect((await again.emit('room:skip')).ok).toBe(true);
  });

  it('Q9 no frame a player receives carries a solution before its reveal, nor ever an item\'s quizId or sources (every raw frame scanned)', async () => {
    const server = await boot();
    // Generated items carry their quizId and cited passages (QZ5): the owner's, like the answer.
    const items = sampleItems(3).map((item, index) => ({
      ...item,
      quizId: `c0ffee0${index}`,
      sources: [{ chunkId: `0.${index}`, chapter: 0, chapterTitle: '근거 장', startPage: 1, endPage: 2 }],
    }));
    const setup = await createQuiz(server, items);
    const room = await createRoom(server, setup, { questionSeconds: 10, previewSeconds: 1 });
    const host = track(await openHost(server.url, room.hostToken));
    const players = [track(await joinRoom(server.url, room.code, '감시')), track(await joinRoom(server.url, room.code, '검사'))];
    for (let q = 0; q < items.length; q += 1) {
      if (q > 0) await host.emit('room:next');
      const reveals = players.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === q));
      await openQuestion(host, players, q);
      // A reload mid-question too: its snapshot is scanned like everything else.
      await players[1]!.client.emit('answer:submit', { questionIndex: q, choice: (q + 1) % 4 });
      await players[0]!.client.emit('answer:submit', { questionIndex: q, choice: items[q]!.answer });
      await Promise.all(reveals);
    }
    await host.emit('room:next');
    await host.emit('room:next');
    await host.emit('room:end');
    await players[0]!.client.next('room:ended').catch(() => undefined);

    for (const player of players) {
      let revealed = -1;
      expect(player.client.frames.length).toBeGreaterThan(10);
      for (const frame of player.client.frames) {
        const match = /"room:reveal",\{"question":\{"index":(\d+)/.exec(frame);
        if (match) {
          revealed = Number(match[1]);
          continue;
        }
        for (let q = revealed + 1; q < items.length; q += 1) {
          expect(frame).not.toContain(items[q]!.explanation);
        }
        for (const item of items) expect(frame).not.toContain(item.quizId);
        expect(frame).not.toMatch(/chunkId|"sources"|근거 장/u);
        if (/"phase":"(open|preview)"/.test(frame) || frame.includes('"room:question"')) {
          expect(frame).not.toContain('correctChoice');
          expect(frame).not.toContain('explanation');
        }
      }
      expect(revealed).toBe(items.length - 1);
    }
  });

  it('Q10 every host command from a player or a guest socket is refused; bad tokens cannot connect', async () => {
    const { server, setup, room, host } = await hostedRoom(1, { previewSeconds: 0 });
    const player = track(await joinRoom(server.url, room.code, '장난'));
    const guest = track(await QuizClient.open(server.url).ready());
    const commands: Array<[string, unknown]> = [
      ['room:start', {}],
      ['room:next', {}],
      ['room:skip', {}],
      ['room:pause', {}],
      ['room:resume', {}],
      ['room:kick', { playerId: player.playerId }],
      ['room:lock', {}],
      ['room:unlock', {}],
      ['room:end', {}],
    ];
    for (const socket of [player.client, guest]) {
      for (const [command, payload] of commands) {
        expect(await socket.emit(command, payload), command).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      }
    }
    expect(await host.emit('answer:submit', { questionIndex: 0, choice: 0 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await player.client.emit('room:join', { code: room.code, nickname: '또' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const state = await host.state();
    expect(state.phase).toBe('lobby');
    expect((await host.emit('room:start', { extra: 1 })).ok).toBe(false);

    // Two joins racing on one socket: one player, not an orphan counted in the room.
    const racer = track(await QuizClient.open(server.url).ready());
    const raced = await Promise.all([racer.emit('room:join', { code: room.code, nickname: '경주1' }), racer.emit('room:join', { code: room.code, nickname: '경주2' })]);
    expect(raced.map((ack) => (ack.ok ? 'ok' : ack.error.code)).sort()).toEqual(['FORBIDDEN', 'ok']);
    const players = await host.next<{ playerCount: number }>('room:players', (update) => update.playerCount >= 2);
    expect(players.playerCount).toBe(2);

    const forged = `${player.playerToken.split('.')[0]}.AAAA`;
    for (const token of [forged, 'garbage', setup.instructorToken]) {
      const client = QuizClient.open(server.url, { token });
      clients.push(client);
      await expect(client.ready()).rejects.toThrow(/UNAUTHORIZED|FORBIDDEN/);
    }
  });

  it('Q11 nickname rules, unknown code, lock, full room and the join rate limit', async () => {
    const { server, room, host } = await hostedRoom(1, { maxPlayers: 2 }, { QUIZ_JOIN_BURST: '12', QUIZ_JOIN_PER_SECOND: '1' });
    const guest = track(await QuizClient.open(server.url).ready());
    const attempt = (nickname: unknown, code: unknown = room.code) => guest.emit('room:join', { code, nickname });
    expect(await attempt('')).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    expect(await attempt('   ')).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    expect(await attempt('가'.repeat(21))).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    expect(await attempt('탭\t문자')).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    expect(await attempt('영희', '12345')).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    expect(await attempt('영희', room.code === '000000' ? '000001' : '000000')).toMatchObject({ ok: false, error: { code: 'ROOM_NOT_FOUND' } });
    const first = track(await joinRoom(server.url, room.code, '  Alice  '));
    expect((await first.client.state()).me?.nickname).toBe('Alice');
    expect(await attempt('ALICE')).toMatchObject({ ok: false, error: { code: 'NICKNAME_TAKEN' } });
    expect(await attempt('ａｌｉｃｅ')).toMatchObject({ ok: false, error: { code: 'NICKNAME_TAKEN' } });
    expect((await host.emit('room:lock')).ok).toBe(true);
    expect(await attempt('Bob')).toMatchObject({ ok: false, error: { code: 'ROOM_LOCKED' } });
    expect((await host.emit('room:unlock')).ok).toBe(true);
    track(await joinRoom(server.url, room.code, 'Bob'));
    expect(await attempt('Carol')).toMatchObject({ ok: false, error: { code: 'ROOM_FULL' } });
    // Eight attempts from this address so far, of a burst of 12 (refilled at 1/s): a quick run of ten hits the limit.
    const guests = await Promise.all(Array.from({ length: 10 }, async () => track(await QuizClient.open(server.url).ready())));
    const burst = await Promise.all(guests.map((guest, index) => guest.emit('room:join', { code: room.code, nickname: `Dave${index}` })));
    const codes = burst.map((ack) => (ack.ok ? 'ok' : ack.error.code));
    expect(codes).toContain('RATE_LIMITED');
    expect(codes.every((code) => code === 'RATE_LIMITED' || code === 'ROOM_FULL')).toBe(true);
    // Behind a reverse proxy on this machine, the forwarded client address has its own bucket.
    const proxied = track(await QuizClient.open(server.url, {}, { headers: { 'x-forwarded-for': '203.0.113.7' } }).ready());
    expect(await proxied.emit('room:join', { code: room.code, nickname: 'Erin' })).toMatchObject({ ok: false, error: { code: 'ROOM_FULL' } });
  });

  it('Q12 results and room creation check their tokens; a quiz of another class cannot be hosted', async () => {
    const server = await boot();
    const setup = await createQuiz(server, sampleItems(1));
    const other = await createQuiz(server, sampleItems(1));
    const room = await createRoom(server, setup);
    // Another class's token finds no such room (404: no probing).
    expect((await fetchResults(server, room.roomId, other.instructorToken)).status).toBe(404);
    expect((await fetch(`${server.url}/api/rooms/${room.roomId}/results`)).status).toBe(401);
    expect((await fetchResults(server, 'nope', setup.instructorToken)).status).toBe(404);
    const before = (await fetchResults(server, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    expect(before).toMatchObject({ phase: 'lobby', closedQuestions: 0, players: [] });
    const steal = await fetch(`${server.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${other.instructorToken}` },
      body: JSON.stringify({ quizId: setup.quizId }),
    });
    expect(steal.status).toBe(404);
    const anonymous = await fetch(`${server.url}/api/rooms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anonymous.status).toBe(401);
    for (const options of [{ questionSeconds: 4 }, { questionSeconds: 121 }, { maxPlayers: 0 }, { surprise: true }]) {
      const bad = await fetch(`${server.url}/api/rooms`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${setup.instructorToken}` },
        body: JSON.stringify({ quizId: setup.quizId, options }),
      });
      expect(bad.status, JSON.stringify(options)).toBe(400);
    }
    const list = await fetch(`${server.url}/api/rooms`, { headers: { authorization: `Bearer ${setup.instructorToken}` } });
    expect(((await list.json()) as { rooms: { roomId: string }[] }).rooms.map((row) => row.roomId)).toEqual([room.roomId]);
    const qr = await fetch(`${server.url}/api/rooms/join-qr.svg?code=${room.code}`);
    expect(qr.headers.get('content-type')).toContain('image/svg+xml');
    expect(await qr.text()).toContain('<svg');
  });

  it('Q15 the instructor monitor hears every phase change of the class\'s rooms', async () => {
    const server = await boot();
    const setup = await createQuiz(server, sampleItems(1));
    const room = await createRoom(server, setup, { previewSeconds: 0 });
    const monitor = server.socket('/monitor', { token: setup.instructorToken });
    const phases: string[] = [];
    monitor.on('quiz:room', (event: { roomId: string; phase: string }) => {
      if (event.roomId === room.roomId) phases.push(event.phase);
    });
    await new Promise<void>((resolve) => monitor.once('class:roster', () => resolve()));
    const host = track(await openHost(server.url, room.hostToken));
    track(await joinRoom(server.url, room.code, '하나'));
    await host.emit('room:start');
    await host.emit('room:skip');
    await host.emit('room:end');
    await expect.poll(() => phases).toEqual(['open', 'reveal', 'ended']);
  });

  it('Q16 a question closes early once every connected player answered: a player who left does not hold the class up', async () => {
    const { server, room, host } = await hostedRoom(1, { questionSeconds: 60, previewSeconds: 0 });
    const players = [track(await joinRoom(server.url, room.code, '남은1')), track(await joinRoom(server.url, room.code, '남은2'))];
    const gone = track(await joinRoom(server.url, room.code, '떠남'));
    const left = host.next<{ players: { nickname: string; connected: boolean }[] }>('room:players', (update) =>
      update.players.some((row) => row.nickname === '떠남' && !row.connected),
    );
    gone.client.close();
    await left;
    await openQuestion(host, players, 0);
    const reveal = host.next<RevealPayload>('room:reveal');
    const counted = (answered: number) =>
      host.next<{ questionIndex: number; answered: number }>('room:answer-count', (count) => count.questionIndex === 0 && count.answered === answered);
    const firstCounted = counted(1);
    expect(await players[0]!.client.emit('answer:submit', { questionIndex: 0, choice: 0 })).toMatchObject({ ok: true });
    // One connected player still to answer: the question stays open. A barrier, not a sleep: the driver's poll that
    // first sees one answer sends the host that count and, in the same poll, decides whether the round is complete;
    // on the memory store (this test's) that poll runs to its end without waiting on I/O, so the decision is taken
    // before the next answer can even be read. Had it closed the question, the second answer would be LATE and the
    // reveal would reach the host before the count of 2 (the room's events go out in the order they were written).
    await firstCounted;
    const secondCounted = counted(2);
    expect(await players[1]!.client.emit('answer:submit', { questionIndex: 0, choice: 1 })).toMatchObject({ ok: true, duplicate: false });
    await secondCounted;
    expect((await reveal).answered).toBe(2); // long before the 60 s deadline
    const closing = host.events.filter((received) => received.event === 'room:answer-count' || received.event === 'room:reveal');
    expect(closing.map((received) => received.event).slice(-2)).toEqual(['room:answer-count', 'room:reveal']);
  });

  it('Q13 the same game on Redis: state survives in the store and the room closes early once all answered', async () => {
    const { server, setup, room, host } = await hostedRoom(2, { questionSeconds: 30, previewSeconds: 0 }, { REDIS_URL: redis.url });
    const players = [track(await joinRoom(server.url, room.code, '레디스')), track(await joinRoom(server.url, room.code, '스트림'))];
    for (let q = 0; q < 2; q += 1) {
      if (q > 0) await host.emit('room:next');
      await openQuestion(host, players, q);
      const reveal = host.next<RevealPayload>('room:reveal');
      for (const player of players) await player.client.emit('answer:submit', { questionIndex: q, choice: setup.items[q]!.answer });
      expect((await reveal).answered).toBe(2); // well before the 30 s deadline
    }
    await host.emit('room:next');
    await host.emit('room:next');
    const results = (await fetchResults(server, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    expect(results.phase).toBe('podium');
    expect(results.players.every((row) => row.correctCount === 2)).toBe(true);
  });
});
