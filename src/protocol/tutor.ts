import { z } from 'zod';
import { JoinCode } from './classroom.js';
import { Nickname } from './display-name.js';

/**
 * The `/tutor` namespace: one student's live lecture. Inbound payloads are zod schemas (validated by onEvent);
 * outbound events are types. Every server event carries the session's increasing `seq`.
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
    message: 'materialId 또는 classCode가 필요합니다.',
    path: ['materialId'],
  });
export type CreateSessionBody = z.infer<typeof CreateSessionBody>;

// ---- client -> server commands
export const EmptyPayload = z.object({}).strict();
export const SpeedPayload = z.object({ tokensPerSecond: z.number().int().min(1).max(200) }).strict();
export const AnswerSubmitPayload = z
  .object({ questionId: z.string().min(1).max(64), text: z.string().trim().min(1).max(2000) })
  .strict();
export const SessionResumePayload = z.object({ lastSeq: z.number().int().min(0) }).strict();
export const HandTextPayload = z.object({ text: z.string().trim().min(1).max(2000) }).strict();

export type SpeedPayload = z.infer<typeof SpeedPayload>;
export type AnswerSubmitPayload = z.infer<typeof AnswerSubmitPayload>;
export type SessionResumePayload = z.infer<typeof SessionResumePayload>;

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
} as const;

// ---- server -> client events
export type ReplyKind = 'supplement' | 'remedial' | 'answer' | 'explain' | 'summary';
export type Verdict = 'good' | 'bad';

/** What a client needs to render the session's phase. Fields exist only where they mean something. */
export type PublicPhase =
  | { kind: 'idle' }
  | { kind: 'streaming'; chapter: number }
  | { kind: 'paused'; chapter: number; reason: 'student' | 'error' }
  | { kind: 'awaiting-answer'; chapter: number; questionId: string; text: string; parentQuestionId?: string }
  | { kind: 'tutoring'; chapter: number; questionId: string }
  /** `waiting`: what the assistant waits for (the question, or the reply to `check`); null while it works. */
  | {
      kind: 'hand-raised';
      chapter: number;
      waiting: 'ask' | 'reply' | null;
      check?: { index: number; total: number; concept: string; text: string };
    }
  | { kind: 'finished' };

/** One item of the rendered history besides the lecture text itself; `at` is the display offset in its chapter. */
export type TranscriptItem =
  | { type: 'question'; chapter: number; at: number; questionId: string; text: string }
  | {
      type: 'subquestion';
      chapter: number;
      at: number;
      questionId: string;
      parentQuestionId: string;
      index: number;
      total: number;
      concept: string;
      text: string;
    }
  | { type: 'answer'; chapter: number; at: number; questionId: string; text: string }
  | { type: 'verdict'; chapter: number; at: number; questionId: string; verdict: Verdict; feedback: string }
  | { type: 'reply'; chapter: number; at: number; replyId: string; kind: ReplyKind; text: string; complete: boolean }
  /** Raise-hand dialogue: what the assistant said (the prompt, a check), what the student wrote, how it ended. */
  | { type: 'assistant'; chapter: number; at: number; text: string }
  | { type: 'student'; chapter: number; at: number; text: string }
  | { type: 'hand-closed'; chapter: number; at: number; kind: 'specific' | 'vague' | 'cancelled' };

export interface SessionSnapshot {
  sessionId: string;
  nickname: string;
  material: { id: string; title: string; chapters: { index: number; title: string }[] };
  phase: PublicPhase;
  speed: number;
  /** Chapters started so far with the lecture text delivered in each. */
  chapters: { index: number; title: string; text: string; complete: boolean }[];
  transcript: TranscriptItem[];
}

export interface TutorServerEvents {
  'lecture:chapter-start': { seq: number; chapter: number; title: string };
  'lecture:delta': { seq: number; chapter: number; text: string };
  'lecture:chapter-end': { seq: number; chapter: number };
  'lecture:question': { seq: number; questionId: string; chapter: number; text: string };
  'tutor:verdict': { seq: number; questionId: string; verdict: Verdict; feedback: string };
  'tutor:subquestion': {
    seq: number;
    questionId: string;
    parentQuestionId: string;
    index: number;
    total: number;
    concept: string;
    text: string;
  };
  'tutor:reply-start': { seq: number; replyId: string; kind: ReplyKind };
  'tutor:reply-delta': { seq: number; replyId: string; text: string };
  /** `abandoned`: the reply was cut off (its session moved to another node) and is written again; drop it. */
  'tutor:reply-end': { seq: number; replyId: string; abandoned?: true };
  'lecture:end': { seq: number };
  'session:state': { seq: number; state: SessionSnapshot };
  /**
   * `seq: 0` marks an error outside the numbered stream: the session could not be opened for this socket (then a
   * disconnect), or with `retryable: true` a store outage the server recovers from by itself (a `session:state`
   * snapshot follows when the store is back, then the session continues).
   */
  'session:error': { seq: number; code: string; message: string; retryable?: boolean };
  'assistant:prompt': { seq: number; text: string };
  'hand:asked': { seq: number; text: string };
  'assistant:check': { seq: number; text: string; concept: string; index: number; total: number };
  'hand:closed': { seq: number; kind: 'specific' | 'vague' | 'cancelled' };
}

export type TutorEventName = keyof TutorServerEvents;
/** An event without its seq, as produced by the session before the log numbers it. */
export type TutorEvent = {
  [K in TutorEventName]: { event: K; payload: Omit<TutorServerEvents[K], 'seq'> };
}[TutorEventName];
