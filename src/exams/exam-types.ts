import { z } from 'zod';
import type { GenerationShortfall } from '../protocol/wire/shortfall.js';

/**
 * Seed 000's objects (단답형 OR 서술형), word for word: the planner's `ShortAnswer_Planner`, the writer's
 * `short_answer_problems`, the validator's `ShortAnswer_Validator`, the grader's `ShortAnswer_Grader_Output` and the
 * exam log (`evaluation_items`). The schemas are what a model reply is parsed with; the server adds nothing to
 * them but bounds (lengths, the seed's limit of 20 items). The learner profile and the feedback report are ours:
 * the seed names them (`Execute_Generator_PriorProfile`, `Generator_feedBack`) and shows the profile's
 * `learning_goal.target_depth` and `user_status.proficiency_level` in the planner's example.
 */

/** The seed's limit on `target_problem_count`. */
export const MAX_EXAM_ITEMS = 20;
/** The seed's MAX_RETRIES of the writer → validator loop. */
export const MAX_EXAM_ROUNDS = 3;

export const QUESTION_TYPES = ['Short_Keyword', 'Descriptive'] as const;
export const QuestionType = z.enum(QUESTION_TYPES);
export type QuestionType = z.infer<typeof QuestionType>;

export const INTENT_TYPES = ['Recall', 'Definition', 'Comparison', 'Causal_Explanation', 'Application_Scenario'] as const;
export const IntentType = z.enum(INTENT_TYPES);
export type IntentType = z.infer<typeof IntentType>;

export const COMPLEXITY_LEVELS = ['Basic', 'Intermediate', 'Advanced'] as const;
export const ComplexityLevel = z.enum(COMPLEXITY_LEVELS);
export type ComplexityLevel = z.infer<typeof ComplexityLevel>;

const itemId = z.number().int().min(1).max(1000);
const text = (max: number) => z.string().trim().min(1).max(max);

/** `ShortAnswer_Planner Object`. */
export const ExamPlan = z.object({
  planning_strategy: text(2000),
  planned_items: z
    .array(
      z.object({
        id: itemId,
        target_topic: text(200),
        question_type: QuestionType,
        intent_type: IntentType,
        complexity_level: ComplexityLevel,
        source_reference_hint: text(1000),
      }),
    )
    .min(1)
    .max(MAX_EXAM_ITEMS),
});
export type ExamPlan = z.infer<typeof ExamPlan>;
export type PlannedItem = ExamPlan['planned_items'][number];

/** One item of `short_answer_problems`. */
export const ExamProblem = z.object({
  id: itemId,
  type: QuestionType,
  question_content: text(2000),
  model_answer: text(4000),
  key_keywords: z.array(text(200)).max(20),
  intent_diagnosis: text(2000),
});
export type ExamProblem = z.infer<typeof ExamProblem>;

/** `ShortAnswer_Problem Object`. */
export const ExamProblemSet = z.object({ short_answer_problems: z.array(ExamProblem).min(1).max(MAX_EXAM_ITEMS) });
export type ExamProblemSet = z.infer<typeof ExamProblemSet>;

/** `ShortAnswer_Validator Object`. */
export const ExamValidation = z.object({
  is_valid: z.boolean(),
  feedback_message: z.array(z.object({ id: itemId, message: text(2000) })).max(100),
});
export type ExamValidation = z.infer<typeof ExamValidation>;
export type ValidatorComplaint = ExamValidation['feedback_message'][number];

export const RESULT_STATUSES = ['Correct', 'Incorrect', 'Partial_Correct'] as const;
export const ResultStatus = z.enum(RESULT_STATUSES);
export type ResultStatus = z.infer<typeof ResultStatus>;

/** `ShortAnswer_Grader_Output Object`. */
export const GraderOutput = z.object({
  result_status: ResultStatus,
  related_topic: text(200),
  feedback_message: text(2000),
});
export type GraderOutput = z.infer<typeof GraderOutput>;

/**
 * A grade as lectern keeps it: the seed's status, `Ungraded` when grading failed (never credit, never a default
 * status; retried in the background), or `Needs_Review` when the grader was not confident enough to tell the student
 * (the teacher decides; never retried, never sent to an LMS, never shown as final).
 */
export type GradeStatus = ResultStatus | 'Ungraded' | 'Needs_Review';
/** Statuses that are no grade yet: no credit, shown as pending. */
export const PENDING_STATUSES: ReadonlySet<GradeStatus> = new Set<GradeStatus>(['Ungraded', 'Needs_Review']);

/** Where the keyword matcher found each key keyword (or an accepted synonym) in the answer. */
export interface KeywordEvidenceItem {
  keyword: string;
  /** The synonym that matched, when one did. */
  matchedAs: string | null;
  /** Character offsets in the answer as the student wrote it, when found. */
  at: { start: number; end: number } | null;
}

