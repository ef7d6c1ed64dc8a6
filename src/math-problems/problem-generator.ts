import { z } from 'zod';
import { checkMathProblem, refusalsOf, type GuardReport } from '../guard/index.js';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ModelError, loadPrompt, type LanguageModel } from '../llm/index.js';
import { MAX_MATH_PROBLEMS } from '../protocol/jobs.js';
import type { Difficulty } from '../protocol/quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { newItemId, referenceData, referencePassages, sourceOf, type QuizSource } from '../quiz/index.js';
import { fence } from '../text/index.js';
import type { MathJudge, MathJudgeContext, MathVerdictResult } from './math-judge.js';
import { checkProblem } from './problem-checks.js';
import { MathGenerateReply, type MathJudgement, type MathProblem, type MathProblemType, type RawMathProblem } from './problem.js';

/**
 * Seed 002's generation loop: write the problems that are still missing, check each deterministically
 * (problem-checks.ts), judge the rest (math-judge.ts, one batch call when the model allows), keep the passed ones,
 * and write only the missing count again with the failed problems' feedback — {@link MAX_MATH_ATTEMPTS} attempts at
 * most. After that a {@link MathGenerationError} carries what passed and what was rejected (the job keeps what
 * passed). Every problem keeps its judgement (scores, feedback, judge model, attempt); rejected problems are
 * returned too, for the per-material summary.
 */

export const MATH_TASKS = { generate: 'math.generate' } as const;
export const MAX_MATH_ATTEMPTS = 3;
/** Most problems one request asks for (the HTTP body's limit, src/protocol/jobs.ts). */
export { MAX_MATH_PROBLEMS };
/** Varied problems, as the quiz agent writes its items. */
export const MATH_TEMPERATURE = 0.7;

/** One problem wanted: its type and difficulty. */
export interface MathSlot {
  type: MathProblemType;
  difficulty: Difficulty;
}

export const MathRequest = z
  .object({
    count: z.number().int().min(1).max(MAX_MATH_PROBLEMS),
    /** How many of `count` are multiple choice (the rest short answer). */
    multipleChoice: z.number().int().min(0).max(MAX_MATH_PROBLEMS),
    difficulty: z.enum(['easy', 'medium', 'hard']).optional(),
  })
  .refine((request) => request.multipleChoice <= request.count, { message: '객관식 문제 수는 전체 문제 수보다 많을 수 없습니다.', path: ['multipleChoice'] });
export type MathRequest = z.infer<typeof MathRequest>;

/**
 * The slots of a request: multiple choice first, then short answer; one difficulty for all when given, else a mix
 * (two fifths easy, two fifths medium, the rest hard, as the quiz agent's 2 + 2 + 1), spread over both types.
 */
export function mathPlan(request: MathRequest): MathSlot[] {
  const difficulties: Difficulty[] = Array.from({ length: request.count }, (_, index) => {
    if (request.difficulty !== undefined) return request.difficulty;
    const share = (index + 0.5) / request.count;
    return share < 0.4 ? 'easy' : share < 0.8 ? 'medium' : 'hard';
  });
  // Multiple choice spread evenly over the difficulties (every k-th slot, Bresenham-style), so each type gets its
  // share of easy, medium and hard; then listed first.
  const slots = difficulties.map((difficulty, index) => {
    const picked = Math.floor(((index + 1) * request.multipleChoice) / request.count) > Math.floor((index * request.multipleChoice) / request.count);
    return { type: picked ? ('multiple_choice' as const) : ('short_answer' as const), difficulty };
  });
  return [...slots.filter((slot) => slot.type === 'multiple_choice'), ...slots.filter((slot) => slot.type === 'short_answer')];
}

const TYPE_NAMES: Record<MathProblemType, string> = { multiple_choice: '객관식', short_answer: '단답형' };

/** `객관식 easy 2문제, 단답형 medium 1문제` in slot order, runs of equal slots counted. */
export function planInstruction(slots: readonly MathSlot[]): string {
  const runs: { slot: MathSlot; count: number }[] = [];
  for (const slot of slots) {
    const last = runs.at(-1);
    if (last && last.slot.type === slot.type && last.slot.difficulty === slot.difficulty) last.count += 1;
    else runs.push({ slot, count: 1 });
  }
  return runs.map(({ slot, count }) => `${TYPE_NAMES[slot.type]}(${slot.type}) ${slot.difficulty} ${count}문제`).join(', ');
}

export interface MathGenerateInput {
  scope: string;
  passages: { number: number; text: string; meta: string }[];
  slots: MathSlot[];
  avoid: string[];
  feedback: string[];
}

