import type { AnswerResult, CloudWord, RecordedResponse, RoomItem, TeamRow } from '../protocol/quiz.js';
import { countAnswer, creditOf, emptyDistribution, isUnscored } from './item-types.js';
import { awaitsReview, type ShortGrades } from './short-answer-judge.js';
import { cloudWords } from './text-answers.js';

/**
 * Scoring and standings, as pure functions of the recorded answers: recomputing them from the store at any time
 * gives the same result, so a reveal can be redone by another node after a crash.
 *
 * A correct answer scores round(1000 × (1 − (t / T) / 2)), t the server-measured response time and T the question
 * time (a full 1000 under 0.5 s); with the speed bonus off, a flat 1000. A player granted extra time E has T + E, so
 * the extra time never costs points. Partial credit c (0–1, see item-types.ts) scores round(c × those points); wrong
 * or missing answers score 0 (so does a short answer waiting for the host's review, flagged `unsure`); a poll or word
 * cloud scores nothing and leaves the streak as it was. With the streak bonus on, the n-th fully correct answer in a row adds min(100 × (n − 1), 500). Ties rank by the lower total response time, then by join order;
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
  /**
   * The result of question `afterQuestion` (absent before any question closes). Earlier questions' results are not
   * carried: a table then stays the size of the room whatever the number of questions played, and each question's
   * results are stored once, beside the room's results (room-results.ts), when it is scored.
   */
  result?: AnswerResult;
  /** Team mode: the player's team (see teams.ts). */
  team?: number;
}

export interface QuestionSummary {
  distribution: number[];
  /** Word cloud: the words typed, by count. */
  words?: CloudWord[] | undefined;
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
  /** Short-text questions' grades by question index (see short-answer-judge.ts); absent: none graded. */
  grades?: ReadonlyMap<number, ShortGrades> | undefined;
}

/** Question q's result of every player scored after it, by player id (what room-results.ts keeps per question). */
export type QuestionResults = ReadonlyMap<string, AnswerResult>;

/**
 * Standings after questions 0..afterQuestion from every recorded answer. `answers[q]` maps player id -> answer;
 * answers of players not in `players` (kicked) are ignored. `onQuestion` is given each question's results in turn.
 */
export function computeStandings(
  items: readonly RoomItem[],
  players: readonly ScoredPlayer[],
  answers: readonly ReadonlyMap<string, RecordedAnswer>[],
  afterQuestion: number,
  options: ScoringOptions,
  onQuestion?: (q: number, results: QuestionResults) => void,
): Standings {
  // Every scored player has a row even before the first question closes (a room ended in its first question).
  const start = players.map((player): PlayerStanding => ({ playerId: player.playerId, nickname: player.nickname, score: 0, rank: 0, correctCount: 0, totalResponseMs: 0, streak: 0 }));
  let standings: Standings = { afterQuestion: -1, rows: start, questions: [] };
  for (let q = 0; q <= afterQuestion; q += 1) {
    standings = foldQuestion(items, players, standings, answers[q], q, options);
    onQuestion?.(q, questionResults(standings));
  }
  return sorted(standings, players);
}

/** Every question's results 0..afterQuestion, by question (a recompute from every recorded answer). */
export function standingsHistory(
  items: readonly RoomItem[],
  players: readonly ScoredPlayer[],
  answers: readonly ReadonlyMap<string, RecordedAnswer>[],
  afterQuestion: number,
  options: ScoringOptions,
): QuestionResults[] {
  const history: QuestionResults[] = [];
  computeStandings(items, players, answers, afterQuestion, options, (q, results) => (history[q] = results));
  return history;
}

/** The results of a table's question (`afterQuestion`), by player id. */
export function questionResults(standings: Standings): QuestionResults {
  return new Map(standings.rows.flatMap((row) => (row.result ? [[row.playerId, row.result] as const] : [])));
}

/**
 * The standings after question `q` from those after `q − 1` (`previous`) and question q's answers only: equal to
 * computeStandings over every answer as long as `previous` was computed for a subset of `players` (late joiners
 * have no earlier answers: a closed question refuses writes). Null when it cannot be: `previous` is not the table
 * after `q − 1`, or it has a row of a player who is no longer scored (a kick removes their earlier answers from every
 * question's counts, which only a full recompute does). A reveal does this so its cost does not grow with `q`.
 */
