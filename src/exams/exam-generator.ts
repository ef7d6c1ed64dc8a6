import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ModelError, type LanguageModel } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { referencePassages } from '../quiz/index.js';
import { planExam, validateExam, writeExam, type ExamPassage } from './exam-agents.js';
import { GUARD_MARK, checkProblemSet, guardRefusals } from './exam-checks.js';
import { refusalsOf, type GuardReport } from '../guard/index.js';
import { shortfallMessage, type GenerationShortfall } from '../protocol/wire/shortfall.js';
import type { ExamSource } from './exam-source.js';
import {
  ExamPlan,
  ExamProblem,
  MAX_EXAM_ROUNDS,
  type ExamCallContext,
  type ExamRequest,
  type GeneratedExam,
  type LearnerProfile,
  type ValidatorComplaint,
} from './exam-types.js';

/**
 * Seed 000's `Generate_ShortAnswer`: the planner once, then at most {@link MAX_EXAM_ROUNDS} rounds of writer →
 * checks → validator. Round 1 writes from the plan; every later round gives the writer the open complaints and its
 * own previous set (seed 000's `feedback` and `prior_content`).
 *
 * In each round the server's deterministic checks (exam-checks.ts) run first. When they fail, their complaints are
 * that round's verdict and **the validator is not called in that round**: a set with a missing item, a wrong type or
 * a duplicate question is refused without trusting (or paying) the model, and the writer fixes it next round; the
 * validator then judges the repaired set. When the checks pass, the validator's verdict decides.
 *
 * After the last round without a pass, the seed's fallback: the last set is returned with `valid: false` and its
 * open complaints (shown to the instructor beside each item) — but an item the item guard (src/guard) still refuses
 * is dropped, never shipped, and the exam says how many it could make (`shortfall`); so does a deterministic model's
 * plan that the material could not fill. A writer reply that is not the schema's JSON counts as a round with a format
 * complaint; a generation that never got one set is an error (MODEL_OUTPUT_INVALID, retryable; 422
 * TOO_LITTLE_MATERIAL when a deterministic model has no sound item).
 */

/** Where a generation stands after a round: what a job checkpoints, and what a resumed generation continues from. */
export const ExamGenerationState = z.object({
  plan: ExamPlan,
  /** Rounds finished (0: only planned). */
  round: z.number().int().min(0).max(MAX_EXAM_ROUNDS),
  /** The last set written, or null before any. */
  problems: z.array(ExamProblem).nullable(),
  /** Complaints open on it (checks or validator). */
  complaints: z.array(z.object({ id: z.number().int(), message: z.string() })),
  valid: z.boolean(),
});
export type ExamGenerationState = z.infer<typeof ExamGenerationState>;

export interface ExamRoundReport {
  state: ExamGenerationState;
  /** Whether the validator was asked in this round (false: the deterministic checks refused the set first). */
  validated: boolean;
}

export interface GenerateExamOptions {
  model: LanguageModel;
  source: ExamSource;
  request: ExamRequest;
  profile: LearnerProfile | null;
  /** Why the balance is what it is, when the planner chose it from the profile (exam-mix.ts): the plan says so first. */
  mixReason?: string | undefined;
  context: ExamCallContext;
  /** The exam's seed (ExamPlannerInput.seed): another seed, another exam on the same material and request. */
  seed?: string | undefined;
  /** A saved state (a resumed job): the plan is kept and the next round follows. */
  resume?: ExamGenerationState | null | undefined;
  onPlan?: ((plan: ExamPlan) => void | Promise<void>) | undefined;
  onRound?: ((report: ExamRoundReport) => void | Promise<void>) | undefined;
  logger?: Logger | undefined;
  /** Where the item guard's refusals go (logged, counted in the AI 품질 console). */
  guard?: GuardReport | undefined;
}

const FORMAT_COMPLAINT = '직전 답변이 요청한 JSON 형식({"short_answer_problems": [...]})이 아니었습니다. 계획의 모든 문항을 형식에 맞게 다시 쓰세요.';
const UNREAD_VERDICT = '검증기의 답변을 읽을 수 없어 이 세트는 검증되지 않았습니다. 자료와 다시 대조해 정확성을 확인하세요.';

const isMalformed = (error: unknown) => error instanceof ModelError && error.code === ErrorCode.MODEL_OUTPUT_INVALID;

/** The plan's strategy opened by the balance's reason, within the plan's 2,000 characters. */
function withMixReason(reason: string, strategy: string): string {
  const joined = `문항 구성: ${reason}\n${strategy}`;
  return joined.length > 2_000 ? `${joined.slice(0, 1_999)}…` : joined;
}

export function examPassages(source: ExamSource): ExamPassage[] {
  return referencePassages(source.passages);
}

