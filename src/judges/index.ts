/**
 * The offline judges: a deterministic answer assessor and the keyword matcher behind its evidence. Pure (no store, no
 * model, no I/O) and a leaf. assessAnswer judges a student answer in English and Korean without a language model:
 * text units (NFKC, English Porter stems folded through synonym groups, Korean eojeols without particles and endings),
 * comparison with the reference and keywords, contradiction checks (negation per aligned clause, antonyms), flags,
 * and a score with evidence. Used by the offline lecture tutor, the exam grader's offline path and the offline
 * EvalAgent (`npm run eval:judge` measures it).
 *
 * Two guarantees every grading path (exam grader, lecture judge, self-study; offline or with a model) builds on:
 * - No attempt, no credit (answer-integrity.ts): an instruction or verdict addressed to the grader, a fence tag,
 *   filler, another script, another subject is capped at incorrect whatever a model says; a reference that
 *   restates the question is no reference (question-words.ts: the judge abstains).
 * - Every verdict has a confidence (verdict-confidence.ts), calibrated by grouped cross-validation on the dev sets;
 *   below CONFIDENT_AT (0.85, the precision §3 asks of final verdicts) it is "unsure": the exam holds the item for
 *   the teacher (`Needs_Review`), the lecture asks the student to compare with the model answer. `npm run eval:judge`
 *   / `eval:grader` print coverage, selective precision, calibration and the share right of every confidence group;
 *   `npm run eval:heldout` reports the frozen Korean held-out set. An exam tells a status, so its offline confidence
 *   is the status's (statusConfidence: a side read from the margin is surer than the partial / incorrect split).
 * - An answer that reuses the reference's words is the one overlap scores highest, and the one a twist of one word or
 *   one role turns around: Korean roles are read clause by clause (argument-roles.ts), a Korean copy of the reference
 *   gets the contradiction caps at any length, and a good verdict on Korean words in another order
 *   (word-order.ts) or on other negated words (negation.ts) is never sure.
 * - Little overlap is no evidence against an answer whose model answer is a rubric of parts or alternatives
 *   (reference-shape.ts), and roles read from English word order or a negation read by its parity in an English
 *   clause (negation.ts) cap a verdict without making it sure, offline or over a model's good.
 * - A terse right answer is not taken for a twist: a list in parentheses stays in its clause (text-units.ts), a term
 *   the reference says in two forms ties an answer that says it once to neither clause (contradiction.ts), and
 *   `못 끊게` says what `끊기 어렵게` says (negation.ts), and a list with one item per part the question asks
 *   (`미토콘드리아, 세포 호흡` to "어디이며, 어떤 과정으로") is its answer, not a keyword dump (answer-flags.ts).
 */
export {
  type AssessFlag,
  type AssessInput,
  type Assessment,
  type Candidate,
  type Label2,
  type Label3,
  MAX_ANSWER_CHARACTERS,
  type PreparedAssessment,
  assessAnswer,
  decideAssessment,
  prepareAssessment,
} from './answer-assessor.js';
export { ASSESSOR_MODEL, type AssessorModel, FEATURE_NAMES, type FeatureName, probability } from './assessor-model.js';
export {
  type KeywordEvidence,
  type KeywordLocation,
  keywordFound,
  keywordSynonyms,
  locateKeywords,
  matchKeywords,
} from './keyword-match.js';
/** The text units and checks underneath, for other offline judges (the quiz EvalAgent's grounding). */
export { type AnalysedText, analyseText } from './text-units.js';
export { unitFound } from './unit-match.js';
export { type Contradiction, findContradiction } from './contradiction.js';
export { negatesSharedWord } from './negation.js';
export {
  closesNote,
  isEcho,
  isGiveUp,
  isKeywordList,
  isPastedPassage,
  listAnswersQuestion,
  statesRelationBySymbol,
} from './answer-flags.js';
export { namedLabels, namesOtherLabels, statedNumbers, statesOtherNumber } from './answer-labels.js';
export { ENGLISH_PREDICATE_CUES } from './english-words.js';
export { type IntegrityFlag, type IntegrityInput, integrityFlags, isForeignScript, isInstruction, repeatsItself } from './answer-integrity.js';
export { RESTATED_QUESTION_SHARE, picksOtherOption, referenceStandsIn } from './question-words.js';
export { listsAlternatives } from './reference-shape.js';
export {
  ADDED_NEGATION_CONFIDENCE,
  CERTAIN_CONFIDENCE,
  CONFIDENT_AT,
  DECIDING_FLAGS,
  ENGLISH_NEGATION_CONFIDENCE,
  ENGLISH_ROLE_CONFIDENCE,
  FLAG_CONFIDENCE,
  HEDGED_CONFIDENCE,
  KEY_TERM_CONFIDENCE,
  MARGIN_STATUS_CONFIDENCE,
  MODEL_ALONE,
  MODEL_SUPPORTED,
  NEGATION_UNREAD_CONFIDENCE,
  NUMBER_CONFIDENCE,
  NUMBER_REPLACED_CONFIDENCE,
  OFF_TOPIC_CONFIDENCE,
  OTHER_LABELS_CONFIDENCE,
  PASTED_STATUS_CONFIDENCE,
  RUBRIC_CONFIDENCE,
  type ConfidenceBasis,
  type ConfidenceReading,
  assessmentConfidence,
  combinedConfidence,
  confidenceReading,
  overruledConfidence,
  statusConfidence,
} from './verdict-confidence.js';