/** The user prompt of one attempt (pure; pinned by exact-output tests). */
export function renderMathPrompt(input: MathGenerateInput): string {
  return loadPrompt('math-generate').render({
    count: String(input.slots.length),
    plan: planInstruction(input.slots),
    scope: fence('출처', input.scope),
    avoid: fence('이미_낸_문제', input.avoid.length > 0 ? input.avoid.map((question) => `- ${question}`).join('\n') : '(없음)'),
    feedback: fence('수정_요청', input.feedback.length > 0 ? input.feedback.map((line) => `- ${line}`).join('\n') : '(없음)'),
    reference: fence('참고_자료', referenceData(input.passages)),
  });
}

/** A generation that ended without every slot filled: what passed is kept, what failed says why. */
export class MathGenerationError extends AppError {
  constructor(
    readonly passed: MathProblem[],
    readonly rejected: MathProblem[],
    wanted: number,
  ) {
    super(
      ErrorCode.MODEL_OUTPUT_INVALID,
      passed.length > 0
        ? `검증을 통과한 수학 문제가 ${wanted}문제 중 ${passed.length}문제뿐입니다(${MAX_MATH_ATTEMPTS}번 시도). 통과한 문제는 남겨 두었습니다.`
        : `검증을 통과한 수학 문제가 없습니다(${wanted}문제 요청, ${MAX_MATH_ATTEMPTS}번 시도). 다른 장이나 난이도로 다시 시도해 주세요.`,
      { retryable: true },
    );
    this.name = 'MathGenerationError';
  }
}

/** Progress after each attempt, for a job's live view. */
export interface MathProgress {
  attempt: number;
  passed: number;
  wanted: number;
  /** This attempt's problems with their verdicts. */
  judged: MathProblem[];
}

export interface GenerateMathOptions {
  /** Where the item guard's refusals go (logged, counted in the AI 품질 console). */
  guard?: GuardReport | undefined;
  model: LanguageModel;
  judge: MathJudge;
  source: QuizSource;
  request: MathRequest;
  /** Problems already passed (a resumed job): kept, and only the rest is written. */
  passed?: readonly MathProblem[] | undefined;
  /** The attempt to start at (a resumed job); 1 by default. */
  firstAttempt?: number | undefined;
  onProgress?: ((progress: MathProgress) => void | Promise<void>) | undefined;
  context?: MathJudgeContext | undefined;
  logger?: Logger | undefined;
}

export interface MathGeneration {
  problems: MathProblem[];
  rejected: MathProblem[];
  attempts: number;
}

function judgementOf(verdict: MathVerdictResult, model: string, attempt: number, equivalence: MathJudgement['equivalence']): MathJudgement {
  return { judged: verdict.judged, passed: verdict.passed, scores: verdict.scores, feedback: verdict.feedback, model, attempt, equivalence };
}

