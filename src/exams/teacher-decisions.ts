import type { ExamOverride, ExamRecord, ExamRepository } from './exam-repository.js';
import type { EvaluationItem, ResultStatus } from './exam-types.js';

/**
 * The teacher's decisions as data: every item a teacher overrode, as one labelled JSON line (question, reference,
 * the student's answer, the grader's status — and its proposal and confidence when it held the item for review —,
 * the teacher's status and reason), for the eval scripts and for fine-tuning. A decision the teacher made for a
 * whole group of answers (answer-group-grading.ts) is one line per answer, marked `fromGroup` with the group's id
 * and size (its answers share one reason, which weighs them differently as data). No student identity (no session id, no
 * nickname) leaves with it: the lines are about answers, not about students.
 */

export interface TeacherDecision {
  examId: string;
  questionId: number;
  type: 'Short_Keyword' | 'Descriptive';
  question: string;
  reference: string;
  keywords: string[];
  answer: string;
  graderStatus: EvaluationItem['result_status'];
  /** For an item the grader held for review: what it would have said, and how sure it was. */
  graderProposed?: ResultStatus | undefined;
  graderConfidence?: number | undefined;
  teacherStatus: ResultStatus;
  reason: string;
  /** Decided with its group of answers in one action. */
  fromGroup?: true | undefined;
  groupId?: string | undefined;
  groupSize?: number | undefined;
}

export function decisionOf(exam: ExamRecord, questionId: number, answer: string, grade: EvaluationItem | undefined, override: ExamOverride): TeacherDecision | null {
  const problem = exam.problems.find((candidate) => candidate.id === questionId);
  if (problem === undefined) return null;
  return {
    examId: exam.examId,
    questionId,
    type: problem.type,
    question: problem.question_content,
    reference: problem.model_answer,
    keywords: [...problem.key_keywords],
    answer,
    graderStatus: grade?.result_status ?? override.from,
    ...(grade?.evidence?.proposed === undefined ? {} : { graderProposed: grade.evidence.proposed }),
    ...(grade?.evidence?.confidence === undefined ? {} : { graderConfidence: grade.evidence.confidence }),
    teacherStatus: override.status,
    reason: override.reason,
    ...(override.group === undefined ? {} : { fromGroup: true as const, groupId: override.group.id, groupSize: override.group.size }),
  };
}

/** Every overridden item of an exam, in student then question order. */
export async function teacherDecisions(repository: Pick<ExamRepository, 'students' | 'overrides' | 'grades' | 'submissions'>, exam: ExamRecord): Promise<TeacherDecision[]> {
  const decisions: TeacherDecision[] = [];
  for (const sessionId of await repository.students(exam.examId)) {
    const overrides = await repository.overrides(exam.examId, sessionId);
    if (overrides.size === 0) continue;
    const [grades, submission] = await Promise.all([repository.grades(exam.examId, sessionId), repository.submissions(exam.examId, sessionId)]);
    for (const [questionId, override] of [...overrides].sort((left, right) => left[0] - right[0])) {
      const decision = decisionOf(exam, questionId, submission.items.get(questionId)?.text ?? '', grades.get(questionId), override);
      if (decision !== null) decisions.push(decision);
    }
  }
  return decisions;
}

/** JSON Lines: one decision per line, UTF-8, a newline after each. */
export function decisionsJsonl(decisions: readonly TeacherDecision[]): string {
  return decisions.map((decision) => `${JSON.stringify(decision)}\n`).join('');
}
