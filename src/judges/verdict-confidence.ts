import { type AssessFlag, type Assessment, ROLE_FLAGS } from './answer-assessor.js';
import { ASSESSOR_MODEL, type AssessorModel } from './assessor-model.js';

/**
 * How sure a verdict is: the calibrated probability that its good/bad side is right. "Unsure" is an outcome: below
 * {@link CONFIDENT_AT} the lecture asks the student to compare with the model answer and the exam holds the item for
 * the teacher (`Needs_Review`), instead of telling a wrong answer it is right or a right answer it is wrong.
 *
 * Offline, the confidence reads the assessor's evidence: a hard flag that decided the verdict (a give-up, an echo, a
 * contradiction of a restatement, no attempt at the question), else the distance of the fitted P(good) from the
 * correct threshold, on the verdict's side. The margin tables are the share right of each group under cross-validation
 * grouped by question over the six dev sets pooled (SAF, Beetle, SciEntsBank, ko-dev, ko-dev2, ko-dev3; 2,065
 * answers, the assessor refitted without the fold's questions on the English ones, never trained on the Korean ones):
 * `npm run eval:judge` prints every group's share right (`Confidence groups`), the reliability table and the ECE.
 *
 * With a language model the confidence combines the model's verdict with the server's caps and evidence (see
 * {@link combinedConfidence}); those constants are a policy, not a measurement: no model is run by the eval scripts.
 */

/**
 * Verdicts at or above this confidence are told as final; below it they are "unsure". It is §3's precision target: a
 * verdict is told as final only from a group right at least that often, so a student or a teacher overrules at most
 * about one final verdict in seven. The good verdicts of the margin row below it (0.80 right under cross-validation,
 * two of ko-dev2's copies of the reference with one word changed among them) are asked about instead.
 */
export const CONFIDENT_AT = 0.85;

/** Flags that decide a bad verdict on their own (never-good caps), and how often such verdicts were right. */
export const DECIDING_FLAGS: ReadonlySet<AssessFlag> = new Set<AssessFlag>([
  'give-up', 'echo', 'negation', 'antonym', 'reversed', 'swapped', 'wrong-choice', 'injection', 'filler', 'foreign-language',
  'pasted-passage',
]);

/**
 * A bad verdict whose only deciding evidence is `keyword-list` (bare terms without a predicate, answer-flags.ts):
 * an explanation question answered with the reference's words (`편차, 제곱, 평균, 흩어짐`) is one, but so is a
 * question whose answer is a list or a term (`탄수화물, 단백질, 지방` for the three major nutrients, `최대 다수의
 * 최대 행복`, `위쪽, 오른쪽`). Over the dev sets 26 of 44 such verdicts were right (ko-dev 14 of 14, ko-dev2 7 of 9,
 * ko-dev3 1 of 17, Beetle and SciEntsBank 4 of 4), so unsure; the cap at partial stays.
 */
export const KEYWORD_LIST_CONFIDENCE = 0.59;

/**
 * A bad verdict whose only cap is `off-topic` (no word of two letters or more shared with the question, the model
 * answer or the material, or under a tenth of twenty words or more: answer-integrity.ts): an everyday paraphrase
 * shares no word either ("거기가 땅덩어리끼리 맞닿은 데라서 …" for "판의 경계에서는 판들이 충돌하거나 …"), and a right
 * answer in the subject's own terms few of a one-line model answer's (SAF's DQDB answers, no material). 5 of 11 such
 * verdicts right under grouped CV over the dev sets, 6 of 12 on the exam path (one model answer), so unsure: the exam
 * holds the item for the teacher, the lecture asks the student to compare. The cap itself stays (a model's Correct on
 * it is not told as final either, see {@link overruledConfidence}).
 */
export const OFF_TOPIC_CONFIDENCE = 0.43;

/** Caps that are a reading of the answer's words, right too rarely to overrule anyone on their own. */
const UNSURE_CAPS: ReadonlyMap<string, number> = new Map([
  ['off-topic', OFF_TOPIC_CONFIDENCE],
  ['keyword-list', KEYWORD_LIST_CONFIDENCE],
]);

