/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - J32 — One option of a rubric is not read as wrong. A model answer that lists parts or alternatives (two list
 *   lines or more, or a phrase that offers a choice: `one of the following`, `possible answers`, `다음 중 하나`, `…도
 *   정답`) is a rubric; a right answer that gives one option shares few of its words. A bad verdict read from the
 *   overlap alone against it keeps its label but is unsure (RUBRIC_CONFIDENCE, below CONFIDENT_AT); the same answer
 *   against a one-answer model answer is told. A deciding flag (a give-up) still decides.
 * - J33 — English roles are read, not trusted. A role or direction flag (`swapped`, `reversed`, `antonym`) on an
 *   answer not mostly in Hangul keeps its cap (never good) but makes no sure verdict (ENGLISH_ROLE_CONFIDENCE): English
 *   word order puts a right answer's terms in other places (`The short string has a higher pitch` for `If the string
 *   is shorter, the pitch will be higher`). The same flags on a Korean answer, whose roles are read from particles,
 *   still decide with FLAG_CONFIDENCE.
 * - J34 — English negation is read by parity, not trusted. A `negation` flag on an answer not mostly in Hangul, said of
 *   a word both texts say, keeps its cap (never good) but makes no sure verdict (ENGLISH_NEGATION_CONFIDENCE): English
 *   negation is read by its parity in the aligned clause, so a second negation or other words for the reference's
 *   negated claim flip it too (`does not contain a closed path and cannot be a short circuit` for `has no closed
 *   paths`). An exam holds such an item with its proposal, also where the flag overrules a model's Correct; a Korean
 *   negation, read on its head, still decides with FLAG_CONFIDENCE.
 */
import { describe, expect, it } from 'vitest';
import { ExamGrader, type ExamProblem } from '../src/exams/index.js';
import {
  CONFIDENT_AT,
  ENGLISH_NEGATION_CONFIDENCE,
  ENGLISH_ROLE_CONFIDENCE,
  FLAG_CONFIDENCE,
  RUBRIC_CONFIDENCE,
  assessAnswer,
  confidenceReading,
  listsAlternatives,
} from '../src/judges/index.js';
import { createOfflineModel } from '../src/llm/index.js';
import { offlineTasks } from '../src/offline-tasks.js';

const ORDER_QUESTION = 'Order the events A, B and C from least to most probable and justify your order.';
const RUBRIC = [
  'The correct sequence is BCA, where B is the least probable. One of the following justifications should be given:',
  '● Event B is a subset/part/special case of C, and C is a subset/part/special case of A',
  '● Event B is more specific/strict than C and C is more specific/strict than A',
  '● An actual, correct calculation of the probabilities: P(B) = 0.0138, P(C) = 0.2765, P(A) = 0.8208',
].join('\n');
const ONE_ANSWER = 'The correct sequence is BCA: event B is a subset of event C, and event C is a subset of event A.';
/** The rubric's words without its shape: one text, no list lines, no choice offered. */
const FLAT = RUBRIC.replace('One of the following justifications should be given:', 'The justification:').replace(/\n● /gu, ' ');
/** A right answer in few of the rubric's words. */
const ANSWER = 'Fewer outcomes fit B than C, and fewer fit C than A.';

const reading = (input: { question: string; reference: string; answer: string }) => {
  const assessment = assessAnswer(input);
  return { label2: assessment.label2, flags: assessment.evidence.flags, ...confidenceReading(assessment) };
};

describe('J32: one option of a rubric is not read as wrong', () => {
  it('J32: rubrics are told from one-answer model answers, in English and Korean', () => {
    expect(listsAlternatives(RUBRIC)).toBe(true);
    expect(listsAlternatives('0.5 P for a sensible choice out of: Token Ring, CSMA/CD or TDMA')).toBe(true);
    expect(listsAlternatives('다음 중 하나를 들면 된다: 산성비, 미세먼지, 수질 오염')).toBe(true);
    expect(listsAlternatives('광합성의 조건\n① 빛이 있어야 한다\n② 이산화탄소와 물이 필요하다')).toBe(true);
    expect(listsAlternatives('- 수요가 늘면 가격이 오른다\n- 공급이 늘면 가격이 내린다')).toBe(true);
    expect(listsAlternatives(ONE_ANSWER)).toBe(false);
    expect(listsAlternatives('1기압에서 물은 섭씨 100도에서 끓는다.')).toBe(false);
    // One numbered sentence is not a list.
    expect(listsAlternatives('1. 온도가 일정할 때 압력과 부피는 반비례한다.')).toBe(false);
  });

  it('J32: a bad verdict read from the overlap against a rubric is unsure; against the same words as one answer it is told', () => {
    expect(listsAlternatives(FLAT)).toBe(false);
    const againstRubric = reading({ question: ORDER_QUESTION, reference: RUBRIC, answer: ANSWER });
    expect(againstRubric).toMatchObject({ label2: 'bad', basis: 'rubric' });
    expect(againstRubric.confidence).toBeLessThanOrEqual(RUBRIC_CONFIDENCE);
    expect(againstRubric.confidence).toBeLessThan(CONFIDENT_AT);
    const againstFlat = reading({ question: ORDER_QUESTION, reference: FLAT, answer: ANSWER });
    expect(againstFlat).toMatchObject({ label2: 'bad', basis: 'margin' });
    expect(againstFlat.confidence).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J32: a give-up against a rubric is still told', () => {
    const giveUp = reading({ question: ORDER_QUESTION, reference: RUBRIC, answer: "I don't know." });
    expect(giveUp).toMatchObject({ label2: 'bad', basis: 'certain' });
    expect(giveUp.confidence).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });
});

describe('J33: English roles are read, not trusted', () => {
  it('J33: a role flag on an English answer keeps the cap but is unsure', () => {
    const pitch = reading({
      question: 'How does the length of the string change the pitch?',
      reference: 'If the string is shorter, the pitch will be higher. If the string is longer, the pitch will be lower.',
      answer: 'The short string has a higher pitch. The longer string has a lower pitch.',
    });
    expect(pitch.flags).toContain('swapped');
    expect(pitch).toMatchObject({ label2: 'bad', basis: 'english-roles' });
    expect(pitch.confidence).toBeLessThanOrEqual(ENGLISH_ROLE_CONFIDENCE);
    expect(pitch.confidence).toBeLessThan(CONFIDENT_AT);
  });

  it('J33: the same flag on a Korean answer still decides', () => {
    const swapped = reading({
      question: '분산과 평균은 각각 무엇을 나타내나요?',
      reference: '평균은 자료의 중심을 나타내고, 분산은 자료의 퍼짐을 나타낸다.',
      answer: '평균은 자료의 퍼짐을 나타내고, 분산은 자료의 중심을 나타낸다.',
    });
    expect(swapped.flags).toContain('swapped');
    expect(swapped).toMatchObject({ label2: 'bad', basis: 'flag', confidence: FLAG_CONFIDENCE });
  });
});

describe('J34: English negation is read by parity, not trusted', () => {
  const CIRCUIT: ExamProblem = {
    id: 1,
    type: 'Descriptive',
    question_content: 'Explain why circuit 4 is not a short circuit.',
    model_answer: 'Circuit 4 has no closed paths',
    key_keywords: [],
    intent_diagnosis: '-',
  };
  /** Right (the gold label): a second negation, on the question's words, flips the clause's parity. */
  const RIGHT = 'circuit 4 does not contain a closed path and cannot be a short circuit.';
  const offline = new ExamGrader({ model: createOfflineModel(offlineTasks) });
  const saysCorrect = new ExamGrader({
    model: createOfflineModel({ 'exam.grade': { object: () => ({ result_status: 'Correct', related_topic: '회로', feedback_message: '정확합니다.' }) } }),
  });

  it('J34: a negation flag on an English answer keeps its cap but is unsure', () => {
    const circuit = reading({ question: CIRCUIT.question_content, reference: CIRCUIT.model_answer, answer: RIGHT });
    expect(circuit.flags).toEqual(['negation']);
    expect(circuit).toMatchObject({ label2: 'bad', basis: 'english-negation' });
    expect(circuit.confidence).toBeLessThanOrEqual(ENGLISH_NEGATION_CONFIDENCE);
    expect(circuit.confidence).toBeLessThan(CONFIDENT_AT);
  });

  it('J34: the same negation on a Korean answer, read on its head, still decides', () => {
    const korean = reading({
      question: '두 단자 사이의 전압이 0인 이유는 무엇인가요?',
      reference: '두 단자가 서로 연결되어 있기 때문이다.',
      answer: '두 단자가 서로 연결되어 있지 않기 때문이다.',
    });
    expect(korean.flags).toEqual(['negation']);
    expect(korean).toMatchObject({ label2: 'bad', basis: 'flag', confidence: FLAG_CONFIDENCE });
  });

  it('J34: an exam holds the item with its proposal, offline and when the flag overrules a model\'s Correct', async () => {
    for (const grader of [offline, saysCorrect]) {
      const graded = await grader.grade(CIRCUIT, RIGHT, { materialId: 'm' });
      expect(graded.result_status).toBe('Needs_Review');
      expect(graded.evidence).toMatchObject({ proposed: 'Incorrect' });
      expect(graded.evidence?.confidence).toBeLessThan(CONFIDENT_AT);
    }
    // Another never-good flag beside it still overrules the model: a give-up is told as final.
    expect((await saysCorrect.grade(CIRCUIT, "I don't know.", { materialId: 'm' })).result_status).toBe('Incorrect');
  });
});
