/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM1 — Types score by credit. On both stores: O/X (choice 0 = 참), multiple correct (credit (right − wrong) /
 *   correct, at least 0; all-or-nothing only the exact set), ordering (shown shuffled, never in the solution's order;
 *   credit = share of pairs in order), numeric (full within the tolerance, linear to 0 at `range`; "340 km" parses
 *   with the item's unit, "삼백" is INVALID_PAYLOAD) and poll (credit null, no points, distribution only). Points =
 *   round(credit × speed points); an answer of the wrong shape is refused. No frame before a question's reveal
 *   carries `solution`, and no `room:question` carries answers, steps in order or tolerance. Results and CSV show
 *   each type.
 * - TM2 — Speed bonus off. With `speedBonus: false` every fully correct answer scores 1000 at 1 s and at 15 s; with
 *   it on, points follow basePoints(t, T) (times on the injected room clock).
 * - TM3 — Extra time. `room:extra-time` (host only) gives one player extra seconds on every question opened after:
 *   their countdown is longer, an answer after the question's deadline counts for them only (others get LATE), speed
 *   points are measured against T + extra, and the room closes after the longest extra time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionPayload, RevealPayload, RoomItem, RoomOptions } from '../src/protocol/quiz.js';
import type { RoomClock } from '../src/quiz/index.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { basePoints } from '../src/quiz/scoring.js';
import { resultsCsv } from '../src/quiz/results-csv.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { QuizClient} from './support/quiz-client.js';
import { createQuiz, createRoom, fetchResults, joinRoom, openHost, type JoinedPlayer, type QuizSetup } from './support/quiz-client.js';

/**
 * TM rules (test/SPEC.md, "Live rooms: question types and fair play"): each question type scored through the real
 * server (socket.io-client, memory store and Redis), the room without speed bonus, and extra time on the room's clock.
 */

const redis = suiteRedis();

/** The rooms' clock, moved by the test: timers fire when the test moves time past them. */
class ManualClock implements RoomClock {
  private time = Date.UTC(2026, 2, 2, 9, 0, 0);
  private timers: Array<{ due: number; callback: () => void }> = [];

  now(): number {
    return this.time;
  }

  private armed: Array<() => void> = [];

  schedule(callback: () => void, delayMs: number): () => void {
    const timer = { due: this.time + Math.max(delayMs, 0), callback };
    this.timers.push(timer);
    for (const resolve of this.armed.splice(0)) resolve();
    return () => {
      this.timers = this.timers.filter((candidate) => candidate !== timer);
    };
  }

  /** Resolves once a timer is waiting (the room's driver has armed the deadline). */
  timerArmed(): Promise<void> {
    if (this.timers.length > 0) return Promise.resolve();
    return new Promise((resolve) => this.armed.push(resolve));
  }

  advance(ms: number): void {
    this.time += ms;
    const due = this.timers.filter((timer) => timer.due <= this.time);
    this.timers = this.timers.filter((timer) => timer.due > this.time);
    for (const timer of due) timer.callback();
  }
}

let app: TestApp | undefined;
const clients: QuizClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await app?.stop();
  app = undefined;
});

const base = { explanation: '해설입니다.', difficulty: 'easy' as const };
const ITEMS: RoomItem[] = [
  { ...base, type: 'truefalse', question: '1. 중앙값은 이상값에 덜 민감하다.', answer: true },
  { ...base, type: 'multi', question: '2. 대푯값을 모두 고르세요.', choices: ['평균', '중앙값', '분산', '최빈값', '범위'], answers: [0, 1, 3] },
  { ...base, type: 'multi', question: '3. 퍼짐의 척도를 모두 고르세요 (전부 맞혀야 점수).', choices: ['분산', '평균', '범위'], answers: [0, 2], allOrNothing: true },
  { ...base, type: 'ordering', question: '4. 가설 검정의 순서대로 늘어놓으세요.', steps: ['가설 세우기', '유의수준 정하기', '검정통계량 계산', '결론 내리기'] },
  { ...base, type: 'numeric', question: '5. 서울–부산 거리는 약 몇 km?', answer: 325, tolerance: 25, range: 125, unit: 'km' },
  { ...base, type: 'poll', question: '6. 오늘 수업은 어땠나요?', explanation: '', choices: ['쉬웠다', '적당했다', '어려웠다'] },
];

