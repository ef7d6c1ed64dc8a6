import { z } from 'zod';
import { Difficulty, QuizTopicName, SeedItemId } from './quiz.js';
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
    quiz_id: SeedItemId,
    answer: z.number().int().min(0).max(3),
  })
  .strict() satisfies z.ZodType<wire.SelfQuizAnswerBody>;

export const SelfQuizEvaluateBody = z
  .object({
    quiz_id: SeedItemId,
    topic: QuizTopicName,
  })
  .strict() satisfies z.ZodType<wire.SelfQuizEvaluateBody>;

/** The quiz data of an evaluation without a served item; QuizItem's own rules are applied by the EvalAgent. */
export const SelfQuizEvaluateDataBody = z
  .object({
    quiz_data: z
      .object({
        question: z.string().trim().min(1).max(500),
        choices: z.array(z.string().trim().min(1).max(200)).length(4),
        answer: z.number().int().min(0).max(3),
        explanation: z.string().trim().min(1).max(1000),
        difficulty: Difficulty.optional(),
      })
      .strict(),
    topic: QuizTopicName,
    source: z.string().trim().min(1).max(4000).optional(),
    materialId: MaterialId.optional(),
  })
  .strict() satisfies z.ZodType<wire.SelfQuizEvaluateDataBody>;
