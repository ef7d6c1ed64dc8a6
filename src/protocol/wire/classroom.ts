import type { Command, EmptyPayload } from './events.js';
import type { TranscriptItem } from './tutor.js';
import type { ExamClosedNotice, ExamGradedEvent, ExamProgressEvent, ExamResultNotice } from './exams.js';

/**
 * Classes, the class notices on `/tutor`, and the instructor's `/monitor` namespace. Browser-safe (types and
 * constants only; the zod schemas are in ../classroom.ts).
 */

/** Join codes: 6 characters from an alphabet without look-alikes (no 0/O, 1/I/L, 2/Z, 5/S, 8/B). */
export const JOIN_CODE_ALPHABET = 'ACDEFGHJKMNPQRTUVWXY34679';

/**
 * What is wrong with a typed class code, in words a student can act on, or null when it is a code's shape (six
 * characters of the alphabet, any case). A look-alike cannot be mapped (both 0 and O are left out), so the message
 * names the characters typed that no code uses and lists the ones it does.
 */
export function joinCodeProblem(typed: string): string | null {
  const code = typed.replace(/\s+/gu, '').toUpperCase();
  const foreign = [...new Set([...code].filter((letter) => !JOIN_CODE_ALPHABET.includes(letter)))];
  if (foreign.length === 0 && code.length === 6) return null;
  const uses = `수업 코드는 ${[...JOIN_CODE_ALPHABET].join(' ')} 중 6글자입니다(헷갈리는 0·O, 1·I·L, 2·Z, 5·S, 8·B는 쓰지 않습니다).`;
  if (foreign.length > 0) return `「${foreign.join('」, 「')}」 글자는 수업 코드에 쓰이지 않습니다. ${uses} 선생님 화면의 코드를 다시 확인해 주세요.`;
  return `${uses} 지금 ${code.length}글자를 적었습니다.`;
}

// ---- HTTP
export interface CreateClassBody {
  name: string;
  /** The lecture material students of this class study (they may pick one themselves when absent). */
  materialId?: string | undefined;
  /** A required roster: students join only under one of these names, each name once (one device). */
  roster?: string[] | undefined;
}
/** `PUT /api/classes/:id/roster`: replaces the names a roster class admits (claimed names stay claimed). */
export interface SetRosterBody {
  names: string[];
}
/** `POST /api/classes/:id/roster/release`: frees a claimed name so the student can join again on another device. */
export interface ReleaseRosterNameBody {
  name: string;
}
/** `GET /api/classes/:code/roster`: the names a student may pick (`names: null` when the class has no roster). */
export interface RosterChoices {
  className: string;
  names: { name: string; taken: boolean }[] | null;
}
export interface JoinClassBody {
  nickname: string;
  materialId?: string | undefined;
}

// ---- /tutor: notices to class members from outside the session (the raise-hand dialogue's own events, which
// carry the session's seq, are in ./tutor.ts)
export type HandKind = 'specific' | 'vague';
export interface HandServerEvents {
  /**
   * The instructor saw the raised hand. Like `class:announcement`, an ephemeral notice from outside the session:
   * it carries no `seq` (it is not in the session log and is not replayed), so clients that drop events with
   * `seq <= lastSeq` must not drop it.
   */
  'hand:acknowledged': { at: number };
  'class:announcement': { text: string; at: number };
  /** The instructor ended the class (`class:close`): its join code no longer works. Ephemeral, no `seq`. */
  'class:closed': { at: number };
  /** A live exam of the class closed (시험 종료 or its deadline): open sheets lock and show the result. */
  'exam:closed': ExamClosedNotice;
  /** This student's result of an exam is there or changed (graded, overridden, regraded). */
  'exam:result': ExamResultNotice;
}

// ---- /monitor (instructor -> server)
export interface AnnouncePayload {
  text: string;
}
export interface AcknowledgePayload {
  sessionId: string;
}

export interface TranscriptRequest {
  sessionId: string;
  /** `nextCursor` of the previous page; omitted for the first (oldest) page. */
  cursor?: string | undefined;
  /** Items per page, 1–100 (default 50). */
  limit?: number | undefined;
}
export interface TranscriptPage {
  sessionId: string;
  nickname: string;
  /** Oldest first: questions, answers, verdicts with feedback, replies, the raise-hand dialogue. No model answers. */
  items: TranscriptItem[];
  /** Cursor of the next (newer) page; null when this page reaches the end. */
  nextCursor: string | null;
}
export interface HandReplyPayload {
  sessionId: string;
  text: string;
}
export interface ClassClosedResult {
  closedAt: number;
}

