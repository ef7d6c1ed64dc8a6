/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - D1 — Early timers re-arm. A timer that fires before the deadline it waits for finds nothing due and is armed
 *   again for that deadline, until its transition has happened …
 * - D2 — Soak. Three rooms of 10 questions (50 with `SOAK=1`), each with one player who never answers, go through
 *   every preview and question by their deadlines, none missed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionPayload, RevealPayload } from '../src/protocol/quiz.js';
import type { RoomClock } from '../src/quiz/room-clock.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { createQuiz, createRoom, fetchResults, joinRoom, openHost, sampleItems, type QuizClient } from './support/quiz-client.js';

/**
 * D rules (test/SPEC.md): deadline timers of live rooms. The rooms run on a simulated clock that only moves when a
 * timer fires, and every timer fires one millisecond before its due time (as Node timers sometimes do) unless it was
 * armed for a single millisecond. A driver that drops an early timer leaves its room in preview or open for ever;
 * these tests then time out on the step that never came.
 */

/** Simulated time for rooms: each timer runs on the next turn of the event loop, with the clock moved to 1 ms early. */
class EarlyClock implements RoomClock {
  private time = Date.UTC(2026, 0, 5, 9, 0, 0);
  /** Timers that found the clock before their due time when they fired. */
  earlyFires = 0;

  now(): number {
    return this.time;
  }

  schedule(callback: () => void, delayMs: number): () => void {
    const due = this.time + Math.max(delayMs, 0);
    const timer = setTimeout(() => {
      const firesAt = delayMs > 1 ? due - 1 : due;
      this.time = Math.max(this.time, firesAt);
      if (this.time < due) this.earlyFires += 1;
      callback();
    }, 0);
    return () => clearTimeout(timer);
  }
}

let app: TestApp | undefined;
const clients: QuizClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await app?.stop();
  app = undefined;
});

/** Waits for a step of the game, naming it when it never comes (a stalled room). */
function step<T>(waiting: Promise<T>, what: string): Promise<T> {
  return waiting.catch(() => {
    throw new Error(`the room stalled: ${what} never came`);
  });
}

/** A host command; a host that clicks faster than the per-socket rate limit (10/s) waits and clicks again. */
async function command(host: QuizClient, event: string): Promise<void> {
  for (;;) {
    const ack = await host.emit(event);
    if (ack.ok) return;
    expect(ack.error.code).toBe('RATE_LIMITED');
    await new Promise((resolve) => setTimeout(resolve, 120));
  }
}

/**
 * Plays `questions` questions with nobody answering: every preview and every question ends by its deadline alone; the
 * host only moves on from reveal and leaderboard. Resolves with the number of questions that went through.
 */
async function playByTimers(host: QuizClient, questions: number, label: string, timeoutMs: number): Promise<number> {
  let played = 0;
  for (let q = 0; q < questions; q += 1) {
    const opened = step(host.next<QuestionPayload>('room:question', (payload) => payload.phase === 'open' && payload.question.index === q, timeoutMs), `${label}: question ${q} opening`);
    const revealed = step(host.next<RevealPayload>('room:reveal', (payload) => payload.question.index === q, timeoutMs), `${label}: question ${q} closing`);
    // Awaited below; a room that stalls before opening must report that, not an unhandled rejection of this one.
    revealed.catch(() => undefined);
    if (q === 0) await command(host, 'room:start');
    else {
      const leaderboard = host.next('room:leaderboard', () => true, timeoutMs);
      await command(host, 'room:next');
      await leaderboard;
      await command(host, 'room:next');
    }
    await opened;
    const reveal = await revealed;
    expect(reveal.answered).toBe(0);
    played += 1;
  }
  return played;
}

describe('deadline timers of live rooms', () => {
  it('D1 a timer that fires 1 ms before its deadline is armed again: the preview opens and the question closes without the host', async () => {
    const clock = new EarlyClock();
    app = await startTestApp({}, { roomClock: clock });
    const setup = await createQuiz(app, sampleItems(2));
    const room = await createRoom(app, setup, { previewSeconds: 3, questionSeconds: 5 });
    const host = await openHost(app.url, room.hostToken);
    clients.push(host);
    const silent = await joinRoom(app.url, room.code, '조용히');
    clients.push(silent.client);

    expect(await playByTimers(host, 2, 'one room', 10_000)).toBe(2);
    // Each preview and each question had a timer that came early and was armed again.
    expect(clock.earlyFires).toBeGreaterThanOrEqual(4);
    const open = [...host.events].reverse().find((event) => event.event === 'room:question' && (event.payload as QuestionPayload).phase === 'open');
    expect((open?.payload as QuestionPayload).remainingMs).toBeLessThanOrEqual(5_000);
  });

  // The suite plays 10 questions a room; SOAK=1 plays the 50-question soak.
  const QUESTIONS = process.env.SOAK === '1' ? 50 : 10;
  it(`D2 soak: 3 rooms × ${QUESTIONS} questions, one silent player each, never miss a timed transition`, async () => {
    const clock = new EarlyClock();
    app = await startTestApp({}, { roomClock: clock });
    const server = app;
    const games = await Promise.all(
      [0, 1, 2].map(async (index) => {
        const setup = await createQuiz(server, sampleItems(QUESTIONS), `소크 ${index + 1}`);
        const room = await createRoom(server, setup, { previewSeconds: 1, questionSeconds: 5 });
        const host = await openHost(server.url, room.hostToken);
        const silent = await joinRoom(server.url, room.code, `말없음${index + 1}`);
        clients.push(host, silent.client);
        return { index, room, setup, host };
      }),
    );

    const played = await Promise.all(games.map((game) => playByTimers(game.host, QUESTIONS, `room ${game.index + 1}`, 10_000)));
    expect(played).toEqual([QUESTIONS, QUESTIONS, QUESTIONS]);
    // 3 rooms × QUESTIONS × (preview + open) timed transitions. Most come after an early timer; some timers find the
    // shared clock already moved past them by another room's timer: at least half of them.
    expect(clock.earlyFires).toBeGreaterThanOrEqual(3 * QUESTIONS);

    for (const game of games) {
      const results = await fetchResults(server, game.room.roomId, game.setup.instructorToken);
      const body = results.body as unknown as RoomResults;
      expect(body.closedQuestions).toBe(QUESTIONS);
      expect(body.players).toHaveLength(1);
      expect(body.players[0]!.answers.every((answer) => answer.choice === null)).toBe(true);
    }
  });
});
