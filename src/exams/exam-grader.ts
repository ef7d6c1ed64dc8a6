import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import {
  type AssessFlag,
  type Assessment,
  CONFIDENT_AT,
  FLAG_CONFIDENCE,
  NEGATION_UNREAD_CONFIDENCE,
  assessmentConfidence,
  combinedConfidence,
  decideAssessment,
  keywordSynonyms,
  overruledConfidence,
  PASTED_STATUS_CONFIDENCE,
  prepareAssessment,
  referenceStandsIn,
  statusConfidence,
} from '../judges/index.js';
import { loadPrompt, type Attribution, type LanguageModel } from '../llm/index.js';
import type { Logger } from '../kernel/index.js';
import { mathEquivalent } from '../math/index.js';
import { fence, quotedWithParticle } from '../text/index.js';
import { exactKeywordAnswer, keywordEvidence } from './answer-evidence.js';
import { aboutTerm, explainedTerm } from './exam-item-faults.js';
import { type ShapeFlag, addsOwnWords, answerShapeFlags } from './answer-shape.js';
import {
  type EvaluationItem,
  type ExamCallContext,
  type ExamItemGrader,
  type ExamProblem,
  type GradeEvidence,
  GraderOutput,
  type KeywordEvidenceItem,
  QuestionType,
  type ResultStatus,
} from './exam-types.js';

/**
 * `Agent_ShortAnswerGrader` with evidence. The server decides in this order:
 * 1. an empty answer is `Incorrect`, with no model call;
 * 2. a `Short_Keyword` answer that IS a key keyword or an accepted synonym (after Korean normalisation, see
 *    answer-evidence.ts) is `Correct` by `keyword`, with no model call;
 * 3. when the model answer is mathematics (`mathEquivalent` reads it as equal to itself), a student answer it can
 *    compare is `Correct` (equal) or `Incorrect` (different) by `math`, with no model call;
 * 4. otherwise the grader model proposes `ShortAnswer_Grader_Output` from the question, model answer, keywords,
 *    intent, the matcher's evidence and the fenced student text; the reply is parsed with the seed's schema;
 * 5. the server then caps the proposal: a give-up, an echo of the question, a different leading choice (yes/no, an
 *    option, a value), an answer that uses the model answer's words to say the opposite (the judges'
 *    contradiction checks), and text that is no attempt at the question (an instruction or verdict addressed to the
 *    grader, a fence tag, filler, another script, another subject: judges/answer-integrity.ts) is at most
 *    `Incorrect`; Correct needs at least one key keyword found (capForNoEvidence); a pasted passage of the
 *    material or a bare list of keywords at most `Partial_Correct`. Contradiction beats keyword presence.
 * A model that gives no usable reply (an error, or a malformed reply after the adapter's repair turn) leaves the item
 * `Ungraded`: no credit, no default status, and no exception — the caller retries it later. Only the caller's
 * cancellation is thrown. Evidence is attached to every item.
 */

export const EXAM_GRADE_TASK = 'exam.grade';
export const EXAM_GRADE_TEMPERATURE = 0;
/** Answers are read up to this many characters (the draft limit of the exam routes). */
export const MAX_EXAM_ANSWER_CHARACTERS = 4000;

/** The structured input of a grading call: what the prompt is rendered from and the offline grader works from. */
export const ExamGradeInput = z.object({
  type: QuestionType,
  question: z.string(),
  model_answer: z.string(),
  key_keywords: z.array(z.string()),
  intent: z.string(),
  answer: z.string(),
  evidence: z.array(z.object({ keyword: z.string(), matchedAs: z.string().nullable(), at: z.object({ start: z.number(), end: z.number() }).nullable() })),
  /** The material the item was drawn from, when the caller has it (the pasted-passage check). */
  source: z.string().optional(),
});
export type ExamGradeInput = z.infer<typeof ExamGradeInput>;

function describeEvidence(evidence: readonly KeywordEvidenceItem[], answer: string): string {
  if (evidence.length === 0) return '(핵심 키워드 없음)';
  return evidence
    .map((item) => {
      if (item.matchedAs === null) return `- ${item.keyword}: 답안에 없음`;
      const where = item.at === null ? '' : ` (${item.at.start + 1}–${item.at.end}번째 글자: "${answer.slice(item.at.start, item.at.end)}")`;
      return `- ${item.keyword}: 있음, "${item.matchedAs}"로${where}`;
    })
    .join('\n');
}

