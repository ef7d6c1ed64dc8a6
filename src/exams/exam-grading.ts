import type { Logger } from '../logger.js';
import type { ExamRecord, ExamRepository } from './exam-repository.js';
import type { ChapterRef, EvaluationItem, ExamCallContext, ExamFeedbackAgent, ExamItemGrader, LearnerProfile } from './exam-types.js';

/**
 * The grading pipeline of a live exam (issue 15 §4), per student: every item graded by the ExamItemGrader (which
 * answers `Ungraded` for a model failure, never a default status), the log stored; items left `Ungraded` are graded
 * again in the background (at most `retries` times, the wait doubling from `retryMs`); then, once, the feedback
 * agent writes the report and the updated learner profile.
 *
 * Exactly once across nodes: the grading is claimed with HSETNX (`claimed`) and the feedback step with another
 * (`finalised`). Before grading, the student is put on the retry list a while ahead (`staleMs`): a node that dies
 * mid-grading leaves the entry, and another node's sweep finishes the work.
 */

export interface ExamGradingOptions {
  repository: ExamRepository;
  grader: ExamItemGrader;
  feedback: ExamFeedbackAgent;
  /** The material's chapters, so the report can point at what to review. */
  chapters(materialId: string): Promise<ChapterRef[]>;
  /** The student's profile before this exam: the stored one, or the prior built from what lectern knows. */
  profileBefore(classId: string, sessionId: string, examId: string): Promise<LearnerProfile>;
  /** The material's text (the grader's pasted-passage check); none when absent. */
  source?(materialId: string): Promise<string>;
  now: () => number;
  retries: number;
  retryMs: number;
  /** How long before a grading claimed by a node that died is picked up by another. */
  staleMs?: number;
  /** A student's grading finished (report and profile stored). */
  onGraded?: (exam: ExamRecord, classId: string, sessionId: string) => void;
  logger: Logger;
}

const DEFAULT_STALE_MS = 5 * 60_000;

/** The grading context of one item: the exam's, with the plan's target topic of that item. */
function itemContext(exam: ExamRecord, questionId: number, context: ExamCallContext): ExamCallContext {
  const topic = exam.plan.planned_items.find((item) => item.id === questionId)?.target_topic;
  return topic === undefined ? context : { ...context, topic };
}

export class ExamGrading {
  constructor(private readonly options: ExamGradingOptions) {}

  /** Grades a student's submission, once: the first caller grades, every other returns at once. */
  async gradeStudent(exam: ExamRecord, classId: string, sessionId: string): Promise<void> {
    const { repository, now } = this.options;
    if (!(await repository.claimGrading(exam.examId, sessionId, now()))) return;
    await repository.schedule(exam.examId, sessionId, now() + (this.options.staleMs ?? DEFAULT_STALE_MS));
    await repository.setGradingState(exam.examId, sessionId, 'pending');
    await repository.countAttempt(exam.examId, sessionId);
    await this.gradeMissing(exam, sessionId);
    await this.finishOrRetry(exam, classId, sessionId);
  }

  /** A retry of the background list: grades what is still Ungraded (or was never graded), then finishes or waits again. */
  async retry(exam: ExamRecord, classId: string, sessionId: string): Promise<void> {
    const { repository } = this.options;
    await repository.countAttempt(exam.examId, sessionId);
    await this.gradeMissing(exam, sessionId);
    await this.finishOrRetry(exam, classId, sessionId);
  }

  /** Grades one item again (a student's regrade request); the stored grade changes only when the grader decided. */
  async regradeItem(exam: ExamRecord, sessionId: string, questionId: number): Promise<EvaluationItem | null> {
    const problem = exam.problems.find((candidate) => candidate.id === questionId);
    if (!problem) return null;
    const { items } = await this.options.repository.submissions(exam.examId, sessionId);
    const graded = await this.options.grader.grade(problem, items.get(questionId)?.text ?? '', itemContext(exam, problem.id, await this.context(exam)));
    if (graded.result_status === 'Ungraded') return null;
    await this.options.repository.saveGrade(exam.examId, sessionId, graded);
    return graded;
  }

