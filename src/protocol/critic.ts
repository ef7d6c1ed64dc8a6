import { z } from 'zod';
import { MAX_CRITIC_TEXT } from './wire/critic.js';

/**
 * The zod schema of `POST /api/critic/grade` (server only); the answer's types are in ./wire/critic.ts
 * (browser-safe), re-exported here.
 *
 * `grading_criteria.weights` is only checked to be an object here: what its keys and numbers may be (the five
 * criteria, each 0–1, summing to 1) is the rubric's rule (src/critic/rubric.ts), which refuses with INVALID_CRITERIA
 * rather than INVALID_PAYLOAD — for HTTP callers and for in-process callers of the grader alike.
 */
export type * from './wire/critic.js';
export { MAX_CRITIC_TEXT };

/** A text to grade: kept exactly as sent (no trimming: spacing and line breaks are part of its format). */
const GradedText = z.string().max(MAX_CRITIC_TEXT);

export const CriticGradeBody = z
  .object({
    data_to_grade: z
      .object({
        instruction: GradedText.refine((text) => text.trim().length > 0, '지시문이 비어 있으면 안 됩니다.'),
        input: GradedText,
        output: GradedText,
        expected_output: GradedText.optional(),
      })
      .strict(),
    /** Seed 004 calls it required, but its own examples 2 and 3 leave it out: absent means the default weights. */
    grading_criteria: z
      .object({
        criteria_name: z.string().trim().min(1).max(100),
        weights: z.record(z.string().max(64), z.unknown()).optional(),
      })
      .strict()
      .optional(),
    agent_name: z.string().trim().min(1).max(100).optional(),
  })
  .strict();
export type CriticGradeBody = z.infer<typeof CriticGradeBody>;