export async function generateExam(options: GenerateExamOptions): Promise<GeneratedExam> {
  const { model, source, request, profile, context, logger } = options;
  const passages = examPassages(source);
  if (passages.length === 0) throw new AppError(ErrorCode.INVALID_PAYLOAD, '이 자료(또는 챕터)에는 시험 문제를 만들 본문이 없습니다.');
  let state: ExamGenerationState;
  if (options.resume) state = options.resume;
  else {
    const planned = await planExam(
      model,
      {
        scope: source.scope,
        passages,
        request: { count: request.count, descriptive: request.descriptive, difficulty: request.difficulty },
        profile,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
      },
      context,
      { allowShort: model.capabilities.deterministic },
    );
    if (planned.adjusted) logger?.info({ materialId: source.materialId }, 'exam plan held to the request (count, mix or difficulty)');
    const plan = options.mixReason === undefined ? planned.plan : { ...planned.plan, planning_strategy: withMixReason(options.mixReason, planned.plan.planning_strategy) };
    state = { plan, round: 0, problems: null, complaints: [], valid: false };
    await options.onPlan?.(state.plan);
  }
  const { plan } = state;

  while (!state.valid && state.round < MAX_EXAM_ROUNDS) {
    context.signal?.throwIfAborted();
    const round = state.round + 1;
    let written: ExamProblem[];
    try {
      written = await writeExam(model, { scope: source.scope, passages, plan, profile, feedback: state.complaints, prior: state.problems }, context);
    } catch (error) {
      if (!isMalformed(error) || context.signal?.aborted === true) throw error;
      state = { ...state, round, complaints: plan.planned_items.map((item) => ({ id: item.id, message: FORMAT_COMPLAINT })), valid: false };
      await options.onRound?.({ state, validated: false });
      continue;
    }
    const texts = passages.map((passage) => passage.text);
    const checks = checkProblemSet(written, plan, texts);
    for (const [id, refusals] of guardRefusals(written, texts)) {
      const problem = written.find((entry) => entry.id === id);
      options.guard?.refused(refusalsOf('exam.write', problem?.question_content ?? '', refusals, { materialId: source.materialId, accountId: context.accountId }));
    }
    let complaints: ValidatorComplaint[] = checks;
    let valid = false;
    let validated = false;
    let problems = written;
    if (checks.length === 0) {
      problems = [...written].sort((left, right) => left.id - right.id);
      validated = true;
      try {
        ({ valid, complaints } = await validateExam(model, { passages, problems, profile, count: plan.planned_items.length }, context));
      } catch (error) {
        if (!isMalformed(error) || context.signal?.aborted === true) throw error;
        complaints = [{ id: problems[0]?.id ?? 1, message: UNREAD_VERDICT }];
      }
    }
    state = { plan, round, problems, complaints, valid };
    logger?.info({ materialId: source.materialId, round, valid, complaints: complaints.length, validated }, 'exam generation round');
    await options.onRound?.({ state, validated });
  }

  if (state.problems === null) {
    throw new AppError(ErrorCode.MODEL_OUTPUT_INVALID, `시험 문제를 ${MAX_EXAM_ROUNDS}번 시도했지만 형식에 맞는 문제 세트를 받지 못했습니다. 잠시 후 다시 시도해 주세요.`, { retryable: true });
  }
  // Never shipped: an item the guard still refuses after the last round.
  const refused = new Set(state.complaints.filter((complaint) => complaint.message.startsWith(GUARD_MARK)).map((complaint) => complaint.id));
  const problems = state.problems.filter((problem) => !refused.has(problem.id));
  const complaints = state.valid ? [] : state.complaints.filter((complaint) => !refused.has(complaint.id));
  if (problems.length === 0) {
    throw model.capabilities.deterministic
      ? new AppError(ErrorCode.TOO_LITTLE_MATERIAL, '이 자료(또는 장)에서는 검사를 통과하는 시험 문항을 만들 수 없습니다. 다른 장을 고르거나 내용이 더 많은 자료를 올려 주세요.')
      : new AppError(ErrorCode.MODEL_OUTPUT_INVALID, `시험 문제를 ${MAX_EXAM_ROUNDS}번 시도했지만 검사를 통과한 문항이 없습니다. 잠시 후 다시 시도해 주세요.`, { retryable: true });
  }
  const scope = request.chapters?.length === 1 ? '이 장' : '이 자료';
  const shortfall: GenerationShortfall | undefined =
    problems.length < request.count
      ? { requested: request.count, made: problems.length, reason: refused.size > 0 ? 'items-refused' : 'too-little-material', message: shortfallMessage(scope, problems.length, request.count) }
      : undefined;
  if (shortfall) logger?.info({ materialId: source.materialId, shortfall }, 'exam generation made fewer items than asked');
  return { plan, problems, valid: state.valid || (complaints.length === 0 && refused.size > 0), complaints, rounds: state.round, ...(shortfall ? { shortfall } : {}) };
}
