import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ModelError, loadPrompt, type LanguageModel } from '../llm/index.js';
import type { Difficulty } from '../protocol/quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { fence } from '../text/index.js';
import { MATH_CRITERIA, type MathScores, type RawMathProblem } from './problem.js';

/**
 * Seed 002's AI judge: four criteria scored 1–5 at temperature 0.1, at most 512 tokens, on the faster model (role
 * `problem-judge`; the problems are written on the stronger one, role `problems`); the server decides
 * (`consistency ≥ 4` and the mean of the other three ≥ 3.5, thresholds per difficulty from configuration). One
 * call judges all problems of an attempt when the model writes from prompts (seed 002's "batch judging"); a batch
 * reply that does not cover every problem exactly once falls back to one call per missing problem.
 *
 * Failures, per the seed, as a documented setting ({@link MathJudgePolicy}):
 * - a network error (timeout, connection refused/reset: no HTTP status from the provider) passes the problem with
 *   scores of 4 — marked `judged: false`, so the instructor sees it was never judged — unless the policy is `fail`;
 * - a malformed reply (after the adapter's own repair turn) is asked again, `retries` times;
 * - anything else (a provider's 4xx/5xx) is asked again too; a problem still without a verdict then fails (it is
 *   regenerated like any failed problem). Cancellation by the caller is thrown.
 */

export const MATH_JUDGE_TASKS = { judge: 'math.judge', judgeBatch: 'math.judge-batch' } as const;
export const MATH_JUDGE_TEMPERATURE = 0.1;
/** Seed 002: the judge's reply is capped at 512 tokens (a batch: 512 per problem). */
export const MATH_JUDGE_MAX_OUTPUT_TOKENS = 512;

export interface MathThreshold {
  /** consistency must reach this (1–5). */
  consistency: number;
  /** the mean of mathematical_accuracy, completeness and logic_flow must reach this (1–5). */
  others: number;
}

export interface MathJudgePolicy {
  thresholds: Record<Difficulty, MathThreshold>;
  /** Seed 002: `pass-unjudged` (pass with 4.0, marked judged:false); `fail`: regenerate like a failed problem. */
  onNetworkError: 'pass-unjudged' | 'fail';
  /** Extra calls for a malformed or failed judgement before the problem counts as failed. */
  retries: number;
}

export const SEED_THRESHOLD: MathThreshold = { consistency: 4, others: 3.5 };
export const DEFAULT_MATH_JUDGE_POLICY: MathJudgePolicy = {
  thresholds: { easy: SEED_THRESHOLD, medium: SEED_THRESHOLD, hard: SEED_THRESHOLD },
  onNetworkError: 'pass-unjudged',
  retries: 2,
};
/** The scores a problem gets when the network policy passes it unjudged (seed 002: "기본 점수 4.0"). */
export const NETWORK_PASS_SCORE = 4;

const Score = z.number().describe('1~5');
export const MathJudgeReply = z.object({
  mathematical_accuracy: Score,
  consistency: Score,
  completeness: Score,
  logic_flow: Score,
  feedback: z.string().describe('문제점과 고칠 점 (한국어, 한두 문장)'),
});
export type MathJudgeReply = z.infer<typeof MathJudgeReply>;
export const MathJudgeBatchReply = z.object({
  results: z.array(MathJudgeReply.extend({ index: z.number().int().describe('문제 번호 (1부터)') })),
});
export type MathJudgeBatchReply = z.infer<typeof MathJudgeBatchReply>;

/** The structured input of a judgement (the offline model works from it; the prompt is rendered from it). */
export interface MathJudgeInput {
  problems: RawMathProblem[];
}

export type MathVerdictResult =
  | { judged: true; passed: boolean; scores: MathScores; feedback: string }
  | { judged: false; passed: boolean; scores: MathScores | null; feedback: string };

/** A score in [1, 5]; anything not a finite number is the worst score. */
export function clampMathScore(value: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(5, Math.max(1, value));
}

