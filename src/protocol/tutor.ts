import { z } from 'zod';
import { JoinCode } from './classroom.js';
import type { CommandSchemas } from './command-schemas.js';
import { Nickname } from './display-name.js';
import type * as events from './wire/events.js';
import type * as wire from './wire/tutor.js';

/**
 * The `/tutor` namespace's zod schemas (server only). The types of every event and command, safe to import in a
 * browser, are in ./wire/tutor.ts; each schema here `satisfies` its wire type.
 */

// ---- HTTP
export const CreateSessionBody = z
  .object({
    /** Optional only with `classCode` whose class has a material. */
    materialId: z.string().trim().min(1).max(128).optional(),
    nickname: Nickname,
    /** Join a class (same as `POST /api/classes/:code/join`). */
    classCode: JoinCode.optional(),
  })
  .refine((body) => body.materialId !== undefined || body.classCode !== undefined, {
    message: '강의 자료를 고르거나 수업 코드를 적어 주세요.',
    path: ['materialId'],
  });
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

// ---- client -> server commands
export const EmptyPayload = z.object({}).strict() satisfies z.ZodType<events.EmptyPayload>;
export const SpeedPayload = z.object({ tokensPerSecond: z.number().int().min(1).max(200) }).strict() satisfies z.ZodType<wire.SpeedPayload>;
export const AnswerSubmitPayload = z
  .object({ questionId: z.string().min(1).max(64), text: z.string().trim().min(1).max(2000) })
  .strict() satisfies z.ZodType<wire.AnswerSubmitPayload>;
export const SessionResumePayload = z.object({ lastSeq: z.number().int().min(0) }).strict() satisfies z.ZodType<wire.SessionResumePayload>;
export const HandTextPayload = z.object({ text: z.string().trim().min(1).max(2000) }).strict() satisfies z.ZodType<wire.HandTextPayload>;
export const SelfAssessPayload = z
  .object({ questionId: z.string().min(1).max(64), choice: z.enum(['similar', 'review']) })
  .strict() satisfies z.ZodType<wire.SelfAssessPayload>;

/** The schema of every `/tutor` command, by name: the command helper looks a command's schema up here. */
export const TUTOR_COMMANDS = {
  'lecture:start': EmptyPayload,
  'lecture:pause': EmptyPayload,
  'lecture:resume': EmptyPayload,
  'lecture:speed': SpeedPayload,
  'answer:submit': AnswerSubmitPayload,
  'session:resume': SessionResumePayload,
  'hand:raise': EmptyPayload,
  'hand:ask': HandTextPayload,
  'hand:reply': HandTextPayload,
  'hand:lower': EmptyPayload,
  'answer:self-assess': SelfAssessPayload,
} as const satisfies CommandSchemas<wire.TutorCommands>;
