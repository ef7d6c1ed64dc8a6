import type { HandServerEvents } from '../../src/protocol/classroom.js';
import type { AnswerSubmitPayload, PublicPhase, SessionResumePayload, SpeedPayload, TutorServerEvents } from '../../src/protocol/tutor.js';
import type { TypedSocket } from './socket.js';

/**
 * `/tutor` as a client sees it: the session's numbered events, the class notices that carry no seq, and the
 * commands with the results their acks carry.
 */

/** Everything the server sends on `/tutor`. */
export type TutorEvents = TutorServerEvents & HandServerEvents;

type Empty = Record<string, never>;
/** The session's state kind after the command; its names are the public phase kinds. */
type StateResult = { state: PublicPhase['kind'] };

export type TutorCommands = {
  'lecture:start': { payload: Empty; result: StateResult };
  'lecture:pause': { payload: Empty; result: StateResult };
  'lecture:resume': { payload: Empty; result: StateResult };
  'lecture:speed': { payload: SpeedPayload; result: { speed: number } };
  'answer:submit': { payload: AnswerSubmitPayload; result: { questionId: string } };
  /** Replays what came after `lastSeq`, or sends a snapshot; `seq` is the session's seq when it answered. */
  'session:resume': { payload: SessionResumePayload; result: { replayed: number; snapshot: boolean; seq: number } };
  'hand:raise': { payload: Empty; result: StateResult };
  'hand:ask': { payload: { text: string }; result: StateResult };
  'hand:reply': { payload: { text: string }; result: StateResult };
  'hand:lower': { payload: Empty; result: StateResult };
};
export type TutorCommandName = keyof TutorCommands;

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
