import { z } from 'zod';
import { Nickname } from './display-name.js';

/**
 * Quizzes (4-choice items, seed 001) and live quiz rooms on `/quiz`. Inbound payloads are zod schemas; outbound
 * events are types. Player-facing types are built from `PublicQuestion`, which has no `answer` or `explanation`
 * field: a solution can only reach a player inside `RevealPayload`, which the room sends after the reveal.
 */

// ---- quiz items
export const Difficulty = z.enum(['easy', 'medium', 'hard']);
export type Difficulty = z.infer<typeof Difficulty>;

const ItemText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((value) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value), '제어 문자는 쓸 수 없습니다.');

/** One 4-choice item: exactly four distinct non-empty choices, the answer's index, an explanation, a difficulty. */
export const QuizItem = z
  .object({
    question: ItemText(500),
    choices: z.array(ItemText(200)).length(4),
    answer: z.number().int().min(0).max(3),
    explanation: ItemText(1000),
    difficulty: Difficulty,
  })
  .strict()
  .refine((item) => new Set(item.choices.map((choice) => choice.toLowerCase())).size === 4, {
    message: '보기 네 개는 서로 달라야 합니다.',
    path: ['choices'],
  });
export type QuizItem = z.infer<typeof QuizItem>;

export const MAX_QUIZ_ITEMS = 50;

export const CreateQuizBody = z
  .object({
    title: ItemText(100),
    items: z.array(QuizItem).min(1).max(MAX_QUIZ_ITEMS),
    materialId: z.string().trim().min(1).max(128).optional(),
  })
  .strict();
export type CreateQuizBody = z.infer<typeof CreateQuizBody>;

export const GenerateQuizBody = z
  .object({
    /** 0-based chapter index of the material; the whole material when absent. */
    chapter: z.number().int().min(0).max(999).optional(),
    /** All five items at this difficulty; 2 easy + 2 medium + 1 hard when absent. */
    difficulty: Difficulty.optional(),
    title: ItemText(100).optional(),
  })
  .strict();
export type GenerateQuizBody = z.infer<typeof GenerateQuizBody>;

/** A stored quiz, as the instructor who owns it sees it (solutions included). */
export interface Quiz {
  quizId: string;
  classId: string;
  title: string;
  items: QuizItem[];
  materialId?: string;
  createdAt: number;
  /** A generated quiz's seed (32 hex characters): it ordered the choices; the same material and seed reproduce it. */
  seed?: string;
}

// ---- rooms
export const RoomOptions = z
  .object({
    questionSeconds: z.number().int().min(5).max(120).default(20),
    /** Seconds the question is shown before choices open; 0 opens at once. */
    previewSeconds: z.number().int().min(0).max(30).default(3),
    lateJoin: z.boolean().default(true),
    streakBonus: z.boolean().default(true),
    maxPlayers: z.number().int().min(1).max(10_000).default(500),
  })
  .strict();
export type RoomOptions = z.infer<typeof RoomOptions>;

export const CreateRoomBody = z
  .object({
    quizId: z.string().trim().min(1).max(64),
    options: RoomOptions.default(RoomOptions.parse({})),
  })
  .strict();
export type CreateRoomBody = z.infer<typeof CreateRoomBody>;

/** Room codes: 6 digits, easy to type on a phone and to read off a projector. */
export const RoomCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, '방 코드는 숫자 6자리입니다.');


// ---- /quiz commands (client -> server)
export const JoinRoomPayload = z.object({ code: RoomCode, nickname: Nickname }).strict();
export const SubmitAnswerPayload = z
  .object({ questionIndex: z.number().int().min(0).max(MAX_QUIZ_ITEMS - 1), choice: z.number().int().min(0).max(3) })
  .strict();
export const KickPayload = z.object({ playerId: z.string().min(1).max(64) }).strict();
const NoPayload = z.object({}).strict();

export const HOST_COMMANDS = {
  'room:start': NoPayload,
  'room:next': NoPayload,
  'room:skip': NoPayload,
  'room:pause': NoPayload,
  'room:resume': NoPayload,
  'room:kick': KickPayload,
  'room:lock': NoPayload,
  'room:unlock': NoPayload,
  'room:end': NoPayload,
} as const;
export type HostCommand = keyof typeof HOST_COMMANDS;

export const PLAYER_COMMANDS = {
  'answer:submit': SubmitAnswerPayload,
} as const;

export type JoinRoomPayload = z.infer<typeof JoinRoomPayload>;
export type SubmitAnswerPayload = z.infer<typeof SubmitAnswerPayload>;
export type KickPayload = z.infer<typeof KickPayload>;

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
  'room:state': (state: RoomStatePayload) => void;
  'room:question': (payload: QuestionPayload) => void;
  'room:answer-count': (payload: { questionIndex: number; answered: number; players: number }) => void;
  'room:reveal': (payload: RevealPayload) => void;
  'room:leaderboard': (payload: LeaderboardPayload) => void;
  'room:podium': (payload: PodiumPayload) => void;
  'room:ended': (payload: { podium: PodiumPayload; resultsUrl?: string }) => void;
  'room:players': (payload: { players: PlayerSummary[]; playerCount: number }) => void;
  'room:kicked': (payload: { reason: string }) => void;
  /**
   * Empty; sent through the socket.io adapter after every `room:state`, so the client holds a connection-state
   * recovery offset on every store (other quiz frames are sent locally and carry none with the Redis adapter).
   */
  'room:recoverable': (payload: Record<string, never>) => void;
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
