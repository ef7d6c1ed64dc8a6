import { z } from 'zod';
import type { CommandSchemas } from './command-schemas.js';
import { ClassName, Nickname } from './display-name.js';
import { JOIN_CODE_ALPHABET, joinCodeProblem } from './wire/classroom.js';
import type * as wire from './wire/classroom.js';

/**
 * The zod schemas of classes and of the `/monitor` commands (server only). Their types, and the events of
 * `/monitor` and the class notices on `/tutor`, are in ./wire/classroom.ts (browser-safe), re-exported here.
 */
export type * from './wire/classroom.js';
export { JOIN_CODE_ALPHABET };

/** A transcript page holds at most this many items (replies can be long: a page stays well under a megabyte). */
export const TRANSCRIPT_PAGE_MAX = 100;
export const TRANSCRIPT_PAGE_DEFAULT = 50;

// ---- HTTP
/** The most names a roster holds (a lecture hall, not a school). */
export const ROSTER_MAX = 300;
/** Names the instructor pasted: each a nickname (see Nickname), no two the same ignoring case and width. */
const RosterNames = z
  .array(Nickname)
  .min(1, '명단에 이름을 한 명 이상 넣어 주세요.')
  .max(ROSTER_MAX, `명단은 ${ROSTER_MAX}명까지 넣을 수 있습니다.`)
  .superRefine((names, context) => {
    const seen = new Set<string>();
    for (const name of names) {
      const folded = name.normalize('NFKC').toLowerCase();
      if (seen.has(folded)) context.addIssue({ code: 'custom', message: `명단에 같은 이름이 두 번 있습니다: ${name}` });
      seen.add(folded);
    }
  });

export const CreateClassBody = z.object({
  name: ClassName,
  /** The lecture material students of this class study (they may pick one themselves when absent). */
  materialId: z.string().trim().min(1).max(128).optional(),
  roster: RosterNames.optional(),
}) satisfies z.ZodType<wire.CreateClassBody>;
export const SetRosterBody = z.object({ names: RosterNames }).strict() satisfies z.ZodType<wire.SetRosterBody>;
export const ReleaseRosterNameBody = z.object({ name: Nickname }).strict() satisfies z.ZodType<wire.ReleaseRosterNameBody>;
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
  .superRefine((value, context) => {
    const problem = joinCodeProblem(value);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });

// ---- /monitor (instructor -> server)
export const AnnouncePayload = z.object({ text: z.string().trim().min(1).max(500) }).strict() satisfies z.ZodType<wire.AnnouncePayload>;
export const AcknowledgePayload = z.object({ sessionId: z.string().min(1).max(64) }).strict() satisfies z.ZodType<wire.AcknowledgePayload>;
export type AnnouncePayload = wire.AnnouncePayload;
export type AcknowledgePayload = wire.AcknowledgePayload;

export const TranscriptRequest = z
  .object({
    sessionId: z.string().min(1).max(64),
    cursor: z.string().regex(/^\d{1,20}-\d{1,20}$/).optional(),
    limit: z.number().int().min(1).max(TRANSCRIPT_PAGE_MAX).optional(),
  })
  .strict() satisfies z.ZodType<wire.TranscriptRequest>;
export const HandReplyPayload = z
  .object({ sessionId: z.string().min(1).max(64), text: z.string().trim().min(1).max(1000) })
  .strict() satisfies z.ZodType<wire.HandReplyPayload>;
const NoFields = z.object({}).strict();

/** The schema of every `/monitor` command, by name. */
export const MONITOR_COMMANDS = {
  'class:announce': AnnouncePayload,
  'hand:acknowledge': AcknowledgePayload,
  'student:transcript': TranscriptRequest,
  'hand:reply': HandReplyPayload,
  'class:close': NoFields,
  'class:rotate-code': NoFields,
} as const satisfies CommandSchemas<wire.MonitorCommands>;
export type TranscriptRequest = wire.TranscriptRequest;
export type HandReplyPayload = wire.HandReplyPayload;
