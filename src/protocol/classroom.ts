import { z } from 'zod';
import type { CommandSchemas } from './command-schemas.js';
import { ClassName, Nickname } from './display-name.js';
import { JOIN_CODE_ALPHABET } from './wire/classroom.js';
import type * as wire from './wire/classroom.js';

/**
 * The zod schemas of classes and of the `/monitor` commands (server only). Their types, and the events of
 * `/monitor` and the class notices on `/tutor`, are in ./wire/classroom.ts (browser-safe), re-exported here.
 */
export type * from './wire/classroom.js';
export { JOIN_CODE_ALPHABET };

// ---- HTTP
export const CreateClassBody = z.object({
  name: ClassName,
  /** The lecture material students of this class study (they may pick one themselves when absent). */
  materialId: z.string().trim().min(1).max(128).optional(),
}) satisfies z.ZodType<wire.CreateClassBody>;
export type CreateClassBody = wire.CreateClassBody;

export const JoinClassBody = z.object({
  nickname: Nickname,
  materialId: z.string().trim().min(1).max(128).optional(),
}) satisfies z.ZodType<wire.JoinClassBody>;
export type JoinClassBody = wire.JoinClassBody;

export const JoinCode = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(new RegExp(`^[${JOIN_CODE_ALPHABET}]{6}$`)));

// ---- /monitor (instructor -> server)
export const AnnouncePayload = z.object({ text: z.string().trim().min(1).max(500) }).strict() satisfies z.ZodType<wire.AnnouncePayload>;
export const AcknowledgePayload = z.object({ sessionId: z.string().min(1).max(64) }).strict() satisfies z.ZodType<wire.AcknowledgePayload>;
export type AnnouncePayload = wire.AnnouncePayload;
export type AcknowledgePayload = wire.AcknowledgePayload;

/** The schema of every `/monitor` command, by name. */
export const MONITOR_COMMANDS = {
  'class:announce': AnnouncePayload,
  'hand:acknowledge': AcknowledgePayload,
} as const satisfies CommandSchemas<wire.MonitorCommands>;