/** What a grade rests on: the matcher's findings and how the status was decided. */
export interface GradeEvidence {
  keywords: KeywordEvidenceItem[];
  /** `keyword`: an exact Short_Keyword match, no model; `math`: mathEquivalent; `model`: the grader model. */
  method: 'keyword' | 'math' | 'model' | 'offline';
  /** A contradiction the server found (same words, the opposite meaning), which caps the status below Correct. */
  contradiction: string | null;
  /** How sure the grader is of its status (src/judges/verdict-confidence.ts); absent on grades kept from before. */
  confidence?: number | undefined;
  /** For `Needs_Review`: the status the grader would have given, shown to the teacher only. */
  proposed?: ResultStatus | undefined;
}

/** One entry of the seed's exam log (`evaluation_items`), with the evidence and lectern's `Ungraded`. */
export interface EvaluationItem {
  question_id: number;
  result_status: GradeStatus;
  question_content: string;
  user_response: string;
  related_topic: string;
  feedback_message: string;
  evidence: GradeEvidence | null;
}

/** The exam log: `{evaluation_items}` as the seed's `Gen_ShortAnswer_feedBack` returns it. */
export interface ExamLog {
  evaluation_items: EvaluationItem[];
}

/** Points per status, computed by the server (Correct 1, Partial_Correct 0.5, Incorrect 0; configurable). */
export type ScoreWeights = Record<ResultStatus, number>;
export const DEFAULT_SCORE_WEIGHTS: ScoreWeights = { Correct: 1, Partial_Correct: 0.5, Incorrect: 0 };

export const EXAM_TYPES = ['short_answer'] as const;
export type ExamType = (typeof EXAM_TYPES)[number];

export const TARGET_DEPTHS = ['Basic Recall', 'Conceptual Understanding', 'Deep Understanding'] as const;
export const TargetDepth = z.enum(TARGET_DEPTHS);
export type TargetDepth = z.infer<typeof TargetDepth>;

/** A topic with what it was concluded from (e.g. "강의 질문 c0q1: 오답", "시험 2번: Incorrect"). */
export const TopicEvidence = z.object({
  topic: text(200),
  evidence: z.array(text(300)).max(10),
});
export type TopicEvidence = z.infer<typeof TopicEvidence>;

/**
 * A learner profile (per student and class), as the planner's example reads it: `learning_goal.target_depth` and
 * `user_status.proficiency_level`, plus weak and strong topics with evidence and preferred item types.
 */
export const LearnerProfile = z.object({
  learning_goal: z.object({
    target_depth: TargetDepth,
    /** The instructor's words, when they set a goal. */
    description: z.string().trim().max(500),
  }),
  user_status: z.object({
    proficiency_level: ComplexityLevel,
    weak_topics: z.array(TopicEvidence).max(30),
    strong_topics: z.array(TopicEvidence).max(30),
  }),
  preferred_question_types: z.array(QuestionType).max(2),
  /** Exams this profile has been updated from (their ids, newest last). */
  exams_taken: z.array(z.string()).max(200),
  updated_at: z.number().int(),
});
export type LearnerProfile = z.infer<typeof LearnerProfile>;

/** `Generator_feedBack`'s report to the student. */
export const FeedbackReport = z.object({
  summary: text(2000),
  strengths: z.array(text(300)).max(10),
  weak_topics: z
    .array(
      z.object({
        topic: text(200),
        advice: text(1000),
        /** Where to review: the lecture's chapter (0-based) and the material's pages (1-based). */
        review: z.array(z.object({ chapter: z.number().int().min(0), title: text(200), pages: z.array(z.number().int().min(1)).max(50) })).max(5),
      }),
    )
    .max(20),
  next_steps: z.array(text(500)).max(10),
});
export type FeedbackReport = z.infer<typeof FeedbackReport>;

/** What the instructor (or a self-studying student) asks for: seed 000 step 2's `target_problem_count` and the mix. */
export const ExamRequestFields = z.object({
  count: z.number().int().min(1).max(MAX_EXAM_ITEMS),
  /** How many of `count` are `Descriptive`; the rest are `Short_Keyword`. */
  descriptive: z.number().int().min(0).max(MAX_EXAM_ITEMS),
  difficulty: ComplexityLevel.optional(),
  /** Chapters (0-based) of the material to draw on; all when absent. */
  chapters: z.array(z.number().int().min(0).max(500)).min(1).max(50).optional(),
});
/** The mix's one rule across fields (shared by the student's self-study body). */
export const descriptiveWithinCount: [(request: { count: number; descriptive: number }) => boolean, { message: string; path: string[] }] = [
  (request) => request.descriptive <= request.count,
  { message: '서술형 문항 수는 전체 문항 수보다 많을 수 없습니다.', path: ['descriptive'] },
];
export const ExamRequest = ExamRequestFields.strict().refine(...descriptiveWithinCount);
export type ExamRequest = z.infer<typeof ExamRequest>;

/** A mix rule for bodies where `descriptive` may be left out (the planner then chooses it: exam-mix.ts). */
const optionalWithinCount: [(request: { count: number; descriptive?: number | undefined }) => boolean, { message: string; path: string[] }] = [
  (request) => request.descriptive === undefined || request.descriptive <= request.count,
  descriptiveWithinCount[1],
];

