import type { ExamOverride, ExamRecord, RegradeRequest, StoredAnswer } from './exam-repository.js';
import { RESULT_STATUSES, type ResultStatus, type EvaluationItem, type FeedbackReport, type GradeStatus, type ScoreWeights } from './exam-types.js';

/**
 * Results of a live exam, computed by the server from what is stored: the effective status of an item
 * (the instructor's override when there is one, else the grade), the score with the configured weights (`Ungraded`
 * counts nothing and marks the result pending), the per-item distribution with the common misconceptions (the
 * feedback of Incorrect and Partial_Correct items, most frequent first), and the CSV export (Korean headers, BOM).
 */

export type ResultItem = EvaluationItem & { overridden?: { status: ResultStatus; reason: string; by: string; at: number; from: GradeStatus } };

/** An item of a student's own result: an override shows as the status before it and the reason, never who nor when. */
export type StudentLogItem = EvaluationItem & { instructor_review?: { from: GradeStatus; reason: string } };

export interface StudentResult {
  sessionId: string;
  nickname: string;
  submittedAt: number | null;
  score: number;
  maxScore: number;
  /** True while any item is Ungraded or not graded yet. */
  pending: boolean;
  items: ResultItem[];
  regrades: RegradeRequest[];
  report: FeedbackReport | null;
}

export interface ItemSummary {
  question_id: number;
  counts: Record<GradeStatus, number>;
  misconceptions: string[];
}

export interface StudentData {
  sessionId: string;
  nickname: string;
  submittedAll: number | null;
  submitted: Map<number, StoredAnswer>;
  grades: Map<number, EvaluationItem>;
  overrides: Map<number, ExamOverride>;
  regrades: RegradeRequest[];
  report: FeedbackReport | null;
}

const MAX_MISCONCEPTIONS = 5;

/** The feedback of an item whose status the teacher decided or changed: the teacher's reason. */
export const decidedFeedback = (reason: string): string => (reason.trim() === '' ? '선생님이 답을 검토해 판정했습니다.' : `선생님이 답을 검토해 판정했습니다: ${reason.trim()}`);

/** Every item of the exam for one student, in the exam's order: graded, overridden, or Ungraded while waiting. */
export function resultItems(exam: ExamRecord, data: Pick<StudentData, 'submitted' | 'grades' | 'overrides'>): ResultItem[] {
  return exam.problems.map((problem) => {
    const graded = data.grades.get(problem.id);
    const item: EvaluationItem = graded ?? {
      question_id: problem.id,
      result_status: 'Ungraded',
      question_content: problem.question_content,
      user_response: data.submitted.get(problem.id)?.text ?? '',
      related_topic: '',
      feedback_message: '',
      evidence: null,
    };
    const override = data.overrides.get(problem.id);
    if (!override) return item;
    // The grader's feedback stands only for the status the teacher kept: an item it held said it is being reviewed,
    // one the teacher changed says what the teacher overruled (`바르게 설명했습니다` under 부분 정답). The teacher's
    // decision is its feedback then, in the report, the results and the CSV alike.
    const feedback = override.status === item.result_status ? item.feedback_message : decidedFeedback(override.reason);
    return { ...item, result_status: override.status, feedback_message: feedback, overridden: { status: override.status, reason: override.reason, by: override.by, at: override.at, from: override.from } };
  });
}

export function scoreOf(items: readonly { result_status: GradeStatus }[], weights: ScoreWeights): { score: number; maxScore: number; pending: boolean } {
  let score = 0;
  let pending = false;
  for (const item of items) {
    if (item.result_status === 'Ungraded' || item.result_status === 'Needs_Review') pending = true;
    else score += weights[item.result_status];
  }
  return { score: Math.round(score * 1000) / 1000, maxScore: items.length * Math.max(...RESULT_STATUSES.map((status) => weights[status])), pending };
}

export function studentResult(exam: ExamRecord, data: StudentData, weights: ScoreWeights): StudentResult {
  const items = resultItems(exam, data);
  return {
    sessionId: data.sessionId,
    nickname: data.nickname,
    submittedAt: data.submittedAll,
    ...scoreOf(items, weights),
    items,
    regrades: data.regrades,
    report: data.report,
  };
}

