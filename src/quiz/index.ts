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
 * closes (short-review.ts stores the grades; the host marks unsure ones with `room:review`); the node that records a
 * typed answer judges it just after the ack (short-pregrades.ts), so the close only judges what it has not met;
 * text-answers.ts counts
 * words. Pictures: quiz-images.ts (uploaded PNG/JPEG/GIF/WebP in the blob store, served to their owner) and page-pictures.ts (a
 * page of a material the owner may use, a one-page PDF); the room serves both to its members once their question is on screen.
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
 * results are stored as a head (no answers) plus one field per question (room-results.ts), joined when read. Its
 * independent reads (players, the table to extend, the closed answers) and writes (standings with the last-closed
 * mark in one HSET, question results, results head) each go out together, all before the phase is announced. When
 * the answer grace begins the driver works the close out ahead (RoomService.prepareClose, prepared-closes.ts): at the
 * close it is used only if the same open record, players version and number of answers show nothing changed, so the
 * reveal then waits for the close mark, two counts and the writes; anything else scores from the store as before.
 */

/*
 * Wire detail of the live rooms' question types, typed answers, pictures and fair-play settings (the payload types are in src/protocol/quiz.ts; docs/PROTOCOL.md keeps the map).
 *
 * Quizzes (`POST /api/quizzes`) take any `RoomItem`: the 4-choice item (no `type`, or `type: 'choice'`), `truefalse`
 * `{answer: boolean}`, `multi` `{choices (2–6), answers: number[], allOrNothing?}`, `ordering` `{steps (2–6, in the
 * right order)}`, `numeric` `{answer, tolerance, range?, unit?}` and `poll` `{choices}` (explanation may be empty).
 * `PublicQuestion` gains `type`, `choices: string[]` (O/X: `['참','거짓']`; ordering: the steps shuffled, never in the
 * solution's order; numeric: `[]`) and `unit?`. `answer:submit` is `{questionIndex, choice}` (choice, O/X, poll),
 * `{questionIndex, choices}` (multi), `{questionIndex, order}` (ordering: shown indices, first to last) or
 * `{questionIndex, text}` (numeric, e.g. `"12.5 km"`); a shape that does not fit is `INVALID_PAYLOAD`. The ack adds
 * `response` (what was recorded; numeric as `{value}`). `room:reveal` adds `solution` (by type) and per-player
 * `you.credit` (0–1, null for a poll); `distribution` is per shown choice (ordering: how many put each step in place;
 * numeric: empty); `correctChoice` is -1 for types other than choice and O/X. Room option `speedBonus` (default true):
 * off, every fully correct answer scores 1000. Host command `room:extra-time {playerId, seconds (0–300)}` grants a player
 * extra time on questions opened afterwards (0 removes it); that player's `room:question.remainingMs` includes it,
 * `room:players` rows show `extraSeconds`. Results add per question `type` and `solution`, per answer `response` and
 * `credit`; the CSV shows answers by type, "부분 정답 n%" for partial credit, and a `유형` column last.
 *
 * Typed answers: `short` `{answer (the model answer), accept?: string[]}` and `cloud` (no score) are answered with
 * `{questionIndex, text}` (1–100 characters; recorded cleaned as `{text}`). A short question is judged when it closes,
 * once per distinct answer (case, width, spaces and final punctuation aside): the model or an accepted answer, then
 * `mathEquivalent`, then the judges' assessor; a verdict below the confident threshold scores 0 with `you.unsure: true`
 * and is listed only in the host's `room:reveal.review` (`[{key, text, count, verdict: right|wrong|null}]`). Host
 * command `room:review {questionIndex, key, correct}` (during that question's reveal only, else `WRONG_PHASE`) marks one
 * and every screen is sent `room:reveal` again, rescored. A cloud's reveal carries `words: [{text, count}]` (most first,
 * at most 60; the results keep them as the question's `words`); student text is never HTML. The CSV marks an unmarked
 * unsure answer "검토 중".
 *
 * Pictures: any item may carry `image` (an id from `POST /api/quiz-images`: PNG, JPEG, GIF or WebP by their bytes,
 * ≤ 2 MB, never SVG) and `imageAlt`; players get `question.image {url, alt, kind: 'image'}`, the url the room's
 * (`GET /api/rooms/:id/pictures/:index` below, as for pages). `GET /api/quiz-images/:id` serves its owner only (as
 * DELETE; another's or unknown 404), the proven type with `nosniff`, a CSP that runs nothing, `private, no-store`.
 * Every picture is its uploader's (the account's, and the class's for a class instructor token): only that owner names
 * it on an item (another's id is 404 `NOT_FOUND`), lists it and deletes it. The account's pictures hold at most
 * `MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT` bytes (429 `QUOTA_EXCEEDED`, `quota: 'quiz-image-bytes'`). A picture goes with
 * the last quiz that shows it (a quiz's deletion, or its class's), its bytes credited back.
 * - `GET /api/quiz-images?cursor=&limit=` → `{images: [{imageId, url, type, bytes, createdAt, quizzes}], nextCursor}`:
 *   the caller's own, newest first (a class token: the class's); `quizzes` counts the quizzes that show it.
 * - `DELETE /api/quiz-images/:id` → 204; another's or unknown 404; 409 `IMAGE_IN_USE` while a quiz shows it.
 *
 * A page of a material is a picture too: `image: {kind: 'page', materialId, page}` (1-based) on any item, for a
 * material the quiz's owner account owns or the built-in sample (another's or unknown: 404 `MATERIAL_NOT_FOUND`; a page
 * past its last: 400 `PAGE_OUT_OF_RANGE`, saying how many pages it has). Players get `question.image {url, alt, kind:
 * 'page'}` (`alt` defaults to 「자료 N쪽」; uploaded images come as `kind: 'image'`); the page is a one-page PDF cut from
 * the material with pdf-lib (once per page, kept with the material's blobs) that the pages draw with the bundled PDF.js
 * (its worker is `/build/pdf.worker.js`, CMaps under `/build/pdfjs/`; no CDN). An owner cannot give the material up
 * while one of its quizzes shows a page of it (409 `MATERIAL_IN_USE`: delete the quiz first); the sample's pages are
 * everyone's. LaTeX (`$…$`) in any item text is rendered by the pages' bundled KaTeX.
 * - `GET /api/rooms/:id/pictures/:index` (the room's player token, its host token, or the owner / its class token) →
 *   question `index`'s picture (a page as a one-page PDF, an uploaded image as its proven type, CSP `sandbox`), only
 *   while that question or a later one is on screen: 403 `PICTURE_NOT_SHOWN` for a question not shown yet (and in the
 *   lobby, at the podium and after the end), 404 for an item without a picture, another room's player or a stranger;
 *   `Cache-Control: private, no-store`.
 * - `GET /api/materials/:id/pages/:page.pdf` (the material's readers, as for its chapters) → that page alone as a PDF
 *   (the quiz editor's preview).
 * `POST /api/materials/:id/quiz` takes `format: 'short'`: generated items that read as questions without choices, whose
 * answer passes the item guard's answer check, are stored as short text (the correct choice is the model answer).
 * `format` `truefalse`, `multi`, `ordering` or `numeric` writes five items of that type from the same passages through
 * the item guard (an ordering's steps in the source's order, a numeric answer the source states with its unit; the
 * server sets the numeric tolerance: exact under 20, else 5 %), without the EvalAgent gate (no `reviews`, no `gate`);
 * fewer with `shortfall` `{requested, made, reason, message}` saying what the material lacks, none: 422
 * `TOO_LITTLE_MATERIAL` with that reason.
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
export { englishTerms, isEnglishProse, termPattern, type EnglishTerm } from '../text/index.js';
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
export { IMAGE_ID, MAX_IMAGE_BYTES, QuizImages, imageTypeOf, imageUrl, imagesOf, type ImageOwner, type ImageSummary, type ImageType, type QuizImageStep } from './quiz-images.js';
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
