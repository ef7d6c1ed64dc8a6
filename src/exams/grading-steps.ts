import { z } from 'zod';
import type { ExamRecord, ExamRepository } from './exam-repository.js';
import type { GradingStep, GradingStepContext } from './exam-grading.js';
import { LearnerProfile, type ChapterRef, type ExamFeedbackAgent, type SourcePassage, type SourceQuestion } from './exam-types.js';
import { updateProfile } from './feedback-agent.js';

/**
 * The steps after a student's grading (exam-grading.ts runs them in order, each once per revision, resumable):
 * - `report`: the feedback agent's report on the items as they count now (overrides applied), stored; the profile
 *   update it proposes is staged for the next step (one model call per revision);
 * - `profile`: the learner profile stored (the staged one, or recomputed the same way when the staged one is of
 *   another revision);
 * - `notify`: the instructor's monitor (`exam:graded`) and the student's open sheets hear that the result is there.
 * Another step (an LMS grade passback, say) is appended through `ExamServiceOptions.steps`.
 */

export interface PostGradingDeps {
  repository: ExamRepository;
  feedback: ExamFeedbackAgent;
  chapters(materialId: string): Promise<ChapterRef[]>;
  /** The material passages of the given questions (seed 000's `source_material` for the report); none when absent. */
  sources?(materialId: string, questions: readonly SourceQuestion[]): Promise<SourcePassage[]>;
  /** The student's profile before this exam: every other exam's evidence, none of this one's. */
  profileBefore(classId: string, sessionId: string, examId: string): Promise<LearnerProfile>;
  /** The student's result is there (or changed). */
  notify(exam: ExamRecord, classId: string, sessionId: string): void;
}

const STAGED_PROFILE = 'profile';
const StagedProfile = z.object({ revision: z.number().int(), profile: LearnerProfile });

export function postGradingSteps(deps: PostGradingDeps): GradingStep[] {
  const { repository } = deps;
  const report: GradingStep = {
    name: 'report',
    async run({ exam, classId, sessionId, revision, log, now }: GradingStepContext) {
      // The report quotes what to review from the passages of the items the student missed.
      // Each with its model answer: the sentence it was built on is what the report quotes.
      const weak = log.evaluation_items
        .filter((item) => item.result_status === 'Incorrect' || item.result_status === 'Partial_Correct')
        .map((item) => ({ ...item, reference: exam.problems.find((problem) => problem.id === item.question_id)?.model_answer }));
      const [chapters, profile, sources] = await Promise.all([
        deps.chapters(exam.materialId),
        deps.profileBefore(classId, sessionId, exam.examId),
        weak.length === 0 || deps.sources === undefined ? Promise.resolve([]) : deps.sources(exam.materialId, weak),
      ]);
      const result = await deps.feedback.feedback({
        log,
        examType: 'short_answer',
        chapters,
        sources,
        timestamp: now,
        examId: exam.examId,
        profile,
        context: { materialId: exam.materialId, accountId: exam.accountId },
      });
      await repository.saveReport(exam.examId, sessionId, result.report);
      await repository.stage(exam.examId, sessionId, STAGED_PROFILE, JSON.stringify({ revision, profile: result.profile }));
    },
  };
  const profile: GradingStep = {
    name: 'profile',
    async run({ exam, classId, sessionId, revision, log, now }: GradingStepContext) {
      const raw = await repository.staged(exam.examId, sessionId, STAGED_PROFILE);
      const staged = raw === null ? null : StagedProfile.safeParse(safeJson(raw));
      const next =
        staged?.success === true && staged.data.revision === revision
          ? staged.data.profile
          : updateProfile(await deps.profileBefore(classId, sessionId, exam.examId), log, exam.examId, now);
      await repository.saveProfile(classId, sessionId, next);
    },
  };
  const notify: GradingStep = {
    name: 'notify',
    async run({ exam, classId, sessionId }: GradingStepContext) {
      deps.notify(exam, classId, sessionId);
    },
  };
  return [report, profile, notify];
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
