import type { TutorEvent } from '../protocol/wire/tutor.js';
import type { SessionObserver } from './session-actor.js';
import type { SessionProfile } from './session-repository.js';
import { chapterOf, type SessionState } from './session-state.js';

/**
 * What a session is doing, as the lecture publishes it to the rest of the product (the instructor's monitor): a
 * small fact instead of the private `SessionState`, so nobody outside `lecture/` reads its fields or switches on its
 * tutoring steps. The dependency runs one way: classroom imports this type; lecture imports nothing of classroom.
 */
export interface SessionActivity {
  sessionId: string;
  materialId: string;
  /** The class the session belongs to; absent for a session without a class. */
  classId?: string;
  /**
   * `idle`, `streaming`, `awaiting-answer`, `tutoring` (the good path, or judging), `remediation` (the bad path:
   * splitting, subquestions, remedial replies), `paused`, `hand-raised` or `finished`.
   */
  state: ActivityState;
  /** The chapter the session is in; undefined before the lecture starts and once it is over. */
  chapter: number | undefined;
}

export type ActivityState = Exclude<SessionState['kind'], 'tutoring'> | 'tutoring' | 'remediation';

/** Receives every session event of the node with the activity it leaves the session in (after it is persisted). */
export interface ActivityObserver {
  onActivity(activity: SessionActivity, event: TutorEvent): void;
}

const REMEDIATION_STEPS: ReadonlySet<string> = new Set(['splitting', 'subquestion', 'subjudging', 'remedial', 'reasking', 'rejudging']);

export function sessionActivity(profile: SessionProfile, state: SessionState): SessionActivity {
  return {
    sessionId: profile.id,
    materialId: profile.materialId,
    ...(profile.classId ? { classId: profile.classId } : {}),
    state: state.kind === 'tutoring' ? (REMEDIATION_STEPS.has(state.step.kind) ? 'remediation' : 'tutoring') : state.kind,
    chapter: chapterOf(state),
  };
}

/** The session actor's observer for an {@link ActivityObserver}: it sees activities, never session states. */
export function observeActivity(observer: ActivityObserver): SessionObserver {
  return { onEvent: (profile, event, state) => observer.onActivity(sessionActivity(profile, state), event) };
}
