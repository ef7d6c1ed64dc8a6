import type { QuizServerEvents } from '../protocol/wire/quiz.js';
import type { PayloadJson } from './payload-json.js';

interface MemberConnection {
  /** This connection's id, unique on this node (names the player's presence entry). */
  readonly id: string;
  readonly roomId: string;
  /** Sends one frame to this connection only. Quiz frames need no replay: every (re)connection gets a `room:state`. */
  send<E extends keyof QuizServerEvents>(event: E, payload: QuizServerEvents[E]): void;
  /**
   * `send` of a payload serialised already (payload-json.ts): the same frame, without serialising per connection what
   * a room's players share (a reveal's question, solution and distribution).
   */
  sendJson<E extends keyof QuizServerEvents>(event: E, json: PayloadJson<QuizServerEvents[E]>): void;
  /** Ends the connection (a kicked player). */
  close(): void;
}

/**
 * One connection of a room's host or of one of its players, as the quiz runtime sees it: what it is and how to
 * reach it, without the transport (like tldraw's `TLRoomSocket`). `realtime/quiz-member.ts` makes one from a
 * socket.io socket; tests drive the runtime with plain objects.
 */
export type RoomMember =
  | (MemberConnection & { readonly role: 'host' })
  | (MemberConnection & { readonly role: 'player'; readonly playerId: string; readonly nickname: string });

export type HostMember = Extract<RoomMember, { role: 'host' }>;
export type PlayerMember = Extract<RoomMember, { role: 'player' }>;
