import type { Socket } from 'socket.io-client';
import type {
  HostCommand,
  JoinRoomPayload,
  JoinRoomResult,
  KickPayload,
  Phase,
  QuizServerEvents,
  SubmitAnswerPayload,
  SubmitAnswerResult,
} from '../../src/protocol/quiz.js';
import type { Emitters } from './socket.js';

/** `/quiz` as the host's and the players' pages see it: the room's events and every command with its ack. */

type Empty = Record<string, never>;
/** A host command's ack: the room's phase after it. */
type HostResult = { phase: Phase };
type HostCommands = { [K in Exclude<HostCommand, 'room:kick'>]: { payload: Empty; result: HostResult } } & {
  'room:kick': { payload: KickPayload; result: HostResult };
};

export type QuizCommands = HostCommands & {
  /** A guest socket joins a room; the ack carries the player token for reconnections. */
  'room:join': { payload: JoinRoomPayload; result: JoinRoomResult };
  'answer:submit': { payload: SubmitAnswerPayload; result: SubmitAnswerResult };
};

/** The quiz server events are declared as listeners already (socket.io's own event-map style). */
export type QuizSocket = Socket<QuizServerEvents, Emitters<QuizCommands>>;
