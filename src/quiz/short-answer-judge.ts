import { CONFIDENT_AT, assessAnswer, assessmentConfidence } from '../judges/index.js';
import { loadMathReader, mathEquivalent } from '../math/index.js';
import type { ShortItem } from '../protocol/quiz.js';
import { answerKey, distinctAnswers } from './text-answers.js';

/**
 * Grading a short-text question when it closes, off the answer path: one verdict per distinct answer key (never one
 * per player, never a model call per player), by the same checks the exams' grader makes before a model:
 * 1. the answer IS the model answer or one of `accept` (by key): right, certain;
 * 2. the model answer is mathematics (mathEquivalent reads it as equal to itself) and the answer compares: equal is
 *    right, different is wrong, certain ('unknown' goes on);
 * 3. otherwise the judges' assessor (the offline judge of the lecture and exams, with `accept` as alternatives) and
 *    its calibrated confidence: below CONFIDENT_AT the verdict is unsure and goes to the host's review.
 * The grades are stored with the room, so a reveal redone by another node scores the same.
 */

export interface ShortGrade {
  /** The first spelling seen (what the host reads when reviewing). */
  text: string;
  count: number;
  /** 1 right, 0.5 partly right, 0 wrong: what the judge decided. */
  credit: number;
  confidence: number;
  method: 'exact' | 'math' | 'judge';
  /** The judge was not sure: the answer scores nothing until the host marks it (`verdict`). */
  unsure: boolean;
  /** The host's mark, which overrides the judge. */
  verdict?: 'right' | 'wrong' | undefined;
}

/** Grades of one question by answer key. */
export type ShortGrades = Record<string, ShortGrade>;

const PARTIAL_CREDIT = 0.5;

/** True when the model answer is mathematics the comparison can read (then answers are compared by value first). */
export function isMathAnswer(item: ShortItem): boolean {
  return mathEquivalent(item.answer, item.answer) === 'equal';
}

/**
 * Loads what judging needs (the math reader, ~150 ms, and the assessor's tables) ahead of a question's close, so the
 * first reveal of a short-text question does not pay for it. Called when a node first meets a room with such items
 * (in its lobby, when nobody is answering), never at server start.
 */
export function warmShortJudge(): void {
  loadMathReader();
  assessAnswer({ question: '대푯값은?', reference: '중앙값', answer: '평균' });
}

/** The grade of one distinct answer (pure, deterministic). `math`: isMathAnswer(item), when the caller knows it. */
export function gradeShortAnswer(item: ShortItem, text: string, count = 1, math = isMathAnswer(item)): ShortGrade {
  const key = answerKey(text);
  const accepted = [item.answer, ...(item.accept ?? [])];
  if (accepted.some((answer) => answerKey(answer) === key)) return { text, count, credit: 1, confidence: 1, method: 'exact', unsure: false };
  if (math) {
    const verdict = mathEquivalent(text, item.answer);
    if (verdict !== 'unknown') return { text, count, credit: verdict === 'equal' ? 1 : 0, confidence: 1, method: 'math', unsure: false };
  }
  const assessment = assessAnswer({ question: item.question, reference: item.answer, alternatives: item.accept ?? [], answer: text });
  const confidence = assessmentConfidence(assessment);
  const credit = assessment.label3 === 'correct' ? 1 : assessment.label3 === 'partial' ? PARTIAL_CREDIT : 0;
  return { text, count, credit, confidence, method: 'judge', unsure: confidence < CONFIDENT_AT };
}

/**
 * Grades every distinct answer among `texts` once (the batch a question's close runs). The `limit` most given are
 * judged (by `grade` when given: verdicts judged while the question was open, short-pregrades.ts); any further ones (a
 * class typing hundreds of different answers) are left unsure for the host.
 */
export function gradeShortAnswers(
  item: ShortItem,
  texts: Iterable<string>,
  limit = Number.POSITIVE_INFINITY,
  grade?: (text: string, count: number) => ShortGrade,
): ShortGrades {
  const grades: ShortGrades = {};
  const distinct = [...distinctAnswers(texts)].sort(([, left], [, right]) => right.count - left.count);
  const math = grade === undefined && isMathAnswer(item);
  const judge = grade ?? ((text: string, count: number) => gradeShortAnswer(item, text, count, math));
  for (const [index, [key, { text, count }]] of distinct.entries()) {
    grades[key] = index < limit ? judge(text, count) : { text, count, credit: 0, confidence: 0, method: 'judge', unsure: true };
  }
  return grades;
}

/** Credit of a typed answer under its question's grades: the host's mark, else the judge's unless unsure; 0 ungraded. */
export function shortCredit(grades: ShortGrades | undefined, text: string): number {
  const grade = grades?.[answerKey(text)];
  if (!grade) return 0;
  if (grade.verdict !== undefined) return grade.verdict === 'right' ? 1 : 0;
  return grade.unsure ? 0 : grade.credit;
}

/** True when the answer waits for the host's review (unsure, not yet marked). */
export function awaitsReview(grades: ShortGrades | undefined, text: string): boolean {
  const grade = grades?.[answerKey(text)];
  return grade !== undefined && grade.unsure && grade.verdict === undefined;
}
