import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TokenSigner } from '../src/auth/index.js';
import { createLogger } from '../src/kernel/logger.js';
import { RoomOptions, type Quiz, type QuizServerEvents } from '../src/protocol/quiz.js';
import type { PayloadJson } from '../src/quiz/payload-json.js';
import type { RoomMember } from '../src/quiz/room-member.js';
import { RoomRuntime } from '../src/quiz/room-runtime.js';
import { RoomService } from '../src/quiz/room-service.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { SINGLE_NODE } from '../src/store/node-liveness.js';

type Frame = { [E in keyof QuizServerEvents]: { event: E; payload: QuizServerEvents[E] } }[keyof QuizServerEvents];

/** A room member without a transport: it records what the runtime sends it and whether it was closed. */
class FakeMember {
  readonly frames: Frame[] = [];
  closed = 0;
  private waiters: (() => void)[] = [];

  constructor(readonly id: string) {}

  send<E extends keyof QuizServerEvents>(event: E, payload: QuizServerEvents[E]): void {
    this.frames.push({ event, payload } as Frame);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** A frame sent as JSON is recorded as what it parses to (what a client receives). */
  sendJson<E extends keyof QuizServerEvents>(event: E, json: PayloadJson<QuizServerEvents[E]>): void {
    this.send(event, JSON.parse(json) as QuizServerEvents[E]);
  }

  close(): void {
    this.closed += 1;
  }

  /** The first frame named `event` (waits for it: the runtime renders from the room's event stream). */
  async frame<E extends keyof QuizServerEvents>(event: E): Promise<QuizServerEvents[E]> {
    for (;;) {
      const found = this.frames.find((frame) => frame.event === event);
      if (found) return found.payload as QuizServerEvents[E];
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  names(): string[] {
    return this.frames.map((frame) => frame.event);
  }
}

const quiz: Quiz = {
  quizId: 'quiz-1',
  classId: 'class-1',
  title: '분수',
  createdAt: 0,
  items: [
    { question: '1/2 + 1/2 = ?', choices: ['1', '2', '1/4', '0'], answer: 0, explanation: '반과 반은 하나입니다.', difficulty: 'easy' },
    { question: '2 × 3 = ?', choices: ['5', '6', '8', '9'], answer: 1, explanation: '2를 세 번 더하면 6입니다.', difficulty: 'easy' },
  ],
};

describe('RoomRuntime driven through RoomMember (no sockets)', () => {
  let store: MemoryStore;
  let service: RoomService;
  let runtime: RoomRuntime;

  beforeEach(() => {
    store = new MemoryStore();
    const logger = createLogger('silent');
    service = new RoomService({ store, quizzes: { get: async (id) => (id === quiz.quizId ? quiz : null) }, signer: new TokenSigner('test'), logger, answerGraceMs: 500 });
    runtime = new RoomRuntime({ service, store, logger, liveness: SINGLE_NODE });
  });
  afterEach(async () => {
    await runtime.close();
    await store.close();
  });

  async function roomWithPlayer() {
    const { roomId } = await service.create(quiz.classId, { quizId: quiz.quizId, options: RoomOptions.parse({ previewSeconds: 0 }) }, 'account-1');
    const { code } = await service.meta(roomId);
    const joined = await service.join(code, '민지');
    const hostConnection = new FakeMember('host-1');
    const playerConnection = new FakeMember('player-1');
    const host: RoomMember = Object.assign(hostConnection, { roomId, role: 'host' as const });
    const player: RoomMember = Object.assign(playerConnection, { roomId, role: 'player' as const, playerId: joined.playerId, nickname: '민지' });
    await runtime.attach(host);
    await runtime.attach(player);
    return { roomId, joined, host, player, hostConnection, playerConnection };
  }

  it('a snapshot is drawn for the member it is asked for: the host gets the player list, the player its own view', async () => {
    const { host, player, joined } = await roomWithPlayer();
    const hostView = await runtime.snapshot(host);
    expect(hostView.phase).toBe('lobby');
    expect(hostView.players).toEqual([{ playerId: joined.playerId, nickname: '민지', connected: true }]);
    expect(hostView.me).toBeUndefined();
    const playerView = await runtime.snapshot(player);
    expect(playerView.me).toMatchObject({ playerId: joined.playerId, nickname: '민지', answer: null });
    expect(playerView.players).toBeUndefined();
  });

  it('a phase change reaches every attached member; the reveal is per member, with the player’s own result', async () => {
    const { roomId, joined, hostConnection, playerConnection } = await roomWithPlayer();
    await service.command(roomId, 'room:start', {});
    const asked = await playerConnection.frame('room:question');
    expect(asked).toMatchObject({ phase: 'open', question: { index: 0, question: quiz.items[0]!.question } });
    expect(asked.question).not.toHaveProperty('answer');
    expect((await hostConnection.frame('room:question')).question.index).toBe(0);

    await service.submit(roomId, joined.playerId, { questionIndex: 0, choice: 0 });
    await service.command(roomId, 'room:skip', {});
    const playerReveal = await playerConnection.frame('room:reveal');
    expect(playerReveal.correctChoice).toBe(0);
    expect(playerReveal.you).toMatchObject({ choice: 0, correct: true });
    expect((await hostConnection.frame('room:reveal')).you).toBeUndefined();
  });

  it('a kick sends the player room:kicked and closes its connection; the host stays', async () => {
    const { roomId, joined, hostConnection, playerConnection } = await roomWithPlayer();
    await service.command(roomId, 'room:kick', { playerId: joined.playerId });
    expect(await playerConnection.frame('room:kicked')).toEqual({ reason: '진행자가 이 방에서 내보냈습니다.' });
    expect(playerConnection.closed).toBe(1);
    expect(hostConnection.closed).toBe(0);
    expect(hostConnection.names()).not.toContain('room:kicked');
  });

  it('a detached member is sent nothing more', async () => {
    const { roomId, player, hostConnection, playerConnection } = await roomWithPlayer();
    runtime.detach(player);
    await service.command(roomId, 'room:start', {});
    await hostConnection.frame('room:question');
    expect(playerConnection.names()).not.toContain('room:question');
  });
});
