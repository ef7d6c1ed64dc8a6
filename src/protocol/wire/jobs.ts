import type { GenerationShortfall } from './shortfall.js';
import type { Command, EmptyPayload } from './events.js';
import type { Difficulty, QuizItemSource } from './quiz.js';
import type { WireError } from './error-codes.js';

/**
 * Background jobs on the wire: what the owner of a job sees over HTTP (`GET /api/jobs/:id`) and on the
 * `/jobs` namespace, and the progress of the `math-problems` kind. Types only (see index.ts).
 */

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A job as its owner sees it: everything but the checkpoint it resumes from. `progress` and `result` are the kind's. */
export interface JobState {
  jobId: string;
  kind: string;
  accountId: string;
  status: JobStatus;
  params: unknown;
  progress: unknown;
  result: unknown;
  error: { code: string; message: string } | null;
  /** How many times a node started it (more than 1: resumed after a node stopped). */
  runs: number;
  createdAt: number;
  updatedAt: number;
}

export type MathProblemType = 'multiple_choice' | 'short_answer';
export type MathCriterion = 'mathematical_accuracy' | 'consistency' | 'completeness' | 'logic_flow';
export type MathScores = Record<MathCriterion, number>;
/** A deterministic check that refused a problem before the judge. */
/** `guard`: refused by the item guard (a placeholder, a restated question, a repeat, a cover page, a particle). */
export type MathCheck = 'choices' | 'answer-key' | 'equivalence' | 'guard';

/** One problem's verdict in a math job's progress (the instructor's view: question included, no solution). */
export interface MathItemVerdict {
  problemId: string;
  type: MathProblemType;
  difficulty: Difficulty;
  question: string;
  passed: boolean;
  /** false: passed without a verdict (network-error policy) or refused by a deterministic check. */
  judged: boolean;
  scores: MathScores | null;
  feedback: string;
  check?: MathCheck | undefined;
}

/** The `progress` of a `math-problems` job after each attempt. */
export interface MathJobProgress {
  /** 1-based attempt just finished. */
  attempt: number;
  maxAttempts: number;
  /** Problems passed so far, of `wanted`. */
  passed: number;
  wanted: number;
  /** That attempt's problems with their verdicts. */
  items: MathItemVerdict[];
}

/** The `result` of a `math-problems` job: the stored set (also on failure, when some problems passed). */
export interface MathJobResult {
  setId: string;
  passed: number;
}

/** A problem as stored in a set, with its judgement (seed 002's future work: every judgement kept with its item). */
export interface MathProblemView {
  problemId: string;
  type: MathProblemType;
  question: string;
  choices?: string[] | undefined;
  correct_answer: string;
  explanation: string;
  final_answer: string;
  difficulty: Difficulty;
  sources: QuizItemSource[];
  judgement: {
    judged: boolean;
    passed: boolean;
    scores: MathScores | null;
    feedback: string;
    model: string;
    attempt: number;
    check?: MathCheck | undefined;
    equivalence?: 'equal' | 'different' | 'unknown' | undefined;
  };
}

/**
 * `POST /api/math-sets/:id/problems/:problemId/answer`: a short answer's grade — by `mathEquivalent` (`method:
 * 'equivalence'`, verdict `equal`/`different`) or, when it could not compare (`verdict: 'unknown'`), by the judge
 * model — with the solution, shown only once the answer is graded.
 */
export interface MathShortAnswerReply {
  problemId: string;
  correct: boolean;
  method: 'equivalence' | 'model';
  verdict: 'equal' | 'different' | 'unknown';
  feedback: string;
  correct_answer: string;
  explanation: string;
}

/** `POST /api/math-sets/:id/share` -> the set and the class it is now shared with. */
export interface MathSetShareReply {
  setId: string;
  classId: string;
  /** How many of its problems the class's students can answer (its short-answer problems). */
  shortAnswers: number;
}

/** `GET /api/class-math/problems`: the short-answer problems of the sets shared with the student's class, no solutions. */
export interface ClassMathProblemsReply {
  sets: { setId: string; title?: string; problems: { problemId: string; question: string; difficulty: 'easy' | 'medium' | 'hard' }[] }[];
}

/** `POST /api/class-math/answer`: the grade, as the owner's route gives it, and the student's first recorded answer. */
export interface ClassMathAnswerReply extends MathShortAnswerReply {
  first_attempt: { answer: string; correct: boolean; first: boolean };
}

/** Per material and account: how the judge treated its math problems. */
export interface MathSummary {
  sets: number;
  kept: number;
  rejected: number;
  judged: number;
  unjudged: number;
  /** Mean of each criterion over the problems a judge scored; null before any. */
  meanScores: Record<MathCriterion, number | null>;
  /** Rejected problems by what refused them: a deterministic check, or the judge. */
  rejectedBy: Record<MathCheck | 'judge', number>;
}

/** One item's verdict in an `exam-generation` job's progress: passed this round, or the complaint(s) open on it. */
export interface ExamItemVerdict {
  id: number;
  ok: boolean;
  /** The complaints on the item (deterministic checks or the validator), one per line; absent when ok. */
  message?: string | undefined;
}

/**
 * The `progress` of an `exam-generation` job: `plan` once the planner's plan is ready (`planned` items,
 * no verdicts yet), `round` after each writer → checks → validator round, `done` when the set is stored.
 */
export interface ExamJobProgress {
  stage: 'plan' | 'round' | 'done';
  /** Rounds finished (0 at `plan`). */
  round: number;
  maxRounds: number;
  /** Items planned (the request's count). */
  planned: number;
  /** The last round's verdict per item (empty at `plan`). */
  items: ExamItemVerdict[];
  /** Whether the validator was asked in that round (false: the server's deterministic checks refused the set first). */
  validated?: boolean | undefined;
}

/** The `result` of an `exam-generation` job: the stored exam (a draft), valid or the seed's fallback. */
export interface ExamJobResult {
  examId: string;
  valid: boolean;
  rounds: number;
  /** Fewer items than asked (the material gave no more sound items): how many, and a Korean sentence to show. */
  shortfall?: GenerationShortfall;
}

// ---- /jobs (server -> job owner)
export interface JobsServerEvents {
  /** The job as it is now: on connect (a snapshot) and after every change (status, progress, result). */
  'job:state': JobState;
  /** The job could not be read (its connection is then closed). */
  'job:error': WireError;
}

// ---- /jobs (job owner -> server)
export interface JobsCommands {
  /** Cancels the job; the ack carries the job as it is after the request. */
  'job:cancel': Command<EmptyPayload, { job: JobState }>;
}