async function boot(store: 'memory' | 'redis', clock?: ManualClock) {
  app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url } : {}, clock ? { roomClock: clock } : {});
  return app;
}

async function hosted(store: 'memory' | 'redis', items: RoomItem[], options: Partial<RoomOptions>, nicknames: string[], clock?: ManualClock) {
  const server = await boot(store, clock);
  const setup: QuizSetup = await createQuiz(server, items as never);
  const room = await createRoom(server, setup, options);
  const host = await openHost(server.url, room.hostToken);
  clients.push(host);
  const players: JoinedPlayer[] = [];
  for (const nickname of nicknames) {
    const player = await joinRoom(server.url, room.code, nickname);
    clients.push(player.client);
    players.push(player);
  }
  await host.latest<{ playerCount: number }>('room:players', (update) => update.playerCount === nicknames.length);
  return { server, setup, room, host, players };
}

async function open(host: QuizClient, players: JoinedPlayer[], q: number): Promise<QuestionPayload[]> {
  const opened = players.map((player) => player.client.next<QuestionPayload>('room:question', (payload) => payload.phase === 'open' && payload.question.index === q));
  const ack = await host.emit(q === 0 ? 'room:start' : 'room:next');
  expect(ack.ok).toBe(true);
  return Promise.all(opened);
}

/** Everyone answers question q with the given payloads (in order); resolves with each player's reveal. */
async function answerAll(players: JoinedPlayer[], q: number, answers: Array<Record<string, unknown>>): Promise<RevealPayload[]> {
  const reveals = players.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === q));
  for (const [index, player] of players.entries()) {
    const ack = await player.client.emit('answer:submit', { questionIndex: q, ...answers[index] });
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
  }
  return Promise.all(reveals);
}

