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
 * - The offline model's items (exam-offline.ts): every chapter asked for gets an item before any gets a second, one
 *   fact is asked once, a "무엇인지 설명하시오" item is answered with the material's definition of its term (a second
 *   sentence only when it adds something), a comparison only of two terms the material contrasts (one chapter, or one
 *   sentence naming both), keywords are nouns, compounds whole (keyword-forms.ts), "무엇인지" only of a term the material
 *   defines (what it only says something of is asked "X에 대하여"), never a word with its particle as a term (`중기에`),
 *   one term in one item whatever the types; its validator flags the rest (one fact twice, a Short_Keyword answer a
 *   Descriptive item asks about, 공통으로 with one blank, a keyword or asked term glued with its particle, a verb stem,
 *   a definition item not answered with the definition or on a term the material does not define: exam-item-faults.ts),
 *   so such an item is rewritten or waits for the instructor instead of being published.
 * - A draft exam publishes only with no validator complaint open: editing an item clears its complaints, the
 *   instructor may accept an item as it is (ExamComplaintsOpenError otherwise).
 * - Drafts are written against guards (Store.hsetUnless): the close and each submission write theirs before reading
 *   the drafts, so the graded text is the last draft acknowledged.
 * - Grading (exam-grading.ts) runs under a renewed per-student lease another node takes over; the student is on
 *   `exams:pending` before anything starts, and `exams:grading` is the sweep's backstop. After grading, the steps of
 *   grading-steps.ts (report, profile, notify) run in order, each idempotent and marked per revision; an override or
 *   a regrade is a new revision. Extension point: `ExamServiceOptions.steps` appends a GradingStep (an LMS grade
 *   passback, say) that then runs whenever a student's result is final or changes, resumed after a crash like the rest.
 * - The student's report quotes, for each missed item, the sentence it was built on (its model answer's source) from
 *   the passage and chapter that hold it (feedback-agent.ts `reviewPassages`), never a section number, title or cover.
 * - `events.closed` / `events.graded` reach the class's open sheets and the student's pages (`exam:closed`,
 *   `exam:result` on /tutor) and the monitor (`exam:graded`).
 * - An item graded below the confidence threshold (the confidence of its status: offline, judges' statusConfidence)
 *   is `Needs_Review`: pending (no credit, held from the LMS by gradeHold), not retried, listed first for the teacher
 *   with the grader's proposal; the teacher's override decides it, and overrides are exported as labelled data
 *   (teacher-decisions.ts).
 * - The teacher grades groups of answers: one item's answers grouped by meaning (answer-groups.ts: the model's
 *   embeddings or term vectors, complete linkage, contradictions apart, Needs_Review first, ids stable while
 *   membership is), one status and reason per group applied answer by answer through `applyOverride`, the single
 *   override's path (answer-group-grading.ts); moving an answer out of its group or back in is audited for that
 *   answer too; group grades are exported with the overrides, marked as such.
 */

/*
 * Wire detail of unsure verdicts (lecture and exams), Needs_Review and the teacher's review and answer groups (docs/PROTOCOL.md keeps the map).
 *
 * - `tutor:unsure` `{seq, questionId, text, modelAnswer, choices: [{id: 'similar', label: '비슷하게 답했어요'}, {id: 'review', label: '다시 볼래요'}]}`:
 *   the tutor is not sure of its verdict on the answer to `questionId`; no `tutor:verdict` is sent until the student
 *   answers with the command `answer:self-assess` `{questionId, choice: 'similar' | 'review'}` (ack
 *   `{questionId, verdict}`), after which `tutor:verdict` carries `selfAssessed: true` and the tutoring goes on as after
 *   a told verdict. Transcript items: `{type: 'unsure', …}` and `verdict` with `selfAssessed`.
 * - Exams: `Needs_Review` (검토 중) is a grade status like `Ungraded`: pending, no credit, never sent to an LMS. The
 *   teacher's results carry `evidence.proposed` and `evidence.confidence` for it and list such students first; the
 *   student's result carries neither. Once the teacher decides it (or changes a graded status), its
 *   `feedback_message` is that decision and its reason (exam-results.ts decidedFeedback), no longer the grader's.
 * - `GET /api/exams/:examId/decisions.jsonl` (owner only, `application/x-ndjson`): the teacher's overrides as labelled
 *   lines `{examId, questionId, type, question, reference, keywords, answer, graderStatus, graderProposed?,
 *   graderConfidence?, teacherStatus, reason, fromGroup?, groupId?, groupSize?}`, without student identity
 *   (src/exams/teacher-decisions.ts); an answer graded with its group has `fromGroup: true` and the group's id and size.
 * - Answer groups (owner or the class's instructor token; src/exams/answer-group-grading.ts):
 *   `GET /api/exams/:examId/items/:questionId/groups` -> `ExamAnswerGroupsReply {examId, questionId, method:
 *   'embeddings' | 'terms', groups: [{groupId, size, needsReview, detached, answers: [{sessionId, nickname, text,
 *   status, proposed?, confidence?, overridden?}]}]}`, groups with a `Needs_Review` answer first. `POST
 *   .../groups/:groupId/grade` `{status, reason}` -> `ExamGroupGradeReply {groupId, status, graded: [{sessionId, item}]}`:
 *   each answer overridden as by the single override (one audit entry each, with `groupId`; the students hear
 *   `exam:result`); 404 `EXAM_GROUP_NOT_FOUND` when no group has that id any more (an answer moved out or in: reload).
 *   `POST .../answers/:sessionId/move-out` and `move-in` -> the groups as they are then. A move that changes something
 *   is audited for that answer: an `ExamAuditEntry` with `action: 'move-out'` (the group it left) or `'move-in'` (the
 *   group it joined), its status unchanged as `from` and `to`, an empty reason; overrides have `action: 'override'`.
 *   The single override's reply (`ExamOverrideReply.audit`) lists that answer's whole trail, moves included.
 * - Team rooms: `options.teams` (2–10) at `POST /api/rooms` puts players in teams in join order (round-robin: the team
 *   with the fewest so far); `options.teamPick` lets a player move with `team:pick {team}` (0-based) in the lobby only.
 *   The team is on `room:state.me.team`, the host's `PlayerSummary.team`, `LeaderboardRow.team`; leaderboard, podium
 *   and results carry `teams` (each team's score is the mean of its members', rounded); the CSV adds a 팀 column and
 *   a team table (src/quiz/teams.ts).
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
export { aboutQuestion, aboutTerm, explainedTerm } from './exam-item-faults.js';
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
  reviewPassages,
  reviewSentence,
  settleReport,
  updateProfile,
  type ExamFeedbackOptions,
} from './feedback-agent.js';
export { gradeExamItemOffline } from './exam-grading-offline.js';
export { examGradingOfflineTasks } from './exam-grading-tasks.js';
export { type TeacherDecision, decisionOf, decisionsJsonl, teacherDecisions } from './teacher-decisions.js';
