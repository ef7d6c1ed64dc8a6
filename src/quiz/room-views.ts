import type {
  LeaderboardPayload,
  LeaderboardRow,
  MyAnswer,
  PhaseView,
  PlayerSummary,
  PodiumPayload,
  PublicQuestion,
  QuestionPayload,
  RevealPayload,
  RoomStatePayload,
} from '../protocol/quiz.js';
import { isTimed, remainingMs, type PhaseRecord } from './room-phase.js';
import type { RoomMeta } from './room-repository.js';
import type { PlayerStanding, Standings } from './scoring.js';
import { correctChoiceOf, isUnscored, shownChoices, solutionOf, typeOf } from './item-types.js';
import type { ShortGrades } from './short-answer-judge.js';
import { pageAlt, roomPictureUrl } from './page-pictures.js';
import { reviewList } from './short-review.js';

/**
 * What sockets are sent, built from the stored records. These are the only functions that turn a room's items
 * into outbound payloads: `publicQuestion` copies the four fields players may see and nothing else, and the
 * solution appears only in `revealView`, which is called for closed questions.
 */

export const LEADERBOARD_SIZE = 10;
export const PODIUM_SIZE = 3;

/** Who a view is for: the host (projected screen) or one player. */
export type Viewer = { kind: 'host' } | { kind: 'player'; playerId: string };

export function publicQuestion(meta: RoomMeta, q: number): PublicQuestion {
  const item = meta.items[q];
  if (!item) throw new Error(`room ${meta.roomId} has no question ${q}`);
  const question: PublicQuestion = {
    index: q,
    total: meta.items.length,
    type: typeOf(item),
    question: item.question,
    choices: shownChoices(item, meta.roomId, q),
    difficulty: item.difficulty,
  };
  if (item.type === 'numeric' && item.unit !== undefined) question.unit = item.unit;
  // Both kinds are served by the room, to its members, once the question is on screen (page-pictures.ts).
  if (typeof item.image === 'string') question.image = { url: roomPictureUrl(meta.roomId, q), alt: item.imageAlt ?? '', kind: 'image' };
  else if (item.image !== undefined) question.image = { url: roomPictureUrl(meta.roomId, q), alt: item.imageAlt || pageAlt(item.image.page), kind: 'page' };
  return question;
}

/** Extra ms the viewer has on this open question (a player's accommodation; 0 for everyone else). */
export function extraFor(record: PhaseRecord, viewer: Viewer): number {
  return record.phase === 'open' && viewer.kind === 'player' ? (record.extra?.[viewer.playerId] ?? 0) : 0;
}

export function questionView(meta: RoomMeta, record: PhaseRecord, now: number, extraMs = 0): QuestionPayload | null {
  if (!isTimed(record)) return null;
  return { phase: record.phase, question: publicQuestion(meta, record.q), remainingMs: remainingMs(record, now, extraMs), paused: Boolean(record.paused) };
}

/** Standings rows by player id, built once per standings table and reused for every socket. */
export class StandingsIndex {
  private readonly byPlayer = new Map<string, PlayerStanding>();
  readonly top: LeaderboardRow[];

  constructor(readonly standings: Standings) {
    for (const row of standings.rows) this.byPlayer.set(row.playerId, row);
    this.top = standings.rows.slice(0, LEADERBOARD_SIZE).map(leaderboardRow);
  }

  row(playerId: string): PlayerStanding | undefined {
    return this.byPlayer.get(playerId);
  }
}

function leaderboardRow(row: PlayerStanding): LeaderboardRow {
  const shown: LeaderboardRow = { playerId: row.playerId, nickname: row.nickname, score: row.score, rank: row.rank };
  if (row.team !== undefined) shown.team = row.team;
  return shown;
}

/** The part of question `q`'s reveal every viewer shares (standings must be those after `q`). */
export function revealShared(meta: RoomMeta, q: number, index: StandingsIndex): RevealPayload {
  const item = meta.items[q];
  const summary = index.standings.questions[q];
  if (!item || !summary) throw new Error(`room ${meta.roomId}: no standings for question ${q}`);
  const solution = solutionOf(item, meta.roomId, q);
  const reveal: RevealPayload = {
    question: publicQuestion(meta, q),
    correctChoice: correctChoiceOf(solution),
    solution,
    explanation: item.explanation,
    distribution: summary.distribution,
    answered: summary.answered,
  };
  if (summary.words) reveal.words = summary.words;
  return reveal;
}

/**
 * The reveal of closed question `q` (standings must be those after `q`). `shared` is revealShared's part, built once
 * when one reveal goes to many sockets. `grades`: a short-text question's grades, whose unsure answers the host
 * (only) is shown to review.
 */