/**
 * Whether a flag raised on this assessment decides a bad verdict on its own: a never-good flag, but for a negation
 * said of a word the reference does not say (negationUnread), a negation read by its parity in an English clause
 * (englishNegationFlag) and a role read from English word order (englishRoleFlag), which keep their cap unsure.
 */
function decides(assessment: Assessment, flag: AssessFlag): boolean {
  if (!DECIDING_FLAGS.has(flag)) return false;
  if (flag === 'negation' && (assessment.negationUnread || assessment.englishNegationFlag)) return false;
  return !(assessment.englishRoleFlag && ROLE_FLAGS.has(flag));
}

/**
 * The confidence of a verdict a server cap lowered below what a model proposed: as sure as the caps, unless every
 * cap that lowered it is one the word matcher is unsure of (`off-topic`: OFF_TOPIC_CONFIDENCE; `keyword-list`:
 * KEYWORD_LIST_CONFIDENCE; given the assessment, a never-good flag that does not decide on it, see decides): then
 * the model and the word matcher disagree, and neither is told as final.
 */
export function overruledConfidence(capFlags: readonly string[], offline: number, assessment?: Assessment): number {
  const unsure = (flag: string): boolean =>
    UNSURE_CAPS.has(flag) || (assessment !== undefined && DECIDING_FLAGS.has(flag as AssessFlag) && !decides(assessment, flag as AssessFlag));
  if (capFlags.length > 0 && capFlags.every(unsure)) return Math.min(offline, ...capFlags.map((flag) => UNSURE_CAPS.get(flag) ?? offline));
  return Math.max(offline, FLAG_CONFIDENCE);
}
/**
 * Grouped CV: 138 bad verdicts decided by a never-good flag, 0.884 right (ko-dev 0.945, Beetle 0.917, SciEntsBank
 * 0.786); 31 more held by a pasted passage or a keyword list, all right. `thin-coverage` (458, 0.742) does not decide:
 * those verdicts are read by their margin like any other. With ko-dev2 and ko-dev3, and without `keyword-list` and
 * `off-topic` (no longer deciding): 140 such verdicts, 0.893 right (ko-dev2 20 of 20, ko-dev3 6 of 9). Without the
 * English role readings (ENGLISH_ROLE_CONFIDENCE): 135, 0.94 right; without English negations as well
 * (ENGLISH_NEGATION_CONFIDENCE): 110, 0.955. The constant stays at 0.88: it is also the floor of
 * a model's verdict the server's caps decided (exam-grader.ts), a policy no eval run measures.
 */
export const FLAG_CONFIDENCE = 0.88;
/** Flags that cannot be argued with whatever the score: nothing of the question was attempted. */
const CERTAIN_FLAGS: ReadonlySet<AssessFlag> = new Set<AssessFlag>(['give-up', 'injection', 'filler', 'foreign-language']);
export const CERTAIN_CONFIDENCE = 0.97;

/**
 * A bad verdict no flag decided on a short answer that contains a key term of the reference (Assessment's
 * shortWithKeyTerm): 0.72 right over the four dev sets pooled (255 answers; SAF 0.44, SciEntsBank 0.61, ko-dev 0.80,
 * Beetle 0.84), below CONFIDENT_AT, so unsure. Grouped CV, bad verdicts (coverage, precision) before → after:
 * Beetle 0.480 → 0.424, 0.872 → 0.910; SciEntsBank 0.264 → 0.262, 0.819 → 0.829; SAF 0.172 → 0.166, 0.763 → 0.743
 * (3 fewer confident bad, all right); ko-dev unchanged. Short correct answers told bad: Beetle 0.081 → 0.043,
 * SciEntsBank 0.063 → 0.056. A keyword list was left decided by its flag then (ko-dev's lists were all bad);
 * ko-dev3's short answers showed otherwise (KEYWORD_LIST_CONFIDENCE).
 */
export const KEY_TERM_CONFIDENCE = 0.72;

