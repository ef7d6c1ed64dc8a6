import type { Difficulty, QuizTopicName } from './quiz.js';
import type { GenerationShortfall } from './shortfall.js';

/**
 * Seed 001's HTTP API for self-study: `POST /api/quiz/start`, `/answer`, `/evaluate`, with the seed's
 * request and response shapes (snake_case field names, the `{response, agent_type, metadata}` envelope). Scoped to a
 * material and to the caller (an instructor account, or a class student's session). Browser-safe types only; the
 * zod schemas are in ../self-quiz.ts.
 */

export interface SelfQuizStartBody {
  topic: QuizTopicName;
  /** Absent or null (as a seed client sends it): no difficulty filter, the seed's easy 2 + medium 2 + hard 1 mix. */
  difficulty?: Difficulty | null | undefined;
  /**
   * The material the items are written from: the account's own or the sample; a student's: their session's. When
   * absent (a client written to the seed sends none): a student's class material, an account's most recently added
   * material, the sample when the account has none. The reply's `metadata.materialId` names the one used.
   */
  materialId?: string | undefined;
  /** 0-based chapter index; the whole material when absent. */
  chapter?: number | undefined;
}

/**
 * `quiz_id` of `/answer` and `/evaluate`: a self-study item `/start` served (8 hex characters; only its caller may use
 * it), or an item of a class quiz as `<quiz id>:<0-based item index>` (4-choice items only). A class quiz item may be
 * answered and evaluated by the quiz's instructor (account or class token) and by the students of its class (session
 * token), not while a room of that quiz is being played (409 ROOM_LIVE); a student evaluates an item only after
 * answering it (403 FORBIDDEN), so no solution reaches them before their answer. Anyone else: 404 QUIZ_NOT_FOUND.
 */
export type SeedItemId = string;

export interface SelfQuizAnswerBody {
  quiz_id: SeedItemId;
  /** The chosen choice's index, 0–3. */
  answer: number;
}

export interface SelfQuizEvaluateBody {
  quiz_id: SeedItemId;
  topic: QuizTopicName;
}

/**
 * Seed 001's code-level EvalAgent call over HTTP (`eval_agent.run("퀴즈 평가", {quiz_data, topic})`): quiz data the
 * caller wrote itself, judged against `source` (the passage it was written from) or, without one, against the
 * passages the question retrieves from `materialId` (the caller's default material when absent). Nothing is stored.
 * The reply is SelfQuizEvaluateReply with `metadata.source` (`given` or `material`) and `metadata.materialId`.
 */
export interface SelfQuizEvaluateDataBody {
  quiz_data: { question: string; choices: string[]; answer: number; explanation: string; difficulty?: Difficulty | undefined };
  topic: QuizTopicName;
  source?: string | undefined;
  materialId?: string | undefined;
}

/** One served item: never its answer or explanation. */
export interface SelfQuizQuestion {
  quiz_id: string;
  question: string;
  choices: string[];
  difficulty: Difficulty;
}

/**
 * What became of a retrieval filter the request asked for: `none` (not asked: topic `general`, no difficulty),
 * `applied` (every passage the items were written from matches it), `relaxed` (the material has too few matching
 * passages, so others were added), `ignored` (the material has no matching passage at all).
 */
export type SelfQuizFilterOutcome = 'none' | 'applied' | 'relaxed' | 'ignored';

export interface SelfQuizStartReply {
  response: SelfQuizQuestion[];
  agent_type: 'quiz';
  metadata: {
    topic: QuizTopicName;
    /** null when the request named none (the seed's easy 2 + medium 2 + hard 1 mix). */
    difficulty: Difficulty | null;
    /** Items served: those that passed the EvalAgent gate (at most five). */
    count: number;
    /** The material used (the request's, or the default one when it named none). */
    materialId: string;
    chapter: number | null;
    /** What became of the topic's document-type filter and the difficulty's level filter. */
    filters: { topic: SelfQuizFilterOutcome; difficulty: SelfQuizFilterOutcome };
    /** Present when fewer than five items are served: how many, and why (the material or the gate). */
    shortfall?: GenerationShortfall;
  };
}

export interface SelfQuizAnswerReply {
  response: {
    quiz_id: string;
    /** Whether this request's answer is right. */
    is_correct: boolean;
    user_answer: number;
    correct_answer: number;
    correct_choice: string;
    explanation: string;
  };
  agent_type: 'quiz';
  metadata: {
    quiz_id: string;
    /** The first answer given to the item: the recorded one, whatever later attempts say. */
    recorded_answer: number;
    recorded_correct: boolean;
    /** This request recorded the answer (false: the item was answered before). */
    first_attempt: boolean;
  };
}

export interface SelfQuizEvaluateReply {
  response: {
    grounding_score: number;
    educational_score: number;
    insight_score: number;
    is_passed: boolean;
    feedback: string;
  };
  agent_type: 'eval';
  /** `source` and `materialId` only for SelfQuizEvaluateDataBody: what the quiz data was judged against. */
  metadata: { topic: QuizTopicName; source?: 'given' | 'material'; materialId?: string };
}

/**
 * `GET /api/materials/:id/quiz-topics`: the topics a quiz on the material can be asked for — `general`, the topic
 * map's names whose document type the material has, and the document types it has — each with how many passages
 * its filter allows. A topic the material has no passage of is not listed.
 */
export interface QuizTopicsReply {
  topics: { name: string; documentType: string | null; passages: number }[];
}
