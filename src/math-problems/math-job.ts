import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import { jobHandler, type RegisteredHandler } from '../jobs/index.js';
import { runBilledTo, type LanguageModel } from '../llm/index.js';
import type { Logger } from '../kernel/index.js';
import type { GuardReport } from '../guard/index.js';
import type { MathItemVerdict, MathJobProgress, MathJobResult } from '../protocol/jobs.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { loadQuizSource, type QuizMaterialSource } from '../quiz/index.js';
import type { MathJudge } from './math-judge.js';
import { StoredMathProblem, type MathSetRepository } from './math-set-repository.js';
import type { MathProblem } from './problem.js';
import { MAX_MATH_ATTEMPTS, MathGenerationError, MathRequest, generateMathProblems, mathPlan } from './problem-generator.js';

/**
 * The `math-problems` background job: seed 002's generation loop for one material (or chapter), with a
 * checkpoint after every attempt — the problems passed so far, the rejected ones, the attempt — so a job resumed on
 * another node (or after a restart) keeps what passed and starts at the next attempt. Each attempt's verdicts go to
 * the job's progress (the instructor's live view). Model calls are billed to the job's account. On success the set is
 * stored and the job's result names it; when attempts run out, what passed is stored as an incomplete set and the
 * job fails with that set as its partial result.
 */

export const MATH_JOB_KIND = 'math-problems';

export const MathJobParams = z.object({
  materialId: z.string(),
  chapter: z.number().int().min(0).optional(),
  request: MathRequest,
});
export type MathJobParams = z.infer<typeof MathJobParams>;

export const MathJobCheckpoint = z.object({
  /** Attempts finished. */
  attempt: z.number().int().min(0).max(MAX_MATH_ATTEMPTS),
  passed: z.array(StoredMathProblem),
  rejected: z.array(StoredMathProblem),
});
export type MathJobCheckpoint = z.infer<typeof MathJobCheckpoint>;

export interface MathJobDeps {
  model: LanguageModel;
  judge: MathJudge;
  materials: QuizMaterialSource;
  retriever: Parameters<typeof loadQuizSource>[1];
  sets: MathSetRepository;
  logger?: Logger | undefined;
  /** Where the item guard's refusals go (logged, counted in the AI 품질 console). */
  guard?: GuardReport | undefined;
}

/** A failure that keeps the set of what passed as the job's result. */
class MathJobFailure extends MathGenerationError {
  constructor(
    cause: MathGenerationError,
    wanted: number,
    readonly partialResult: MathJobResult | null,
  ) {
    super(cause.passed, cause.rejected, wanted);
  }
}

const verdictOf = (problem: MathProblem): MathItemVerdict => ({
  problemId: problem.problemId,
  type: problem.type,
  difficulty: problem.difficulty,
  question: problem.question,
  passed: problem.judgement.passed,
  judged: problem.judgement.judged,
  scores: problem.judgement.scores,
  feedback: problem.judgement.feedback,
  ...(problem.judgement.check === undefined ? {} : { check: problem.judgement.check }),
});

export function mathJobHandler(deps: MathJobDeps): RegisteredHandler {
  return jobHandler({
    kind: MATH_JOB_KIND,
    params: MathJobParams,
    checkpoint: MathJobCheckpoint,
    run: (job, { signal, save }) =>
      runBilledTo(job.accountId, async (): Promise<MathJobResult> => {
        const { params } = job;
        const wanted = mathPlan(params.request).length;
        const state: MathJobCheckpoint = job.checkpoint ?? { attempt: 0, passed: [], rejected: [] };
        const store = async (problems: MathProblem[], rejected: MathProblem[], attempts: number, complete: boolean) => {
          // A material deleted while the job ran keeps no set: its deletion would never find it again.
          if (!(await deps.materials.get(params.materialId))) {
            throw new AppError(ErrorCode.MATERIAL_NOT_FOUND, '강의 자료가 삭제되어 문제 세트를 저장하지 않았습니다.');
          }
          return deps.sets.create({
            materialId: params.materialId,
            accountId: job.accountId,
            ...(params.chapter === undefined ? {} : { chapter: params.chapter }),
            request: params.request,
            problems,
            rejected,
            attempts,
            jobId: job.jobId,
            judgeModel: [...problems, ...rejected].find((problem) => problem.judgement.model !== '')?.judgement.model ?? '',
            complete,
          });
        };
        // A job stopped after its last attempt but before it stored the set resumes with nothing left to write:
        // generateMathProblems then answers at once (every slot filled, or no attempt left) and the set is stored below.
        const source = await loadQuizSource(deps.materials, deps.retriever, params.materialId, {
          ...(params.chapter === undefined ? {} : { chapter: params.chapter }),
          ...(params.request.difficulty === undefined ? {} : { difficulty: params.request.difficulty }),
        }, { signal });
        const rejected = [...state.rejected];
        try {
          const generation = await generateMathProblems({
            model: deps.model,
            judge: deps.judge,
            source,
            request: params.request,
            passed: state.passed,
            firstAttempt: state.attempt + 1,
            context: { materialId: params.materialId, accountId: job.accountId, signal },
            logger: deps.logger,
            guard: deps.guard,
            onProgress: async (progress) => {
              signal.throwIfAborted();
              const passedNow = [...state.passed, ...progress.judged.filter((problem) => problem.judgement.passed)];
              state.passed = dedupe(passedNow);
              rejected.push(...progress.judged.filter((problem) => !problem.judgement.passed));
              state.rejected = rejected;
              state.attempt = progress.attempt;
              const view: MathJobProgress = {
                attempt: progress.attempt,
                maxAttempts: MAX_MATH_ATTEMPTS,
                passed: progress.passed,
                wanted: progress.wanted,
                items: progress.judged.map(verdictOf),
              };
              await save({ checkpoint: { ...state }, progress: view });
            },
          });
          signal.throwIfAborted();
          const set = await store(generation.problems, dedupe([...state.rejected, ...generation.rejected]), generation.attempts, true);
          return { setId: set.setId, passed: set.problems.length };
        } catch (error) {
          if (!(error instanceof MathGenerationError) || signal.aborted) throw error;
          const set = error.passed.length > 0 ? await store(error.passed, dedupe([...state.rejected, ...error.rejected]), MAX_MATH_ATTEMPTS, false) : undefined;
          throw new MathJobFailure(error, wanted, set ? { setId: set.setId, passed: set.problems.length } : null);
        }
      }),
  });
}

function dedupe(problems: MathProblem[]): MathProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => !seen.has(problem.problemId) && seen.add(problem.problemId));
}
