import { z } from 'zod';
import { Difficulty, ItemQuizId, QuizTopicName } from './quiz.js';
import type * as wire from './wire/self-quiz.js';

/** The zod schemas of seed 001's self-study API (types in ./wire/self-quiz.ts). Strict: an unknown field is a 400. */
export type * from './wire/self-quiz.js';

const MaterialId = z.string().trim().min(1).max(128);

export const SelfQuizStartBody = z
  .object({
    topic: QuizTopicName,
    difficulty: Difficulty.nullable().optional(),
    materialId: MaterialId.optional(),
    chapter: z.number().int().min(0).max(999).optional(),
  })
  .strict() satisfies z.ZodType<wire.SelfQuizStartBody>;

export const SelfQuizAnswerBody = z
  .object({
    quiz_id: ItemQuizId,
    answer: z.number().int().min(0).max(3),
  })
  .strict() satisfies z.ZodType<wire.SelfQuizAnswerBody>;

export const SelfQuizEvaluateBody = z
  .object({
    quiz_id: ItemQuizId,
    topic: QuizTopicName,
  })
  .strict() satisfies z.ZodType<wire.SelfQuizEvaluateBody>;
