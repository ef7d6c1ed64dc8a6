/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EL13 — The server's score. Configurable weights; `Ungraded` and missing items count nothing and mark the result
 *   pending …
 * - EL14 — Per-item results and CSV. Status counts per item; misconceptions are the most frequent "topic: feedback"
 *   of Incorrect and Partial_Correct answers; the CSV starts with a BOM and the Korean header …
 * - EL15 — Learner signals from a transcript. Each comprehension verdict with the remediated subconcepts of a bad one
 *   (a subquestion's own verdict is not a question) …
 */
import { describe, expect, it } from 'vitest';
import { examResultsCsv, itemSummaries, lectureSignals, scoreOf, studentResult, type ExamRecord, type StudentData } from '../src/exams/index.js';
import type { EvaluationItem } from '../src/exams/index.js';
import type { TranscriptItem } from '../src/protocol/wire/tutor.js';

/** EL13–EL15 (test/SPEC.md, "Live exams"): the server's score and results, and the learner signals of a transcript. */

const exam: ExamRecord = {
  examId: 'e'.repeat(32),
  accountId: 'a',
  materialId: 'm',
  title: '평가',
  request: { count: 2, descriptive: 1 },
  plan: { planning_strategy: 's', planned_items: [{ id: 1, target_topic: 't', question_type: 'Short_Keyword', intent_type: 'Recall', complexity_level: 'Basic', source_reference_hint: 'h' }] },
  problems: [
    { id: 1, type: 'Short_Keyword', question_content: '질문 1', model_answer: '분산', key_keywords: ['분산'], intent_diagnosis: 'i' },
    { id: 2, type: 'Descriptive', question_content: '질문 2', model_answer: '설명', key_keywords: ['기댓값'], intent_diagnosis: 'i' },
  ],
  complaints: [],
  valid: true,
  rounds: 1,
  createdAt: 0,
};

const graded = (id: number, status: EvaluationItem['result_status'], feedback = '', topic = ''): EvaluationItem => ({
  question_id: id,
  result_status: status,
  question_content: `질문 ${id}`,
  user_response: `답 ${id}`,
  related_topic: topic,
  feedback_message: feedback,
  evidence: null,
});

const student = (sessionId: string, grades: EvaluationItem[], overrides: StudentData['overrides'] = new Map()): StudentData => ({
  sessionId,
  nickname: sessionId,
  submittedAll: 1,
  submitted: new Map(),
  grades: new Map(grades.map((item) => [item.question_id, item])),
  overrides,
  regrades: [],
  report: null,
});

describe('live exam results', () => {
  it('EL13 the score is the server’s: configurable weights, Ungraded and missing items count nothing and mark it pending, an override wins', () => {
    const weights = { Correct: 2, Partial_Correct: 1, Incorrect: 0 };
    expect(scoreOf([graded(1, 'Correct'), graded(2, 'Partial_Correct')], weights)).toEqual({ score: 3, maxScore: 4, pending: false });
    expect(scoreOf([graded(1, 'Correct'), graded(2, 'Ungraded')], weights)).toEqual({ score: 2, maxScore: 4, pending: true });
    const onlyFirst = studentResult(exam, student('s', [graded(1, 'Correct')]), { Correct: 1, Partial_Correct: 0.5, Incorrect: 0 });
    expect([onlyFirst.score, onlyFirst.pending, onlyFirst.items[1]?.result_status]).toEqual([1, true, 'Ungraded']);
    const overridden = studentResult(
      exam,
      student('s', [graded(1, 'Correct'), graded(2, 'Ungraded')], new Map([[2, { status: 'Partial_Correct', reason: '부분 인정', by: 'a', at: 5, from: 'Ungraded' }]])),
      { Correct: 1, Partial_Correct: 0.5, Incorrect: 0 },
    );
    expect([overridden.score, overridden.pending, overridden.items[1]?.overridden?.reason]).toEqual([1.5, false, '부분 인정']);
  });

  it('EL14 per item: the status counts and the most frequent Incorrect/Partial feedback as misconceptions; the CSV has a BOM, Korean headers and neutralised formulas', () => {
    const weights = { Correct: 1, Partial_Correct: 0.5, Incorrect: 0 };
    const students = [
      studentResult(exam, student('가', [graded(1, 'Incorrect', '분산과 표준편차를 혼동', '분산'), graded(2, 'Correct', '좋음')]), weights),
      studentResult(exam, student('나', [graded(1, 'Incorrect', '분산과 표준편차를 혼동', '분산'), graded(2, 'Partial_Correct', '근거 부족', '기댓값')]), weights),
      studentResult(exam, student('=다', [graded(1, 'Partial_Correct', '단위 누락', '분산'), graded(2, 'Ungraded')]), weights),
    ];
    const items = itemSummaries(exam, students);
    expect(items[0]).toEqual({ question_id: 1, counts: { Correct: 0, Partial_Correct: 1, Incorrect: 2, Ungraded: 0, Needs_Review: 0 }, misconceptions: ['분산: 분산과 표준편차를 혼동', '분산: 단위 누락'] });
    expect(items[1]?.misconceptions).toEqual(['기댓값: 근거 부족']);
    const csv = examResultsCsv(exam, students, items);
    expect(csv.startsWith('\uFEFF닉네임,제출 시각,점수,만점,채점 대기,1번 결과')).toBe(true);
    expect(csv).toContain("\r\n'=다,");
    expect(csv).toContain('채점 대기');
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('EL15 learner signals from a transcript: verdicts with the remediated subconcepts of a bad one, and each hand dialogue’s first question', () => {
    const items: TranscriptItem[] = [
      { type: 'question', chapter: 0, at: 1, questionId: 'q1', text: '분산이란?' },
      { type: 'verdict', chapter: 0, at: 2, questionId: 'q1', verdict: 'bad', feedback: '' },
      { type: 'subquestion', chapter: 0, at: 3, questionId: 'q1s1', parentQuestionId: 'q1', index: 0, total: 1, concept: '편차', text: '편차란?' },
      { type: 'verdict', chapter: 0, at: 4, questionId: 'q1s1', verdict: 'good', feedback: '' },
      { type: 'question', chapter: 1, at: 5, questionId: 'q2', text: '평균이란?' },
      { type: 'verdict', chapter: 1, at: 6, questionId: 'q2', verdict: 'good', feedback: '' },
      { type: 'assistant', chapter: 1, at: 7, text: '무엇이 궁금한가요?' },
      { type: 'student', chapter: 1, at: 8, text: '표준편차는 왜 제곱근인가요?' },
      { type: 'student', chapter: 1, at: 9, text: '네' },
      { type: 'hand-closed', chapter: 1, at: 10, kind: 'specific' },
    ];
    expect(lectureSignals(items)).toEqual({
      lectureVerdicts: [
        { question: '분산이란?', verdict: 'bad', concepts: ['편차'] },
        { question: '평균이란?', verdict: 'good', concepts: [] },
      ],
      handTopics: ['표준편차는 왜 제곱근인가요?'],
    });
  });
});