/**
 * A bad verdict no flag decided on a short answer that states a number the best-fitting reference does not
 * (Assessment's shortWithOtherNumber: `0.0.0.0/8, 127.0.0.0/8` against `127.xx.yy.zz is reserved for loopback`): 0.62
 * right over the four dev sets pooled under grouped CV (50 answers; SAF 0.50), below CONFIDENT_AT, so unsure. Overlap
 * cannot compare a range, another notation or another unit, and the math comparison reads expressions, not these.
 */
export const NUMBER_CONFIDENCE = 0.62;

/**
 * A good verdict on an answer that states a number the best-fitting reference does not, where the reference states
 * numbers (Assessment's replacesNumber: `제1차 세계 대전` for `제2차`, `3 km to 300 m` for `300m to 30m`): 42 of 66
 * right over the dev sets pooled (0.64; SAF 36 of 55), so unsure. Of the 12 told as sure before, 5 were wrong.
 */
export const NUMBER_REPLACED_CONFIDENCE = 0.64;

/**
 * A good verdict on an answer that names other parts than the references (Assessment's namesOtherLabels: `A and C are
 * in a closed path` where every reference says `A and B`): 0.49 right over the dev sets pooled under grouped CV (35
 * good verdicts, SAF and Beetle), so unsure; the four of them told as sure before were all wrong (three Beetle
 * contradictions).
 */
export const OTHER_LABELS_CONFIDENCE = 0.49;

/**
 * A good verdict on an answer that negates something where the best-fitting reference negates nothing (Assessment's
 * addsNegation): 0.56 right over the dev sets pooled under grouped CV (59 good verdicts; SAF 0.47), so unsure.
 */
export const ADDED_NEGATION_CONFIDENCE = 0.56;

/**
 * A good verdict on an answer that may take another of the question's options than the reference chose (Assessment's
 * picksOtherOption: `그늘에 둔 컵` against `햇빛에 둔 컵`, both the question's words): overlap cannot tell the options
 * apart, so unsure, as for other labels. Not a measurement: under grouped CV the flag met 4 good verdicts on the dev
 * sets (SciEntsBank), all right and all already unsure (0.57–0.71); the dev sets' choice questions are yes/no, read
 * by the wrong-choice flag.
 */
export const OTHER_OPTION_CONFIDENCE = OTHER_LABELS_CONFIDENCE;

/**
 * A good verdict on a Korean answer that says words of the best-fitting reference in another order (Assessment's
 * reordered, word-order.ts): 10 of 31 right over ko-dev and ko-dev2 (0.32; ko-dev2 9 of 30, where 21 were swapped
 * roles, reversed causes and contradictions copied from the reference), so unsure. The English sets never raise it.
 */
export const REORDERED_CONFIDENCE = 0.32;

/**
 * A good verdict on an answer that negates other Korean words than the best-fitting reference (Assessment's
 * negatesOtherWords): 14 of 27 right over ko-dev and ko-dev2 (0.52; ko-dev 6 of 8, ko-dev2 8 of 19), so unsure.
 */
export const NEGATION_DIFFERS_CONFIDENCE = 0.52;

/**
 * A good verdict on an answer whose student says they do not know part of it (Assessment's hedged: `크레셴도는 점점
 * 세게, 데크레셴도는 잘 모르겠어요`): the dev sets hold two such good verdicts (one right), too few to measure, so the
 * constant is a policy: the word overlap reads what was written, not the part the student says is missing, and the
 * student is asked to compare rather than told.
 */
export const HEDGED_CONFIDENCE = 0.5;

/**
 * A bad verdict whose only deciding flag is a negation said of a word the best-fitting reference does not say
 * (Assessment's negationUnread: `Terminal 1 is not connected to the positive terminal` against `Terminal 1 and the
 * positive terminal are separated by the gap`): the negation flips the parity of a clause in other words, which may
 * be the same claim. Grouped CV by question over the dev sets pooled: 0.60 right with every reference (5 verdicts),
 * 0.41 with the model answer alone as on the exam path (34, Beetle), against 0.84 / 0.69 for a negation of a word both
 * say; 0.44 pooled (39), so unsure. The verdict keeps its cap: an unread negation is no evidence for the answer.
 */