  private async context(exam: ExamRecord): Promise<ExamCallContext> {
    let source: string | undefined;
    try {
      source = await this.options.source?.(exam.materialId);
    } catch (error) {
      this.options.logger.warn({ err: error, materialId: exam.materialId }, 'exam grading without the material text');
    }
    return { materialId: exam.materialId, accountId: exam.accountId, ...(source ? { source } : {}) };
  }

  private async gradeMissing(exam: ExamRecord, sessionId: string): Promise<void> {
    const { repository, grader, logger } = this.options;
    const [{ items }, grades] = await Promise.all([repository.submissions(exam.examId, sessionId), repository.grades(exam.examId, sessionId)]);
    const open = exam.problems.filter((problem) => (grades.get(problem.id)?.result_status ?? 'Ungraded') === 'Ungraded');
    if (open.length === 0) return;
    const context = await this.context(exam);
    for (const problem of open) {
      let graded: EvaluationItem;
      try {
        graded = await grader.grade(problem, items.get(problem.id)?.text ?? '', itemContext(exam, problem.id, context));
      } catch (error) {
        // The port promises Ungraded rather than a throw; a throw is treated the same way (never credit).
        logger.warn({ err: error, examId: exam.examId, questionId: problem.id }, 'exam grader threw; the item stays Ungraded');
        graded = {
          question_id: problem.id,
          result_status: 'Ungraded',
          question_content: problem.question_content,
          user_response: items.get(problem.id)?.text ?? '',
          related_topic: '',
          feedback_message: '',
          evidence: null,
        };
      }
      await repository.saveGrade(exam.examId, sessionId, graded);
    }
  }

  private async finishOrRetry(exam: ExamRecord, classId: string, sessionId: string): Promise<void> {
    const { repository, now } = this.options;
    const [grades, state] = await Promise.all([repository.grades(exam.examId, sessionId), repository.gradingState(exam.examId, sessionId)]);
    const open = exam.problems.filter((problem) => (grades.get(problem.id)?.result_status ?? 'Ungraded') === 'Ungraded');
    // `attempts` counts the first grading too: retries left while attempts <= retries.
    if (open.length > 0 && state.attempts <= this.options.retries) {
      await repository.schedule(exam.examId, sessionId, now() + this.options.retryMs * 2 ** (state.attempts - 1));
      return;
    }
    await this.finalise(exam, classId, sessionId, grades);
  }

  /** The feedback report and the profile update, once; Ungraded items that outlived their retries stay Ungraded (pending). */
  private async finalise(exam: ExamRecord, classId: string, sessionId: string, grades: Map<number, EvaluationItem>): Promise<void> {
    const { repository, now, logger } = this.options;
    if (!(await repository.claimFinalise(exam.examId, sessionId, now()))) {
      await repository.unschedule(exam.examId, sessionId);
      return;
    }
    try {
      const log = { evaluation_items: exam.problems.flatMap((problem) => grades.get(problem.id) ?? []) };
      const [chapters, profile] = await Promise.all([this.options.chapters(exam.materialId), this.options.profileBefore(classId, sessionId, exam.examId)]);
      const result = await this.options.feedback.feedback({
        log,
        examType: 'short_answer',
        chapters,
        timestamp: now(),
        examId: exam.examId,
        profile,
        context: { materialId: exam.materialId, accountId: exam.accountId },
      });
      await repository.saveReport(exam.examId, sessionId, result.report);
      await repository.saveProfile(classId, sessionId, result.profile);
    } catch (error) {
      // Let the next sweep try the feedback again (the claim is given back; nothing of it was stored).
      logger.warn({ err: error, examId: exam.examId }, 'exam feedback failed; retried by the sweep');
      await repository.releaseFinalise(exam.examId, sessionId);
      await repository.schedule(exam.examId, sessionId, now() + this.options.retryMs);
      return;
    }
    await repository.setGradingState(exam.examId, sessionId, 'graded');
    await repository.unschedule(exam.examId, sessionId);
    this.options.onGraded?.(exam, classId, sessionId);
  }
}
