import type { Command, EmptyPayload } from './events.js';

/**
 * Quizzes (4-choice items, seed 001) and live quiz rooms on `/quiz`. Browser-safe (types and constants only; the
 * zod schemas are in ../quiz.ts). Player-facing types are built from `PublicQuestion`, which has no `answer` or
 * `explanation` field: a solution can only reach a player inside `RevealPayload`, which the room sends after the
 * reveal.
 */

// ---- quiz items
export type Difficulty = 'easy' | 'medium' | 'hard';

/** A passage of the material a generated item was written from (the retrieval index's chunk and its pages). */
export interface QuizItemSource {
  /** `{chapter}.{ordinal}`, as the retrieval index names passages. */
  chunkId: string;
  /** 0-based chapter index. */
  chapter: number;
  chapterTitle: string;
  /** 1-based, inclusive. */
  startPage: number;
  endPage: number;
}

/**
 * One 4-choice item: exactly four distinct non-empty choices, the answer's index, an explanation, a difficulty.
 * Generated items (seed 001) also carry an 8-hex-character `quizId`, unique within their quiz, and the passages they
 * were written from; both are optional so uploaded and older stored quizzes stay valid. Like the answer and the
 * explanation, the sources are the owner's: a player sees only `PublicQuestion`.
 */
export type QuizItem = {
  question: string;
  choices: string[];
  answer: number;
  explanation: string;
  difficulty: Difficulty;
  quizId?: string | undefined;
  sources?: QuizItemSource[] | undefined;
};

export const MAX_QUIZ_ITEMS = 50;

/**
 * The `topic` of `POST /api/materials/:id/quiz`: `general` (no filter), the seed's example topics, or a passage's
 * document type by name (the same names as src/retrieval/metadata.ts; src/quiz/quiz-topics.ts checks they agree).
 */
export const QUIZ_TOPIC_NAMES = [
  'general',
  'mistakes',
  'negotiation',
  'country',
  'documents',
  'definition',
  'explanation',
  'example',
  'common_mistake',
  'procedure',
  'error_checklist',
  'case',
  'guideline',
  'country_guideline',
  'negotiation_strategy',
] as const;
export type QuizTopicName = (typeof QUIZ_TOPIC_NAMES)[number];

/** One round of the EvalAgent gate for one item slot (seed 001 §3): the question judged and the verdict on it. */
export interface ReviewAttempt {
  /** 1-based gate round. */
  round: number;
  question: string;
  /** False when no verdict could be had (malformed reply, model failure, timeout): never a pass. */
  judged: boolean;
  /** Scores 0–10, clamped by the server; absent when not judged. */
  grounding?: number | undefined;
  educational?: number | undefined;
  insight?: number | undefined;
  /** The server's verdict: (sum / 30 ≥ 0.8) ∧ grounding = 10. */
  is_passed: boolean;
  /** The judge's feedback, or why there is no verdict. */
  feedback: string;
}

/**
 * The judge report of a generated item: its last verdict, every round's verdict, and whether the
 * instructor kept it although it did not pass. Only passed or kept items are used in rooms.
 */
export interface ItemReview {
  is_passed: boolean;
  judged: boolean;
  grounding: number | null;
  educational: number | null;
  insight: number | null;
  feedback: string;
  /** Gate rounds this slot went through (1–3). */
  rounds: number;
  /** The instructor chose to use this item although it did not pass. */
  kept: boolean;
  attempts: ReviewAttempt[];
}

/** A stored quiz, as the instructor who owns it sees it (solutions included). */
export interface Quiz {
  quizId: string;
  /** The class the quiz is for; '' for an account's quiz outside any class. */
  classId: string;
  title: string;
  items: QuizItem[];
  materialId?: string;
  createdAt: number;
  /** A generated quiz's seed (32 hex characters): it ordered the choices; the same material and seed reproduce it. */
  seed?: string;
  /** A generated quiz's judge reports, by item quizId; uploaded quizzes have none. */
  reviews?: Record<string, ItemReview>;
}

/** One quiz of "내 퀴즈", `GET /api/quizzes` (newest first): a list entry, never the items. */
export interface QuizSummary {
  quizId: string;
  /** The class the quiz is for; '' for an account's quiz outside any class. */
  classId: string;
  title: string;
  itemCount: number;
  createdAt: number;
}

// ---- rooms
export interface RoomOptions {
  questionSeconds: number;
  /** Seconds the question is shown before choices open; 0 opens at once. */
  previewSeconds: number;
  lateJoin: boolean;
  streakBonus: boolean;
  maxPlayers: number;
}

// ---- /quiz commands (client -> server)
export interface JoinRoomPayload {
  code: string;
  nickname: string;
}
export interface SubmitAnswerPayload {
  questionIndex: number;
  choice: number;
}
export interface KickPayload {
  playerId: string;
}

