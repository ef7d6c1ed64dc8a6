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
 * explanation, the sources are the owner's: a player sees only `PublicQuestion`. Generators write this type; a room
 * plays any `RoomItem`.
 */
export type QuizItem = {
  /** Absent on every item stored before other types existed: a 4-choice item. */
  type?: 'choice' | undefined;
  question: string;
  choices: string[];
  answer: number;
  explanation: string;
  difficulty: Difficulty;
  quizId?: string | undefined;
  sources?: QuizItemSource[] | undefined;
  /** See ItemPicture. */
  image?: string | PagePicture | undefined;
  imageAlt?: string | undefined;
};

/**
 * A page of a material as an item's picture: 1-based `page` of `materialId`, which the quiz's owner may use (one it
 * owns, or the built-in sample). Players get it as a one-page PDF cut from the material, drawn by the page.
 */
export interface PagePicture {
  kind: 'page';
  materialId: string;
  page: number;
}

/**
 * A picture any item may carry: an uploaded image's id (`POST /api/quiz-images`) or a page of a material
 * (`PagePicture`), and its text for screen readers (a page's defaults to 「자료 N쪽」). LaTeX needs no field: `$…$`
 * in any item text is rendered by the pages' bundled KaTeX.
 */
export interface ItemPicture {
  image?: string | PagePicture | undefined;
  imageAlt?: string | undefined;
}