/** The server's verdict on (clamped) scores under a threshold. */
export function decideMathPass(raw: MathScores, threshold: MathThreshold): { scores: MathScores; passed: boolean } {
  const scores = Object.fromEntries(MATH_CRITERIA.map((criterion) => [criterion, clampMathScore(raw[criterion])])) as MathScores;
  const others = (scores.mathematical_accuracy + scores.completeness + scores.logic_flow) / 3;
  // A small epsilon: (4 + 3 + 3.5) / 3 is 3.4999… in floating point and must count as 3.5.
  const passed = scores.consistency >= threshold.consistency && others >= threshold.others - 1e-9;
  return { scores, passed };
}

function renderProblem(problem: RawMathProblem, number: number): string {
  const lines = [
    `Problem ${number} (${problem.type}, ${problem.difficulty})`,
    `question: ${problem.question}`,
    ...(problem.type === 'multiple_choice' ? problem.choices.map((choice, index) => `${'ABCD'[index] ?? '?'}. ${choice}`) : []),
    `correct_answer: ${problem.correct_answer}`,
    `explanation: ${problem.explanation}`,
    `final_answer: ${problem.final_answer}`,
  ];
  return fence('수학_문제', lines.join('\n'));
}

/** The prompt of one judgement or of a batch (pure; pinned by exact-output tests). English, as seed 002 does. */
export function renderMathJudgePrompt(problems: readonly RawMathProblem[]): string {
  const rendered = problems.map((problem, index) => renderProblem(problem, index + 1)).join('\n\n');
  if (problems.length === 1) return loadPrompt('math-judge').render({ problems: rendered });
  return loadPrompt('math-judge-batch').render({ count: String(problems.length), problems: rendered });
}

function isNetworkError(error: unknown): boolean {
  return error instanceof ModelError && (error.code === ErrorCode.MODEL_TIMEOUT || (error.code === ErrorCode.MODEL_UNAVAILABLE && error.providerStatus === undefined));
}

export interface MathJudgeOptions {
  model: LanguageModel;
  policy?: MathJudgePolicy | undefined;
  logger?: Logger | undefined;
}

export interface MathJudgeContext {
  materialId?: string | undefined;
  accountId?: string | undefined;
  signal?: AbortSignal | undefined;
}

export class MathJudge {
  readonly policy: MathJudgePolicy;

  constructor(private readonly options: MathJudgeOptions) {
    this.policy = options.policy ?? DEFAULT_MATH_JUDGE_POLICY;
  }

  /** The judge model's name, stored with every judgement: the faster model of seed 002's cost split. */
  get modelName(): string {
    return this.options.model.modelName('problem-judge');
  }

  /** Verdicts for the problems of one attempt, in their order (see the module comment). */
  async judgeAll(problems: readonly RawMathProblem[], context: MathJudgeContext = {}): Promise<MathVerdictResult[]> {
    const verdicts: (MathVerdictResult | undefined)[] = problems.map(() => undefined);
    if (problems.length > 1 && this.options.model.capabilities.followsPrompts) {
      const batch = await this.batch(problems, context);
      if (batch.kind === 'network') return problems.map((problem) => this.networkVerdict(problem));
      if (batch.kind === 'ok') {
        for (const [index, reply] of batch.replies.entries()) {
          if (reply !== undefined) verdicts[index] = this.verdict(problems[index] as RawMathProblem, reply);
        }
      }
    }
    for (const [index, problem] of problems.entries()) {
      if (verdicts[index] === undefined) verdicts[index] = await this.judgeOne(problem, context);
    }
    return verdicts as MathVerdictResult[];
  }

  private verdict(problem: RawMathProblem, reply: MathJudgeReply): MathVerdictResult {
    const { scores, passed } = decideMathPass(reply, this.policy.thresholds[problem.difficulty]);
    return { judged: true, passed, scores, feedback: reply.feedback.trim() };
  }

