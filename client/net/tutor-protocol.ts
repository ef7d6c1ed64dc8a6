import type { HandServerEvents, TutorCommand, TutorCommands, TutorServerEvents, TutorSocketEvents } from '../../src/protocol/wire/index.js';
import type { NamespaceSocket } from './socket.js';

/**
 * `/tutor` as a client sees it: the session's numbered events, the class notices that carry no seq, and the
 * commands with the results their acks carry (all from src/protocol/wire).
 */

export type { TutorCommands };
/** Everything the server sends on `/tutor`. */
export type TutorEvents = TutorSocketEvents;
export type TutorCommandName = TutorCommand;
export type TutorSocket = NamespaceSocket<'/tutor'>;

/** A numbered session event (everything but the snapshot), as a union a `switch (event.name)` narrows. */
export type SessionEvent = {
  [K in Exclude<keyof TutorServerEvents, 'session:state'>]: { name: K; payload: TutorServerEvents[K] };
}[Exclude<keyof TutorServerEvents, 'session:state'>];

/** A notice from the class, outside the session's numbering (never replayed, never dropped by seq checks). */
export type ClassNotice = { [K in keyof HandServerEvents]: { name: K; payload: HandServerEvents[K] } }[keyof HandServerEvents];

const CLASS_NOTICES: ReadonlySet<string> = new Set<keyof HandServerEvents>(['class:announcement', 'hand:acknowledged', 'class:closed', 'exam:closed', 'exam:result']);

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
