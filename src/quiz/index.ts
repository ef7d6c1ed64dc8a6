/**
 * Quizzes (authoring, the quiz agent) and live quiz rooms (service, runtime, results).
 * - Quizzes are uploaded or written by the quiz agent (quiz-agent.ts: one generateObject from retrieved passages,
 *   every item re-validated with its cited passages) and judged by the EvalAgent gate (eval-agent.ts, quiz-gate.ts,
 *   pass-rule.ts: the model scores, the server decides); self-study.ts serves seed 001's API.
 * - Rooms: room-service.ts handles commands; answers are first-write-wins (HSETNX unless closed); scoring.ts
 *   recomputes standings from every recorded answer at each reveal.
 * - Only a running question has timers: the node holding the room's driver lease (room-driver.ts, room-runtime.ts)
 *   acts on the deadlines stored in the room, polls the answer count, and closes early when everyone answered; when
 *   that node dies another takes the lease and acts on the stored deadlines.
 * - Members are reached through the RoomMember port (realtime/quiz-member.ts); one answer never causes a broadcast.
 */
export {
  generateQuiz,
  generateQuizItems,
  loadQuizSource,
  newItemId,
  referenceData,
  referencePassages,
  sourceOf,
  type QuizGeneration,
  type QuizMaterialSource,
  type QuizSlot,
  type QuizSource,
} from './quiz-agent.js';
export { QUIZ_PASSAGE_COUNT, RELAX_ORDER, type QuizRetrieval } from './quiz-passages.js';
export { SEED_TOPIC_MAP, materialTopics, resolveTopic, type MaterialTopic, type QuizTopic, type TopicMap } from './quiz-topics.js';
export { quizOfflineTasks, sourceSentences } from './quiz-offline.js';
export { englishTerms, isEnglishProse, termPattern, type EnglishTerm } from './english-terms.js';
export {
  EVAL_CONCURRENCY,
  EVAL_PASSAGE_COUNT,
  EVAL_TASKS,
  EVAL_TEMPERATURE,
  EvalAgent,
  type EvalAgentOptions,
  type EvalContext,
  type EvalSource,
  type EvalVerdict,
  renderEvalPrompt,
} from './eval-agent.js';
export { evalOfflineTasks, judgeOffline } from './eval-offline.js';
export { MAX_SCORE, PASS_RATIO, clampScore, decidePass, type EvalScores, type PassDecision } from './pass-rule.js';
export { QuizRepository } from './quiz-repository.js';
export { MAX_GATE_ROUNDS, gateSummary, generateJudgedQuiz, usableItems, type JudgedQuiz, type JudgedQuizOptions } from './quiz-gate.js';
export { newQuizSeed } from './quiz-seed.js';
export type { RoomClock } from './room-clock.js';
export { resultsCsv } from './results-csv.js';
export { type RoomResults } from './room-results.js';
export type { HostMember, PlayerMember, RoomMember } from './room-member.js';
export { RoomRuntime } from './room-runtime.js';
export { RoomService } from './room-service.js';
export type { RoomListEntry } from './room-repository.js';
export {
  SELF_QUIZ_TTL_MS,
  SelfStudy,
  type AnswerOutcome,
  type SelfStudyObserver,
  type SelfStudyOptions,
  type SelfStudyScope,
  type SelfStudyVerdict,
  type ServedItem,
} from './self-study.js';
export { selfStudyAnswers, type SelfStudyAnswer } from './self-study-answers.js';
