import type { Socket } from 'socket.io';
import type { MyAnswer, QuizServerEvents } from '../protocol/quiz.js';
import { emitLocal } from '../realtime/local-emit.js';
import type { PhaseRecord } from './room-phase.js';

/** What a `/quiz` socket is, kept on `socket.data`. */
export type QuizSocketData =
  | { role: 'guest' }
  | { role: 'host'; roomId: string }
  | { role: 'player'; roomId: string; playerId: string; nickname: string; answer: MyAnswer | null };

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export type QuizSocket = Socket<{}, QuizServerEvents, {}, QuizSocketData>;
export type MemberSocket = QuizSocket & { data: Exclude<QuizSocketData, { role: 'guest' }> };

/** A typed `emitLocal`: quiz frames need no replay, every (re)connection gets a full `room:state`. */
export function send<E extends keyof QuizServerEvents>(socket: QuizSocket, event: E, ...args: Parameters<QuizServerEvents[E]>): void {
  emitLocal(socket as unknown as Socket, event, ...args);
}

/** One room as this node sees it: its local sockets, the tail of its event stream, and its timers if it drives it. */
export class LocalRoom {
  readonly hosts = new Set<MemberSocket>();
  readonly players = new Map<string, Set<MemberSocket>>();
  record: PhaseRecord | null = null;
  tail: AbortController | null = null;
  watching: Promise<void> | null = null;
  driving = false;
  /** Cancels the driver's deadline timer (see RoomClock), when one is armed. */
  timer: (() => void) | null = null;
  countTimer: NodeJS.Timeout | null = null;
  playersTimer: NodeJS.Timeout | null = null;
  lastCount = -1;
  pollTicks = 0;

  constructor(readonly roomId: string) {}

  get socketCount(): number {
    let count = this.hosts.size;
    for (const sockets of this.players.values()) count += sockets.size;
    return count;
  }

  *playerSockets(): Iterable<MemberSocket & { data: { role: 'player' } }> {
    for (const sockets of this.players.values()) for (const socket of sockets) yield socket as MemberSocket & { data: { role: 'player' } };
  }
}
