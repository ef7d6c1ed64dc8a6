import { z } from 'zod';
import type { CommandSchemas } from './command-schemas.js';
import type * as wire from './wire/jobs.js';

/**
 * The zod schemas of background jobs and math problem sets (server only): the HTTP bodies and the `/jobs` commands.
 * Their outbound types are in ./wire/jobs.ts (browser-safe), re-exported here.
 */
export type * from './wire/jobs.js';

/** Most problems one math job writes (seed 002's request: up to 20). */
export const MAX_MATH_PROBLEMS = 20;

/** `POST /api/materials/:id/math-problems`: how many problems, how many of them multiple choice, difficulty, chapter. */
export const MathProblemsBody = z
  .object({
    count: z.number().int().min(1).max(MAX_MATH_PROBLEMS),
    /** How many of `count` are multiple choice (the rest short answer). */
    multipleChoice: z.number().int().min(0).max(MAX_MATH_PROBLEMS),
    /** One difficulty for all; a mix (2/5 easy, 2/5 medium, the rest hard) when absent. */
    difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
    /** 0-based chapter index of the material; the whole material when absent. */
    chapter: z.number().int().min(0).max(999).optional(),
  })
  .strict()
  .refine((body) => body.multipleChoice <= body.count, { message: '객관식 문제 수는 전체 문제 수보다 많을 수 없습니다.', path: ['multipleChoice'] });
export type MathProblemsBody = z.infer<typeof MathProblemsBody>;

/** `POST /api/math-sets/:id/quiz`: the quiz's title and class (optional, as `POST /api/quizzes`). */
export const MathSetQuizBody = z
  .object({
    title: z.string().trim().min(1).max(100).optional(),
    classId: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type MathSetQuizBody = z.infer<typeof MathSetQuizBody>;

/** `POST /api/math-sets/:id/problems/:problemId/answer`: a student's short answer (LaTeX or words, ≤ 500 characters). */
export const MathShortAnswerBody = z
  .object({
    answer: z.string().trim().min(1).max(500),
  })
  .strict();
export type MathShortAnswerBody = z.infer<typeof MathShortAnswerBody>;

/** `POST /api/math-sets/:id/share`: the owner's class its students answer the set's short-answer problems in. */
export const MathSetShareBody = z
  .object({
    classId: z.string().trim().min(1).max(64),
  })
  .strict();
export type MathSetShareBody = z.infer<typeof MathSetShareBody>;

/** `POST /api/class-math/answer`: a class student's short answer to a problem of a set shared with their class. */
export const ClassMathAnswerBody = z
  .object({
    setId: z.string().trim().min(1).max(64),
    problemId: z.string().trim().min(1).max(64),
    answer: z.string().trim().min(1).max(500),
  })
  .strict();
export type ClassMathAnswerBody = z.infer<typeof ClassMathAnswerBody>;

const NoFields = z.object({}).strict();

/** The schema of every `/jobs` command, by name. */
export const JOBS_COMMANDS = {
  'job:cancel': NoFields,
} as const satisfies CommandSchemas<wire.JobsCommands>;
