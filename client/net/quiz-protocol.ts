import type { Socket } from 'socket.io-client';
import type { z } from 'zod';
import type {
  HOST_COMMANDS,
  JoinRoomPayload,
  JoinRoomResult,
  PLAYER_COMMANDS,
  Phase,
  QuizServerEvents,
  SubmitAnswerResult,
} from '../../src/protocol/quiz.js';
import type { Emitters } from './socket.js';

/** `/quiz` as the host's and the players' pages see it: the room's events and every command with its ack. */

/** A host command: what it sends (the input of the server's zod schema, types only) and its ack, the room's phase. */
type HostCommands = { [K in keyof typeof HOST_COMMANDS]: { payload: z.input<(typeof HOST_COMMANDS)[K]>; result: { phase: Phase } } };

export type QuizCommands = HostCommands & {
  /** A guest socket joins a room; the ack carries the player token for reconnections. */
  'room:join': { payload: z.input<typeof JoinRoomPayload>; result: JoinRoomResult };
  'answer:submit': { payload: z.input<(typeof PLAYER_COMMANDS)['answer:submit']>; result: SubmitAnswerResult };
};

/** The quiz server events are declared as listeners already (socket.io's own event-map style). */
export type QuizSocket = Socket<QuizServerEvents, Emitters<QuizCommands>>;
