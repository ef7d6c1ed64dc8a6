import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import { jobHandler, type RegisteredHandler } from '../jobs/index.js';
import { runBilledTo, type LanguageModel } from '../llm/index.js';
import type { Logger } from '../kernel/index.js';
import type { GuardReport } from '../guard/index.js';
import type { ExamItemVerdict, ExamJobProgress, ExamJobResult } from '../protocol/jobs.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { QuizMaterialSource } from '../quiz/index.js';
import { ExamGenerationState, generateExam } from './exam-generator.js';
import { loadExamSource } from './exam-source.js';
import { ExamRequest, LearnerProfile, MAX_EXAM_ROUNDS, type ExamProblem, type GeneratedExam, type ValidatorComplaint } from './exam-types.js';

/**
 * The `exam-generation` background job: seed 000's Planner → Writer → Validator for one material
 * (or some of its chapters), with a checkpoint after the plan and after every round — the plan, the rounds done, the
 * last set and its open complaints — so a job resumed on another node (or after a restart) keeps its plan and
 * continues at the next round. The plan and each round's verdict per item go to the job's progress (the instructor's
 * live view on `/jobs`). Model calls are billed to the job's account. The finished set (valid, or the fallback with
 * its open complaints) is handed to `saveExam` — the exam repository of whoever wires the job — and the job's result
 * names the stored exam. The exam's id is checkpointed too, so a job stopped after saving never saves twice.
 */

export const EXAM_JOB_KIND = 'exam-generation';

export const ExamJobParams = z.object({
  materialId: z.string(),
  request: ExamRequest,
  profile: LearnerProfile.nullable().optional(),
  /** The balance's reason when the planner chose it (not in the request): the plan's strategy opens with it. */
  mixReason: z.string().max(500).optional(),
  /** A student's self-study exam: whose it is (published to them alone once stored; src/exams/self-study-exam.ts). */
  selfStudy: z.object({ classId: z.string(), sessionId: z.string() }).optional(),
});
export type ExamJobParams = z.infer<typeof ExamJobParams>;

export const ExamJobCheckpoint = z.object({
  /** Null until the plan is made. */
  state: ExamGenerationState.nullable(),
  /** Set once the exam is stored. */
  examId: z.string().optional(),
});
export type ExamJobCheckpoint = z.infer<typeof ExamJobCheckpoint>;

export interface SaveExamInput extends GeneratedExam {
  materialId: string;
  request: ExamRequest;
  accountId: string;
  jobId: string;
  selfStudy?: ExamJobParams['selfStudy'];
}

export interface ExamJobDeps {
  model: LanguageModel;
  materials: QuizMaterialSource;
  retriever: Parameters<typeof loadExamSource>[1];
  /** Stores the generated exam (a draft the instructor can edit and publish); supplied by whoever wires the job. */
  saveExam(input: SaveExamInput): Promise<{ examId: string }>;
  logger?: Logger | undefined;
  /** Where the item guard's refusals go (logged, counted in the AI 품질 console). */
  guard?: GuardReport | undefined;
}

/** Each item's verdict: ok, or its complaints (also complaints about items the set is missing). */
export function itemVerdicts(problems: readonly ExamProblem[] | null, complaints: readonly ValidatorComplaint[]): ExamItemVerdict[] {
  const ids = [...new Set([...(problems ?? []).map((problem) => problem.id), ...complaints.map((complaint) => complaint.id)])].sort((left, right) => left - right);
  return ids.map((id) => {
    const messages = complaints.filter((complaint) => complaint.id === id).map((complaint) => complaint.message);
    return messages.length === 0 ? { id, ok: true } : { id, ok: false, message: messages.join('\n') };
  });
}

export function examJobHandler(deps: ExamJobDeps): RegisteredHandler {
  return jobHandler({
    kind: EXAM_JOB_KIND,
    params: ExamJobParams,
    checkpoint: ExamJobCheckpoint,
    run: (job, { signal, save }) =>
      runBilledTo(job.accountId, async (): Promise<ExamJobResult> => {
        const { params } = job;
        const checkpoint: ExamJobCheckpoint = job.checkpoint ?? { state: null };
        const progressOf = (state: ExamGenerationState, stage: ExamJobProgress['stage'], validated?: boolean): ExamJobProgress => ({
          stage,
          round: state.round,
          maxRounds: MAX_EXAM_ROUNDS,
          planned: state.plan.planned_items.length,
          items: stage === 'plan' ? [] : itemVerdicts(state.problems, state.valid ? [] : state.complaints),
          ...(validated === undefined ? {} : { validated }),
        });
        if (checkpoint.examId !== undefined && checkpoint.state !== null) {
          return { examId: checkpoint.examId, valid: checkpoint.state.valid, rounds: checkpoint.state.round };
        }
        const source = await loadExamSource(deps.materials, deps.retriever, params.materialId, params.request, signal);
        let state = checkpoint.state;
        const generated = await generateExam({
          model: deps.model,
          source,
          request: params.request,
          profile: params.profile ?? null,
          mixReason: params.mixReason,
          // Each job is its own exam: the job id (random, never shown to a student of another's exam) seeds it.
          seed: job.jobId,
          context: { materialId: params.materialId, accountId: job.accountId, signal },
          resume: state,
          logger: deps.logger,
          guard: deps.guard,
          onPlan: async (plan) => {
            signal.throwIfAborted();
            state = { plan, round: 0, problems: null, complaints: [], valid: false };
            await save({ checkpoint: { state }, progress: progressOf(state, 'plan') });
          },
          onRound: async (report) => {
            signal.throwIfAborted();
            state = report.state;
            await save({ checkpoint: { state }, progress: progressOf(state, 'round', report.validated) });
          },
        });
        signal.throwIfAborted();
        // A material deleted while the job ran keeps no exam: its deletion would never find it again.
        if (!(await deps.materials.get(params.materialId))) {
          throw new AppError(ErrorCode.MATERIAL_NOT_FOUND, '강의 자료가 삭제되어 시험 문제를 저장하지 않았습니다.');
        }
        const { examId } = await deps.saveExam({
          ...generated,
          materialId: params.materialId,
          request: params.request,
          accountId: job.accountId,
          jobId: job.jobId,
          ...(params.selfStudy ? { selfStudy: params.selfStudy } : {}),
        });
        const final: ExamGenerationState = state ?? { plan: generated.plan, round: generated.rounds, problems: generated.problems, complaints: generated.complaints, valid: generated.valid };
        await save({ checkpoint: { state: final, examId }, progress: progressOf(final, 'done') });
        return { examId, valid: generated.valid, rounds: generated.rounds, ...(generated.shortfall ? { shortfall: generated.shortfall } : {}) };
      }),
  });
}
