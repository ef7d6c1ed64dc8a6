import { AppError, type Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { ExamAnswerGroupsReply, ExamGroupGradeReply, ExamGroupedAnswer } from '../protocol/wire/exams.js';
import { groupAnswers, type GroupableAnswer } from './answer-groups.js';
import type { ExamOverride, ExamRecord, ExamRepository } from './exam-repository.js';
import type { ResultItem } from './exam-results.js';
import type { ResultStatus } from './exam-types.js';

/**
 * The teacher grades groups of answers: one item's submitted answers grouped by meaning
 * (answer-groups.ts; the model's embeddings when they carry meaning, term vectors otherwise), a status and a reason
 * for a whole group in one action, and an answer moved out of its group (or back in).
 *
 * Every change is audited per answer: a group grade as one override entry per answer, a move as an entry of its
 * own (`move-out` / `move-in`) for the moved answer.
 *
 * A group grade is the single override applied to each answer (`ExamService.applyOverride`): the same audit entry
 * per answer (with the group's id), the same new revision of each student's result and the same live update of
 * their open pages. The group is recomputed on every request; a group id that no longer names a group (an answer
 * moved out or in since the teacher loaded it) is refused with EXAM_GROUP_NOT_FOUND, so a grade never reaches an
 * answer the teacher did not see in it.
 */

export interface AnswerGroupingDeps {
  repository: ExamRepository;
  /** The student's nickname in the class (null when no longer on the roster). */
  nickname(classId: string, sessionId: string): Promise<string | null>;
  /** The model's embeddings, only when they carry meaning (ModelCapabilities.semanticEmbeddings). */
  embed?: ((texts: string[]) => Promise<number[][]>) | undefined;
  /** The shared path of a teacher's decision on one answer. */
  applyOverride(exam: ExamRecord, sessionId: string, questionId: number, decision: { status: ResultStatus; reason: string; by: string; group?: ExamOverride['group'] }): Promise<ResultItem>;
  now(): number;
  logger: Logger;
}

const groupNotFound = () => new AppError(ErrorCode.EXAM_GROUP_NOT_FOUND);

/** The group holding a student's answer, and the answer. */
function groupOf(reply: ExamAnswerGroupsReply, sessionId: string): [ExamAnswerGroupsReply['groups'][number] | undefined, ExamGroupedAnswer | undefined] {
  for (const group of reply.groups) {
    const answer = group.answers.find((candidate) => candidate.sessionId === sessionId);
    if (answer !== undefined) return [group, answer];
  }
  return [undefined, undefined];
}

export class ExamAnswerGroups {
  constructor(private readonly deps: AnswerGroupingDeps) {}

  /** The item's answer groups, those waiting for review first. */
  async list(exam: ExamRecord, questionId: number): Promise<ExamAnswerGroupsReply> {
    const classId = await this.publishedClass(exam, questionId);
    const { repository } = this.deps;
    const students = await repository.students(exam.examId);
    const rows = await Promise.all(
      students.map(async (sessionId): Promise<ExamGroupedAnswer | null> => {
        const submission = await repository.submissions(exam.examId, sessionId);
        const answer = submission.items.get(questionId);
        if (answer === undefined) return null;
        const [grades, overrides, nickname] = await Promise.all([repository.grades(exam.examId, sessionId), repository.overrides(exam.examId, sessionId), this.deps.nickname(classId, sessionId)]);
        const grade = grades.get(questionId);
        const override = overrides.get(questionId);
        const status = override?.status ?? grade?.result_status ?? 'Ungraded';
        return {
          sessionId,
          nickname: nickname ?? '',
          text: answer.text,
          status,
          ...(status === 'Needs_Review' && grade?.evidence?.proposed !== undefined ? { proposed: grade.evidence.proposed } : {}),
          ...(status === 'Needs_Review' && grade?.evidence?.confidence !== undefined ? { confidence: grade.evidence.confidence } : {}),
          ...(override === undefined ? {} : { overridden: { status: override.status, reason: override.reason, ...(override.group === undefined ? {} : { groupId: override.group.id }) } }),
        };
      }),
    );
    const answers = rows.filter((row): row is ExamGroupedAnswer => row !== null);
    const byId = new Map(answers.map((answer) => [answer.sessionId, answer]));
    const embeddings = await this.embeddings(answers);
    const groups = groupAnswers(
      questionId,
      answers.map(({ sessionId, text, status }): GroupableAnswer => ({ sessionId, text, status })),
      { embeddings, detached: await repository.detached(exam.examId, questionId) },
    );
    return {
      examId: exam.examId,
      questionId,
      method: embeddings === undefined ? 'terms' : 'embeddings',
      groups: groups.map((group) => ({
        groupId: group.groupId,
        size: group.answers.length,
        needsReview: group.needsReview,
        detached: group.detached,
        answers: group.answers.map((member) => byId.get(member.sessionId) as ExamGroupedAnswer),
      })),
    };
  }

  /** One status and one reason for every answer of the group, each through the single override's path. */
  async grade(exam: ExamRecord, questionId: number, groupId: string, decision: { status: ResultStatus; reason: string; by: string }): Promise<ExamGroupGradeReply> {
    const { groups } = await this.list(exam, questionId);
    const group = groups.find((candidate) => candidate.groupId === groupId);
    if (group === undefined) throw groupNotFound();
    const graded: ExamGroupGradeReply['graded'] = [];
    for (const answer of group.answers) {
      const item = await this.deps.applyOverride(exam, answer.sessionId, questionId, { ...decision, group: { id: group.groupId, size: group.size } });
      graded.push({ sessionId: answer.sessionId, item });
    }
    return { groupId: group.groupId, status: decision.status, graded };
  }

  /**
   * Moves a student's answer out of its group (it then stands alone) or back in; the item's groups as they are now.
   * A move that changes something is audited for that answer like an override: who, when, the answer's status (a
   * move changes none) and the group it left (as the teacher saw it before the move) or joined (as it is after).
   */
  async setDetached(exam: ExamRecord, questionId: number, sessionId: string, detached: boolean, by: string): Promise<ExamAnswerGroupsReply> {
    await this.publishedClass(exam, questionId);
    const { repository } = this.deps;
    const { items } = await repository.submissions(exam.examId, sessionId);
    if (!items.has(questionId)) throw new AppError(ErrorCode.EXAM_STUDENT_NOT_FOUND, '이 문항에 답한 학생을 찾을 수 없습니다.');
    const before = detached ? await this.list(exam, questionId) : undefined;
    const at = this.deps.now();
    if (!(await repository.setDetached(exam.examId, questionId, sessionId, detached, at))) return before ?? this.list(exam, questionId);
    const after = await this.list(exam, questionId);
    const [group, answer] = groupOf(detached ? (before as ExamAnswerGroupsReply) : after, sessionId);
    if (group !== undefined && answer !== undefined) {
      await repository.auditMove(exam.examId, questionId, sessionId, detached ? 'move-out' : 'move-in', { by, at, status: answer.status, groupId: group.groupId });
    }
    return after;
  }

  private async publishedClass(exam: ExamRecord, questionId: number): Promise<string> {
    if (!exam.problems.some((problem) => problem.id === questionId)) throw new AppError(ErrorCode.EXAM_QUESTION_NOT_FOUND, `${questionId}번 문항은 이 시험에 없습니다.`);
    const publication = await this.deps.repository.publication(exam.examId);
    if (!publication) throw new AppError(ErrorCode.EXAM_NOT_PUBLISHED);
    return publication.classId;
  }

  /** The model's embeddings of the answers, or undefined (offline, or the call failed: term vectors then). */
  private async embeddings(answers: readonly ExamGroupedAnswer[]): Promise<number[][] | undefined> {
    const { embed } = this.deps;
    if (embed === undefined || answers.length < 2) return undefined;
    try {
      // A blank answer is embedded as a mark: some providers refuse empty texts (equal texts group anyway).
      const vectors = await embed(answers.map((answer) => (answer.text.trim() === '' ? '-' : answer.text)));
      return vectors.length === answers.length ? vectors : undefined;
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'answer embeddings failed; grouping by term vectors');
      return undefined;
    }
  }
}