  private networkVerdict(problem: RawMathProblem): MathVerdictResult {
    const passes = this.policy.onNetworkError === 'pass-unjudged';
    const scores = Object.fromEntries(MATH_CRITERIA.map((criterion) => [criterion, NETWORK_PASS_SCORE])) as MathScores;
    this.options.logger?.warn({ difficulty: problem.difficulty, passes }, 'math judge unreachable; network-error policy applied');
    return {
      judged: false,
      passed: passes,
      scores: passes ? scores : null,
      feedback: passes ? '네트워크 오류로 검증하지 못해 기본 점수로 통과시켰습니다(검증 안 됨).' : '네트워크 오류로 검증하지 못했습니다.',
    };
  }

  private async judgeOne(problem: RawMathProblem, context: MathJudgeContext): Promise<MathVerdictResult> {
    let last = '';
    for (let attempt = 0; attempt <= this.policy.retries; attempt += 1) {
      try {
        const { object } = await this.options.model.generateObject({
          task: MATH_JUDGE_TASKS.judge,
          role: 'problem-judge',
          temperature: MATH_JUDGE_TEMPERATURE,
          maxOutputTokens: MATH_JUDGE_MAX_OUTPUT_TOKENS,
          input: { problems: [problem] } satisfies MathJudgeInput,
          prompt: renderMathJudgePrompt([problem]),
          schema: MathJudgeReply,
          ...this.extras(context),
        });
        return this.verdict(problem, object);
      } catch (error) {
        if (context.signal?.aborted === true) throw error;
        if (isNetworkError(error)) return this.networkVerdict(problem);
        if (!(error instanceof AppError)) throw error;
        last = `${error.code}: ${error.message}`;
        this.options.logger?.warn({ code: error.code, attempt }, 'math judge failed; asking again');
      }
    }
    return { judged: false, passed: false, scores: null, feedback: `검증을 받지 못했습니다(${last}).` };
  }

  private async batch(
    problems: readonly RawMathProblem[],
    context: MathJudgeContext,
  ): Promise<{ kind: 'ok'; replies: (MathJudgeReply | undefined)[] } | { kind: 'network' } | { kind: 'failed' }> {
    try {
      const { object } = await this.options.model.generateObject({
        task: MATH_JUDGE_TASKS.judgeBatch,
        role: 'problem-judge',
        temperature: MATH_JUDGE_TEMPERATURE,
        maxOutputTokens: MATH_JUDGE_MAX_OUTPUT_TOKENS * problems.length,
        input: { problems: [...problems] } satisfies MathJudgeInput,
        prompt: renderMathJudgePrompt(problems),
        schema: MathJudgeBatchReply,
        ...this.extras(context),
      });
      // Each problem answered exactly once by its number; any other entry (a repeat, number 0 or 12) is ignored,
      // and the problems it leaves without a verdict are asked one by one.
      const counts = new Map<number, number>();
      for (const result of object.results) counts.set(result.index, (counts.get(result.index) ?? 0) + 1);
      const replies = problems.map((_, index) => {
        if (counts.get(index + 1) !== 1) return undefined;
        const found = object.results.find((result) => result.index === index + 1);
        if (found === undefined) return undefined;
        const { index: _number, ...reply } = found;
        return reply;
      });
      return { kind: 'ok', replies };
    } catch (error) {
      if (context.signal?.aborted === true) throw error;
      if (isNetworkError(error)) return { kind: 'network' };
      if (!(error instanceof AppError)) throw error;
      this.options.logger?.warn({ code: error.code }, 'math batch judgement failed; judging one by one');
      return { kind: 'failed' };
    }
  }

  private extras(context: MathJudgeContext) {
    const attribution = {
      ...(context.materialId === undefined ? {} : { materialId: context.materialId }),
      ...(context.accountId === undefined ? {} : { accountId: context.accountId }),
    };
    return { attribution, ...(context.signal ? { signal: context.signal } : {}) };
  }
}
