import type { LeaderboardPayload, PodiumPayload, QuestionPayload, RoomStatePayload } from '../../src/protocol/wire/index.js';
import type { QuizSocket } from './quiz-protocol.js';

/** A `room:state` snapshot while a question is previewed or open. */
export type QuestionState = Extract<RoomStatePayload, { phase: 'preview' | 'open' }>;

/** What a quiz page draws for each phase; the host and the players draw them differently. */
export interface RoomView {
  /** `room:state` (every connection, lock changes): the room's facts; the phase's own handler follows at once. */
  state(state: RoomStatePayload): void;
  lobby(): void;
  /** A question's preview or opening, or its pause/resume; `snapshot` when it comes from `room:state`. */
  question(payload: QuestionPayload, snapshot?: QuestionState): void;
  reveal(reveal: Extract<RoomStatePayload, { phase: 'reveal' }>['reveal']): void;
  leaderboard(board: LeaderboardPayload): void;
  podium(podium: PodiumPayload): void;
  ended(podium: PodiumPayload): void;
}

/**
 * Follows a quiz room: a `room:state` snapshot redraws whatever phase the room is in, and the live phase events
 * call the same handlers, so a page that reloads mid-question draws what a page that watched all along draws.
 */
export function followRoom(socket: QuizSocket, view: RoomView): void {
  socket.on('room:state', (state) => {
    view.state(state);
    showPhase(state, view);
  });
  socket.on('room:question', (payload) => view.question(payload));
  socket.on('room:reveal', (reveal) => view.reveal(reveal));
  socket.on('room:leaderboard', (board) => view.leaderboard(board));
  socket.on('room:podium', (podium) => view.podium(podium));
  socket.on('room:ended', ({ podium }) => view.ended(podium));
}

/** The phase switch of a snapshot. */
export function showPhase(state: RoomStatePayload, view: RoomView): void {
  switch (state.phase) {
    case 'lobby':
      view.lobby();
      break;
    case 'preview':
    case 'open':
      view.question({ phase: state.phase, question: state.question, remainingMs: state.remainingMs, paused: state.paused }, state);
      break;
    case 'reveal':
      view.reveal(state.reveal);
      break;
    case 'leaderboard':
      view.leaderboard(state.leaderboard);
      break;
    case 'podium':
      view.podium(state.podium);
      break;
    case 'ended':
      view.ended(state.podium);
      break;
  }
}