/** The kinds of item a live room plays. */
export const QUESTION_TYPES = ['choice', 'truefalse', 'multi', 'ordering', 'numeric', 'poll', 'short', 'cloud'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

interface ItemBase extends ItemPicture {
  question: string;
  /** Shown with the solution at the reveal; a poll may leave it empty. */
  explanation: string;
  difficulty: Difficulty;
  quizId?: string | undefined;
  sources?: QuizItemSource[] | undefined;
}

/** O/X: the statement is true or not. Players answer with choice 0 (참) or 1 (거짓). */
export type TrueFalseItem = ItemBase & { type: 'truefalse'; answer: boolean };
/**
 * Several correct choices (2–6 choices, at least one correct). Partial credit: (right picks − wrong picks) / correct
 * choices, at least 0; with `allOrNothing`, only the exact set scores.
 */
export type MultiItem = ItemBase & { type: 'multi'; choices: string[]; answers: number[]; allOrNothing?: boolean | undefined };
/** Steps to put in order (2–6, written in the correct order; players see them shuffled). Credit: share of pairs in order. */
export type OrderingItem = ItemBase & { type: 'ordering'; steps: string[] };
/**
 * A number (estimation). Full credit within `tolerance` of `answer`; credit falls linearly to 0 at `range` from it
 * (default 4 × tolerance; a tolerance of 0 with no range scores only the exact value). `unit`, when set, is shown
 * and may follow the number in an answer ("12.5 km").
 */
export type NumericItem = ItemBase & { type: 'numeric'; answer: number; tolerance: number; range?: number | undefined; unit?: string | undefined };
/** No correct answer, no points: the class's opinion, shown as a distribution. */
export type PollItem = ItemBase & { type: 'poll'; choices: string[] };

/**
 * A short text answer, graded when the question closes by the judges' assessor and the math comparison (the same
 * ones the lecture and exams use), once per distinct normalised answer. `answer` is the model answer; `accept` lists
 * other answers that are right as written (after normalisation). An answer the judge is unsure of scores nothing
 * until the host marks it right or wrong during the reveal.
 */
export type ShortItem = ItemBase & { type: 'short'; answer: string; accept?: string[] | undefined };
/** A word cloud: players type a word or two; no correct answer, no points; the reveal shows the words by count. */
export type CloudItem = ItemBase & { type: 'cloud' };

/** Any item a quiz may hold and a room may play; `QuizItem` is the 4-choice kind. */
export type RoomItem = QuizItem | TrueFalseItem | MultiItem | OrderingItem | NumericItem | PollItem | ShortItem | CloudItem;

/** Longest text a player may type for a short-text or word-cloud answer (after trimming). */
export const MAX_TEXT_ANSWER = 100;

export const MAX_QUIZ_ITEMS = 50;

/**
 * What a passage is (`document_type`), the names seed 001 filters its retrieval on; src/retrieval/metadata.ts gives
 * them their meanings and schema. The seed's own topic map uses `common_mistake`, `negotiation_strategy`,
 * `country_guideline` and `error_checklist`; the other names cover what a textbook is made of.
 */
export const DOCUMENT_TYPE_NAMES = [
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

/**
 * The `topic` of `POST /api/materials/:id/quiz`: `general` (no filter), the seed's example topics, or a passage's
 * document type by name.
 */
export const QUIZ_TOPIC_NAMES = ['general', 'mistakes', 'negotiation', 'country', 'documents', ...DOCUMENT_TYPE_NAMES] as const;
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
  items: RoomItem[];
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
  /**
   * Points for speed: on (the default), a correct answer scores between 500 and 1000 by how fast it came; off, every
   * correct answer scores 1000, however long it took (fair to slow readers and switch users).
   */
  speedBonus: boolean;
  maxPlayers: number;
  /**
   * Team mode: the number of teams (2–10); absent, everyone plays alone. Players are put in teams in join order, each
   * to the team that has had the fewest so far (lowest number first); a team's score is the mean of its members'.
   */
  teams?: number;
  /** Team mode: players may pick their own team in the lobby (`team:pick`); absent or false, they keep the one given. */
  teamPick?: boolean;
}

// ---- /quiz commands (client -> server)
export interface JoinRoomPayload {
  code: string;
  nickname: string;
}
/**
 * An answer, shaped by the question's type: `choice` (4-choice, O/X as 0 = 참 / 1 = 거짓, poll), `choices` (multiple
 * correct: every picked choice), `order` (ordering: the shown steps' indices, first to last), `text` (numeric: a
 * number, optionally followed by the item's unit; short and cloud: the typed text, at most MAX_TEXT_ANSWER
 * characters). A shape that does not fit the question is refused.
 */
export type AnswerResponse = { choice: number } | { choices: number[] } | { order: number[] } | { text: string };
export type SubmitAnswerPayload =
  | { questionIndex: number; choice: number }
  | { questionIndex: number; choices: number[] }
  | { questionIndex: number; order: number[] }
  | { questionIndex: number; text: string };
/** `room:extra-time` (host): extra seconds this player gets on every question from the next one opened (0 removes it). */
export interface ExtraTimePayload {
  playerId: string;
  seconds: number;
}
export interface KickPayload {
  playerId: string;
}
/**
 * `room:review` (host, during the reveal of a short-text question): marks one unsure answer (by its `key`, see
 * ReviewAnswer) right or wrong; every player who gave it is rescored and sent the reveal again.
 */
export interface ReviewPayload {
  questionIndex: number;
  key: string;
  correct: boolean;
}
/** `team:pick` (player, lobby only, when the room allows it): the team to play in, 0-based. */
export interface TeamPickPayload {
  team: number;
}

/** Ack payloads of the player commands. */
export interface JoinRoomResult {
  playerId: string;
  playerToken: string;
  roomId: string;
}
export interface SubmitAnswerResult {
  questionIndex: number;
  /** The recorded choice (choice-shaped answers; -1 for other shapes, whose recorded answer is in `response`). */
  choice: number;
  /** The recorded answer as the server understood it (a numeric answer as its number). */
  response: RecordedResponse;
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
  'room:extra-time': Command<ExtraTimePayload, HostCommandResult>;
  'room:review': Command<ReviewPayload, HostCommandResult>;
}
export type HostCommand = keyof HostCommands;

export interface QuizCommands extends HostCommands {
  /** A guest socket becomes a player (the token in the ack lets it reconnect as that player). */
  'room:join': Command<JoinRoomPayload, JoinRoomResult>;
  'answer:submit': Command<SubmitAnswerPayload, SubmitAnswerResult>;
  /** Team mode with picking allowed, in the lobby: moves the player to that team; the ack is the team now held. */
  'team:pick': Command<TeamPickPayload, TeamPickPayload>;
}
export type QuizCommand = keyof QuizCommands;

// ---- phases
export type Phase = 'lobby' | 'preview' | 'open' | 'reveal' | 'leaderboard' | 'podium' | 'ended';

/** A question as players (and the projected host screen) see it before its reveal: no solution fields. */
export interface PublicQuestion {
  index: number;
  total: number;
  /** Absent means 'choice' (as before other types existed). */
  type: QuestionType;
  question: string;
  /**
   * What the player picks from: the 4 choices, ['참', '거짓'] for O/X, the choices of a multi or poll item, the
   * steps of an ordering item in a shuffled order that is never the solution's; empty for numeric.
   */
  choices: string[];
  difficulty: Difficulty;
  /** numeric: the unit the answer is in, if any. */
  unit?: string;
  /**
   * The item's picture: where to load it and its text for screen readers. `kind` 'image' is an uploaded image (an
   * `<img>`); 'page' is a one-page PDF of the material the page draws (fetched with the room's player or host token).
   */
  image?: { url: string; alt: string; kind: 'image' | 'page' };
}

/** A recorded answer, as it counts: one of the shapes of `AnswerResponse`, a numeric one parsed to its number. */
export type RecordedResponse = { choice: number } | { choices: number[] } | { order: number[] } | { value: number } | { text: string };

export interface MyAnswer {
  questionIndex: number;
  /** choice-shaped answers' choice; -1 otherwise (see `response`). */
  choice: number;
  response: RecordedResponse;
  responseMs: number;
}

export interface AnswerResult {
  /** null: the player did not answer (or answered a non-choice question: see `response`). */
  choice: number | null;
  /** The whole recorded answer; absent when the player did not answer. */
  response?: RecordedResponse | undefined;
  /** Full credit (1); partial credit counts as not correct. */
  correct: boolean;
  /** Share of the full points the answer earned before speed (0–1); null for a poll (nothing to get right). */
  credit: number | null;
  responseMs: number | null;
  points: number;
  /** Streak bonus included in `points`. */
  streakBonus: number;
  /** Short text: the judge was not sure of this answer and the host has not marked it yet (credit 0 until then). */
  unsure?: boolean | undefined;
}

/** A word of a word cloud and how many players typed it (the first spelling seen; counted case- and width-blind). */
export interface CloudWord {
  text: string;
  count: number;
}

/**
 * One distinct answer to a short-text question the judge was unsure of (host reveal only): `key` names it in
 * `room:review`; `verdict` is null until the host marks it.
 */
export interface ReviewAnswer {
  key: string;
  text: string;
  count: number;
  verdict: 'right' | 'wrong' | null;
}

/** The solution of a closed question, by type (only ever inside a reveal or the owner's results). */
export type Solution =
  | { type: 'choice'; correctChoice: number }
  | { type: 'truefalse'; answer: boolean; correctChoice: number }
  | { type: 'multi'; correctChoices: number[]; allOrNothing: boolean }
  | { type: 'ordering'; correctOrder: number[] }
  | { type: 'numeric'; answer: number; tolerance: number; range: number; unit?: string }
  | { type: 'poll' }
  | { type: 'short'; answer: string; accept: string[] }
  | { type: 'cloud' };

export interface RevealPayload {
  question: PublicQuestion;
  /** The correct choice of a 4-choice or O/X question; -1 for the other types (see `solution`). */
  correctChoice: number;
  solution: Solution;
  explanation: string;
  /**
   * Per shown choice (choice, O/X, multi, poll): how many picked it; ordering: per shown step, how many put it in its
   * right place; numeric, short and cloud: empty.
   */
  distribution: number[];
  answered: number;
  /** The receiving player's own result; absent for the host. */
  you?: AnswerResult & { score: number; rank: number };
  /** Word cloud: the words typed, most frequent first (at most CLOUD_WORDS). */
  words?: CloudWord[];
  /** Short text, host only: the answers the judge was unsure of, for the host to mark (see `room:review`). */
  review?: ReviewAnswer[];
}

/** The most words a cloud shows. */
export const CLOUD_WORDS = 60;

export interface LeaderboardRow {
  playerId: string;
  nickname: string;
  score: number;
  rank: number;
  /** Team mode: the player's team (0-based). */
  team?: number;
}

/**
 * Team mode: one team's standing. `score` is the mean of its members' scores, rounded (so a team of 3 and one of 5
 * compete fairly); `rank` as for players (ties share a place; an empty team ranks last).
 */
export interface TeamRow {
  team: number;
  /** As shown: '1팀', '2팀', … */
  name: string;
  score: number;
  rank: number;
  members: number;
}

export interface LeaderboardPayload {
  afterQuestion: number;
  top: LeaderboardRow[];
  players: number;
  /** The receiving player's own row; absent for the host. */
  you?: LeaderboardRow;
  /** Team mode: every team, by rank. */
  teams?: TeamRow[];
}

export interface PodiumPayload {
  top: LeaderboardRow[];
  players: number;
  you?: LeaderboardRow;
  /** Team mode: every team, by rank (the team podium is its first three). */
  teams?: TeamRow[];
}

export interface PlayerSummary {
  playerId: string;
  nickname: string;
  connected: boolean;
  /** Extra seconds per question the host granted this player (absent: none). */
  extraSeconds?: number;
  /** Team mode: the player's team (0-based). */
  team?: number;
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
  me?: { playerId: string; nickname: string; score: number; rank: number | null; answer: MyAnswer | null; team?: number };
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