/** Ack payloads of the player commands. */
export interface JoinRoomResult {
  playerId: string;
  playerToken: string;
  roomId: string;
}
export interface SubmitAnswerResult {
  questionIndex: number;
  choice: number;
  responseMs: number;
  /** True when an earlier submit for this question was already recorded (its choice is the one returned). */
  duplicate: boolean;
}
/** Ack payload of every host command: the phase the room is in afterwards. */
export interface HostCommandResult {
  phase: Phase;
}

/** The host's commands (refused unless the socket is this room's host). */
export interface HostCommands {
  'room:start': Command<EmptyPayload, HostCommandResult>;
  'room:next': Command<EmptyPayload, HostCommandResult>;
  'room:skip': Command<EmptyPayload, HostCommandResult>;
  'room:pause': Command<EmptyPayload, HostCommandResult>;
  'room:resume': Command<EmptyPayload, HostCommandResult>;
  'room:kick': Command<KickPayload, HostCommandResult>;
  'room:lock': Command<EmptyPayload, HostCommandResult>;
  'room:unlock': Command<EmptyPayload, HostCommandResult>;
  'room:end': Command<EmptyPayload, HostCommandResult>;
}
export type HostCommand = keyof HostCommands;

export interface QuizCommands extends HostCommands {
  /** A guest socket becomes a player (the token in the ack lets it reconnect as that player). */
  'room:join': Command<JoinRoomPayload, JoinRoomResult>;
  'answer:submit': Command<SubmitAnswerPayload, SubmitAnswerResult>;
}
export type QuizCommand = keyof QuizCommands;

// ---- phases
export type Phase = 'lobby' | 'preview' | 'open' | 'reveal' | 'leaderboard' | 'podium' | 'ended';

/** A question as players (and the projected host screen) see it before its reveal: no solution fields. */
export interface PublicQuestion {
  index: number;
  total: number;
  question: string;
  choices: [string, string, string, string];
  difficulty: Difficulty;
}

export interface MyAnswer {
  questionIndex: number;
  choice: number;
  responseMs: number;
}

export interface AnswerResult {
  /** null: the player did not answer. */
  choice: number | null;
  correct: boolean;
  responseMs: number | null;
  points: number;
  /** Streak bonus included in `points`. */
  streakBonus: number;
}

export interface RevealPayload {
  question: PublicQuestion;
  correctChoice: number;
  explanation: string;
  /** Answers per choice, in choice order. */
  distribution: [number, number, number, number];
  answered: number;
  /** The receiving player's own result; absent for the host. */
  you?: AnswerResult & { score: number; rank: number };
}

export interface LeaderboardRow {
  playerId: string;
  nickname: string;
  score: number;
  rank: number;
}

export interface LeaderboardPayload {
  afterQuestion: number;
  top: LeaderboardRow[];
  players: number;
  /** The receiving player's own row; absent for the host. */
  you?: LeaderboardRow;
}

export interface PodiumPayload {
  top: LeaderboardRow[];
  players: number;
  you?: LeaderboardRow;
}

export interface PlayerSummary {
  playerId: string;
  nickname: string;
  connected: boolean;
}

/** The per-phase part of a snapshot. Only `reveal` carries a solution. */
export type PhaseView =
  | { phase: 'lobby' }
  | { phase: 'preview'; question: PublicQuestion; remainingMs: number; paused: boolean }
  | { phase: 'open'; question: PublicQuestion; remainingMs: number; paused: boolean; answered?: number }
  | { phase: 'reveal'; reveal: RevealPayload }
  | { phase: 'leaderboard'; leaderboard: LeaderboardPayload }
  | { phase: 'podium'; podium: PodiumPayload }
  | { phase: 'ended'; podium: PodiumPayload };

/** `room:state`: everything a socket needs to draw the room, sent on every (re)connection and on phase changes. */
export type RoomStatePayload = PhaseView & {
  roomId: string;
  code: string;
  title: string;
  totalQuestions: number;
  options: RoomOptions;
  locked: boolean;
  playerCount: number;
  /** Players' own view. */
  me?: { playerId: string; nickname: string; score: number; rank: number | null; answer: MyAnswer | null };
  /** Host view: the player list. */
  players?: PlayerSummary[];
};

/** `room:question`: a question's preview, its opening, and again on pause/resume (remaining time frozen/restarted). */
export interface QuestionPayload {
  phase: 'preview' | 'open';
  question: PublicQuestion;
  remainingMs: number;
  paused: boolean;
}

export interface QuizServerEvents {
  'room:state': RoomStatePayload;
  'room:question': QuestionPayload;
  'room:answer-count': { questionIndex: number; answered: number; players: number };
  'room:reveal': RevealPayload;
  'room:leaderboard': LeaderboardPayload;
  'room:podium': PodiumPayload;
  'room:ended': { podium: PodiumPayload; resultsUrl?: string };
  'room:players': { players: PlayerSummary[]; playerCount: number };
  'room:kicked': { reason: string };
  /**
   * Empty; sent through the socket.io adapter after every `room:state`, so the client holds a connection-state
   * recovery offset on every store (other quiz frames are sent locally and carry none with the Redis adapter).
   */
  'room:recoverable': Record<string, never>;
}
