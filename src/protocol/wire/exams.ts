import type { GenerationShortfall } from './shortfall.js';
/**
 * Live exams (seed 000) on the wire: the replies of `/api/exams`, `/api/class-exams` and the learner
 * profile routes, and the `/monitor` events. Types only, browser-safe (the seed's objects are mirrored here from
 * src/exams/exam-types.ts, whose zod schemas check them on the server).
 */
import type { JobState } from './jobs.js';

export type ExamQuestionType = 'Short_Keyword' | 'Descriptive';
export type ExamResultStatus = 'Correct' | 'Partial_Correct' | 'Incorrect';
/**
 * A grade as lectern keeps it: the seed's status, `Ungraded` while grading failed, or `Needs_Review` while the
 * teacher reviews an item the grader was not sure of (both shown as pending, never credit).
 */
export type ExamGradeStatus = ExamResultStatus | 'Ungraded' | 'Needs_Review';
/** How a status reads to people (pages, reports, learner profiles): the enum names are never shown. */
export const EXAM_STATUS_LABELS: Record<ExamGradeStatus, string> = { Correct: '정답', Partial_Correct: '부분 정답', Incorrect: '오답', Ungraded: '채점 중', Needs_Review: '검토 중' };
export type ExamStatus = 'draft' | 'published' | 'closed';
export type StudentExamState = 'open' | 'submitted' | 'closed';
export type ExamTargetDepth = 'Basic Recall' | 'Conceptual Understanding' | 'Deep Understanding';
export type ExamComplexity = 'Basic' | 'Intermediate' | 'Advanced';
/** How a level (an item's complexity, a learner's proficiency) and a target depth read to people. */
export const EXAM_LEVEL_LABELS: Record<ExamComplexity, string> = { Basic: '기초', Intermediate: '중급', Advanced: '심화' };
export const EXAM_DEPTH_LABELS: Record<ExamTargetDepth, string> = { 'Basic Recall': '기본 암기', 'Conceptual Understanding': '개념 이해', 'Deep Understanding': '깊은 이해' };
/**
 * How much a self-assessed lecture verdict (the student's own comparison after an unsure one) counts, against 1 for
 * the tutor's: in the learner profile's proficiency and in the class analytics' mastery map alike.
 */
export const SELF_ASSESSED_WEIGHT = 0.5;

/** One item of the seed's `short_answer_problems` (instructor only: a student never sees the answer or keywords). */
export interface ExamProblemView {
  id: number;
  type: ExamQuestionType;
  question_content: string;
  model_answer: string;
  key_keywords: string[];
  intent_diagnosis: string;
}

export interface ExamPublicationView {
  classId: string;
  timeLimitMinutes: number;
  publishedAt: number;
  /** A self-study exam's is the largest safe integer: it has none. */
  deadline: number;
  /** Self-study: no deadline, results at each student's own submission. */
  selfStudy?: boolean | undefined;
  /** A student's own self-study exam: their session id. */
  student?: string | undefined;
}

/** `GET /api/exams` entries. */
export interface ExamListEntry {
  examId: string;
  materialId: string;
  title: string;
  count: number;
  status: ExamStatus;
  createdAt: number;
  classId?: string;
  deadline?: number;
  selfStudy?: boolean | undefined;
  /** A student's own self-study exam: their session id. */
  student?: string | undefined;
}

export interface ExamListReply {
  exams: ExamListEntry[];
  nextCursor: string | null;
}

/** `GET /api/exams/:examId`. */
export interface ExamDetailReply {
  examId: string;
  materialId: string;
  title: string;
  status: ExamStatus;
  request: { count: number; descriptive: number; difficulty?: ExamComplexity | undefined; chapters?: number[] | undefined };
  plan: {
    planning_strategy: string;
    planned_items: { id: number; target_topic: string; question_type: ExamQuestionType; intent_type: string; complexity_level: ExamComplexity; source_reference_hint: string }[];
  };
  problems: ExamProblemView[];
  complaints: { id: number; message: string }[];
  /** Items whose complaints the instructor accepted as they are (the others hold publishing back). */
  accepted: number[];
  valid: boolean;
  rounds: number;
  createdAt: number;
  publication: ExamPublicationView | null;
  /** Fewer sound items than asked (absent when every item asked for was made). */
  shortfall?: GenerationShortfall | undefined;
}

export interface ExamKeywordEvidence {
  keyword: string;
  matchedAs: string | null;
  at: { start: number; end: number } | null;
}