export const NEGATION_UNREAD_CONFIDENCE = 0.44;

/**
 * A bad verdict read from the overlap (no flag decided it) against a reference that lists parts or alternatives
 * (Assessment's rubricReference: `One of the following justifications should be given: ● … ● …`): a right answer
 * gives one of them in few of the rubric's words. Grouped CV over the dev sets pooled: 0.50 right (122 verdicts, all
 * SAF; of the 13 told as sure before, 4 were wrong), so unsure.
 */
export const RUBRIC_CONFIDENCE = 0.5;

/**
 * A bad verdict whose only deciding flags are role or direction flags on an English answer (Assessment's
 * englishRoleFlag: `The short string has a higher pitch. The longer string has a lower pitch.` read as the
 * reference's two clauses swapped): grouped CV over the dev sets pooled, 1 right of 5 (all SciEntsBank), against
 * 39 of 40 such flags right on Korean answers, whose roles are read from particles (argument-roles.ts). The flag
 * keeps its cap; the verdict is unsure.
 */
export const ENGLISH_ROLE_CONFIDENCE = 0.2;

/**
 * A bad verdict whose only deciding flag is a negation, read on an English answer, of a word both texts say
 * (Assessment's englishNegationFlag: `circuit 4 does not contain a closed path and cannot be a short circuit` for
 * `Circuit 4 has no closed paths`, a second negation on the question's words flipping the clause's parity). With the
 * one model answer the product grades against (eval:grader's exam path), 19 of 28 right (Beetle 19 of 26,
 * SciEntsBank 0 of 2), against 12 of 13 for Korean negations, read on their head; with every reference the dev sets
 * list (eval:judge) 22 of 25, where an answer in another listed reference's words is read against that one and not
 * flagged. The product's share is the constant: the flag keeps its cap, the verdict is unsure.
 */
export const ENGLISH_NEGATION_CONFIDENCE = 0.68;

/** [lowest margin |P(good) − threshold|, share right] per verdict side, from grouped CV (n per row in the comment). */
const GOOD_TABLE: readonly (readonly [number, number])[] = [
  [0, 0.61], // 155
  [0.1, 0.71], // 82
  [0.15, 0.74], // 249
  [0.3, 0.8], // 137
  [0.4, 0.88], // 88
];
const BAD_TABLE: readonly (readonly [number, number])[] = [
  [0, 0.49], // 49
  [0.05, 0.59], // 90
  [0.1, 0.62], // 105
  [0.15, 0.73], // 80
  [0.2, 0.9], // 68
  [0.3, 0.91], // 33
];

/**
 * What an offline verdict's confidence rests on: a flag no score argues with (`certain`), a never-good flag that
 * decided the verdict (`flag`), the fitted P(good)'s distance from the correct threshold (`margin`, one row of the
 * verdict side's table), or a reading the word matcher is unsure of that lowered it (the others). `npm run eval:judge`
 * prints each group's share right under grouped cross-validation: the constants above are those shares.
 */
export type ConfidenceBasis =
  | 'certain'
  | 'flag'
  | 'margin'
  | 'off-topic'
  | 'keyword-list'
  | 'negation-unread'
  | 'key-term'
  | 'other-number'
  | 'replaced-number'
  | 'other-labels'
  | 'added-negation'
  | 'other-option'
  | 'reordered'
  | 'negation-differs'
  | 'rubric'
  | 'english-roles'
  | 'english-negation'
  | 'hedged';

export interface ConfidenceReading {
  confidence: number;
  basis: ConfidenceBasis;
  /** For `margin`: the lowest margin of the table row read. */
  row?: number;
}

function lookup(table: readonly (readonly [number, number])[], margin: number): { row: number; share: number } {
  let found = { row: table[0]?.[0] ?? 0, share: table[0]?.[1] ?? 0.5 };
  for (const [from, share] of table) if (margin >= from) found = { row: from, share };
  return found;
}

