import { randomUUID } from 'node:crypto';
import type { Logger } from '../kernel/index.js';
import type { ExamRecord, ExamRepository, GradingState } from './exam-repository.js';
import { resultItems } from './exam-results.js';
import type { EvaluationItem, ExamCallContext, ExamItemGrader, ExamLog, ExamProblem } from './exam-types.js';
import { GradingLease, GradingLeaseLost } from './grading-lease.js';

/**
 * The grading pipeline of a live exam, per student (seed 000's grading, made to survive a node dying at any point):
 *
 * 1. Every item is graded by the ExamItemGrader (`Ungraded` for a model failure, never a default status); items left
 *    `Ungraded` are graded again later, at most `retries` times, the wait doubling from `retryMs`.
 * 2. Then the post-grading steps run in order (the report, the learner profile, the events; see grading-steps.ts, and
 *    `ExamServiceOptions.steps` to add one). Each is idempotent and records the revision it finished for, so a run
 *    that died half way is resumed at the first unfinished step, and an instructor's override or a regrade (a new
 *    revision) runs them all again on the changed statuses.
 *
 * Who works: a run holds the student's grading lease (renewed while it works); a node that dies lets it lapse after
 * `leaseMs`, and the next sweep on any node takes over. Nothing is started before the student is on the pending list
 * (`exams:pending`), and the entry leaves it only once every step finished for the current revision, so the sweep
 * finds every half-finished student.
 */

/** What a post-grading step works from. */
export interface GradingStepContext {
  exam: ExamRecord;
  classId: string;
  sessionId: string;
  /** The revision the step runs for (1 for the first grading, one more per override or regrade). */
  revision: number;
  /** The student's items as they count now: the grader's status, or the instructor's override. */
  log: ExamLog;
  now: number;
}

/**
 * One step after grading. It must be idempotent (it may run again after a node died in it, and once per revision)
 * and keep its name: the store records the revision it last finished for under that name.
 */
export interface GradingStep {
  readonly name: string;
  run(context: GradingStepContext): Promise<void>;
}

export interface ExamGradingOptions {
  repository: ExamRepository;
  grader: ExamItemGrader;
  /** The steps after grading, in order. */
  steps: readonly GradingStep[];
  /** The material's text (the grader's pasted-passage check); none when absent. */
  source?(materialId: string): Promise<string>;
  nodeId: string;
  /** How long a run's lease lasts without renewal: how soon another node takes over from one that died. */
  leaseMs: number;
  now: () => number;
  retries: number;
  retryMs: number;
  logger: Logger;
}

/** The grading context of one item: the exam's, with the plan's target topic of that item. */
function itemContext(exam: ExamRecord, questionId: number, context: ExamCallContext): ExamCallContext {
  const topic = exam.plan.planned_items.find((item) => item.id === questionId)?.target_topic;
  return topic === undefined ? context : { ...context, topic };
}

export class ExamGrading {
  constructor(private readonly options: ExamGradingOptions) {}

  /**
   * Moves the student's grading as far as it goes now, when no other run holds it: grades what is not graded (or
   * waits for the next retry), then runs the post-grading steps not finished for the current revision. Returns at
   * once when another run holds the lease. The caller put the student on the pending list first.
   */
  async run(exam: ExamRecord, classId: string, sessionId: string): Promise<void> {
    const { repository, leaseMs, logger, now } = this.options;
    const owner = `${this.options.nodeId}:${randomUUID()}`;
    if (!(await repository.acquireGrading(exam.examId, sessionId, owner, leaseMs))) return;
    const lease = new GradingLease(() => repository.renewGrading(exam.examId, sessionId, owner, leaseMs), leaseMs);
    try {
      await this.advance(exam, classId, sessionId, lease);
    } catch (error) {
      if (error instanceof GradingLeaseLost) {
        logger.warn({ examId: exam.examId, sessionId }, 'exam grading lease lost; another node takes over');
        return;
      }
      logger.warn({ err: error, examId: exam.examId, sessionId }, 'exam grading step failed; the sweep retries it');
      await repository.schedule(exam.examId, sessionId, now() + this.options.retryMs).catch(() => {});
    } finally {
      lease.stop();
      await repository.releaseGrading(exam.examId, sessionId, owner).catch(() => {});
    }
  }