/** One entry of the seed's exam log (`evaluation_items`) with lectern's evidence. */
export interface ExamEvaluationItem {
  question_id: number;
  result_status: ExamGradeStatus;
  question_content: string;
  user_response: string;
  related_topic: string;
  feedback_message: string;
  evidence: {
    keywords: ExamKeywordEvidence[];
    method: 'keyword' | 'math' | 'model' | 'offline';
    contradiction: string | null;
    /** How sure the grader is (0–1). */
    confidence?: number | undefined;
    /** For `Needs_Review`, the grader's unconfirmed status (teachers only). */
    proposed?: ExamResultStatus | undefined;
  } | null;
}

export interface ExamOverrideView {
  status: ExamResultStatus;
  reason: string;
  by: string;
  at: number;
  from: ExamGradeStatus;
}

export type ExamResultItem = ExamEvaluationItem & { overridden?: ExamOverrideView };

export interface ExamRegradeView {
  questionId: number;
  comment: string;
  at: number;
  status: 'pending' | 'done';
  from?: ExamGradeStatus | undefined;
  to?: ExamGradeStatus | undefined;
}

/** `Generator_feedBack`'s report. */
export interface ExamFeedbackReport {
  summary: string;
  strengths: string[];
  weak_topics: { topic: string; advice: string; review: { chapter: number; title: string; pages: number[] }[] }[];
  next_steps: string[];
}

export interface ExamStudentResult {
  sessionId: string;
  nickname: string;
  submittedAt: number | null;
  score: number;
  maxScore: number;
  pending: boolean;
  items: ExamResultItem[];
  regrades: ExamRegradeView[];
  report: ExamFeedbackReport | null;
}

export interface ExamItemSummary {
  question_id: number;
  counts: Record<ExamGradeStatus, number>;
  misconceptions: string[];
}

/** `GET /api/exams/:examId/results` (and `results.json`). */
export interface ExamResultsReply {
  examId: string;
  deadline: number;
  closed: boolean;
  students: ExamStudentResult[];
  items: ExamItemSummary[];
  /** The class's students who never opened the exam (미응시). */
  absent: { sessionId: string; nickname: string }[];
}

export interface ExamAuditEntry {
  /**
   * An override of the status (alone or with its answer group), or the answer moved out of its group or back in
   * (a move changes no status: `from` and `to` are the status the answer had, and `reason` is empty).
   */
  action: 'override' | 'move-out' | 'move-in';
  sessionId: string;
  questionId: number;
  by: string;
  at: number;
  from: ExamGradeStatus;
  to: ExamGradeStatus;
  reason: string;
  /** The answer group this change was made with (one action for the whole group); for a move, the group left or joined. */
  groupId?: string | undefined;
}

/** `POST /api/exams/:examId/students/:sessionId/items/:questionId/override`. */
export interface ExamOverrideReply {
  item: ExamResultItem;
  audit: ExamAuditEntry[];
}

/** One student's answer in an item's answer groups (teachers only). */
export interface ExamGroupedAnswer {
  sessionId: string;
  nickname: string;
  text: string;
  /** The item's status as it counts now (the teacher's override, else the grade). */
  status: ExamGradeStatus;
  /** For `Needs_Review`: what the grader would have said, and how sure it was. */
  proposed?: ExamResultStatus | undefined;
  confidence?: number | undefined;
  /** The teacher's latest decision on this answer. */
  overridden?: { status: ExamResultStatus; reason: string; groupId?: string | undefined } | undefined;
}

/** Answers to one item that mean the same (every two of them alike); graded in one action. */
export interface ExamAnswerGroup {
  /** Stable while its members are unchanged; a grade sent with a stale id is refused (EXAM_GROUP_NOT_FOUND). */
  groupId: string;
  size: number;
  /** Some answer of the group waits for the teacher (these groups come first). */
  needsReview: boolean;
  /** An answer the teacher moved out of its group, standing alone. */
  detached: boolean;
  answers: ExamGroupedAnswer[];
}

/** `GET /api/exams/:examId/items/:questionId/groups` (also the reply of move-out and move-in). */
export interface ExamAnswerGroupsReply {
  examId: string;
  questionId: number;
  /** How meaning was compared: the model's embeddings, or term vectors offline. */
  method: 'embeddings' | 'terms';
  groups: ExamAnswerGroup[];
}