/** The calibrated confidence of an offline assessment's good/bad verdict, and what it rests on (pure). */
export function confidenceReading(assessment: Assessment, model: AssessorModel = ASSESSOR_MODEL): ConfidenceReading {
  const flags = assessment.evidence.flags;
  const good = assessment.label2 === 'good';
  if (!good && flags.some((flag) => CERTAIN_FLAGS.has(flag))) return { confidence: CERTAIN_CONFIDENCE, basis: 'certain' };
  // An unread negation and English negation or role readings decide nothing: the other deciding flags still do.
  const deciding = flags.filter((flag) => decides(assessment, flag));
  if (!good && deciding.length > 0) return { confidence: FLAG_CONFIDENCE, basis: 'flag' };
  const margin = Math.abs(assessment.goodProbability - model.correctThreshold);
  const { row, share: read } = lookup(good ? GOOD_TABLE : BAD_TABLE, margin);
  const lowered = (cap: number, basis: ConfidenceBasis): ConfidenceReading => ({ confidence: Math.min(read, cap), basis });
  // No word shared with the subject (off the subject, or an everyday paraphrase), or bare terms (the reference's words
  // without the explanation, or the terms the question asks for): caps the word matcher is unsure of.
  const unsureCap = flags
    .flatMap((flag) => (UNSURE_CAPS.has(flag) ? [{ flag, cap: UNSURE_CAPS.get(flag) ?? 0 }] : []))
    .sort((left, right) => left.cap - right.cap)[0];
  if (!good && unsureCap !== undefined) return lowered(unsureCap.cap, unsureCap.flag as ConfidenceBasis);
  // A negation of a word the reference does not say may be the reference's claim in other words: not sure.
  if (!good && assessment.negationUnread) return lowered(NEGATION_UNREAD_CONFIDENCE, 'negation-unread');
  // Roles read from English word order: a participle or a second clause reorders them without changing the claim.
  if (!good && assessment.englishRoleFlag) return lowered(ENGLISH_ROLE_CONFIDENCE, 'english-roles');
  // English negation read by its parity in a clause: another negation or other words for the same claim flip it too.
  if (!good && assessment.englishNegationFlag) return lowered(ENGLISH_NEGATION_CONFIDENCE, 'english-negation');
  // One option of a rubric shares few of its words: little overlap is no evidence of a wrong answer.
  if (!good && assessment.rubricReference) return lowered(RUBRIC_CONFIDENCE, 'rubric');
  // A short answer with a key term of the reference may be a terse correct one the overlap cannot read: not sure.
  if (!good && assessment.shortWithKeyTerm) return lowered(KEY_TERM_CONFIDENCE, 'key-term');
  // A number the reference does not state cannot be compared by overlap: a range, another notation, another unit.
  if (!good && assessment.shortWithOtherNumber) return lowered(NUMBER_CONFIDENCE, 'other-number');
  // Another number than the reference's: a wrong one or another notation, which overlap cannot tell apart.
  if (good && assessment.replacesNumber) return lowered(NUMBER_REPLACED_CONFIDENCE, 'replaced-number');
  // The right words said of other parts than the reference's: the overlap cannot tell.
  if (good && assessment.namesOtherLabels) return lowered(OTHER_LABELS_CONFIDENCE, 'other-labels');
  // A negation the references do not have: the overlap reads the shared words, not what the negation does to them.
  if (good && assessment.addsNegation) return lowered(ADDED_NEGATION_CONFIDENCE, 'added-negation');
  // Another of the question's options, said in the question's words the reference shares: the overlap cannot tell.
  if (good && assessment.picksOtherOption) return lowered(OTHER_OPTION_CONFIDENCE, 'other-option');
  // The reference's Korean words in another order: a rewording or a trade of roles, which overlap cannot tell apart.
  if (good && assessment.reordered) return lowered(REORDERED_CONFIDENCE, 'reordered');
  // Korean negations on other words than the reference's: a paraphrase or a claim turned around.
  if (good && assessment.negatesOtherWords) return lowered(NEGATION_DIFFERS_CONFIDENCE, 'negation-differs');
  // The student says part of the answer is missing: the overlap cannot read what was not written.
  if (good && assessment.hedged) return lowered(HEDGED_CONFIDENCE, 'hedged');
  return { confidence: read, basis: 'margin', row };
}

