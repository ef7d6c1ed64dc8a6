import type { AnswerResult, Difficulty, Phase, RoomOptions } from '../protocol/quiz.js';
import type { PhaseRecord } from './room-phase.js';
import type { RoomMeta } from './room-repository.js';
import type { Standings } from './scoring.js';

/**
 * A room's results, as `GET /api/rooms/:id/results` answers them: questions with their solution and answer
 * distribution (closed questions only), players with per-question results, totals and rank. Derived from the
 * recorded answers (see scoring.ts); stored without expiry.
 */
export interface RoomResults {
  roomId: string;
  classId: string;
  quizId: string;
  code: string;
  title: string;
  options: RoomOptions;
  createdAt: number;
  endedAt: number | null;
  phase: Phase;
  /** Questions closed so far (all of them once the game is over). */
  closedQuestions: number;
  totalQuestions: number;
  questions: Array<{
    index: number;
    question: string;
    choices: string[];
    answer: number;
    explanation: string;
    difficulty: Difficulty;
    distribution: [number, number, number, number];
    answered: number;
    correct: number;
  }>;
  players: Array<{
    rank: number;
    playerId: string;
    nickname: string;
    score: number;
    correctCount: number;
    totalResponseMs: number;
    answers: Array<AnswerResult & { questionIndex: number }>;
  }>;
}

export function buildResults(meta: RoomMeta, record: PhaseRecord, standings: Standings): RoomResults {
  const closed = standings.afterQuestion + 1;
  return {
    roomId: meta.roomId,
    classId: meta.classId,
    quizId: meta.quizId,
    code: meta.code,
    title: meta.title,
    options: meta.options,
    createdAt: meta.createdAt,
    endedAt: record.phase === 'ended' ? record.endedAt : null,
    phase: record.phase,
    closedQuestions: closed,
    totalQuestions: meta.items.length,
    questions: standings.questions.map((summary, index) => {
      const item = meta.items[index]!;
      return {
        index,
        question: item.question,
        choices: [...item.choices],
        answer: item.answer,
        explanation: item.explanation,
        difficulty: item.difficulty,
        ...summary,
      };
    }),
    players: standings.rows.map((row) => ({
      rank: row.rank,
      playerId: row.playerId,
      nickname: row.nickname,
      score: row.score,
      correctCount: row.correctCount,
      totalResponseMs: row.totalResponseMs,
      answers: row.results.map((result, questionIndex) => ({ questionIndex, ...result })),
    })),
  };
}

/** RFC 4180 field: quoted when needed; a leading =,+,-,@ is prefixed with ' so spreadsheets do not run it. */
function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One row per player and question (choice 1–4 as shown to players), with the player's totals and rank. */
export function resultsCsv(results: RoomResults): string {
  const header = ['rank', 'nickname', 'player_id', 'question', 'choice', 'correct', 'response_ms', 'points', 'streak_bonus', 'total_score', 'correct_count', 'total_response_ms'];
  const lines = [header.join(',')];
  for (const player of results.players) {
    for (const answer of player.answers) {
      lines.push(
        [
          player.rank,
          player.nickname,
          player.playerId,
          answer.questionIndex + 1,
          answer.choice === null ? null : answer.choice + 1,
          answer.correct,
          answer.responseMs,
          answer.points,
          answer.streakBonus,
          player.score,
          player.correctCount,
          player.totalResponseMs,
        ]
          .map(csvField)
          .join(','),
      );
    }
  }
  // A BOM so spreadsheet programs read the Korean nicknames as UTF-8.
  return `\ufeff${lines.join('\r\n')}\r\n`;
}