/** `POST /api/exams/:examId/items/:questionId/groups/:groupId/grade`: every answer of the group decided. */
export interface ExamGroupGradeReply {
  groupId: string;
  status: ExamResultStatus;
  /** One per answer, in the group's order: the item as it counts now (each with its own audit entry). */
  graded: { sessionId: string; item: ExamResultItem }[];
}

export interface ExamTopicEvidence {
  topic: string;
  evidence: string[];
}

export interface ExamLearnerProfile {
  learning_goal: { target_depth: ExamTargetDepth; description: string };
  user_status: { proficiency_level: ExamComplexity; weak_topics: ExamTopicEvidence[]; strong_topics: ExamTopicEvidence[] };
  preferred_question_types: ExamQuestionType[];
  exams_taken: string[];
  updated_at: number;
}

export interface ExamProfileReply {
  profile: ExamLearnerProfile;
}

/** `GET /api/class-exams`. */
export interface ClassExamsReply {
  serverNow: number;
  exams: { examId: string; title: string; count: number; deadline: number; state: StudentExamState; selfStudy: boolean }[];
}

/** `GET /api/class-exams/:examId`: questions only, never a model answer or a keyword. */
export interface ClassExamReply {
  examId: string;
  title: string;
  serverNow: number;
  deadline: number;
  /** No deadline (its `deadline` is never reached); the result shows at the student's own full submission. */
  selfStudy: boolean;
  problems: { id: number; type: ExamQuestionType; question_content: string }[];
  drafts: Record<string, string>;
  submitted: Record<string, true>;
  submittedAll: boolean;
}

export interface ExamDraftReply {
  savedAt: number;
  serverNow: number;
}

export interface ExamSubmitReply {
  submitted: Record<string, true>;
  submittedAll: boolean;
}

/**
 * What a student sees of an instructor's override: the status before it and the reason, never who (an account id)
 * nor when.
 */
export interface ExamInstructorReview {
  from: ExamGradeStatus;
  reason: string;
}

/** `GET /api/class-exams/:examId/result`. */
export interface ClassExamResultReply {
  status: 'pending' | 'graded';
  score: number;
  maxScore: number;
  log: { evaluation_items: (ExamEvaluationItem & { instructor_review?: ExamInstructorReview })[] };
  report: ExamFeedbackReport | null;
  /** The student's own regrade requests (one per item): `done` once the item was graded again. */
  regrades: { questionId: number; status: 'pending' | 'done' }[];
}

/** `/monitor` events of live exams (never answer text). */
export interface ExamProgressEvent {
  examId: string;
  sessionId: string;
  nickname: string;
  /** Items with a non-blank answer (the submitted text once submitted, else the draft): an empty item is not answered. */
  answered: number;
  total: number;
  submittedAll: boolean;
  deadline: number;
}

/** `GET /api/exams/:examId/progress`: the monitor's table now, before the live events update it. */
export interface ExamProgressReply {
  examId: string;
  deadline: number;
  serverNow: number;
  students: (ExamProgressEvent & { graded: boolean })[];
}

export interface ExamGradedEvent {
  examId: string;
  sessionId: string;
}

/**
 * `/tutor` notices of live exams (no `seq`, never replayed: a page that missed one reads the same over HTTP). Every
 * open sheet of the class hears `exam:closed` when the exam closes (시험 종료 or the deadline): it locks and turns to
 * the result. The student hears `exam:result` when their result is there or changed (graded, an override, a regrade).
 */
export interface ExamClosedNotice {
  examId: string;
  deadline: number;
}
export interface ExamResultNotice {
  examId: string;
}

/**
 * Where an exam's short-answer/descriptive balance came from: the request (`descriptive` sent), the student's learner
 * profile, the class's aggregated profile (an instructor's exam for a class), or the default (no profile).
 */
export type ExamMixSource = 'request' | 'profile' | 'class-profile' | 'default';

/** The balance an exam is planned with, and why (Korean; the plan's `planning_strategy` opens with the same sentence). */
export interface ExamMixView {
  descriptive: number;
  source: ExamMixSource;
  reason: string;
}

/** `POST /api/materials/:id/exams` (202): the `exam-generation` job, its `/jobs` token, and the balance it plans. */
export interface ExamStartReply {
  jobId: string;
  job: JobState;
  jobToken: string;
  mix: ExamMixView;
}

/** `POST /api/class-exams/self-study` (202): the student's `exam-generation` job, its `/jobs` token, its balance. */
export interface SelfStudyExamStartReply {
  jobId: string;
  job: JobState;
  jobToken: string;
  mix: ExamMixView;
}
