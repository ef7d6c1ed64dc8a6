import { type Label3, assessAnswer } from '../judges/index.js';
import type { OfflineTasks } from '../llm/index.js';
import { EXAM_GRADE_TASK, ExamGradeInput, relatedTopicOf } from './exam-grader.js';
import type { GraderOutput, ResultStatus } from './exam-types.js';

/**
 * The offline `Agent_ShortAnswerGrader`: the judges' deterministic assessor (assessAnswer: overlap features under a
 * fitted logistic model, then the never-correct caps) on the question, the model answer (the reference), the key
 * keywords and the material, its label3 read as the seed's status. This is exactly what `npm run eval:grader`
 * measures as the exam grader's offline path (scripts/eval-grader.ts runs the real ExamGrader on the offline model).
 * The feedback names the keywords the matcher found and those it did not, in plain sentences like a model's: no
 * bracketed tag. That the assessor (not a keyword rule, the math check or the teacher) decided is in the item's
 * evidence (`method: 'model'`, with its confidence), and which model graded is the app's configuration.
 */

const STATUS: Readonly<Record<Label3, ResultStatus>> = { correct: 'Correct', partial: 'Partial_Correct', incorrect: 'Incorrect' };

const quoted = (keywords: readonly string[]): string => keywords.map((keyword) => `'${keyword}'`).join(', ');

export function gradeExamItemOffline(input: ExamGradeInput): GraderOutput {
  const assessment = assessAnswer({
    question: input.question,
    reference: input.model_answer,
    keywords: input.key_keywords,
    answer: input.answer,
    ...(input.source === undefined ? {} : { source: input.source }),
  });
  const result_status = STATUS[assessment.label3];
  const found = input.evidence.filter((item) => item.matchedAs !== null).map((item) => item.keyword);
  const missing = input.evidence.filter((item) => item.matchedAs === null).map((item) => item.keyword);
  const parts: string[] = [];
  if (result_status === 'Correct') parts.push('모범 답안과 같은 내용을 바르게 설명했습니다.');
  // The assessor reads more than the keywords: a partial answer with none of them is told so, not "partly matching".
  else if (result_status === 'Partial_Correct') parts.push(found.length > 0 || missing.length === 0 ? '모범 답안과 일부만 일치합니다.' : '핵심 키워드는 쓰지 않았지만 설명의 일부가 모범 답안과 통해 부분 점수입니다.');
  else parts.push('모범 답안과 내용이 다릅니다. 모범 답안과 비교해 다시 정리해 보세요.');
  if (found.length > 0) parts.push(`포함된 핵심 키워드: ${quoted(found)}.`);
  if (missing.length > 0) parts.push(`빠진 핵심 키워드: ${quoted(missing)}.`);
  return {
    result_status,
    related_topic: relatedTopicOf({ key_keywords: input.key_keywords, question_content: input.question }, { source: input.source }),
    feedback_message: parts.join(' '),
  };
}

export const examGradingGraderOfflineTasks: OfflineTasks = {
  [EXAM_GRADE_TASK]: { object: (input) => gradeExamItemOffline(ExamGradeInput.parse(input)) },
};