  /**
   * Whether nothing is left to do: graded, and every step finished for the current revision (a record an older
   * version finished has no step marks: graded is enough there).
   */
  finished(state: GradingState): boolean {
    if (state.state !== 'graded') return false;
    if (Object.keys(state.done).length === 0) return state.revision === 1;
    return this.options.steps.every((step) => (state.done[step.name] ?? 0) >= state.revision);
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

  private async advance(exam: ExamRecord, classId: string, sessionId: string, lease: GradingLease): Promise<void> {
    const { repository, now } = this.options;
    const { examId } = exam;
    if ((await repository.submissions(examId, sessionId)).all === null) {
      // Not submitted as a whole (yet): nothing to grade. The whole submission or the close schedules it again.
      await repository.unschedule(examId, sessionId);
      return;
    }
    let state = await repository.gradingState(examId, sessionId);
    if (!state.claimed) await repository.noteGrading(examId, sessionId, 'claimed', now());
    if (state.state === 'none') await repository.setGradingState(examId, sessionId, 'pending');

    // 1. Grading: a pass over the items still open while passes are left (`attempts` counts the first one too).
    if (state.attempts <= this.options.retries && (await this.openProblems(exam, sessionId)).length > 0) {
      const attempts = await repository.countAttempt(examId, sessionId);
      await this.gradeMissing(exam, sessionId, lease);
      if (attempts <= this.options.retries && (await this.openProblems(exam, sessionId)).length > 0) {
        await repository.schedule(examId, sessionId, now() + this.options.retryMs * 2 ** (attempts - 1));
        return;
      }
    }

    // 2. The post-grading steps, for the current revision and again for any change that came in meanwhile.
    for (;;) {
      const revision = state.revision;
      const log = await this.effectiveLog(exam, sessionId);
      for (const step of this.options.steps) {
        if ((state.done[step.name] ?? 0) >= revision) continue;
        lease.check();
        await step.run({ exam, classId, sessionId, revision, log, now: now() });
        lease.check();
        await repository.markStep(examId, sessionId, step.name, revision);
      }
      await repository.noteGrading(examId, sessionId, 'finalised', now());
      await repository.setGradingState(examId, sessionId, 'graded');
      // Off the list before the revision is read again: a change made after this read schedules the student itself.
      await repository.unschedule(examId, sessionId);
      state = await repository.gradingState(examId, sessionId);
      if (state.revision === revision) return;
      await repository.schedule(examId, sessionId, now());
    }
  }

  /** The items whose grade is still open: Ungraded (or never graded) and not decided by the instructor. */
  private async openProblems(exam: ExamRecord, sessionId: string): Promise<ExamProblem[]> {
    const [grades, overrides] = await Promise.all([this.options.repository.grades(exam.examId, sessionId), this.options.repository.overrides(exam.examId, sessionId)]);
    return exam.problems.filter((problem) => !overrides.has(problem.id) && (grades.get(problem.id)?.result_status ?? 'Ungraded') === 'Ungraded');
  }

  private async effectiveLog(exam: ExamRecord, sessionId: string): Promise<ExamLog> {
    const { repository } = this.options;
    const [{ items }, grades, overrides] = await Promise.all([repository.submissions(exam.examId, sessionId), repository.grades(exam.examId, sessionId), repository.overrides(exam.examId, sessionId)]);
    return { evaluation_items: resultItems(exam, { submitted: items, grades, overrides }).map(({ overridden: _overridden, ...item }) => item) };
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

  private async gradeMissing(exam: ExamRecord, sessionId: string, lease: GradingLease): Promise<void> {
    const { repository, grader, logger } = this.options;
    const open = await this.openProblems(exam, sessionId);
    if (open.length === 0) return;
    const { items } = await repository.submissions(exam.examId, sessionId);
    const context = await this.context(exam);
    for (const problem of open) {
      lease.check();
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
      // A run that lost its lease while the model answered writes nothing: the run that took over grades it.
      lease.check();
      await repository.saveGrade(exam.examId, sessionId, graded);
    }
  }
}
