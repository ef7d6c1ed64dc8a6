/**
 * Exams (issue 15, seed 000): the learner profile, Planner → Writer → Validator, live exams with a server clock and
 * autosaved drafts, the grader with evidence, and the feedback agent.
 */
export * from './exam-types.js';
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
export { ExamGrading, type ExamGradingOptions } from './exam-grading.js';
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