export interface MonitorCommands {
  'class:announce': Command<AnnouncePayload, { at: number }>;
  'hand:acknowledge': Command<AcknowledgePayload, { at: number }>;
  'student:transcript': Command<TranscriptRequest, TranscriptPage>;
  'hand:reply': Command<HandReplyPayload, { at: number }>;
  'class:close': Command<EmptyPayload, ClassClosedResult>;
  'class:rotate-code': Command<EmptyPayload, { code: string }>;
}
export type MonitorCommand = keyof MonitorCommands;

// ---- /monitor (server -> instructor)
export interface RosterEntry {
  sessionId: string;
  nickname: string;
  connected: boolean;
  /** Chapter index being studied, -1 before the lecture starts. */
  chapter: number;
  /** Overall progress through the material, 0–100. */
  percent: number;
  /**
   * `idle`, `streaming`, `paused`, `awaiting-answer`, `tutoring` (judging or a supplement), `remediation` (the bad
   * path: subquestions and remedial replies), `finished`; raise-hand states use their session state name.
   */
  state: string;
  lastVerdict: 'good' | 'bad' | null;
  /** Bad verdicts in a row (the page flags "struggling" at 2). */
  badStreak: number;
  /** `answered`: an instructor replied to this hand (`hand:reply`). */
  hand: { raisedAt: number; question: string | null; acknowledged: boolean; answered: boolean } | null;
  /** The student's self-study quiz (혼자 퀴즈 풀기), first answers only; absent until one is answered. */
  selfQuiz?: SelfQuizScore;
}

/** Self-study items a student answered (first answers) and how many of those were right. */
export interface SelfQuizScore {
  answered: number;
  correct: number;
}

export interface MonitorServerEvents {
  /** `closedAt`: when the class was closed (`class:close`), null while it is open. */
  'class:roster': { classId: string; name: string; code: string; closedAt: number | null; students: RosterEntry[] };
  'student:joined': { student: RosterEntry };
  'student:left': { sessionId: string };
  'student:progress': { sessionId: string; chapter: number; percent: number; state: string };
  'student:answered': { sessionId: string; questionId: string; verdict: 'good' | 'bad'; badStreak: number };
  'student:remediation': { sessionId: string; concept: string; index: number; total: number };
  /** The student answered a self-study item for the first time: their running self-study score. */
  'student:self-quiz': { sessionId: string } & SelfQuizScore;
  'hand:raised': { sessionId: string; question?: string; raisedAt: number };
  'hand:resolved': { sessionId: string; kind: HandKind | 'cancelled' };
  /** An instructor (any tab of the class) acknowledged the student's raised hand. */
  'hand:acknowledged': { sessionId: string; at: number };
  /** An instructor replied to the raised hand (every instructor tab sees the text it was sent). */
  'hand:answered': { sessionId: string; text: string; at: number };
  /** The class was closed; its join code no longer works. */
  'class:closed': { closedAt: number };
  /** The join code was replaced; the old one no longer works. */
  'class:code': { code: string };
  /** One of the class's quiz rooms changed phase (the list and results are at `GET /api/rooms`). */
  'quiz:room': { roomId: string; code: string; phase: string; playerCount: number; at: number };
  /** A student saved a draft of a live exam or submitted: counts only (`answered`: items with a non-blank answer), never answer text. */
  'exam:progress': ExamProgressEvent;
  /** A student's exam grading finished (report and profile stored); results at `GET /api/exams/:examId/results`. */
  'exam:graded': ExamGradedEvent;
  /** The class of the token no longer exists; the socket is disconnected after it. */
  'monitor:error': { code: string; message: string };
}

/** One class of "내 수업", `GET /api/classes` (the account's classes, newest first). */
export interface ClassSummary {
  classId: string;
  name: string;
  code: string;
  materialId: string | null;
  createdAt: number;
  closed: boolean;
  studentCount: number;
}

/** `GET /api/classes/:id` (instructor bearer token). */
export interface ClassInfo {
  classId: string;
  name: string;
  code: string;
  materialId: string | null;
  createdAt: number;
  /** When the class was closed; null while it is open. */
  closedAt: number | null;
  students: RosterEntry[];
  /** Over HTTP `students` is one page of the roster (`?cursor=&limit=`); this is the next page's cursor (null: none). */
  nextCursor?: string | null;
}
