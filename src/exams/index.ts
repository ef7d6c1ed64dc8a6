/**
 * Exams (seed 000): the learner profile, Planner → Writer → Validator, live exams with a server clock and
 * autosaved drafts, the grader with evidence, and the feedback agent.
 *
 * The lifecycle of a live exam, and where each guarantee lives:
 * - A request that gives only the count gets its short-answer/descriptive balance from the learner profile (a
 *   student's own, or the class's aggregate for an instructor's exam for a class), the reason first in the plan
 *   (exam-mix.ts).
 * - Generation is seeded per job (exam-seed.ts); a student's self-study exam on a material is refused while a class
 *   exam on it runs in their class, and a self-study result naming a running exam's answers waits for its end.
 * - A draft exam publishes only with no validator complaint open: editing an item clears its complaints, the
 *   instructor may accept an item as it is (ExamComplaintsOpenError otherwise).
 * - Drafts are written against guards (Store.hsetUnless): the close and each submission write theirs before reading
 *   the drafts, so the graded text is the last draft acknowledged.
 * - Grading (exam-grading.ts) runs under a renewed per-student lease another node takes over; the student is on
 *   `exams:pending` before anything starts, and `exams:grading` is the sweep's backstop. After grading, the steps of
 *   grading-steps.ts (report, profile, notify) run in order, each idempotent and marked per revision; an override or
 *   a regrade is a new revision. Extension point: `ExamServiceOptions.steps` appends a GradingStep (an LMS grade
 *   passback, say) that then runs whenever a student's result is final or changes, resumed after a crash like the rest.
 * - `events.closed` / `events.graded` reach the class's open sheets and the student's pages (`exam:closed`,
 *   `exam:result` on /tutor) and the monitor (`exam:graded`).
 * - An item graded below the confidence threshold is `Needs_Review`: pending (no credit, held from the LMS by
 *   gradeHold), not retried, listed first for the teacher with the grader's proposal; the teacher's override decides
 *   it, and overrides are exported as labelled data (teacher-decisions.ts).
 * - The teacher grades groups of answers: one item's answers grouped by meaning (answer-groups.ts: the model's
 *   embeddings or term vectors, complete linkage, contradictions apart, Needs_Review first, ids stable while
 *   membership is), one status and reason per group applied answer by answer through `applyOverride`, the single
 *   override's path (answer-group-grading.ts); moving an answer out of its group or back in is audited for that
 *   answer too; group grades are exported with the overrides, marked as such.
 */
export * from './exam-types.js';
export { DEFAULT_DESCRIPTIVE_SHARE, DESCRIPTIVE_SHARE, chooseMix, classProfile, requestedMix, type ExamMix } from './exam-mix.js';
// Generation: the three agents, the server's checks, the loop, its offline versions and its job.
export {
  EXAM_PLAN_TEMPERATURE,
  EXAM_TASKS,
  EXAM_VALIDATE_TEMPERATURE,
  EXAM_WRITE_TEMPERATURE,
  ExamPlannerInput,
  ExamValidatorInput,
  ExamWriterInput,
  enforcePlan,
  mixInstruction,
  planExam,
  readVerdict,
  renderPlannerPrompt,
  renderValidatorPrompt,
  renderWriterPrompt,
  validateExam,
  writeExam,
  type ExamPassage,
} from './exam-agents.js';
export { checkProblemSet, containsKeyword, keywordForms, looseText } from './exam-checks.js';
export { DIFFICULTY_OF_COMPLEXITY, loadExamSource, type ExamSource } from './exam-source.js';
export { ExamGenerationState, examPassages, generateExam, type ExamRoundReport, type GenerateExamOptions } from './exam-generator.js';
export { examOfflineTasks, findDefinitions, findTopics, parseDefinition, planOffline, validateOffline, writeItem, writeOffline, type Definition, type Topic } from './exam-offline.js';
export { EXAM_JOB_KIND, ExamJobCheckpoint, ExamJobParams, examJobHandler, itemVerdicts, type ExamJobDeps, type SaveExamInput } from './exam-job.js';
export type { ExamItemVerdict, ExamJobProgress, ExamJobResult } from '../protocol/jobs.js';
// Live exams: the store, the service, the grading pipeline, results, learner signals.
export {
  EXAM_ID,
  ExamOverride,
  ExamPublication,
  ExamRecord,
  ExamRepository,
  RegradeRequest,
  StoredAnswer,
  StoredEvaluation,
  type AuditEntry,
  type GradingState,
  type NewExam,
} from './exam-repository.js';
export { examResultsCsv, itemSummaries, resultItems, scoreOf, studentResult, type ItemSummary, type ResultItem, type StudentData, type StudentResult } from './exam-results.js';
export { ExamGrading, type ExamGradingOptions, type GradingStep, type GradingStepContext } from './exam-grading.js';
export { postGradingSteps, type PostGradingDeps } from './grading-steps.js';
export {
  ExamService,
  MAX_ANSWER_LENGTH,
  neutralProfile,
  type ExamEvents,
  type ExamResults,
  type ExamRoster,
  type ExamServiceOptions,
  type ExamStatus,
  type StudentExamState,
  type StudentExamView,
} from './exam-service.js';
export { lectureSignals } from './learner-signals.js';
export { examKeys } from './exam-keys.js';
export { EMBEDDING_THRESHOLD, TERM_THRESHOLD, answerGroupId, groupAnswers, type AnswerGroup, type GroupableAnswer, type GroupingOptions } from './answer-groups.js';
export { ExamAnswerGroups, type AnswerGroupingDeps } from './answer-group-grading.js';

// Grading, evidence and feedback.
export { exactKeywordAnswer, keywordEvidence } from './answer-evidence.js';
export {
  EXAM_GRADE_TASK,
  EXAM_GRADE_TEMPERATURE,
  ExamGradeInput,
  ExamGrader,
  MAX_EXAM_ANSWER_CHARACTERS,
  applyCap,
  relatedTopicOf,
  renderExamGradePrompt,
  serverCheck,
  type ExamGraderOptions,
  type ServerCheck,
} from './exam-grader.js';
export { GRADING_CONCURRENCY, gradeExam, regradePending, scoreExam, type ExamScore } from './exam-log.js';
export {
  ADVANCED_SHARE,
  DEFAULT_TARGET_DEPTH,
  INTERMEDIATE_SHARE,
  MIN_EVIDENCE,
  REPEATED_HAND,
  buildPriorProfile,
  proficiencyFrom,
} from './prior-profile.js';
export {
  EXAM_FEEDBACK_TASK,
  EXAM_FEEDBACK_TEMPERATURE,
  ExamFeedback,
  ExamFeedbackInput,
  chaptersForTopic,
  deterministicReport,
  renderExamFeedbackPrompt,
  settleReport,
  updateProfile,
  type ExamFeedbackOptions,
} from './feedback-agent.js';
export { gradeExamItemOffline } from './exam-grading-offline.js';
export { examGradingOfflineTasks } from './exam-grading-tasks.js';
export { type TeacherDecision, decisionOf, decisionsJsonl, teacherDecisions } from './teacher-decisions.js';
