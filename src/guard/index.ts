/**
 * The item guard: one deterministic check of every generated item — a lecture's `[질문]` with its model answer and
 * sub-concepts, self-study and room quiz items, exam items, math problems, the raised hand's choices — before it is
 * stored or shown, on every model. It refuses placeholders, answers that restate their question or quote its
 * passage, questions about the medium, repeats, items from a cover or contents page, cloze blanks that are no whole
 * key noun of the material (function words, verb forms, adverbs, adjectives, half a term, a fragment, a sentence not
 * in the passages, code and formulas), choices that repeat or miss the key, and particles that do not fit the English
 * word before them; true/false, multiple-answer, ordering and numeric items against what their passages state
 * (typed-checks.ts). Generators rewrite a refused item (a model, within its regeneration rounds) or drop it (offline),
 * and report every refusal (guard-report.ts): logged, and counted per agent and rule in the AI 품질 console.
 * Imports only text/ (and the kernel's logger type).
 */
export { GUARD_RULES, GUARD_RULE_NAMES, type GuardRule, type Refusal } from './guard-rules.js';
export {
  checkAnswer,
  checkChoices,
  checkExamItem,
  checkLectureQuestion,
  checkMathProblem,
  checkQuizItem,
  checkSubconcepts,
  duplicateRefusals,
  questionKey,
  type ChoiceItem,
  type ExamItem,
  type GuardContext,
  type Subconcept,
} from './item-guard.js';
export { checkTypedItem, statedNumbers, type TypedItem } from './typed-checks.js';
export { BLANK, blankedSentence, clozeInSource, clozeRefusals, type ClozeItem } from './cloze-checks.js';
export { askedConcept, fittingParticle, isMediumWord, particleMistakes, placeholderReason, restatesQuestion } from './text-checks.js';
export { createGuardReport, refusalsOf, rewriteFeedback, type GuardRefusal, type GuardReport, type GuardReportOptions } from './guard-report.js';
