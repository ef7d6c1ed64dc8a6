import type { HandServerEvents } from './classroom.js';
import type { Command, EmptyPayload } from './events.js';

/**
 * The `/tutor` namespace: one student's live lecture. Browser-safe (types and constants only; the zod schemas
 * that check these payloads on the server are in ../tutor.ts). Every session event carries the session's
 * increasing `seq`.
 */

// ---- client -> server commands
export interface SpeedPayload {
  tokensPerSecond: number;
}
export interface AnswerSubmitPayload {
  questionId: string;
  text: string;
}
export interface SessionResumePayload {
  lastSeq: number;
}
export interface HandTextPayload {
  text: string;
}
/** The student's comparison with the model answer after an unsure verdict: 비슷하게 답했어요 / 다시 볼래요. */
export type SelfAssessment = 'similar' | 'review';
export interface SelfAssessPayload {
  questionId: string;
  choice: SelfAssessment;
}
/** The choices offered after `tutor:unsure`, in order, with their Korean labels. */
export const SELF_ASSESS_CHOICES: readonly { id: SelfAssessment; label: string }[] = [
  { id: 'similar', label: '비슷하게 답했어요' },
  { id: 'review', label: '다시 볼래요' },
];

/** The session state's kind after a command (`idle`, `streaming`, `paused`, `hand-raised`, …). */
export interface StateResult {
  state: string;
}
export interface ResumeResult {
  /** Events re-sent after `lastSeq`. */
  replayed: number;
  /** True when a `session:state` snapshot was sent instead of a replay. */
  snapshot: boolean;
  seq: number;
}

export interface TutorCommands {
  'lecture:start': Command<EmptyPayload, StateResult>;
  'lecture:pause': Command<EmptyPayload, StateResult>;
  'lecture:resume': Command<EmptyPayload, StateResult>;
  'lecture:speed': Command<SpeedPayload, { speed: number }>;
  'answer:submit': Command<AnswerSubmitPayload, { questionId: string }>;
  'session:resume': Command<SessionResumePayload, ResumeResult>;
  'hand:raise': Command<EmptyPayload, StateResult>;
  'hand:ask': Command<HandTextPayload, StateResult>;
  'hand:reply': Command<HandTextPayload, StateResult>;
  'hand:lower': Command<EmptyPayload, StateResult>;
  /** After `tutor:unsure`: the student's own comparison decides the verdict (recorded as self-assessed). */
  'answer:self-assess': Command<SelfAssessPayload, { questionId: string; verdict: Verdict }>;
}
export type TutorCommand = keyof TutorCommands;

// ---- server -> client events
export type ReplyKind = 'supplement' | 'remedial' | 'answer' | 'explain' | 'summary';
export type Verdict = 'good' | 'bad';

/**
 * Where a reply's source text comes from: a chapter (0-based, as everywhere on the wire) and its pages (1-based,
 * inclusive). The raise-hand assistant's answers and explanations carry the passages they were written from.
 */
export interface ReplySource {
  chapter: number;
  chapterTitle: string;
  startPage: number;
  endPage: number;
}

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
      /** While the question is awaited after a which-part prompt: the concepts it offered. */
      choices?: string[];
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
  /** The parent question asked again (short form) after the subconcepts of a bad answer; its verdict follows. */
  | { type: 'reask'; chapter: number; at: number; questionId: string; parentQuestionId: string; text: string }
  | { type: 'answer'; chapter: number; at: number; questionId: string; text: string }
  /** `selfAssessed`: the student's own comparison after an unsure verdict, not the tutor's judgement. */
  | { type: 'verdict'; chapter: number; at: number; questionId: string; verdict: Verdict; feedback: string; selfAssessed?: true }
  /** The tutor was not sure of its verdict: it showed the model answer and asked the student to compare. */
  | { type: 'unsure'; chapter: number; at: number; questionId: string; text: string; modelAnswer: string }
  | { type: 'reply'; chapter: number; at: number; replyId: string; kind: ReplyKind; text: string; complete: boolean; sources?: ReplySource[] }
  /** Raise-hand dialogue: what the assistant said (the prompt, a check), what the student wrote, how it ended. */
  | { type: 'assistant'; chapter: number; at: number; text: string }
  | { type: 'student'; chapter: number; at: number; text: string }
  | { type: 'hand-closed'; chapter: number; at: number; kind: 'specific' | 'vague' | 'cancelled' }
  /** The class's instructor answered the raised hand directly (`hand:reply` on /monitor); `sentAt`: server time, ms. */
  | { type: 'instructor'; chapter: number; at: number; text: string; sentAt: number };

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
  'tutor:verdict': { seq: number; questionId: string; verdict: Verdict; feedback: string; selfAssessed?: true };
  /**
   * The tutor is not sure whether the answer is right: it says so, shows the model answer and waits for
   * `answer:self-assess` with one of `choices` (a `tutor:verdict` with `selfAssessed` follows).
   */
  'tutor:unsure': { seq: number; questionId: string; text: string; modelAnswer: string; choices: { id: SelfAssessment; label: string }[] };
  'tutor:subquestion': {
    seq: number;
    questionId: string;
    parentQuestionId: string;
    index: number;
    total: number;
    concept: string;
    text: string;
  };
  /**
   * After the subconcepts of a bad answer, the parent question asked again in short form (seed 003: the loop closes
   * on the concept itself). Answered with `answer:submit` (`questionId` is the parent's id + `.r`); its
   * `tutor:verdict`, judged like the first answer, says whether the student now has it; the supplement follows.
   */
  'tutor:reask': { seq: number; questionId: string; parentQuestionId: string; text: string };
  'tutor:reply-start': { seq: number; replyId: string; kind: ReplyKind };
  'tutor:reply-delta': { seq: number; replyId: string; text: string };
  /**
   * `abandoned`: the reply was cut off (its session moved to another node) and is written again; drop it.
   * `sources`: the material passages a raise-hand reply was written from (absent when none were found).
   */
  'tutor:reply-end': { seq: number; replyId: string; abandoned?: true; sources?: ReplySource[] };
  'lecture:end': { seq: number };
  'session:state': { seq: number; state: SessionSnapshot };
  /**
   * `seq: 0` marks an error outside the numbered stream: the session could not be opened for this socket (then a
   * disconnect), or with `retryable: true` a store outage the server recovers from by itself (a `session:state`
   * snapshot follows when the store is back, then the session continues).
   */
  'session:error': { seq: number; code: string; message: string; retryable?: boolean };
  /** `choices`: the question named nothing; concepts of the current chapter, one of which may be sent as `hand:ask`. */
  'assistant:prompt': { seq: number; text: string; choices?: string[] };
  'hand:asked': { seq: number; text: string };
  'assistant:check': { seq: number; text: string; concept: string; index: number; total: number };
  'hand:closed': { seq: number; kind: 'specific' | 'vague' | 'cancelled' };
  /**
   * The instructor's direct answer to the raised hand: part of the dialogue (logged, replayed, in snapshots), it
   * changes nothing in the dialogue's state (the student continues or lowers the hand as usual). Plain text.
   */
  'hand:instructor-reply': { seq: number; text: string; sentAt: number };
}

export type TutorEventName = keyof TutorServerEvents;
/** An event without its seq, as produced by the session before the log numbers it. */
export type TutorEvent = {
  [K in TutorEventName]: { event: K; payload: Omit<TutorServerEvents[K], 'seq'> };
}[TutorEventName];

/** Everything a `/tutor` socket receives: the session's numbered events and the class's unnumbered notices. */
export type TutorSocketEvents = TutorServerEvents & HandServerEvents;