export function itemSummaries(exam: ExamRecord, students: readonly StudentResult[]): ItemSummary[] {
  return exam.problems.map((problem) => {
    const counts: Record<GradeStatus, number> = { Correct: 0, Partial_Correct: 0, Incorrect: 0, Ungraded: 0, Needs_Review: 0 };
    const feedback = new Map<string, number>();
    for (const student of students) {
      const item = student.items.find((candidate) => candidate.question_id === problem.id);
      if (!item) continue;
      counts[item.result_status] += 1;
      if ((item.result_status === 'Incorrect' || item.result_status === 'Partial_Correct') && item.feedback_message.trim() !== '') {
        const text = item.related_topic ? `${item.related_topic}: ${item.feedback_message.trim()}` : item.feedback_message.trim();
        feedback.set(text, (feedback.get(text) ?? 0) + 1);
      }
    }
    const misconceptions = [...feedback.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, MAX_MISCONCEPTIONS)
      .map(([text]) => text);
    return { question_id: problem.id, counts, misconceptions };
  });
}

const STATUS_KO: Record<GradeStatus, string> = { Correct: '정답', Partial_Correct: '부분 정답', Incorrect: '오답', Ungraded: '채점 대기', Needs_Review: '검토 중' };

/** RFC 4180 field; a leading =,+,-,@,tab or CR gets a ' so spreadsheets do not run it (as the room results do). */
function field(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
const row = (cells: readonly (string | number | null)[]) => cells.map(field).join(',');
const time = (ms: number | null) => (ms === null ? '' : new Date(ms).toISOString());

/**
 * One row per student (nickname, submission time, score, maximum, pending, then per item the status, the answer and
 * the override's reason), then one per class student who never opened it (미응시), a blank line, then one row per item (question, model answer, status counts, misconceptions).
 * UTF-8 with a BOM and CRLF lines, for spreadsheet programs.
 */
export function examResultsCsv(
  exam: ExamRecord,
  students: readonly StudentResult[],
  items: readonly ItemSummary[],
  absent: readonly { sessionId: string; nickname: string }[] = [],
): string {
  const header = ['닉네임', '제출 시각', '점수', '만점', '채점 대기'];
  for (const problem of exam.problems) header.push(`${problem.id}번 결과`, `${problem.id}번 답안`, `${problem.id}번 정정 사유`);
  header.push('세션 ID');
  const lines = [row(header)];
  for (const student of students) {
    const cells: (string | number | null)[] = [student.nickname, time(student.submittedAt), student.score, student.maxScore, student.pending ? '예' : '아니요'];
    for (const problem of exam.problems) {
      const item = student.items.find((candidate) => candidate.question_id === problem.id);
      cells.push(item ? STATUS_KO[item.result_status] : '', item?.user_response ?? '', item?.overridden?.reason ?? '');
    }
    cells.push(student.sessionId);
    lines.push(row(cells));
  }
  // Students who never opened the exam: 미응시 where the submission time would be, every other cell blank.
  for (const student of absent) lines.push(row([student.nickname, '미응시', '', '', '', ...exam.problems.flatMap(() => ['', '', '']), student.sessionId]));
  lines.push('', row(['문항', '유형', '질문', '모범 답안', '정답', '부분 정답', '오답', '채점 대기', '흔한 오개념']));
  for (const problem of exam.problems) {
    const summary = items.find((item) => item.question_id === problem.id);
    const counts = summary?.counts ?? { Correct: 0, Partial_Correct: 0, Incorrect: 0, Ungraded: 0 };
    lines.push(
      row([
        problem.id,
        problem.type === 'Descriptive' ? '서술형' : '단답형',
        problem.question_content,
        problem.model_answer,
        counts.Correct,
        counts.Partial_Correct,
        counts.Incorrect,
        counts.Ungraded,
        (summary?.misconceptions ?? []).join(' / '),
      ]),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
