import type { TutorEvent, TutorEventName, TutorServerEvents } from '../protocol/wire/tutor.js';

/** Where a session's events go: every socket of the session attached to this node. Typed by the wire map. */
export interface SessionPort {
  emit<K extends TutorEventName>(event: K, payload: TutorServerEvents[K]): void;
}

/** Sends a logged event with the seq the log gave it (the one place a `TutorEvent` becomes its wire payload). */
export function emitNumbered(port: SessionPort, seq: number, event: TutorEvent): void {
  port.emit(event.event, { seq, ...event.payload } as TutorServerEvents[typeof event.event]);
}
