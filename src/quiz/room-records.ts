import { z } from 'zod';
import { Difficulty, QUESTION_TYPES, RoomOptions } from '../protocol/quiz.js';
import type { PhaseRecord } from './room-phase.js';
import type { RoomEvent } from './room-repository.js';
import type { RoomResults } from './room-results.js';
import type { Standings } from './scoring.js';

/**
 * Schemas of the room records the server writes and reads back (phase, events, standings, results), so that every
 * read goes through `readJsonRecord` like the others. Each is checked against its type (`z.ZodType<T>`).
 */

const count = z.number().int().min(0);
const Paused = z.object({ remainingMs: z.number(), at: z.number() });

export const PhaseRecordSchema: z.ZodType<PhaseRecord> = z.discriminatedUnion('phase', [
  z.object({ phase: z.literal('lobby'), v: count }),
  z.object({ phase: z.literal('preview'), v: count, q: count, deadline: z.number(), paused: Paused.exactOptional() }),
  z.object({
    phase: z.literal('open'),
    v: count,
    q: count,
    openedAt: z.number(),
    deadline: z.number(),
    paused: Paused.exactOptional(),
    extra: z.record(z.string(), z.number().int().min(0)).exactOptional(),
  }),
  z.object({ phase: z.literal('reveal'), v: count, q: count }),
  z.object({ phase: z.literal('leaderboard'), v: count, q: count }),
  z.object({ phase: z.literal('podium'), v: count }),
  z.object({ phase: z.literal('ended'), v: count, endedAt: z.number() }),
]);

export const RoomEventSchema: z.ZodType<RoomEvent> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('phase'), record: PhaseRecordSchema }),
  z.object({ type: z.literal('locked'), locked: z.boolean() }),
  z.object({ type: z.literal('count'), q: count, answered: count, players: count }),
  z.object({ type: z.literal('players') }),
  z.object({ type: z.literal('kick'), playerId: z.string() }),
  z.object({ type: z.literal('regraded'), q: count }),
]);

const Picks = z.array(z.number().int().min(0));
export const RecordedResponseSchema = z.union([
  z.object({ choice: z.number().int().min(0) }),
  z.object({ choices: Picks }),
  z.object({ order: Picks }),
  z.object({ value: z.number() }),
  z.object({ text: z.string() }),
]);
const SolutionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('choice'), correctChoice: z.number().int() }),
  z.object({ type: z.literal('truefalse'), answer: z.boolean(), correctChoice: z.number().int() }),
  z.object({ type: z.literal('multi'), correctChoices: Picks, allOrNothing: z.boolean() }),
  z.object({ type: z.literal('ordering'), correctOrder: Picks }),
  z.object({ type: z.literal('numeric'), answer: z.number(), tolerance: z.number(), range: z.number(), unit: z.string().exactOptional() }),
  z.object({ type: z.literal('poll') }),
  z.object({ type: z.literal('short'), answer: z.string(), accept: z.array(z.string()) }),
  z.object({ type: z.literal('cloud') }),
]);
export const AnswerResultSchema = z.object({
  choice: z.number().int().nullable(),
  response: RecordedResponseSchema.optional(),
  // Standings stored before partial credit existed have none: right or wrong was all there was.
  credit: z.number().min(0).max(1).nullable().default(null),
  correct: z.boolean(),
  responseMs: z.number().nullable(),
  points: z.number(),
  streakBonus: z.number(),
  unsure: z.boolean().exactOptional(),
});
const Distribution = z.array(count);
const TeamRowSchema = z.object({ team: count, name: z.string(), score: z.number(), rank: count, members: count });

export const StandingsSchema: z.ZodType<Standings> = z.object({
  afterQuestion: z.number().int(),
  rows: z.array(
    z.object({
      playerId: z.string(),
      nickname: z.string(),
      score: z.number(),
      rank: count,
      correctCount: count,
      totalResponseMs: z.number(),
      streak: count,
      result: AnswerResultSchema.exactOptional(),
      team: count.exactOptional(),
    }),
  ),
  questions: z.array(
    z.object({ distribution: Distribution, answered: count, correct: count, words: z.array(z.object({ text: z.string(), count })).exactOptional() }),
  ),
  teams: z.array(TeamRowSchema).exactOptional(),
});

export const RoomResultsSchema: z.ZodType<RoomResults> = z.object({
  roomId: z.string(),
  classId: z.string(),
  quizId: z.string(),
  code: z.string(),
  title: z.string(),
  options: RoomOptions,
  createdAt: z.number(),
  endedAt: z.number().nullable(),
  phase: z.enum(['lobby', 'preview', 'open', 'reveal', 'leaderboard', 'podium', 'ended']),
  closedQuestions: count,
  totalQuestions: count,
  questions: z.array(
    z.object({
      index: count,
      type: z.enum(QUESTION_TYPES).default('choice'),
      question: z.string(),
      choices: z.array(z.string()),
      answer: z.number().int(),
      solution: SolutionSchema.optional(),
      explanation: z.string(),
      difficulty: Difficulty,
      distribution: Distribution,
      words: z.array(z.object({ text: z.string(), count })).exactOptional(),
      answered: count,
      correct: count,
    }),
  ),
  players: z.array(
    z.object({
      rank: count,
      playerId: z.string(),
      nickname: z.string(),
      score: z.number(),
      correctCount: count,
      totalResponseMs: z.number(),
      answers: z.array(AnswerResultSchema.extend({ questionIndex: count })),
      team: count.exactOptional(),
    }),
  ),
  teams: z.array(TeamRowSchema).exactOptional(),
});
