import type { HandServerEvents } from '../../src/protocol/classroom.js';
import type { z } from 'zod';
import type { PublicPhase, TUTOR_COMMANDS, TutorServerEvents } from '../../src/protocol/tutor.js';
import type { Assert, SameKeys, TypedSocket } from './socket.js';

/**
 * `/tutor` as a client sees it: the session's numbered events, the class notices that carry no seq, and the
 * commands with the results their acks carry.
 */

/** Everything the server sends on `/tutor`. */
export type TutorEvents = TutorServerEvents & HandServerEvents;

/** What a client sends for each command: the input of the server's own zod schema (types only, no zod at run time). */
type Payload<K extends keyof typeof TUTOR_COMMANDS> = z.input<(typeof TUTOR_COMMANDS)[K]>;
/** The session's state kind after the command; its names are the public phase kinds. */
type StateResult = { state: PublicPhase['kind'] };

export type TutorCommands = {
  'lecture:start': { payload: Payload<'lecture:start'>; result: StateResult };
  'lecture:pause': { payload: Payload<'lecture:pause'>; result: StateResult };
  'lecture:resume': { payload: Payload<'lecture:resume'>; result: StateResult };
  'lecture:speed': { payload: Payload<'lecture:speed'>; result: { speed: number } };
  'answer:submit': { payload: Payload<'answer:submit'>; result: { questionId: string } };
  /** Replays what came after `lastSeq`, or sends a snapshot; `seq` is the session's seq when it answered. */
  'session:resume': { payload: Payload<'session:resume'>; result: { replayed: number; snapshot: boolean; seq: number } };
  'hand:raise': { payload: Payload<'hand:raise'>; result: StateResult };
  'hand:ask': { payload: Payload<'hand:ask'>; result: StateResult };
  'hand:reply': { payload: Payload<'hand:reply'>; result: StateResult };
  'hand:lower': { payload: Payload<'hand:lower'>; result: StateResult };
};
export type TutorCommandName = keyof TutorCommands;

/** Fails to compile when the server gains or loses a command this map does not list. */
export type TutorCommandsCoverServer = Assert<SameKeys<TutorCommands, typeof TUTOR_COMMANDS>>;

export type TutorSocket = TypedSocket<TutorEvents, TutorCommands>;

/** A numbered session event (everything but the snapshot), as a union a `switch (event.name)` narrows. */
export type SessionEvent = {
  [K in Exclude<keyof TutorServerEvents, 'session:state'>]: { name: K; payload: TutorServerEvents[K] };
}[Exclude<keyof TutorServerEvents, 'session:state'>];

/** A notice from the class, outside the session's numbering (never replayed, never dropped by seq checks). */
export type ClassNotice = { [K in keyof HandServerEvents]: { name: K; payload: HandServerEvents[K] } }[keyof HandServerEvents];

const CLASS_NOTICES: ReadonlySet<string> = new Set<keyof HandServerEvents>(['class:announcement', 'hand:acknowledged']);

/** Any frame of `/tutor`, sorted: the one place where an event name and an untyped payload become a typed value. */
export type TutorFrame =
  | { kind: 'snapshot'; payload: TutorServerEvents['session:state'] }
  | { kind: 'class'; notice: ClassNotice }
  | { kind: 'session'; event: SessionEvent };

export function readTutorFrame(name: string, payload: unknown): TutorFrame | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  if (CLASS_NOTICES.has(name)) return { kind: 'class', notice: { name, payload } as ClassNotice };
  const seq = (payload as { seq?: unknown }).seq;
  if (typeof seq !== 'number') return undefined;
  if (name === 'session:state') {
    const state = (payload as { state?: unknown }).state;
    return state ? { kind: 'snapshot', payload: payload as TutorServerEvents['session:state'] } : undefined;
  }
  return { kind: 'session', event: { name, payload } as SessionEvent };
}