/**
 * `POST /api/materials/:id/exams`: ExamRequest whose `descriptive` may be left out (the balance then comes from the
 * learner profile), and `classId`: the class the exam is for, whose aggregated profile plans it (the caller's class;
 * a class instructor token's own class when absent).
 */
export const ExamRequestBody = ExamRequestFields.extend({
  descriptive: ExamRequestFields.shape.descriptive.optional(),
  classId: z.string().trim().min(1).max(64).optional(),
})
  .strict()
  .refine(...optionalWithinCount);
export type ExamRequestBody = z.infer<typeof ExamRequestBody>;

/**
 * `POST /api/class-exams/self-study`: the student's own exam, the instructor's request (count 1–20, the mix,
 * difficulty, chapters) on their class's material; `materialId`, when sent, must be that material; without
 * `descriptive` the balance comes from the student's learner profile (exam-mix.ts).
 */
export const SelfStudyExamBody = ExamRequestFields.extend({
  descriptive: ExamRequestFields.shape.descriptive.optional(),
  materialId: z.string().trim().min(1).max(128).optional(),
})
  .strict()
  .refine(...optionalWithinCount);
export type SelfStudyExamBody = z.infer<typeof SelfStudyExamBody>;

/** The outcome of Planner → Writer → Validator: the last set, and the validator's open complaints when it never passed. */
export interface GeneratedExam {
  plan: ExamPlan;
  problems: ExamProblem[];
  /** True when the validator (and the deterministic checks) accepted the set; false: the seed's fallback. */
  valid: boolean;
  /** Complaints still open on the returned set (empty when valid), shown to the instructor beside each item. */
  complaints: ValidatorComplaint[];
  rounds: number;
  /** Fewer items than asked: the material gave no more sound items, or the item guard refused some. */
  shortfall?: GenerationShortfall | undefined;
}

/** Who pays for and may cancel model calls made for an exam. */
export interface ExamCallContext {
  materialId: string;
  /** The plan's `target_topic` for the item being graded: the related topic of an item without key keywords. */
  topic?: string | undefined;
  accountId?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The material text the items were drawn from, when the caller has it: the grader's pasted-passage check. */
  source?: string | undefined;
}

/** What lectern already knows of a student, read by `Execute_Generator_PriorProfile`. */
export interface LearnerSignals {
  /**
   * Lecture comprehension questions and the tutor's verdicts (a bad verdict's remediated subconcepts as topics);
   * `selfAssessed`: the student's own comparison after an unsure verdict (counts with SELF_ASSESSED_WEIGHT);
   * `afterRemediation`: for a bad verdict, the verdict on the same question asked again after its subconcepts.
   */
  lectureVerdicts: { question: string; verdict: 'good' | 'bad'; concepts: string[]; selfAssessed?: true; afterRemediation?: 'good' | 'bad' }[];
  /** What the student asked with a raised hand. */
  handTopics: string[];
  /**
   * Quiz answers that can be tied to the student: first answers to the class's math problems and to self-study quiz
   * items (seed 001's API, by the student's session). `topic`: what a wrong answer makes weak (and a right one
   * strong); without one the answer counts only toward proficiency.
   */
  quizAnswers: { question: string; correct: boolean; topic?: string | undefined; source?: string | undefined }[];
  /** Earlier exams of this student in this class, oldest first. */
  exams: { examId: string; log: ExamLog }[];
}

/** A chapter of the material, so feedback can point at what to review (pages are 1-based). */
export interface ChapterRef {
  chapter: number;
  title: string;
  pages: number[];
}

/** `Agent_ShortAnswerGrader` with its evidence: never throws for a model failure, answers `Ungraded` instead. */
export interface ExamItemGrader {
  grade(problem: ExamProblem, answer: string, context: ExamCallContext): Promise<EvaluationItem>;
}

/** `Generator_feedBack(log, exam_type, source_material, timestamp)`: the report, and the profile it updates. */
/** The material passage a weak item is about (seed 000's `source_material` of `Generator_feedBack`). */
export interface SourcePassage {
  question_id: number;
  chapter: number;
  pages: number[];
  text: string;
  /** The sentence of the passage the item was built on (its model answer's source), what the report quotes. */
  quote?: string | undefined;
}

/** A question whose passage the report quotes: its text and, when known, its model answer (what it was built on). */
export interface SourceQuestion {
  question_id: number;
  question_content: string;
  reference?: string | undefined;
}

export interface ExamFeedbackAgent {
  feedback(input: {
    log: ExamLog;
    examType: ExamType;
    chapters: ChapterRef[];
    /** The passages of the items graded Incorrect or Partial_Correct, when the caller can find them. */
    sources?: SourcePassage[] | undefined;
    timestamp: number;
    examId: string;
    profile: LearnerProfile;
    context: ExamCallContext;
  }): Promise<{ report: FeedbackReport; profile: LearnerProfile }>;
}