export async function generateMathProblems(options: GenerateMathOptions): Promise<MathGeneration> {
  const { model, judge, source, request, logger } = options;
  const passages = source.retrieval.passages;
  if (passages.length === 0) throw new AppError(ErrorCode.INVALID_PAYLOAD, '이 자료(또는 챕터)에는 문제를 만들 본문이 없습니다.');
  const reference = referencePassages(passages);
  const slots = mathPlan(request);
  const filled: (MathProblem | undefined)[] = slots.map(() => undefined);
  const ids = new Set<string>();
  for (const problem of options.passed ?? []) {
    const index = slots.findIndex((slot, position) => filled[position] === undefined && slot.type === problem.type && slot.difficulty === problem.difficulty);
    if (index >= 0) {
      filled[index] = problem;
      ids.add(problem.problemId);
    }
  }
  const rejected: MathProblem[] = [];
  let feedback: string[] = [];
  let attempt = (options.firstAttempt ?? 1) - 1;

  while (filled.some((problem) => problem === undefined) && attempt < MAX_MATH_ATTEMPTS) {
    attempt += 1;
    const missing = slots.flatMap((slot, index) => (filled[index] === undefined ? [index] : []));
    const input: MathGenerateInput = {
      scope: source.scope,
      passages: reference,
      slots: missing.map((index) => slots[index] as MathSlot),
      avoid: [...filled.flatMap((problem) => (problem ? [problem.question] : [])), ...rejected.map((problem) => problem.question)],
      feedback,
    };
    let reply: MathGenerateReply;
    try {
      ({ object: reply } = await model.generateObject({
        task: MATH_TASKS.generate,
        // Seed 002's cost split: problems on the stronger model, their judgement on the faster one.
        role: 'problems',
        temperature: MATH_TEMPERATURE,
        input,
        prompt: renderMathPrompt(input),
        schema: MathGenerateReply,
        attribution: { materialId: source.materialId, ...(options.context?.accountId === undefined ? {} : { accountId: options.context.accountId }) },
        ...(options.context?.signal ? { signal: options.context.signal } : {}),
      }));
    } catch (error) {
      if (error instanceof ModelError && error.code === ErrorCode.MODEL_OUTPUT_INVALID) {
        feedback = ['직전 답변이 요청한 JSON 형식이 아니었습니다. {"problems": [...]} 형식을 지키세요.'];
        continue;
      }
      throw error;
    }

    // Place each proposed problem in an open slot of its type and difficulty; check it; judge the ones checks let through.
    const candidates: { raw: RawMathProblem; slot: number; problem: MathProblem }[] = [];
    const fresh: MathProblem[] = [];
    const taken = new Set<number>();
    const nextFeedback: string[] = [];
    let placed = 0;
    for (const [position, raw] of reply.problems.entries()) {
      if (raw === null) continue;
      const fits = (index: number | undefined) =>
        index !== undefined && !taken.has(index) && slots[index]?.type === raw.type && slots[index]?.difficulty === raw.difficulty;
      const meant = missing[position];
      const slot = fits(meant) ? meant : missing.find(fits);
      if (slot === undefined) continue;
      placed += 1;
      const cited = [...new Set(raw.sources)].filter((number) => passages[number - 1] !== undefined);
      const problem = toProblem(raw, cited.map((number) => sourceOf(passages[number - 1] as (typeof passages)[number])), ids);
      fresh.push(problem);
      const check = checkProblem(raw);
      if (!check.ok && check.check === 'guard') options.guard?.refused(refusalsOf(MATH_TASKS.generate, raw.question, checkMathProblem(raw), { materialId: options.context?.materialId }));
      if (!check.ok) {
        // Decided without the judge: no model call is spent on a problem the server can already refuse.
        problem.judgement = { judged: false, passed: false, scores: null, feedback: check.feedback, model: '', attempt, check: check.check, equivalence: check.equivalence };
        rejected.push(problem);
        nextFeedback.push(`"${problem.question.slice(0, 80)}": ${check.feedback}`);
        continue;
      }
      taken.add(slot);
      problem.judgement = { ...problem.judgement, attempt, equivalence: check.equivalence };
      candidates.push({ raw, slot, problem });
    }
    const verdicts = await judge.judgeAll(candidates.map((candidate) => candidate.raw), options.context);
    for (const [index, { slot, problem }] of candidates.entries()) {
      const verdict = verdicts[index] as MathVerdictResult;
      problem.judgement = judgementOf(verdict, judge.modelName, attempt, problem.judgement.equivalence);
      // Seed 002's log: one line per judged problem with its four scores, pass or fail, and the attempt.
      logger?.info(
        { materialId: source.materialId, attempt, problemId: problem.problemId, passed: verdict.passed, judged: verdict.judged, scores: verdict.scores, feedback: verdict.feedback },
        `math problem ${verdict.passed ? 'VALID' : 'INVALID'}`,
      );
      if (verdict.passed) filled[slot] = problem;
      else {
        rejected.push(problem);
        nextFeedback.push(`"${problem.question.slice(0, 80)}": ${verdict.feedback}`);
      }
    }
    if (placed < missing.length) nextFeedback.push(`요청한 구성 중 ${missing.length - placed}문제가 빠졌거나 유형·난이도가 맞지 않았습니다.`);
    feedback = nextFeedback;
    const open = slots.filter((_, index) => filled[index] === undefined).length;
    logger?.info({ materialId: source.materialId, attempt, passed: slots.length - open, wanted: slots.length }, 'math generation attempt');
    await options.onProgress?.({ attempt, passed: slots.length - open, wanted: slots.length, judged: fresh });
  }

  const problems = filled.filter((problem): problem is MathProblem => problem !== undefined);
  if (problems.length < slots.length) throw new MathGenerationError(problems, rejected, slots.length);
  return { problems, rejected, attempts: attempt };
}

/** A proposed problem as stored, before its judgement. */
function toProblem(raw: RawMathProblem, sources: MathProblem['sources'], ids: Set<string>): MathProblem {
  return {
    problemId: newItemId(ids),
    type: raw.type,
    question: raw.question.trim(),
    ...(raw.type === 'multiple_choice' ? { choices: raw.choices.map((choice) => choice.trim()) } : {}),
    correct_answer: raw.type === 'multiple_choice' ? raw.correct_answer.trim().toUpperCase() : raw.correct_answer.trim(),
    explanation: raw.explanation.trim(),
    final_answer: raw.final_answer.trim(),
    difficulty: raw.difficulty,
    sources,
    judgement: { judged: false, passed: false, scores: null, feedback: '', model: '', attempt: 0 },
  };
}
