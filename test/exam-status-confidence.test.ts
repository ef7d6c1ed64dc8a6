/*
 * Rule pinned in this file (test/SPEC.md is its index; the tests below are its full statement):
 * - GR21 — An exam tells a status only when the status is sure. The offline exam grader tells a grade (Correct,
 *   Partial_Correct, Incorrect), not a side: its confidence is the status's (statusConfidence). A bad verdict read from
 *   the margin has the right side 0.90 of the time but the right status 0.68 (MARGIN_STATUS_CONFIDENCE: partial credit
 *   the second fitted score does not see), and a pasted passage held at partial is partial 5 times in 11
 *   (PASTED_STATUS_CONFIDENCE): both are `Needs_Review` with their proposal. A never-good flag (a negation of the model
 *   answer) still tells Incorrect as final; the lecture, which tells only the side, still tells it.
 */
import { describe, expect, it } from 'vitest';
import { ExamGrader, type ExamProblem } from '../src/exams/index.js';
import {
  CONFIDENT_AT,
  MARGIN_STATUS_CONFIDENCE,
  PASTED_STATUS_CONFIDENCE,
  assessAnswer,
  assessmentConfidence,
  confidenceReading,
  statusConfidence,
} from '../src/judges/index.js';
import { createOfflineModel } from '../src/llm/index.js';
import { offlineTasks } from '../src/offline-tasks.js';

const MEAN: ExamProblem = {
  id: 1,
  type: 'Descriptive',
  question_content: '평균에 대해 자신의 말로 설명해 보세요.',
  model_answer: '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다. 평균은 자료의 무게중심입니다.',
  key_keywords: [],
  intent_diagnosis: '-',
};
const BOILING: ExamProblem = {
  id: 2,
  type: 'Descriptive',
  question_content: '1기압에서 물은 몇 도에서 끓나요?',
  model_answer: '1기압에서 물은 섭씨 100도에서 끓는다.',
  key_keywords: [],
  intent_diagnosis: '-',
};
const SOURCE =
  '물질은 온도에 따라 상태가 변한다. 얼음은 0도에서 녹아 물이 된다. 1기압에서 물은 섭씨 100도에서 끓는다. 끓는점은 압력이 낮아지면 낮아진다. 높은 산에서는 물이 100도보다 낮은 온도에서 끓는다.';

const grader = new ExamGrader({ model: createOfflineModel(offlineTasks) });
const assess = (problem: ExamProblem, answer: string, source?: string) =>
  assessAnswer({ question: problem.question_content, reference: problem.model_answer, answer, ...(source === undefined ? {} : { source }) });

describe('GR21: an exam tells a status only when the status is sure', () => {
  it('GR21 a bad verdict read far below the threshold is sure of its side, not of its status: held with its proposal', async () => {
    const answer = '오늘 점심은 김치찌개를 먹었어요.';
    const assessment = assess(MEAN, answer);
    // The side is told (the lecture tells it)…
    expect(confidenceReading(assessment)).toMatchObject({ basis: 'margin', row: 0.2 });
    expect(assessmentConfidence(assessment)).toBeGreaterThanOrEqual(CONFIDENT_AT);
    // …the status is not.
    expect(statusConfidence(assessment)).toBe(MARGIN_STATUS_CONFIDENCE);
    const graded = await grader.grade(MEAN, answer, { materialId: 'm' });
    expect(graded.result_status).toBe('Needs_Review');
    expect(graded.evidence).toMatchObject({ proposed: 'Incorrect', confidence: MARGIN_STATUS_CONFIDENCE });
  });

  it('GR21 a pasted passage held at partial is held for the teacher; one that answers nothing stays Incorrect', async () => {
    const containsAnswer = '물질은 온도에 따라 상태가 변한다. 얼음은 0도에서 녹아 물이 된다. 1기압에서 물은 섭씨 100도에서 끓는다.';
    const partial = assess(BOILING, containsAnswer, SOURCE);
    expect(partial.evidence.flags).toContain('pasted-passage');
    expect(partial.label3).toBe('partial');
    expect(statusConfidence(partial)).toBe(PASTED_STATUS_CONFIDENCE);
    const held = await grader.grade(BOILING, containsAnswer, { materialId: 'm', source: SOURCE });
    expect(held.result_status).toBe('Needs_Review');
    expect(held.evidence?.proposed).toBe('Partial_Correct');
    const elsewhere = '얼음은 0도에서 녹아 물이 된다. 끓는점은 압력이 낮아지면 낮아진다.';
    const told = await grader.grade(BOILING, elsewhere, { materialId: 'm', source: SOURCE });
    expect(told.result_status).toBe('Incorrect');
  });

  it('GR21 a negation of the model answer is still told as final, and a sure good is told Correct', async () => {
    const negated = await grader.grade(BOILING, '1기압에서 물은 100도에서 끓지 않는다.', { materialId: 'm' });
    expect(negated.result_status).toBe('Incorrect');
    expect(negated.evidence?.confidence).toBeGreaterThanOrEqual(CONFIDENT_AT);
    const restated = await grader.grade(MEAN, '값을 모두 더한 뒤 그 개수로 나눈 값이고, 자료의 무게중심 같은 거예요.', { materialId: 'm' });
    expect(restated.result_status).toBe('Correct');
  });
});
