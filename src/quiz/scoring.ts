import type { AnswerResult, QuizItem } from '../protocol/quiz.js';

/**
 * Scoring and standings, as pure functions of the recorded answers: recomputing them from the store at any time
 * gives the same result, so a reveal can be redone by another node after a crash.
 *
 * A correct answer scores round(1000 × (1 − (t / T) / 2)), t the server-measured response time and T the question
 * time (a full 1000 under 0.5 s); wrong or missing answers score 0. With the streak bonus on, the n-th correct
 * answer in a row adds min(100 × (n − 1), 500). Ties rank by the lower total response time, then by join order;
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

/** One recorded answer: the choice and the response time measured by the server. */
export interface RecordedAnswer {
  choice: number;
  responseMs: number;
}

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
}

export interface QuestionSummary {
  distribution: [number, number, number, number];
  answered: number;
  correct: number;
}

export interface Standings {
  afterQuestion: number;
  /** Sorted by rank. */
  rows: PlayerStanding[];
  questions: QuestionSummary[];
}

export interface ScoringOptions {
  questionMs: number;
  streakBonus: boolean;
}

/**
 * Standings after questions 0..afterQuestion from every recorded answer. `answers[q]` maps player id -> answer;
 * answers of players not in `players` (kicked) are ignored.
 */
export function computeStandings(
  items: readonly QuizItem[],
  players: readonly ScoredPlayer[],
  answers: readonly ReadonlyMap<string, RecordedAnswer>[],
  afterQuestion: number,
  options: ScoringOptions,
): Standings {
  const questions: QuestionSummary[] = [];
  for (let q = 0; q <= afterQuestion; q += 1) {
    const distribution: [number, number, number, number] = [0, 0, 0, 0];
    let answered = 0;
    let correct = 0;
    for (const player of players) {
      const answer = answers[q]?.get(player.playerId);
      if (!answer) continue;
      distribution[answer.choice as 0 | 1 | 2 | 3] += 1;
      answered += 1;
      if (answer.choice === items[q]?.answer) correct += 1;
    }
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
        streak = 0;
        results.push({ choice: null, correct: false, responseMs: null, points: 0, streakBonus: 0 });
        continue;
      }
      totalResponseMs += answer.responseMs;
      if (answer.choice !== item.answer) {
        streak = 0;
        results.push({ choice: answer.choice, correct: false, responseMs: answer.responseMs, points: 0, streakBonus: 0 });
        continue;
      }
      streak += 1;
      correctCount += 1;
      const bonus = options.streakBonus ? streakBonus(streak) : 0;
      const points = basePoints(answer.responseMs, options.questionMs) + bonus;
      score += points;
      results.push({ choice: answer.choice, correct: true, responseMs: answer.responseMs, points, streakBonus: bonus });
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
