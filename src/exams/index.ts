/**
 * Exams (issue 15, seed 000): the learner profile, Planner → Writer → Validator, live exams with a server clock and
 * autosaved drafts, the grader with evidence, and the feedback agent.
 */
export * from './exam-types.js';

// Grading, evidence and feedback (issue 15 §1, §4).
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
