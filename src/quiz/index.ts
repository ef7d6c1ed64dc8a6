/**
 * Quizzes (authoring, the quiz agent) and live quiz rooms (service, runtime, results).
 * - Quizzes are uploaded or written by the quiz agent (quiz-agent.ts: one generateObject from retrieved passages,
 *   every item re-validated with its cited passages) and judged by the EvalAgent gate (eval-agent.ts, quiz-gate.ts,
 *   pass-rule.ts: the model scores, the server decides); self-study.ts serves seed 001's API, class-quiz-items.ts
 *   its `/answer` and `/evaluate` on the items of class quizzes. A class student's first answers to both feed their
 *   learner profile alike (self-study-answers.ts, class-quiz-answers.ts).
 * - Rooms: room-service.ts handles commands; answers are first-write-wins (HSETNX unless closed); at each reveal
 *   scoring.ts extends the standings after the question before with the closed question's answers (equal to a
 *   recompute from every recorded answer, which it falls back to after a kick).
 * - Only a running question has timers: the node holding the room's driver lease (room-driver.ts, room-runtime.ts)
 *   acts on the deadlines stored in the room, polls the answer count, and closes early when everyone answered; when
 *   that node dies another takes the lease and acts on the stored deadlines.
 * - Members are reached through the RoomMember port (realtime/quiz-member.ts); one answer never causes a broadcast.
 *
 * Question types: the QuizAgent writes the 4-choice `QuizItem` (short-generator.ts turns some into short text);
 * typed-agent.ts (offline: typed-offline.ts) writes O/X, multiple-correct, ordering and numeric items from the same
 * passages through the item guard; a quiz and a room hold any `RoomItem` (O/X, multiple correct, ordering, numeric, poll). item-types.ts is the one place a type's meaning lives (shown choices, accepted
 * answer shapes, credit 0–1, solution); scoring multiplies the credit into the speed points, so every type shares the
 * streak, ranking and results code. An answer is still one write (the recorded response and its server-measured time).
 *
 * Typed answers (short text, word cloud): short-answer-judge.ts judges each distinct answer once when the question
 * closes (short-review.ts stores the grades; the host marks unsure ones with `room:review`); text-answers.ts counts
 * words. Pictures: quiz-images.ts (uploaded PNG/JPEG/GIF/WebP in the blob store, served by id) and page-pictures.ts (a
 * page of a material the owner may use, served to a room's members as a one-page PDF once its question is on screen).
 *
 * Fair play: `speedBonus: false` scores every fully correct answer 1000. Extra time is a per-room map of grants that
 * each question's open record copies when it opens, so the answer path reads nothing more: the deadline check, the
 * countdown of that player and the room's closing time (after the longest grant) all come from the one record, and the
 * answer records `allowedMs` so its speed points are measured against the longer time.
 *
 * Reveal path: the node that scores a reveal renders it from the standings it just computed (RoomService
 * computedStandings); other nodes read them from the store. The driver reuses the connected-player set between its
 * once-a-second presence checks. Everything a reveal reads, computes and writes is the size of the room, never of the
 * questions played: a standings table carries each player's totals and the result of its own question only, and the
 * results are stored as a head (no answers) plus one field per question (room-results.ts), joined when read.
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
export { SHORT_GENERATOR_AGENT, toShortItems, type ShortConversion } from './short-generator.js';
export { TYPED_FORMATS, TYPED_TASK, generateTypedItems, numericTolerance, typedShortfallMessage, type TypedFormat, type TypedGeneration } from './typed-agent.js';
export { negate, numberedLists, statedAmounts, typedOfflineTasks } from './typed-offline.js';
export { PagePictures, pageMaterialsOf, pictureShown, roomPictureUrl, type PagePicturesOptions, type PageSource } from './page-pictures.js';
export { IMAGE_ID, MAX_IMAGE_BYTES, QuizImages, imageTypeOf, imageUrl, imagesOf, type ImageOwner, type ImageSummary, type ImageType } from './quiz-images.js';
export { type RoomResults } from './room-results.js';
export type { HostMember, PlayerMember, RoomMember } from './room-member.js';
export type { PayloadJson } from './payload-json.js';
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
export { classQuizAnswers } from './class-quiz-answers.js';
export { quizKeys } from './quiz-keys.js';
export { quizLifecycle, roomLive, type RoomOwner } from './quiz-lifecycle.js';
export { ClassQuizItems, isClassItemId, type ClassQuizItemsOptions } from './class-quiz-items.js';
