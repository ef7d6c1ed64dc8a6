import type { AnswerResult, RecordedResponse, RoomItem, TeamRow } from '../protocol/quiz.js';
import { countAnswer, creditOf, emptyDistribution } from './item-types.js';

/**
 * Scoring and standings, as pure functions of the recorded answers: recomputing them from the store at any time
 * gives the same result, so a reveal can be redone by another node after a crash.
 *
 * A correct answer scores round(1000 × (1 − (t / T) / 2)), t the server-measured response time and T the question
 * time (a full 1000 under 0.5 s); with the speed bonus off, a flat 1000. A player granted extra time E has T + E, so
 * the extra time never costs points. Partial credit c (0–1, see item-types.ts) scores round(c × those points); wrong
 * or missing answers score 0; a poll scores nothing and leaves the streak as it was. With the streak bonus on, the
 * n-th fully correct answer in a row adds min(100 × (n − 1), 500). Ties rank by the lower total response time, then by join order;
 * players with 0 points all share the place after the last scorer.
 */

export const FULL_POINTS_UNDER_MS = 500;
export const STREAK_STEP = 100;
export const STREAK_CAP = 500;

export function basePoints(responseMs: number, questionMs: number): number {
  if (responseMs < FULL_POINTS_UNDER_MS) return 1000;
  const ratio = Math.min(Math.max(responseMs / questionMs, 0), 1);
  return Math.round(1000 * (1 - ratio / 2));
}

export function streakBonus(streak: number): number {
  return Math.min(STREAK_STEP * Math.max(streak - 1, 0), STREAK_CAP);
}

/**
 * One recorded answer: what was answered and the response time measured by the server; `allowedMs` when the player
 * had extra time on that question (the question time plus the extra), which speed points are measured against.
 */
export type RecordedAnswer = RecordedResponse & { responseMs: number; allowedMs?: number | undefined };

export interface ScoredPlayer {
  playerId: string;
  nickname: string;
  joinedAt: number;
}

export interface PlayerStanding {
  playerId: string;
  nickname: string;
  score: number;
  rank: number;
  correctCount: number;
  /** Sum of the response times of every recorded answer. */
  totalResponseMs: number;
  streak: number;
  /** Per question 0..afterQuestion. */
  results: AnswerResult[];
  /** Team mode: the player's team (see teams.ts). */
  team?: number;
}

export interface QuestionSummary {
  distribution: number[];
  answered: number;
  correct: number;
}

export interface Standings {
  afterQuestion: number;
  /** Sorted by rank. */
  rows: PlayerStanding[];
  questions: QuestionSummary[];
  /** Team mode: every team, by rank (see teams.ts). */
  teams?: TeamRow[];
}

export interface ScoringOptions {
  questionMs: number;
  streakBonus: boolean;
  /** Off: every fully correct answer scores 1000 regardless of time. */
  speedBonus: boolean;
  /** The room: ordering items' shown order depends on it. */
  roomId: string;
}

/**
 * Standings after questions 0..afterQuestion from every recorded answer. `answers[q]` maps player id -> answer;
 * answers of players not in `players` (kicked) are ignored.
 */
export function computeStandings(
  items: readonly RoomItem[],
  players: readonly ScoredPlayer[],
  answers: readonly ReadonlyMap<string, RecordedAnswer>[],
  afterQuestion: number,
  options: ScoringOptions,
): Standings {
  const questions: QuestionSummary[] = [];
  const credits: Array<Map<string, number | null>> = [];
  for (let q = 0; q <= afterQuestion; q += 1) {
    const item = items[q];
    const distribution = item ? emptyDistribution(item) : [];
    const byPlayer = new Map<string, number | null>();
    let answered = 0;
    let correct = 0;
    for (const player of players) {
      const answer = answers[q]?.get(player.playerId);
      if (!answer || !item) continue;
      countAnswer(distribution, item, answer, options.roomId, q);
      answered += 1;
      const credit = creditOf(item, answer, options.roomId, q);
      byPlayer.set(player.playerId, credit);
      if (credit === 1) correct += 1;
    }
    credits.push(byPlayer);
    questions.push({ distribution, answered, correct });
  }

  const rows = players.map((player) => {
    let score = 0;
    let streak = 0;
    let correctCount = 0;
    let totalResponseMs = 0;
    const results: AnswerResult[] = [];
    for (let q = 0; q <= afterQuestion; q += 1) {
      const answer = answers[q]?.get(player.playerId);
      const item = items[q];
      if (!answer || !item) {
        if (item?.type !== 'poll') streak = 0;
        results.push({ choice: null, correct: false, credit: item?.type === 'poll' ? null : 0, responseMs: null, points: 0, streakBonus: 0 });
        continue;
      }
      const { responseMs, allowedMs, ...response } = answer;
      totalResponseMs += responseMs;
      // null (a poll) is kept: only a missing entry means no credit.
      const recorded = credits[q]?.get(player.playerId);
      const credit = recorded === undefined ? 0 : recorded;
      const base = { choice: 'choice' in response ? response.choice : null, response, responseMs };
      if (credit === null) {
        results.push({ ...base, correct: false, credit: null, points: 0, streakBonus: 0 });
        continue;
      }
      const full = credit === 1;
      streak = full ? streak + 1 : 0;
      if (full) correctCount += 1;
      const bonus = full && options.streakBonus ? streakBonus(streak) : 0;
      const speedPoints = options.speedBonus ? basePoints(responseMs, allowedMs ?? options.questionMs) : 1000;
      const points = Math.round(speedPoints * credit) + bonus;
      score += points;
      results.push({ ...base, correct: full, credit, points, streakBonus: bonus });
    }
    return { player, score, streak, correctCount, totalResponseMs, results };
  });

  rows.sort(
    (left, right) =>
      right.score - left.score ||
      left.totalResponseMs - right.totalResponseMs ||
      left.player.joinedAt - right.player.joinedAt ||
      (left.player.playerId < right.player.playerId ? -1 : 1),
  );
  // Players with no points tie with each other (competition ranking: all share the place after the last scorer);
  // ordering them by response time or join order would rank people on nothing. Everyone at 0 shares rank 1, which
  // the pages and the CSV show as "no place" (client/ui/quiz-pieces.ts rankLabel, results-csv.ts shownRank).
  const scorers = rows.filter((row) => row.score > 0).length;
  return {
    afterQuestion,
    questions,
    rows: rows.map((row, index) => ({
      playerId: row.player.playerId,
      nickname: row.player.nickname,
      score: row.score,
      rank: row.score > 0 ? index + 1 : scorers + 1,
      correctCount: row.correctCount,
      totalResponseMs: row.totalResponseMs,
      streak: row.streak,
      results: row.results,
    })),
  };
}
