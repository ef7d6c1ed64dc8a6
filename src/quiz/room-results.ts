import type { AnswerResult, CloudWord, Difficulty, Phase, QuestionType, RoomOptions, Solution, TeamRow } from '../protocol/quiz.js';
import { correctChoiceOf, shownChoices, solutionOf, typeOf } from './item-types.js';
import type { PhaseRecord } from './room-phase.js';
import type { RoomMeta } from './room-repository.js';
import { missedResult, type QuestionResults, type Standings } from './scoring.js';

/**
 * A room's results, as `GET /api/rooms/:id/results` answers them: questions with their solution and answer
 * distribution (closed questions only), players with per-question results, totals and rank. Derived from the
 * recorded answers (see scoring.ts); stored without expiry, in two parts so that a reveal writes what is new only:
 * the head (`resultsHead`: everything but each player's answers, rewritten at each reveal and at the end: the size of
 * the room) and each question's results by player, written when that question is scored (again when the host's
 * review rescores it). `withAnswers` joins them back; a record stored whole before the split has no parts and is
 * read as it is.
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
    type: QuestionType;
    question: string;
    /** As players were shown them (see PublicQuestion.choices). */
    choices: string[];
    /** The correct choice of a 4-choice or O/X question; -1 for other types (see `solution`). */
    answer: number;
    solution?: Solution | undefined;
    explanation: string;
    difficulty: Difficulty;
    distribution: number[];
    /** Word cloud: the words typed, by count. */
    words?: CloudWord[] | undefined;
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
    /** Team mode: the player's team (0-based). */
    team?: number;
  }>;
  /** Team mode: every team, by rank (score: the mean of its members'). */
  teams?: TeamRow[];
}

/** The results with every player's answers, from the standings after the last closed question and every question's results. */
export function buildResults(meta: RoomMeta, record: PhaseRecord, standings: Standings, history: ReadonlyArray<QuestionResults | undefined>): RoomResults {
  return withAnswers(resultsHead(meta, record, standings), history);
}

/**
 * `head` with each player's answers to its closed questions taken from `history[q]` (by player id); a player absent
 * from a question's results joined after it closed and missed it.
 */
export function withAnswers(head: RoomResults, history: ReadonlyArray<QuestionResults | undefined>): RoomResults {
  const questions = head.questions.slice(0, head.closedQuestions);
  return {
    ...head,
    players: head.players.map((player) => ({
      ...player,
      answers: questions.map((question, questionIndex) => ({ questionIndex, ...(history[questionIndex]?.get(player.playerId) ?? missedResult(question)) })),
    })),
  };
}

/** The results without the players' answers (`answers: []`): what a reveal rewrites. */
export function resultsHead(meta: RoomMeta, record: PhaseRecord, standings: Standings): RoomResults {
  const closed = standings.afterQuestion + 1;
  const results: RoomResults = {
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
      const solution = solutionOf(item, meta.roomId, index);
      return {
        index,
        type: typeOf(item),
        question: item.question,
        choices: shownChoices(item, meta.roomId, index),
        answer: correctChoiceOf(solution),
        solution,
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
      answers: [],
      ...(row.team === undefined ? {} : { team: row.team }),
    })),
  };
  if (standings.teams) results.teams = standings.teams;
  return results;
}