/** The grader's prompt (pure): every text from the item, the student and the matcher in its own fence. */
export function renderExamGradePrompt(input: ExamGradeInput): string {
  const keywords = [`핵심 키워드: ${input.key_keywords.join(', ') || '(없음)'}`, `출제 의도: ${input.intent}`].join('\n');
  return loadPrompt('exam-grade').render({
    type: input.type,
    question: fence('질문', input.question),
    modelAnswer: fence('모범_답안', input.model_answer),
    keywords: fence('핵심_키워드', keywords),
    evidence: fence('키워드_근거', describeEvidence(input.evidence, input.answer)),
    answer: fence('학생_답변', input.answer),
  });
}

const squeezed = (text: string) => text.normalize('NFKC').toLowerCase().replace(/\s+/gu, '');

function occurrences(text: string, needle: string): number {
  if (needle === '') return 0;
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/**
 * The concept a question names as what it asks about: `X가 무엇인지 …` (X), `X와 Y의 차이를 …` (X와 Y). Its
 * keywords are what an answer must say about it, not the concept itself (`process` asked, `address space, program,
 * PCB` expected).
 */
function askedConcept(question: string): string | undefined {
  const trimmed = question.trim();
  const compared = /^(?<pair>.+?[와과] .+?)의 차이/u.exec(trimmed)?.groups?.pair;
  return compared ?? explainedTerm(trimmed) ?? aboutTerm(trimmed);
}

/**
 * The item's `related_topic` (seed 000's grader): the concept the item's answer is about, the same for every
 * student's answer to it (results, the feedback report and the learner profile group by it). The concept the
 * question names (askedConcept), else read from its key keywords and the source passage: the key keyword (its first
 * synonym) the source uses most often (any synonym counts; spaces and case aside), ties to the earlier keyword;
 * without a source, or when it uses none of them, the first keyword; an item without keywords: the plan's target
 * topic, else the start of its question. Never the model's per-answer phrase.
 */
export function relatedTopicOf(problem: Pick<ExamProblem, 'key_keywords' | 'question_content'>, options: { source?: string | undefined; planned?: string | undefined } = {}): string {
  const asked = askedConcept(problem.question_content);
  if (asked !== undefined) return asked.length > 60 ? `${asked.slice(0, 59)}…` : asked;
  const keywords = problem.key_keywords.map((value) => keywordSynonyms(value)).filter((synonyms) => synonyms.length > 0);
  let concept = keywords[0]?.[0];
  if (options.source !== undefined && keywords.length > 1) {
    const text = squeezed(options.source);
    let most = 0;
    for (const synonyms of keywords) {
      const count = synonyms.reduce((sum, synonym) => sum + occurrences(text, squeezed(synonym)), 0);
      if (count > most) {
        most = count;
        concept = synonyms[0];
      }
    }
  }
  const topic = concept ?? options.planned ?? problem.question_content.trim();
  return topic.length > 60 ? `${topic.slice(0, 59)}…` : topic;
}

/** The best status each server flag allows, and what the student is told instead of a model's praise. */
const CAPS: Partial<Record<AssessFlag | ShapeFlag, { cap: ResultStatus; message: string }>> = {
  'give-up': { cap: 'Incorrect', message: '답을 적지 않았거나 모른다고 답했습니다. 모범 답안을 보고 이 개념을 다시 복습해 보세요.' },
  echo: { cap: 'Incorrect', message: '질문의 표현을 되풀이했을 뿐, 묻는 내용에 대한 답이 없습니다.' },
  negation: { cap: 'Incorrect', message: '핵심 용어는 썼지만 모범 답안과 반대되는 내용(부정)입니다.' },
  antonym: { cap: 'Incorrect', message: '핵심 용어는 썼지만 모범 답안과 반대되는 말로 설명했습니다.' },
  reversed: { cap: 'Incorrect', message: '핵심 용어는 썼지만 개념 사이의 관계(원인과 결과, 순서)가 뒤바뀌었습니다.' },
  swapped: { cap: 'Incorrect', message: '핵심 용어는 썼지만 개념끼리의 짝이 서로 뒤바뀌었습니다.' },
  'wrong-choice': { cap: 'Incorrect', message: '모범 답안과 다른 답(선택, 예/아니요, 값)을 골랐습니다.' },
  'pasted-passage': { cap: 'Partial_Correct', message: '자료의 문장을 그대로 옮겨 적었습니다. 자신의 말로 설명해야 정답이 됩니다.' },
  'keyword-list': { cap: 'Partial_Correct', message: '핵심 키워드를 나열만 했습니다. 키워드 사이의 관계를 문장으로 설명해야 정답이 됩니다.' },
  'bare-list': { cap: 'Partial_Correct', message: '핵심 키워드를 나열만 했습니다. 키워드 사이의 관계를 문장으로 설명해야 정답이 됩니다.' },
  'question-echo': { cap: 'Incorrect', message: '질문의 표현을 되풀이했을 뿐, 묻는 내용에 대한 답이 없습니다.' },
  'no-content': { cap: 'Incorrect', message: '설명하는 내용이 없습니다. 묻는 개념을 문장으로 설명해 보세요.' },
  'copied-material': { cap: 'Partial_Correct', message: '자료의 문장을 그대로 옮겨 적었습니다. 자신의 말로 설명해야 정답이 됩니다.' },
  injection: { cap: 'Incorrect', message: '답안에 채점에 대한 지시나 판정이 들어 있습니다. 답안은 질문에 대한 설명으로만 채점합니다.' },
  filler: { cap: 'Incorrect', message: '질문과 관계없는 내용이나 반복된 글이 대부분입니다. 묻는 개념만 자신의 말로 설명해 보세요.' },
  'foreign-language': { cap: 'Incorrect', message: '질문의 언어(한국어 또는 영어)로 답하지 않았습니다. 한국어나 영어로 다시 설명해 보세요.' },
  'off-topic': { cap: 'Incorrect', message: '질문의 주제와 관계없는 내용입니다. 묻는 개념을 설명해 보세요.' },
};
/** Flags that say the answer is no attempt at the question: true against any reference, or none. */
const NO_ATTEMPT_FLAGS: readonly (AssessFlag | ShapeFlag)[] = ['give-up', 'injection', 'filler', 'foreign-language', 'off-topic', 'no-content'];
const CONTRADICTION_FLAGS: readonly (AssessFlag | ShapeFlag)[] = ['negation', 'antonym', 'reversed', 'swapped', 'wrong-choice'];
const RANK: Readonly<Record<ResultStatus, number>> = { Incorrect: 0, Partial_Correct: 1, Correct: 2 };

export interface ServerCheck {
  /** The best status the answer may have; null when nothing caps it. */
  cap: ResultStatus | null;
  flags: (AssessFlag | ShapeFlag)[];
  /** The contradiction found, in Korean, or null. */
  contradiction: string | null;
  /** What the student is told when the cap lowered a proposal. */
  message: string | null;
  /** For an item without keywords: the model answer's terms the answer contains (the judges' matcher). */
  referenceTerms: string[];
  /** The offline assessor's reading of the same answer (its confidence is weighed against the model's verdict). */
  assessment: Assessment;
  /**
   * A negation said of a word the model answer does not say (the assessor's negationUnread) and no other
   * contradiction: it caps nothing, and a model's Correct against it is held for review (NEGATION_UNREAD_CONFIDENCE).
   */
  unreadNegation: boolean;
}

/**
 * The never-Correct checks on an answer (pure): the judges' give-up, echo, contradiction, pasted passage and keyword
 * list, and the exam's shape checks (answer-shape.ts: a bare list, the question repeated, no content).
 */
export function serverCheck(problem: ExamProblem, answer: string, source?: string): ServerCheck {
  const prepared = prepareAssessment({
    question: problem.question_content,
    reference: problem.model_answer,
    keywords: problem.key_keywords,
    answer,
    ...(source === undefined ? {} : { source }),
  });
  // The judges' echo also fires when the answer's own words are none of the model answer's (a synonym it does not
  // list: 줄어듭니다 for 작아진다); a grade that caps at Incorrect needs an answer that adds nothing to the question.
  const saysSomething = addsOwnWords(answer, problem.question_content);
  const assessment = decideAssessment(prepared);
  const referenceTerms = problem.key_keywords.length === 0 ? assessment.evidence.matched : [];
  const judged = assessment.evidence.flags.filter((flag) => CAPS[flag] !== undefined && !(flag === 'echo' && saysSomething));
  const shapes = answerShapeFlags({
    type: problem.type,
    answer,
    question: problem.question_content,
    modelAnswer: problem.model_answer,
    source,
    listed: judged.includes('keyword-list'),
    pasted: judged.includes('pasted-passage'),
  });
  const flags: (AssessFlag | ShapeFlag)[] = [...judged, ...shapes];
  // An unread negation decides nothing (J18): over the dev sets it fired on 33 Beetle answers, 20 of them correct.
  const unreadNegation = assessment.negationUnread && flags.includes('negation') && !flags.some((flag) => flag !== 'negation' && CONTRADICTION_FLAGS.includes(flag));
  const capping = unreadNegation ? flags.filter((flag) => flag !== 'negation') : flags;
  let cap: ResultStatus | null = null;
  let message: string | null = null;
  // A contradiction is what the student is told first: it is the reason the right words did not earn credit.
  const ordered = [...capping.filter((flag) => CONTRADICTION_FLAGS.includes(flag)), ...capping.filter((flag) => !CONTRADICTION_FLAGS.includes(flag))];
  for (const flag of ordered) {
    const rule = CAPS[flag];
    if (rule === undefined) continue;
    if (cap === null || RANK[rule.cap] < RANK[cap]) {
      cap = rule.cap;
      message = rule.message;
    }
  }
  const contradictionFlag = capping.find((flag) => CONTRADICTION_FLAGS.includes(flag));
  return {
    cap,
    flags,
    contradiction: contradictionFlag === undefined ? null : (CAPS[contradictionFlag]?.message ?? null),
    message,
    referenceTerms,
    assessment,
    unreadNegation,
  };
}

/** A proposal under the server's cap: the lower of the two, with the server's reason when it lowered it. */
export function applyCap(proposal: GraderOutput, check: ServerCheck): GraderOutput {
  if (check.cap === null || RANK[proposal.result_status] <= RANK[check.cap]) return proposal;
  return { ...proposal, result_status: check.cap, feedback_message: check.message ?? proposal.feedback_message };
}

/**
 * Seed 000's grading rule, kept by the server: a Descriptive answer is `Correct` only with all key keywords present
 * (or an accepted synonym); with some missing it is at most `Partial_Correct`, and the student is told which. A
 * Short_Keyword item's keywords are alternatives of one term (the seed's ["Overfitting", "과적합"]), so one suffices.
 */
export function capForMissingKeywords(problem: Pick<ExamProblem, 'type'>, keywords: readonly KeywordEvidenceItem[], proposal: GraderOutput): GraderOutput {
  if (problem.type !== 'Descriptive' || proposal.result_status !== 'Correct') return proposal;
  const missing = keywords.filter((keyword) => keyword.matchedAs === null).map((keyword) => keyword.keyword);
  if (missing.length === 0) return proposal;
  return {
    ...proposal,
    result_status: 'Partial_Correct',
    feedback_message: `내용은 맞지만 핵심 키워드 ${quotedWithParticle(missing, '이/가')} 답안에 없어 부분 점수입니다. 모범 답안의 핵심 용어를 넣어 설명해 보세요.`,
  };
}

/**
 * No Correct without evidence: a model's Correct stands only when the matcher found at least one key keyword (or an
 * accepted synonym) in the answer. An item without keywords (one written before the writer and validator required
 * them, or edited by hand) is read against its model answer instead: at least one of the model answer's terms must
 * be in the answer (an echo of the question is capped on its own). Mathematics is decided before the model
 * (mathEquivalent), so a math answer that reaches here was not shown equal either.
 */
export function capForNoEvidence(keywords: readonly KeywordEvidenceItem[], check: Pick<ServerCheck, 'referenceTerms'>, proposal: GraderOutput): GraderOutput {
  if (proposal.result_status !== 'Correct') return proposal;
  if (keywords.length === 0 ? check.referenceTerms.length > 0 : keywords.some((keyword) => keyword.matchedAs !== null)) return proposal;
  return {
    ...proposal,
    result_status: 'Partial_Correct',
    feedback_message:
      keywords.length === 0
        ? '모범 답안의 핵심 용어가 답안에 없어 정답으로 처리하지 않았습니다. 모범 답안과 비교해 핵심 용어를 넣어 설명해 보세요.'
        : `핵심 키워드(${keywords.map((keyword) => `'${keyword.keyword}'`).join(', ')})가 답안에 없어 정답으로 처리하지 않았습니다. 모범 답안의 핵심 용어를 넣어 설명해 보세요.`,
  };
}

export interface ExamGraderOptions {
  model: LanguageModel;
  logger?: Logger | undefined;
}

/** What the student reads for an item the grader was not sure of: no provisional status, no model praise. */
export const NEEDS_REVIEW_MESSAGE = '자동 채점 결과가 확실하지 않아 선생님이 이 문항을 검토하고 있습니다. 검토가 끝나면 결과가 표시됩니다.';

/** Caps for an answer copied from the material rather than written (the judges' and the exam's own check). */
const COPY_FLAGS: ReadonlySet<string> = new Set(['pasted-passage', 'copied-material']);

export class ExamGrader implements ExamItemGrader {
  constructor(private readonly options: ExamGraderOptions) {}

  /**
   * The confidence of a decided status (src/judges/verdict-confidence.ts). A status a rule of the server lowered (a
   * never-Correct cap, the keyword rules) is as sure as the rule (an `off-topic` cap alone is not, when the keywords
   * do not hold the status too: judges' overruledConfidence; nor is a copy of the material that holds every key
   * keyword: PASTED_STATUS_CONFIDENCE), and so is a status below Correct that the keyword
   * rules would have held there anyway (a Descriptive answer missing a key keyword, a Short_Keyword answer with none
   * of them): the good/bad side is then the rule's, not a reading's. The offline model (deterministic) is the assessor
   * itself, so the confidence of its status is the grade's (judges' statusConfidence: a side read from the margin is
   * surer than the partial / incorrect split under it); a model's proposal is weighed against the assessor's
   * reading and the keyword evidence.
   */
  private confidenceOf(
    problem: ExamProblem,
    proposal: GraderOutput,
    capped: GraderOutput,
    decided: GraderOutput,
    check: ServerCheck,
    keywords: readonly KeywordEvidenceItem[],
  ): number {
    const offline = assessmentConfidence(check.assessment);
    const missing = keywords.filter((keyword) => keyword.matchedAs === null).length;
    const heldByKeywords = keywords.length > 0 && (problem.type === 'Descriptive' ? missing > 0 : missing === keywords.length);
    const loweredByCap = capped.result_status !== proposal.result_status;
    if (loweredByCap && !heldByKeywords) {
      // The exam's bare list is the judges' keyword list read on every Descriptive answer: a reading of the words,
      // unsure on its own like it (over the dev sets 5 of 12 bare lists were wrong answers).
      const lowering = check.flags.filter((flag) => CAPS[flag]?.cap === capped.result_status).map((flag) => (flag === 'bare-list' ? 'keyword-list' : flag));
      // A copy of the material's sentences that holds every key keyword may be the answer in the material's words
      // (the model answer is one sentence of that material; another can define the same term): capped, the teacher
      // decides, as sure as a pasted passage's status is (PASTED_STATUS_CONFIDENCE).
      if (keywords.length > 0 && lowering.length > 0 && lowering.every((flag) => COPY_FLAGS.has(flag))) return Math.min(offline, PASTED_STATUS_CONFIDENCE);
      return overruledConfidence(lowering, offline, check.assessment);
    }
    if (loweredByCap) return Math.max(offline, FLAG_CONFIDENCE);
    if (decided.result_status !== capped.result_status) return FLAG_CONFIDENCE;
    if (decided.result_status !== 'Correct' && heldByKeywords) return Math.max(offline, FLAG_CONFIDENCE);
    if (this.options.model.capabilities.deterministic) return statusConfidence(check.assessment);
    const evidence = keywords.length === 0 ? check.referenceTerms.length > 0 : keywords.some((keyword) => keyword.matchedAs !== null);
    const modelGood = proposal.result_status === 'Correct';
    const combined = combinedConfidence({ modelGood, assessment: check.assessment, capped: false, evidence });
    // A Correct against a negation the server cannot read is neither overruled nor believed: the teacher decides.
    return modelGood && check.unreadNegation ? Math.min(combined, NEGATION_UNREAD_CONFIDENCE) : combined;
  }

  async grade(problem: ExamProblem, rawAnswer: string, context: ExamCallContext): Promise<EvaluationItem> {
    const answer = rawAnswer.slice(0, MAX_EXAM_ANSWER_CHARACTERS);
    const keywords = keywordEvidence(problem.key_keywords, answer);
    const item = (status: EvaluationItem['result_status'], topic: string, feedback: string, evidence: GradeEvidence): EvaluationItem => ({
      question_id: problem.id,
      result_status: status,
      question_content: problem.question_content,
      user_response: rawAnswer,
      related_topic: topic,
      feedback_message: feedback,
      evidence,
    });
    const topic = relatedTopicOf(problem, { source: context.source, planned: context.topic });
    if (answer.trim() === '') {
      return item('Incorrect', topic, '답을 적지 않았습니다.', { keywords, method: 'keyword', contradiction: null });
    }
    if (problem.type === 'Short_Keyword') {
      const matched = exactKeywordAnswer(problem.key_keywords, answer, problem.question_content);
      if (matched !== null) {
        return item('Correct', topic, `정확합니다. 핵심 용어 ${quotedWithParticle(matched, '을/를')} 바르게 답했습니다.`, { keywords, method: 'keyword', contradiction: null });
      }
    }
    if (mathEquivalent(problem.model_answer, problem.model_answer) === 'equal') {
      const verdict = mathEquivalent(answer, problem.model_answer);
      if (verdict === 'equal') return item('Correct', topic, '정답입니다. 모범 답안과 같은 값(식)입니다.', { keywords, method: 'math', contradiction: null });
      if (verdict === 'different') {
        return item('Incorrect', topic, '모범 답안과 값(식)이 다릅니다. 풀이를 다시 확인해 보세요.', { keywords, method: 'math', contradiction: null });
      }
    }
    const check = serverCheck(problem, answer, context.source);
    if (referenceStandsIn(problem.question_content, problem.model_answer)) {
      // No model answer to grade against (empty, or the question restated): the teacher grades it, unless the
      // answer is no attempt at all (a give-up, an injection), which needs no reference to be Incorrect.
      if (check.flags.some((flag) => NO_ATTEMPT_FLAGS.includes(flag))) {
        return item('Incorrect', topic, check.message ?? '답이 질문에 대한 설명이 아닙니다.', { keywords, method: 'model', contradiction: check.contradiction, confidence: FLAG_CONFIDENCE });
      }
      return item('Needs_Review', topic, NEEDS_REVIEW_MESSAGE, { keywords, method: 'model', contradiction: null, confidence: 0 });
    }
    const evidence: GradeEvidence = { keywords, method: 'model', contradiction: check.contradiction };
    const input: ExamGradeInput = {
      type: problem.type,
      question: problem.question_content,
      model_answer: problem.model_answer,
      key_keywords: problem.key_keywords,
      intent: problem.intent_diagnosis,
      answer,
      evidence: keywords,
      ...(context.source === undefined ? {} : { source: context.source }),
    };
    const attribution: Attribution = {
      materialId: context.materialId,
      ...(context.accountId === undefined ? {} : { accountId: context.accountId }),
    };
    try {
      const { object } = await this.options.model.generateObject({
        task: EXAM_GRADE_TASK,
        role: 'judge',
        temperature: EXAM_GRADE_TEMPERATURE,
        input,
        prompt: renderExamGradePrompt(input),
        schema: GraderOutput,
        attribution,
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
      const capped = applyCap(object, check);
      const decided = capForNoEvidence(keywords, check, capForMissingKeywords(problem, keywords, capped));
      const confidence = this.confidenceOf(problem, object, capped, decided, check, keywords);
      // The concept is the item's (relatedTopicOf), alike for every student (results group by it): the model's
      // phrase for this one answer is not used.
      if (confidence < CONFIDENT_AT) {
        return item('Needs_Review', topic, NEEDS_REVIEW_MESSAGE, { ...evidence, confidence, proposed: decided.result_status });
      }
      return item(decided.result_status, topic, decided.feedback_message, { ...evidence, confidence });
    } catch (error) {
      if (context.signal?.aborted === true) throw error;
      const code = error instanceof AppError ? error.code : 'UNEXPECTED';
      this.options.logger?.warn({ code, questionId: problem.id }, 'exam grading failed; the item stays ungraded');
      return item('Ungraded', topic, '채점하지 못했습니다. 잠시 후 다시 채점합니다.', evidence);
    }
  }
}
