import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import { loadPrompt, type LanguageModel } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { referenceData } from '../quiz/index.js';
import { fence } from '../text/index.js';
import {
  ExamPlan,
  ExamProblem,
  ExamProblemSet,
  ComplexityLevel,
  ExamValidation,
  LearnerProfile,
  type ExamCallContext,
  type ValidatorComplaint,
} from './exam-types.js';

/**
 * Seed 000's three generation agents (Agent_ShortAnswerPlanner, Agent_ShortAnswerWriter, Agent_ShortAnswerValidator),
 * each one function, one schema of exam-types.ts and one prompt file (prompts/exam-*.md, the seed's role, goal and
 * few-shot text; Korean output). Passages, the scope, the learner profile (the instructor's words are in it), the
 * plan, the earlier set and the feedback are fenced: all of it is PDF text, a person's text or model output.
 *
 * The model proposes, the server decides: the planner's reply is held to the request (its count and its
 * Short_Keyword/Descriptive mix, ids 1..n, the requested difficulty) by {@link enforcePlan}; a plan with too few
 * items is asked for once more, then refused.
 */

export const EXAM_TASKS = { plan: 'exam.plan', write: 'exam.write', validate: 'exam.validate' } as const;
export const EXAM_PLAN_TEMPERATURE = 0.4;
export const EXAM_WRITE_TEMPERATURE = 0.7;
/** The validator judges, like seed 002's judge: near-deterministic. */
export const EXAM_VALIDATE_TEMPERATURE = 0.1;

/** A passage as the agents see it: its number in the reference data, its text, its metadata line. */
export const ExamPassage = z.object({ number: z.number().int().min(1), text: z.string(), meta: z.string() });
export type ExamPassage = z.infer<typeof ExamPassage>;

/** The structured input of 'exam.plan' (the offline planner works from it; the prompt is rendered from it). */
export const ExamPlannerInput = z.object({
  scope: z.string(),
  passages: z.array(ExamPassage).min(1),
  request: z.object({ count: z.number().int(), descriptive: z.number().int(), difficulty: ComplexityLevel.optional() }),
  profile: LearnerProfile.nullable(),
  /** Set on the second ask, when the first plan had too few items. */
  retryNote: z.string().optional(),
  /**
   * The exam's own seed: what generation leaves to chance (which topics the offline planner picks) follows it, so
   * the same material and request give another exam each time (never in the prompt: a model has its temperature).
   */
  seed: z.string().optional(),
});
export type ExamPlannerInput = z.infer<typeof ExamPlannerInput>;

/** The structured input of 'exam.write'. */
export const ExamWriterInput = z.object({
  scope: z.string(),
  passages: z.array(ExamPassage).min(1),
  plan: ExamPlan,
  profile: LearnerProfile.nullable(),
  /** The validator's (and the deterministic checks') complaints on `prior`; empty in round 1. */
  feedback: z.array(z.object({ id: z.number().int(), message: z.string() })),
  /** The writer's own previous set (seed 000's `prior_content`); null in round 1. */
  prior: z.array(ExamProblem).nullable(),
});
export type ExamWriterInput = z.infer<typeof ExamWriterInput>;

/** The structured input of 'exam.validate'. */
export const ExamValidatorInput = z.object({
  passages: z.array(ExamPassage).min(1),
  problems: z.array(ExamProblem),
  profile: LearnerProfile.nullable(),
  count: z.number().int(),
});
export type ExamValidatorInput = z.infer<typeof ExamValidatorInput>;

const profileText = (profile: LearnerProfile | null) => (profile === null ? '(없음)' : JSON.stringify(profile, null, 2));

