import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { HostCommand, RoomOptions } from '../protocol/quiz.js';

/**
 * A room's phase as stored: the server's record, with deadlines (ms since epoch) rather than remaining times, so
 * any node can tell what is due. `v` grows by one per transition. Fields exist only where they mean something.
 */
export type PhaseRecord =
  | { phase: 'lobby'; v: number }
  | { phase: 'preview'; v: number; q: number; deadline: number; paused?: Paused }
  | { phase: 'open'; v: number; q: number; openedAt: number; deadline: number; paused?: Paused; extra?: Record<string, number> }
  | { phase: 'reveal'; v: number; q: number }
  | { phase: 'leaderboard'; v: number; q: number }
  | { phase: 'podium'; v: number }
  | { phase: 'ended'; v: number; endedAt: number };

export interface Paused {
  remainingMs: number;
  at: number;
}

export type TimedPhase = Extract<PhaseRecord, { deadline: number }>;

export function isTimed(record: PhaseRecord): record is TimedPhase {
  return record.phase === 'preview' || record.phase === 'open';
}

/**
 * Remaining ms of a timed phase at `now` (frozen while paused), for a player with `extraMs` more (an accommodation
 * the open record carries; see RoomService.grantExtraTime).
 */
export function remainingMs(record: TimedPhase, now: number, extraMs = 0): number {
  return (record.paused ? record.paused.remainingMs : Math.max(record.deadline - now, 0)) + extraMs;
}

/** The longest extra time any player has on this open question (the room waits for it before closing). */
export function longestExtra(record: TimedPhase): number {
  if (record.phase !== 'open' || !record.extra) return 0;
  return Math.max(0, ...Object.values(record.extra));
}

interface TransitionContext {
  options: RoomOptions;
  totalQuestions: number;
  now: number;
}

/** Host commands that change the phase record (kick, lock and unlock do not). */
export type PhaseCommand = Exclude<HostCommand, 'room:kick' | 'room:lock' | 'room:unlock'>;

const wrongPhase = (command: string, phase: string) =>
  new AppError(ErrorCode.WRONG_PHASE, `지금(${phase})은 ${command}를 할 수 없습니다.`);

/** The phase a question starts in: its preview, or straight to open when preview time is 0. */
export function startQuestion(q: number, v: number, context: TransitionContext): PhaseRecord {
  const { options, now } = context;
  if (options.previewSeconds > 0) return { phase: 'preview', v, q, deadline: now + options.previewSeconds * 1000 };
  return openQuestion(q, v, context);
}

export function openQuestion(q: number, v: number, { options, now }: TransitionContext): PhaseRecord {
  return { phase: 'open', v, q, openedAt: now, deadline: now + options.questionSeconds * 1000 };
}

/**
 * The record a host command leads to. Throws WRONG_PHASE when the command makes no sense now; the room stays
 * as it was.
 */
export function applyCommand(current: PhaseRecord, command: PhaseCommand, context: TransitionContext): PhaseRecord {
  const v = current.v + 1;
  const { now, totalQuestions } = context;
  if (command === 'room:end') {
    if (current.phase === 'ended') throw wrongPhase(command, current.phase);
    return { phase: 'ended', v, endedAt: now };
  }
  switch (current.phase) {
    case 'lobby':
      if (command === 'room:start') return startQuestion(0, v, context);
      break;
    case 'preview':
      if (command === 'room:skip' && !current.paused) return openQuestion(current.q, v, context);
      if (command === 'room:pause' && !current.paused) return { ...current, v, paused: { remainingMs: remainingMs(current, now), at: now } };
      if (command === 'room:resume' && current.paused) return resumed(current, v, now);
      break;
    case 'open':
      // Skip closes the question now; the reveal counts what was recorded until then.
      if (command === 'room:skip') return { phase: 'reveal', v, q: current.q };
      if (command === 'room:pause' && !current.paused) return { ...current, v, paused: { remainingMs: remainingMs(current, now), at: now } };
      if (command === 'room:resume' && current.paused) return resumed(current, v, now);
      break;
    case 'reveal':
      if (command === 'room:next') return { phase: 'leaderboard', v, q: current.q };
      break;
    case 'leaderboard':
      if (command === 'room:next' || command === 'room:skip') {
        return current.q + 1 < totalQuestions ? startQuestion(current.q + 1, v, context) : { phase: 'podium', v };
      }
      break;
    case 'podium':
      if (command === 'room:next') return { phase: 'ended', v, endedAt: now };
      break;
    case 'ended':
      break;
  }
  throw wrongPhase(command, current.phase);
}

/** Resuming moves the deadline by the paused time; an open question's start moves too, so response times exclude it. */
function resumed(current: TimedPhase, v: number, now: number): PhaseRecord {
  const paused = current.paused;
  if (!paused) return current;
  const { paused: _dropped, ...rest } = current;
  const deadline = now + paused.remainingMs;
  if (rest.phase === 'open') return { ...rest, v, deadline, openedAt: rest.openedAt + (now - paused.at) };
  return { ...rest, v, deadline };
}

/**
 * What a timer does when a timed phase's deadline has passed: preview opens the question; open closes it
 * `graceMs` after its deadline (answers in flight still count). Null when nothing is due.
 */
export function dueTransition(current: PhaseRecord, context: TransitionContext & { graceMs: number }): PhaseRecord | null {
  if (!isTimed(current) || current.paused) return null;
  if (current.phase === 'preview' && context.now >= current.deadline) return openQuestion(current.q, current.v + 1, context);
  if (current.phase === 'open' && context.now >= current.deadline + longestExtra(current) + context.graceMs) return { phase: 'reveal', v: current.v + 1, q: current.q };
  return null;
}

/** When the next timer should fire for this record (null: no timer). */
export function dueAt(current: PhaseRecord, graceMs: number): number | null {
  if (!isTimed(current) || current.paused) return null;
  return current.phase === 'open' ? current.deadline + longestExtra(current) + graceMs : current.deadline;
}
