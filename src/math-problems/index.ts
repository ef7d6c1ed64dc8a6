/**
 * Math problems checked before use (seed 002): generation from a material's passages, deterministic
 * checks with `mathEquivalent`, the AI judge with the server's pass rule, partial regeneration.
 */
export {
  CHOICE_LETTERS,
  MATH_CRITERIA,
  MATH_PROBLEM_TYPES,
  MathProblemType,
  RawMathProblem,
  type MathCriterion,
  type MathJudgement,
  type MathProblem,
  type MathScores,
} from './problem.js';
export { checkProblem, keyedAnswer, type CheckOutcome } from './problem-checks.js';
export {
  DEFAULT_MATH_JUDGE_POLICY,
  MATH_JUDGE_TASKS,
  MATH_JUDGE_TEMPERATURE,
  MathJudge,
  NETWORK_PASS_SCORE,
  SEED_THRESHOLD,
  clampMathScore,
  decideMathPass,
  renderMathJudgePrompt,
  type MathJudgeContext,
  type MathJudgePolicy,
  type MathThreshold,
  type MathVerdictResult,
} from './math-judge.js';
export {
  MATH_TASKS,
  MATH_TEMPERATURE,
  MAX_MATH_ATTEMPTS,
  MAX_MATH_PROBLEMS,
  MathGenerationError,
  MathRequest,
  generateMathProblems,
  mathPlan,
  planInstruction,
  renderMathPrompt,
  type GenerateMathOptions,
  type MathGeneration,
  type MathProgress,
  type MathSlot,
} from './problem-generator.js';
export { explanationSteps, judgeMathOffline, mathOfflineTasks } from './math-offline.js';
export { MATH_JOB_KIND, MathJobCheckpoint, MathJobParams, mathJobHandler, type MathJobDeps } from './math-job.js';
export { classMathAnswers, type ClassMathAnswer } from './class-math-answers.js';
export { FirstMathAnswer, MathSetEntry, MathSetRecord, MathSetRepository, MAX_SHARED_SETS, StoredMathProblem, type NewMathSet } from './math-set-repository.js';
export {
  MAX_SHORT_ANSWER_LENGTH,
  SHORT_ANSWER_TASK,
  SHORT_ANSWER_TEMPERATURE,
  ShortAnswerReply,
  gradeShortMathAnswer,
  renderShortAnswerPrompt,
  type GradeShortAnswerOptions,
  type ShortAnswerGrade,
  type ShortAnswerInput,
  type ShortAnswerProblem,
} from './short-answer-grader.js';
export { mathKeys } from './math-keys.js';
export { mathLifecycle } from './math-lifecycle.js';