/** The mix line of the planner's prompt: `총 5문항: Short_Keyword 3문항, Descriptive 2문항 (난이도 Basic)`. */
export function mixInstruction(request: ExamPlannerInput['request'], retryNote?: string): string {
  const parts = [`총 ${request.count}문항: Short_Keyword ${request.count - request.descriptive}문항, Descriptive ${request.descriptive}문항`];
  parts.push(request.difficulty === undefined ? '난이도는 프로필에 맞게 정하세요.' : `모든 문항의 complexity_level은 ${request.difficulty}입니다.`);
  if (retryNote !== undefined) parts.push(retryNote);
  return parts.join(' ');
}

export function renderPlannerPrompt(input: ExamPlannerInput): string {
  return loadPrompt('exam-planner').render({
    mix: mixInstruction(input.request, input.retryNote),
    scope: fence('출처', input.scope),
    profile: fence('학습자_프로필', profileText(input.profile)),
    reference: fence('참고_자료', referenceData(input.passages)),
  });
}

export function renderWriterPrompt(input: ExamWriterInput): string {
  const feedback = input.feedback.map((entry) => `- ${entry.id}번: ${entry.message.replace(/\s+/gu, ' ').trim()}`).join('\n');
  return loadPrompt('exam-writer').render({
    count: String(input.plan.planned_items.length),
    scope: fence('출처', input.scope),
    concept_plan: fence('출제_계획', JSON.stringify(input.plan, null, 2)),
    profile: fence('학습자_프로필', profileText(input.profile)),
    feedback: fence('검증_피드백', feedback === '' ? '(없음)' : feedback),
    prior_content: fence('이전_문제', input.prior === null ? '(없음)' : JSON.stringify({ short_answer_problems: input.prior }, null, 2)),
    reference: fence('참고_자료', referenceData(input.passages)),
  });
}

export function renderValidatorPrompt(input: ExamValidatorInput): string {
  return loadPrompt('exam-validator').render({
    count: String(input.count),
    target_content: fence('검증_대상', JSON.stringify({ short_answer_problems: input.problems }, null, 2)),
    reference: fence('참고_자료', referenceData(input.passages)),
    profile: fence('학습자_프로필', profileText(input.profile)),
  });
}

const SHORT_INTENTS = new Set(['Recall', 'Definition']);

/**
 * The plan held to the request: its first `count` items, ids 1..n, exactly `descriptive` Descriptive items (the last
 * extra items of the other type are turned, their intent made one the type allows), and the requested difficulty on
 * every item. Null when the plan has fewer items than asked.
 */
export function enforcePlan(plan: ExamPlan, request: ExamPlannerInput['request'], options: { allowShort?: boolean } = {}): { plan: ExamPlan; adjusted: boolean } | null {
  // A deterministic planner that planned fewer gave all the material holds: asking again gives the same plan.
  if (plan.planned_items.length < request.count && options.allowShort !== true) return null;
  let adjusted = plan.planned_items.length !== request.count;
  const items = plan.planned_items.slice(0, request.count).map((item, index) => {
    if (item.id !== index + 1) adjusted = true;
    return { ...item, id: index + 1 };
  });
  const turn = (from: 'Short_Keyword' | 'Descriptive', extra: number) => {
    for (let index = items.length - 1; index >= 0 && extra > 0; index -= 1) {
      const item = items[index];
      if (item?.question_type !== from) continue;
      items[index] =
        from === 'Descriptive'
          ? { ...item, question_type: 'Short_Keyword', intent_type: SHORT_INTENTS.has(item.intent_type) ? item.intent_type : 'Recall' }
          : { ...item, question_type: 'Descriptive', intent_type: item.intent_type === 'Recall' ? 'Definition' : item.intent_type };
      extra -= 1;
      adjusted = true;
    }
  };
  const descriptive = items.filter((item) => item.question_type === 'Descriptive').length;
  // A short plan keeps its own mix: it planned what the material holds of each type.
  const short = items.length < request.count;
  if (descriptive > request.descriptive) turn('Descriptive', descriptive - request.descriptive);
  if (descriptive < request.descriptive && !short) turn('Short_Keyword', request.descriptive - descriptive);
  const levelled = items.map((item) => {
    if (request.difficulty === undefined || item.complexity_level === request.difficulty) return item;
    adjusted = true;
    return { ...item, complexity_level: request.difficulty };
  });
  return { plan: { planning_strategy: plan.planning_strategy, planned_items: levelled }, adjusted };
}