export function extendStandings(
  items: readonly RoomItem[],
  players: readonly ScoredPlayer[],
  previous: Standings,
  answers: ReadonlyMap<string, RecordedAnswer> | undefined,
  q: number,
  options: ScoringOptions,
): Standings | null {
  if (previous.afterQuestion !== q - 1 || previous.questions.length !== q) return null;
  const scored = new Set(players.map((player) => player.playerId));
  if (previous.rows.some((row) => !scored.has(row.playerId))) return null;
  return sorted(foldQuestion(items, players, previous, answers, q, options), players);
}

/** Adds question `q` to `previous` (unsorted rows, ranks left as they were): the one scoring step both paths share. */
function foldQuestion(
  items: readonly RoomItem[],
  players: readonly ScoredPlayer[],
  previous: Standings,
  answers: ReadonlyMap<string, RecordedAnswer> | undefined,
  q: number,
  options: ScoringOptions,
): Standings {
  const item = items[q];
  const distribution = item ? emptyDistribution(item) : [];
  let answered = 0;
  let correct = 0;
  const texts: string[] = [];
  const before = new Map(previous.rows.map((row) => [row.playerId, row]));
  const rows = players.map((player): PlayerStanding => {
    const prior = before.get(player.playerId);
    let { score, streak, correctCount, totalResponseMs } = prior ?? { score: 0, streak: 0, correctCount: 0, totalResponseMs: 0 };
    let result: AnswerResult;
    const answer = answers?.get(player.playerId);
    if (!answer || !item) {
      if (!isUnscored(item)) streak = 0;
      result = missedResult(item);
    } else {
      countAnswer(distribution, item, answer, options.roomId, q);
      answered += 1;
      const { responseMs, allowedMs, ...response } = answer;
      totalResponseMs += responseMs;
      const credit = creditOf(item, answer, options.roomId, q, options.grades?.get(q));
      if (credit === 1) correct += 1;
      if (item.type === 'cloud' && 'text' in answer) texts.push(answer.text);
      const base = { choice: 'choice' in response ? response.choice : null, response, responseMs };
      if (credit === null) {
        // A poll or word cloud: no points, the streak is kept.
        result = { ...base, correct: false, credit: null, points: 0, streakBonus: 0 };
      } else {
        const full = credit === 1;
        streak = full ? streak + 1 : 0;
        if (full) correctCount += 1;
        const bonus = full && options.streakBonus ? streakBonus(streak) : 0;
        const speedPoints = options.speedBonus ? basePoints(responseMs, allowedMs ?? options.questionMs) : 1000;
        const points = Math.round(speedPoints * credit) + bonus;
        score += points;
        const unsure = item.type === 'short' && 'text' in response && awaitsReview(options.grades?.get(q), response.text);
        result = { ...base, correct: full, credit, points, streakBonus: bonus, ...(unsure ? { unsure: true } : {}) };
      }
    }
    return { playerId: player.playerId, nickname: player.nickname, score, rank: 0, correctCount, totalResponseMs, streak, result };
  });
  const summary: QuestionSummary = item?.type === 'cloud' ? { distribution, answered, correct, words: cloudWords(texts) } : { distribution, answered, correct };
  return { afterQuestion: q, rows, questions: [...previous.questions, summary] };
}

/** The result of a question not answered (also of the questions that closed before a late joiner joined). */
export function missedResult(item: { readonly type?: string | undefined } | undefined): AnswerResult {
  return { choice: null, correct: false, credit: isUnscored(item) ? null : 0, responseMs: null, points: 0, streakBonus: 0 };
}

/** Rows in rank order with their ranks (ties: lower total response time, then join order). */
function sorted(standings: Standings, players: readonly ScoredPlayer[]): Standings {
  const joinedAt = new Map(players.map((player) => [player.playerId, player.joinedAt]));
  const rows = [...standings.rows].sort(
    (left, right) =>
      right.score - left.score ||
      left.totalResponseMs - right.totalResponseMs ||
      joinedAt.get(left.playerId)! - joinedAt.get(right.playerId)! ||
      (left.playerId < right.playerId ? -1 : 1),
  );
  // Players with no points tie with each other (competition ranking: all share the place after the last scorer);
  // ordering them by response time or join order would rank people on nothing. Everyone at 0 shares rank 1, which
  // the pages and the CSV show as "no place" (client/ui/quiz-pieces.ts rankLabel, results-csv.ts shownRank).
  const scorers = rows.filter((row) => row.score > 0).length;
  return {
    afterQuestion: standings.afterQuestion,
    questions: standings.questions,
    rows: rows.map((row, index) => ({ ...row, rank: row.score > 0 ? index + 1 : scorers + 1 })),
  };
}