export function revealView(meta: RoomMeta, q: number, index: StandingsIndex, viewer: Viewer, shared = revealShared(meta, q, index), grades?: ShortGrades): RevealPayload {
  if (viewer.kind !== 'player') {
    return meta.items[q]?.type === 'short' && viewer.kind === 'host' && grades ? { ...shared, review: reviewList(grades) } : { ...shared };
  }
  return { ...shared, you: revealYou(meta, q, index, viewer.playerId) };
}

/** A player's own part of question `q`'s reveal (`you`): their result, score and rank after it. */
export function revealYou(meta: RoomMeta, q: number, index: StandingsIndex, playerId: string): NonNullable<RevealPayload['you']> {
  const row = index.row(playerId);
  // A table carries the result of its own question only (scoring.ts PlayerStanding.result).
  const result = index.standings.afterQuestion === q ? row?.result : undefined;
  return row && result
    ? { ...result, score: row.score, rank: row.rank }
    : { choice: null, correct: false, credit: isUnscored(meta.items[q]) ? null : 0, responseMs: null, points: 0, streakBonus: 0, score: row?.score ?? 0, rank: row?.rank ?? index.standings.rows.length + 1 };
}

export function leaderboardView(index: StandingsIndex, viewer: Viewer): LeaderboardPayload {
  const payload: LeaderboardPayload = { afterQuestion: index.standings.afterQuestion, top: index.top, players: index.standings.rows.length };
  const you = youRow(index, viewer);
  if (you) payload.you = you;
  if (index.standings.teams) payload.teams = index.standings.teams;
  return payload;
}

export function podiumView(index: StandingsIndex, viewer: Viewer): PodiumPayload {
  const payload: PodiumPayload = { top: index.top, players: index.standings.rows.length };
  const you = youRow(index, viewer);
  if (you) payload.you = you;
  if (index.standings.teams) payload.teams = index.standings.teams;
  return payload;
}

function youRow(index: StandingsIndex, viewer: Viewer): LeaderboardRow | undefined {
  if (viewer.kind !== 'player') return undefined;
  const row = index.row(viewer.playerId);
  return row ? leaderboardRow(row) : undefined;
}

export interface SnapshotInput {
  meta: RoomMeta;
  record: PhaseRecord;
  locked: boolean;
  playerCount: number;
  /** Standings after the phase's question for reveal/leaderboard, the latest ones otherwise. */
  standings: StandingsIndex;
  now: number;
  viewer: Viewer;
  /** Player view: nickname, the answer recorded for the current question and (team mode) the player's team. */
  me?: { nickname: string; answer: MyAnswer | null; team?: number | undefined };
  /** Host view. */
  players?: PlayerSummary[];
  answered?: number;
  /** Host view of a short-text reveal: the question's grades (its review list). */
  grades?: ShortGrades;
}

export function phaseView(input: SnapshotInput): PhaseView {
  const { meta, record, standings, now, viewer } = input;
  switch (record.phase) {
    case 'lobby':
      return { phase: 'lobby' };
    case 'preview':
      return { phase: 'preview', question: publicQuestion(meta, record.q), remainingMs: remainingMs(record, now), paused: Boolean(record.paused) };
    case 'open': {
      const view: PhaseView = {
        phase: 'open',
        question: publicQuestion(meta, record.q),
        remainingMs: remainingMs(record, now, extraFor(record, viewer)),
        paused: Boolean(record.paused),
      };
      if (viewer.kind === 'host' && input.answered !== undefined) view.answered = input.answered;
      return view;
    }
    case 'reveal':
      return { phase: 'reveal', reveal: revealView(meta, record.q, standings, viewer, undefined, input.grades) };
    case 'leaderboard':
      return { phase: 'leaderboard', leaderboard: leaderboardView(standings, viewer) };
    case 'podium':
      return { phase: 'podium', podium: podiumView(standings, viewer) };
    case 'ended':
      return { phase: 'ended', podium: podiumView(standings, viewer) };
  }
}

export function snapshotView(input: SnapshotInput): RoomStatePayload {
  const { meta, viewer } = input;
  const state: RoomStatePayload = {
    ...phaseView(input),
    roomId: meta.roomId,
    code: meta.code,
    title: meta.title,
    totalQuestions: meta.items.length,
    options: meta.options,
    locked: input.locked,
    playerCount: input.playerCount,
  };
  if (viewer.kind === 'player' && input.me) {
    const row = input.standings.row(viewer.playerId);
    state.me = {
      playerId: viewer.playerId,
      nickname: input.me.nickname,
      score: row?.score ?? 0,
      rank: row ? row.rank : null,
      answer: input.me.answer,
    };
    if (input.me.team !== undefined) state.me.team = input.me.team;
  }
  if (viewer.kind === 'host' && input.players) state.players = input.players;
  return state;
}