const attribution = (context: ExamCallContext) => ({
  attribution: { materialId: context.materialId, ...(context.accountId === undefined ? {} : { accountId: context.accountId }) },
  ...(context.signal ? { signal: context.signal } : {}),
});

/** Agent_ShortAnswerPlanner: a plan held to the request (asked twice at most when the first has too few items). */
export async function planExam(model: LanguageModel, input: ExamPlannerInput, context: ExamCallContext, options: { allowShort?: boolean } = {}): Promise<{ plan: ExamPlan; adjusted: boolean }> {
  let asked = input;
  for (let ask = 1; ask <= 2; ask += 1) {
    const { object } = await model.generateObject({
      task: EXAM_TASKS.plan,
      role: 'generation',
      temperature: EXAM_PLAN_TEMPERATURE,
      input: asked,
      prompt: renderPlannerPrompt(asked),
      schema: ExamPlan,
      ...attribution(context),
    });
    const enforced = enforcePlan(object, input.request, options);
    if (enforced) return enforced;
    asked = { ...input, retryNote: `직전 계획은 ${object.planned_items.length}문항뿐이었습니다. 정확히 ${input.request.count}문항을 계획하세요.` };
  }
  throw new AppError(ErrorCode.MODEL_OUTPUT_INVALID, `출제 계획이 요청한 ${input.request.count}문항을 채우지 못했습니다. 잠시 후 다시 시도해 주세요.`, { retryable: true });
}

/** Agent_ShortAnswerWriter: one set from the plan (and, from round 2, the feedback and its own previous set). */
export async function writeExam(model: LanguageModel, input: ExamWriterInput, context: ExamCallContext): Promise<ExamProblem[]> {
  const { object } = await model.generateObject({
    task: EXAM_TASKS.write,
    role: 'generation',
    temperature: EXAM_WRITE_TEMPERATURE,
    input,
    prompt: renderWriterPrompt(input),
    schema: ExamProblemSet,
    ...attribution(context),
  });
  return object.short_answer_problems;
}

/**
 * Agent_ShortAnswerValidator, on the judge model. The server reads its verdict strictly: the set passes only when
 * `is_valid` is true and no complaint names one of its items; a rejection without a usable complaint is one complaint
 * on the first item, so a rejection is never lost.
 */
export async function validateExam(model: LanguageModel, input: ExamValidatorInput, context: ExamCallContext): Promise<{ valid: boolean; complaints: ValidatorComplaint[] }> {
  const { object } = await model.generateObject({
    task: EXAM_TASKS.validate,
    role: 'judge',
    temperature: EXAM_VALIDATE_TEMPERATURE,
    input,
    prompt: renderValidatorPrompt(input),
    schema: ExamValidation,
    ...attribution(context),
  });
  return readVerdict(object, input.problems);
}

export function readVerdict(verdict: ExamValidation, problems: readonly ExamProblem[]): { valid: boolean; complaints: ValidatorComplaint[] } {
  const ids = new Set(problems.map((problem) => problem.id));
  const complaints = verdict.feedback_message.filter((entry) => ids.has(entry.id)).map((entry) => ({ id: entry.id, message: entry.message.trim() }));
  if (verdict.is_valid && complaints.length === 0) return { valid: true, complaints: [] };
  if (complaints.length === 0) {
    const first = problems[0]?.id ?? 1;
    complaints.push({ id: first, message: '검증기가 세트를 통과시키지 않았지만 문항별 이유를 밝히지 않았습니다. 모든 문항을 자료와 다시 대조하세요.' });
  }
  return { valid: false, complaints };
}