/** The calibrated confidence of an offline assessment's good/bad verdict (pure). */
export function assessmentConfidence(assessment: Assessment, model: AssessorModel = ASSESSOR_MODEL): number {
  return confidenceReading(assessment, model).confidence;
}

/**
 * How often a bad verdict read from the margin has the right status too (correct / partial / incorrect), where its
 * good/bad side is told as final: 0.68 of 74 such verdicts under grouped CV over the dev sets with three-way labels
 * (0.87 have the right side; `npm run eval:judge`'s `status right` column, margin bad rows 0.2 and 0.3). The split between partial and incorrect is a second fitted score, which a teacher's
 * partial credit often crosses: `수입품 값이 비싸져요` for the first half of what a tariff does, `bulb c was separated
 * from the battery` for `Bulb C was no longer in a closed path with the battery`, both read as incorrect.
 */
export const MARGIN_STATUS_CONFIDENCE = 0.68;

/**
 * How often a pasted passage held at partial is partial: 5 of 11 (ko-dev), the others pasted sentences that do not
 * answer (incorrect). The flag decides the side (12 of 12 bad), not the status.
 */
export const PASTED_STATUS_CONFIDENCE = 0.45;

/**
 * The calibrated confidence of an offline assessment's three-way status (pure): what an exam tells as a grade. A good
 * verdict's status is its side (correct); a bad verdict's is its side's confidence, lowered where the partial /
 * incorrect split is measured to be right less often: a verdict read from the margin (MARGIN_STATUS_CONFIDENCE) and a
 * pasted passage held at partial (PASTED_STATUS_CONFIDENCE). Never-good flags and give-ups keep theirs (flags 0.84,
 * give-ups and other no-attempts 0.87 right three-way). The lecture tells only the side: it reads assessmentConfidence.
 */
export function statusConfidence(assessment: Assessment, model: AssessorModel = ASSESSOR_MODEL): number {
  const reading = confidenceReading(assessment, model);
  if (assessment.label2 === 'good') return reading.confidence;
  if (reading.basis === 'margin') return Math.min(reading.confidence, MARGIN_STATUS_CONFIDENCE);
  if (assessment.label3 === 'partial' && assessment.evidence.flags.includes('pasted-passage')) return Math.min(reading.confidence, PASTED_STATUS_CONFIDENCE);
  return reading.confidence;
}

/** A model that agrees with the confident offline reading, or has keyword evidence for its good: told as final. */
export const MODEL_SUPPORTED = 0.85;
/** A model's good alone against an unsure offline bad, without evidence: unsure. */
export const MODEL_ALONE = 0.6;
/** A model's good against a confident offline bad: unsure. */
export const MODEL_OVERRULED = 0.5;

/**
 * The confidence of a model's verdict (good or bad) under the server's reading (pure): a verdict the server's caps
 * decided takes the caps' confidence; a model that agrees with the offline assessor is at least MODEL_SUPPORTED. A
 * model's good against an offline bad is unsure when the offline bad is itself confident (a model that calls a
 * confidently wrong answer good is not believed), MODEL_SUPPORTED with keyword evidence (at least one key keyword,
 * or a term of the model answer), MODEL_ALONE without. A model's stricter verdict (bad against an offline good)
 * stands at CONFIDENT_AT: the offline good side is right at most 0.88 of the time under cross-validation, and among
 * what it misses are copies of the reference with one word changed, which a reader of meaning catches; the student
 * can ask for a regrade.
 */
export function combinedConfidence(input: { modelGood: boolean; assessment: Assessment; capped: boolean; evidence: boolean }): number {
  const offline = assessmentConfidence(input.assessment);
  if (input.capped) return Math.max(offline, FLAG_CONFIDENCE);
  const offlineGood = input.assessment.label2 === 'good';
  if (input.modelGood === offlineGood) return Math.max(offline, MODEL_SUPPORTED);
  if (!input.modelGood) return CONFIDENT_AT;
  if (offline >= CONFIDENT_AT) return MODEL_OVERRULED;
  return input.evidence ? MODEL_SUPPORTED : MODEL_ALONE;
}