describe.each(['memory', 'redis'] as const)('question types (%s store)', (store) => {
  it('TM1 O/X, multiple correct (partial and all-or-nothing), ordering, numeric with unit and poll score by credit; solutions only at reveal', async () => {
    const { server, setup, room, host, players } = await hosted(store, ITEMS, { questionSeconds: 30, previewSeconds: 0, speedBonus: false, streakBonus: false }, ['가람', '나래']);
    const [first, second] = players as [JoinedPlayer, JoinedPlayer];

    // O/X: 참 is choice 0.
    let questions = await open(host, players, 0);
    expect(questions[0]!.question).toMatchObject({ type: 'truefalse', choices: ['참', '거짓'] });
    let reveals = await answerAll(players, 0, [{ choice: 0 }, { choice: 1 }]);
    expect(reveals[0]!.solution).toEqual({ type: 'truefalse', answer: true, correctChoice: 0 });
    expect(reveals[0]!.you).toMatchObject({ correct: true, credit: 1, points: 1000 });
    expect(reveals[1]!.you).toMatchObject({ correct: false, credit: 0, points: 0 });

    // Multi, partial: 2 right of 3 → 2/3; 2 right + 1 wrong of 3 → 1/3.
    await host.emit('room:next');
    questions = await open(host, players, 1);
    expect(questions[0]!.question.choices).toHaveLength(5);
    reveals = await answerAll(players, 1, [{ choices: [0, 1] }, { choices: [3, 1, 2] }]);
    expect(reveals[0]!.you).toMatchObject({ correct: false, credit: 2 / 3, points: 667 });
    expect(reveals[1]!.you).toMatchObject({ credit: 1 / 3, points: 333 });
    expect(reveals[0]!.distribution).toEqual([1, 2, 1, 1, 0]);
    expect(reveals[0]!.solution).toEqual({ type: 'multi', correctChoices: [0, 1, 3], allOrNothing: false });

    // Multi, all-or-nothing: one of two right scores nothing.
    await host.emit('room:next');
    await open(host, players, 2);
    reveals = await answerAll(players, 2, [{ choices: [2, 0] }, { choices: [0] }]);
    expect(reveals[0]!.you).toMatchObject({ correct: true, credit: 1, points: 1000 });
    expect(reveals[1]!.you).toMatchObject({ correct: false, credit: 0, points: 0 });

    // Ordering: shown shuffled (never in the solution's order); credit = share of pairs in order.
    await host.emit('room:next');
    questions = await open(host, players, 3);
    const shown = questions[0]!.question.choices;
    const steps = (ITEMS[3] as { steps: string[] }).steps;
    expect([...shown].sort()).toEqual([...steps].sort());
    expect(shown).not.toEqual(steps);
    const right = steps.map((step) => shown.indexOf(step));
    // The second player swaps the last two steps: 5 of 6 pairs in order.
    const swapped = [right[0]!, right[1]!, right[3]!, right[2]!];
    reveals = await answerAll(players, 3, [{ order: right }, { order: swapped }]);
    expect(reveals[0]!.solution).toEqual({ type: 'ordering', correctOrder: right });
    expect(reveals[0]!.you).toMatchObject({ correct: true, credit: 1, points: 1000 });
    expect(reveals[1]!.you).toMatchObject({ correct: false, credit: 5 / 6, points: 833 });

    // Numeric: within the tolerance is full credit; 375 km is 25 past it on a 100 km slope → 0.75.
    await host.emit('room:next');
    questions = await open(host, players, 4);
    expect(questions[0]!.question).toMatchObject({ type: 'numeric', choices: [], unit: 'km' });
    const refused = await first.client.emit('answer:submit', { questionIndex: 4, text: '삼백' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('INVALID_PAYLOAD');
    reveals = await answerAll(players, 4, [{ text: '340 km' }, { text: '375' }]);
    expect(reveals[0]!.you).toMatchObject({ correct: true, credit: 1, points: 1000, response: { value: 340 } });
    expect(reveals[1]!.you).toMatchObject({ correct: false, credit: 0.75, points: 750 });
    expect(reveals[0]!.solution).toEqual({ type: 'numeric', answer: 325, tolerance: 25, range: 125, unit: 'km' });

    // Poll: no credit, no points; a choice-shaped answer to a poll, an order to a poll is refused.
    await host.emit('room:next');
    await open(host, players, 5);
    const wrongShape = await second.client.emit('answer:submit', { questionIndex: 5, order: [0, 1, 2] });
    expect(wrongShape.ok).toBe(false);
    reveals = await answerAll(players, 5, [{ choice: 2 }, { choice: 2 }]);
    expect(reveals[0]!.you).toMatchObject({ correct: false, credit: null, points: 0 });
    expect(reveals[0]!.distribution).toEqual([0, 0, 2]);
    expect(reveals[0]!.solution).toEqual({ type: 'poll' });

    // No frame a player got before a question's reveal carried its solution.
    for (const player of players) {
      const beforeFirstReveal = player.client.frames.slice(0, player.client.frames.findIndex((frame) => frame.includes('room:reveal')));
      expect(beforeFirstReveal.join('\n')).not.toContain('"solution"');
      expect(player.client.frames.filter((frame) => frame.includes('"room:question"')).join('\n')).not.toMatch(/"answers?"|"steps"|"tolerance"/);
    }

    await host.emit('room:next');
    await host.emit('room:next');
    const results = (await fetchResults(server, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    const byName = new Map(results.players.map((row) => [row.nickname, row]));
    expect(byName.get('가람')!.score).toBe(1000 + 667 + 1000 + 1000 + 1000);
    expect(byName.get('나래')!.score).toBe(333 + 833 + 750);
    expect(results.questions.map((question) => question.type)).toEqual(['truefalse', 'multi', 'multi', 'ordering', 'numeric', 'poll']);
    const csv = resultsCsv(results);
    expect(csv).toContain('340 km');
    expect(csv).toContain('부분 정답');
  });

  it('TM2 with the speed bonus off every fully correct answer scores 1000 however late; on, points follow the response time', async () => {
    const items: RoomItem[] = [
      { ...base, type: 'truefalse', question: '1. 표본이 클수록 표준오차는 작아진다.', answer: true },
      { ...base, type: 'truefalse', question: '2. 분산은 음수일 수 있다.', answer: false },
    ];
    for (const speedBonus of [false, true]) {
      const clock = new ManualClock();
      const { players, host } = await hosted(store, items, { questionSeconds: 20, previewSeconds: 0, speedBonus, streakBonus: false }, ['빠름', '느림'], clock);
      await open(host, players, 0);
      const reveals = players.map((player) => player.client.next<RevealPayload>('room:reveal'));
      clock.advance(1_000);
      const fast = await players[0]!.client.emit<{ responseMs: number }>('answer:submit', { questionIndex: 0, choice: 0 });
      clock.advance(14_000);
      const slow = await players[1]!.client.emit<{ responseMs: number }>('answer:submit', { questionIndex: 0, choice: 0 });
      const [fastReveal, slowReveal] = await Promise.all(reveals);
      expect(fast.ok && fast.responseMs).toBe(1_000);
      expect(slow.ok && slow.responseMs).toBe(15_000);
      expect(fastReveal!.you!.points).toBe(speedBonus ? basePoints(1_000, 20_000) : 1000);
      expect(slowReveal!.you!.points).toBe(speedBonus ? basePoints(15_000, 20_000) : 1000);
      for (const client of clients.splice(0)) client.close();
      await app?.stop();
      app = undefined;
    }
  });

  it('TM3 extra time granted by the host is honoured by the room clock: a later answer counts for that player only, measured against the longer time', async () => {
    const clock = new ManualClock();
    const items: RoomItem[] = [
      { ...base, type: 'truefalse', question: '1. 평균은 이상값에 민감하다.', answer: true },
      { ...base, type: 'truefalse', question: '2. 최빈값은 하나뿐이다.', answer: false },
    ];
    const { players, host } = await hosted(store, items, { questionSeconds: 10, previewSeconds: 0 }, ['보통', '추가'], clock);
    const [plain, extra] = players as [JoinedPlayer, JoinedPlayer];
    // Only a host may grant it; a player asking for itself is refused.
    expect((await extra.client.emit('room:extra-time', { playerId: extra.playerId, seconds: 20 })).ok).toBe(false);
    const granted = await host.emit('room:extra-time', { playerId: extra.playerId, seconds: 20 });
    expect(granted.ok).toBe(true);
    const listed = await host.latest<{ players: Array<{ playerId: string; extraSeconds?: number }> }>('room:players', (update) =>
      update.players.some((player) => player.extraSeconds === 20),
    );
    expect(listed.players.find((player) => player.playerId === plain.playerId)!.extraSeconds).toBeUndefined();

    const questions = await open(host, players, 0);
    expect(questions[0]!.remainingMs).toBe(10_000);
    expect(questions[1]!.remainingMs).toBe(30_000);
    const reveal = host.next<RevealPayload>('room:reveal');
    await clock.timerArmed();
    clock.advance(15_000); // past the question's 10 s (and its grace), within the 30 s of the player with extra time
    const late = await plain.client.emit('answer:submit', { questionIndex: 0, choice: 0 });
    expect(late.ok).toBe(false);
    if (!late.ok) expect(late.error.code).toBe('LATE');
    const counted = await extra.client.emit<{ responseMs: number }>('answer:submit', { questionIndex: 0, choice: 0 });
    expect(counted.ok && counted.responseMs).toBe(15_000);
    // The room waits for the longest extra time before it closes.
    clock.advance(16_000);
    const revealed = await reveal;
    expect(revealed.answered).toBe(1);
    const mine = await extra.client.latest<RevealPayload>('room:reveal');
    expect(mine.you!.points).toBe(basePoints(15_000, 30_000));
  });
});
