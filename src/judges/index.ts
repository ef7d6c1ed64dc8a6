/**
 * The offline judges: a deterministic answer assessor and the keyword matcher behind its evidence. Pure (no store, no
 * model, no I/O) and a leaf. assessAnswer judges a student answer in English and Korean without a language model:
 * text units (NFKC, English Porter stems folded through synonym groups, Korean eojeols without particles and endings),
 * comparison with the reference and keywords, contradiction checks (negation per aligned clause, antonyms), flags,
 * and a score with evidence. Used by the offline lecture tutor, the exam grader's offline path and the offline
 * EvalAgent (`npm run eval:judge` measures it).
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
export { isEcho, isGiveUp, isKeywordList, isPastedPassage } from './answer-flags.js';
export { ENGLISH_PREDICATE_CUES } from './english-words.js';
