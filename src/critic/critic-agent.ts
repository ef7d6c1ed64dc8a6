import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { ModelRole } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { loadPrompt, type LanguageModel } from '../llm/index.js';
import { CriticGradeBody } from '../protocol/critic.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { ERROR_MESSAGES } from '../protocol/wire/error-messages.js';
import {
  CRITIC_CRITERIA,
  CRITIC_FAILURE_TYPES,
  CRITIC_SEVERITIES,
  type CriticFailureType,
  type CriticFixableIssue,
  type CriticReport,
  type CriticScores,
  type CriticTag,
} from '../protocol/wire/critic.js';
import { fence } from '../text/index.js';
import { checkWeights, clampScores, criterionKoreanName, serverGrade, UNSAFE_GRADE_CAP } from './rubric.js';

/**
 * The Critic Grader (seed 004): grades one case — an instruction, its input, an agent's output and optionally the
 * expected output — on five criteria with one `generateObject` call on the judge model. The model proposes the
 * criterion scores, failure types, issues and a report; the server decides the rest (rubric.ts): the weights are
 * checked before any call (INVALID_CRITERIA), every score is clamped to [0, 1], `grade` is the weighted mean of the
 * clamped scores (the model is not even asked for a total), failure types outside seed 004's ten are dropped, and
 * the tag MISSING_EXPECTED_OUTPUT is set by our rule (below). A grading that cannot be had — a reply that does not
 * validate after the adapter's repair turn, a provider error after its retries, the time limit — is GRADING_ERROR
 * with no grade, never a default score (DESIGN principle 8). A spent daily model budget and the caller's own abort
 * are thrown: they are not the grader's failure.
 *
 * MISSING_EXPECTED_OUTPUT: accuracy weighs more than 0, the case has no (non-blank) `expected_output`, and the grader
 * says accuracy cannot be checked without one (`accuracy_needs_reference`: a task with one right answer, or an
 * output stating facts the instruction and input do not hold). Accuracy is then judged from the instruction and input
 * alone, and the report says so.
 *
 * The offline model answers the task with critic-offline.ts (deterministic heuristics); a model that does not follow
 * prompts is such a heuristic, and the report then starts with `[휴리스틱 채점]`.
 */

export const CRITIC_TASK = 'critic.grade';
/** Low: the same case should get the same scores. */
export const CRITIC_TEMPERATURE = 0.2;
const CRITIC_ROLE: ModelRole = 'judge';
/** How many issues of each kind a report keeps, and how long each text may be. */
const MAX_ISSUES = 20;
const MAX_ISSUE_TEXT = 1_000;
const MAX_REPORT_TEXT = 4_000;
export const HEURISTIC_PREFIX = '[휴리스틱 채점]';

const Score = z.number().describe('0.0~1.0');

/** What the model is asked to return (seed 004's output without `grade`: the server computes it). */
export const CriticReplySchema = z.object({
  criteria_scores: z.object({
    completeness: Score.describe('완전성 0.0~1.0'),
    accuracy: Score.describe('정확성 0.0~1.0'),
    consistency: Score.describe('일관성 0.0~1.0'),
    safety: Score.describe('안전성 0.0~1.0'),
    helpfulness: Score.describe('유용성 0.0~1.0'),
  }),
  /** Any strings: the ones outside seed 004's ten are dropped rather than failing the whole grading. */
  failure_types: z.array(z.string()).describe(`실패 유형: ${CRITIC_FAILURE_TYPES.join(', ')} 중에서만`),
  fixable_issues: z.array(
    z.object({
      issue: z.string().describe('수정 가능한 문제'),
      severity: z.enum(CRITIC_SEVERITIES),
      suggestion: z.string().describe('구체적인 수정 방안'),
    }),
  ),
  unfixable_issues: z.array(z.string().describe('수정 불가능한 문제')),
  accuracy_needs_reference: z.boolean().optional().describe('예상 출력 없이는 정확성을 확인할 수 없으면 true'),
  grading_report: z.string().describe('한국어 평가 보고서'),
});
export type CriticReply = z.infer<typeof CriticReplySchema>;

/** The structured input of 'critic.grade' (the offline grader works from it; the prompt is rendered from it too). */
export const CriticGradeInput = z.object({
  instruction: z.string(),
  input: z.string(),
  output: z.string(),
  /** Absent when the case has none (a blank one counts as none). */
  expected_output: z.string().optional(),
  criteria_name: z.string(),
  agent_name: z.string().optional(),
  weights: z.object({
    completeness: z.number(),
    accuracy: z.number(),
    consistency: z.number(),
    safety: z.number(),
    helpfulness: z.number(),
  }),
});
export type CriticGradeInput = z.infer<typeof CriticGradeInput>;

/** What {@link CriticGrader.grade} answers: a report, or why there is none (never a default score). */
export type CriticResult =
  | { ok: true; report: CriticReport }
  | { ok: false; code: typeof ErrorCode.INVALID_CRITERIA | typeof ErrorCode.INVALID_PAYLOAD; message: string }
  | { ok: false; code: typeof ErrorCode.GRADING_ERROR; message: string; reason: string };

export interface CriticGradeOptions {
  /** the account the call is billed to (else the surrounding runBilledTo). */
  accountId?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface CriticGraderOptions {
  model: LanguageModel;
  logger?: Logger | undefined;
  /** A grading that takes longer is GRADING_ERROR (the provider's own timeouts still apply). */
  timeoutMs?: number | undefined;
}

/** The default criteria name when a case brings no `grading_criteria`. */
export const DEFAULT_CRITERIA_NAME = 'default';

function weightsLine(weights: CriticScores): string {
  return CRITIC_CRITERIA.map((criterion) => `${criterion}(${criterionKoreanName(criterion)}) ${weights[criterion]}`).join(', ');
}

/** The user prompt of one grading (pure; pinned by exact-output tests). Every text of the case is fenced. */
export function renderCriticPrompt(input: CriticGradeInput): string {
  const criteria = `평가 기준 이름: ${input.criteria_name}\n에이전트 이름: ${input.agent_name ?? '(지정 없음)'}`;
  return loadPrompt('critic-grade').render({
    weights: `가중치: ${weightsLine(input.weights)}`,
    criteria: fence('평가_기준', criteria),
    instruction: fence('평가_지시문', input.instruction),
    input: fence('평가_입력', input.input),
    output: fence('평가_출력', input.output),
    expected: input.expected_output === undefined ? '예상 출력은 주어지지 않았습니다.' : fence('평가_예상_출력', input.expected_output),
  });
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const isFailureType = (value: string): value is CriticFailureType => (CRITIC_FAILURE_TYPES as readonly string[]).includes(value);

/** Seed 004's ten types only, each once, in the seed's order. */
export function knownFailureTypes(types: readonly string[]): CriticFailureType[] {
  const seen = new Set(types.map((type) => type.trim().toUpperCase()).filter(isFailureType));
  return CRITIC_FAILURE_TYPES.filter((type) => seen.has(type));
}

function cleanIssues(issues: CriticReply['fixable_issues']): CriticFixableIssue[] {
  return issues
    .map((entry) => ({ issue: clip(entry.issue.trim(), MAX_ISSUE_TEXT), severity: entry.severity, suggestion: clip(entry.suggestion.trim(), MAX_ISSUE_TEXT) }))
    .filter((entry) => entry.issue.length > 0)
    .slice(0, MAX_ISSUES);
}

function scoresSentence(scores: CriticScores): string {
  return CRITIC_CRITERIA.map((criterion) => `${criterionKoreanName(criterion)} ${scores[criterion]}`).join(', ');
}

/** Why a grading failed, in words for people (the message of GRADING_ERROR). */
function gradingErrorMessage(code: string, timedOut: boolean): string {
  if (timedOut || code === ErrorCode.MODEL_TIMEOUT) return '평가 모델이 제때 답하지 않아 평가하지 못했습니다. 점수는 매기지 않았습니다. 잠시 후 다시 시도해 주세요.';
  if (code === ErrorCode.MODEL_OUTPUT_INVALID) return '평가 모델의 답을 채점 결과로 읽을 수 없어 평가하지 못했습니다. 점수는 매기지 않았습니다. 잠시 후 다시 시도해 주세요.';
  if (code === ErrorCode.MODEL_UNAVAILABLE) return '평가 모델이 응답하지 않아 평가하지 못했습니다. 점수는 매기지 않았습니다. 잠시 후 다시 시도해 주세요.';
  return ERROR_MESSAGES.GRADING_ERROR;
}

export class CriticGrader {
  constructor(private readonly options: CriticGraderOptions) {}

  /** Grades one case; see the module comment for what is refused, what is GRADING_ERROR and what is thrown. */
  async grade(gradedCase: CriticGradeBody, options: CriticGradeOptions = {}): Promise<CriticResult> {
    const { model, logger, timeoutMs } = this.options;
    const parsed = CriticGradeBody.safeParse(gradedCase);
    if (!parsed.success) {
      // In-process callers (the HTTP route validated already); the field's path, never zod's English message.
      const path = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
      return { ok: false, code: ErrorCode.INVALID_PAYLOAD, message: `평가할 데이터가 올바르지 않습니다${path === '' ? '' : ` (${path})`}.` };
    }
    const body = parsed.data;
    const checked = checkWeights(body.grading_criteria?.weights);
    if (!checked.ok) return { ok: false, code: ErrorCode.INVALID_CRITERIA, message: checked.problem };
    const { weights } = checked;
    const data = body.data_to_grade;
    const expected = data.expected_output !== undefined && data.expected_output.trim().length > 0 ? data.expected_output : undefined;
    const criteriaName = body.grading_criteria?.criteria_name ?? DEFAULT_CRITERIA_NAME;
    const input: CriticGradeInput = {
      instruction: data.instruction,
      input: data.input,
      output: data.output,
      ...(expected === undefined ? {} : { expected_output: expected }),
      criteria_name: criteriaName,
      ...(body.agent_name === undefined ? {} : { agent_name: body.agent_name }),
      weights,
    };

    const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const signals = [options.signal, timeout].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
    let reply: CriticReply;
    try {
      const { object } = await model.generateObject({
        task: CRITIC_TASK,
        role: CRITIC_ROLE,
        temperature: CRITIC_TEMPERATURE,
        input,
        prompt: renderCriticPrompt(input),
        schema: CriticReplySchema,
        ...(options.accountId === undefined ? {} : { attribution: { accountId: options.accountId } }),
        ...(signal ? { signal } : {}),
      });
      reply = object;
    } catch (error) {
      if (options.signal?.aborted === true) throw error;
      // Expected failures of the call are GRADING_ERROR; a spent budget is the account's, and anything else a bug.
      if (!(error instanceof AppError) || error.code === ErrorCode.MODEL_BUDGET_EXCEEDED) throw error;
      const timedOut = timeout?.aborted === true;
      const reason = timedOut ? `timed out after ${timeoutMs ?? 0} ms` : `${error.code}: ${error.message}`;
      logger?.warn({ code: error.code, reason, agent: body.agent_name }, 'critic grading failed');
      return { ok: false, code: ErrorCode.GRADING_ERROR, message: gradingErrorMessage(error.code, timedOut), reason };
    }

    const heuristic = !model.capabilities.followsPrompts;
    const scores = clampScores(reply.criteria_scores);
    const failureTypes = knownFailureTypes(reply.failure_types);
    const { grade, capped } = serverGrade(scores, weights, failureTypes);
    const tags: CriticTag[] = weights.accuracy > 0 && expected === undefined && reply.accuracy_needs_reference === true ? ['MISSING_EXPECTED_OUTPUT'] : [];
    let summary = withoutOwnTotal(reply.grading_report.trim());
    if (summary.startsWith(HEURISTIC_PREFIX)) summary = summary.slice(HEURISTIC_PREFIX.length).trim();
    if (summary.length === 0) summary = `기준별 점수: ${scoresSentence(scores)}.`;
    const report = [
      heuristic ? HEURISTIC_PREFIX : undefined,
      capped
        ? `전체 점수: ${grade}/1.0 (심각한 안전성 위반이 있어 데이터에서 제외할 대상이므로 서버가 ${UNSAFE_GRADE_CAP} 이하로 제한했습니다).`
        : `전체 점수: ${grade}/1.0 (기준별 점수의 가중 평균, 서버 계산).`,
      clip(summary, MAX_REPORT_TEXT),
      tags.includes('MISSING_EXPECTED_OUTPUT') ? ERROR_MESSAGES.MISSING_EXPECTED_OUTPUT : undefined,
    ]
      .filter((part): part is string => part !== undefined)
      .join(' ');
    return {
      ok: true,
      report: {
        grade,
        criteria_scores: scores,
        failure_types: failureTypes,
        fixable_issues: cleanIssues(reply.fixable_issues),
        unfixable_issues: reply.unfixable_issues.map((issue) => clip(issue.trim(), MAX_ISSUE_TEXT)).filter((issue) => issue.length > 0).slice(0, MAX_ISSUES),
        grading_report: report,
        tags,
        weights,
        criteria_name: criteriaName,
        ...(body.agent_name === undefined ? {} : { agent_name: body.agent_name }),
        grader: { model: model.modelName(CRITIC_ROLE), heuristic },
      },
    };
  }
}

/**
 * A grader's report without the totals it computed itself ("전체 점수: 0.75/1.0.", "overall score 0.8"): a report
 * carries one total, the server's, which the agent puts in front. The criterion scores and reasons stay.
 */
export function withoutOwnTotal(report: string): string {
  return report
    .replace(/(?:전체|총|종합|최종)\s*(?:점수|평점|등급)\s*(?:은|는|:|：|=)?\s*\d+(?:\.\d+)?\s*(?:\/\s*1(?:\.0+)?|점)?\s*(?:입니다)?\s*[.,]?\s*/gu, '')
    .replace(/\b(?:overall|total|final)\s+(?:score|grade)\s*(?:is|of|:|=)?\s*\d+(?:\.\d+)?(?:\s*\/\s*1(?:\.0+)?)?\s*[.,]?\s*/giu, '')
    .replace(/\bgrade\s*[:=]\s*\d+(?:\.\d+)?(?:\s*\/\s*1(?:\.0+)?)?\s*[.,]?\s*/giu, '')
    .trim();
}
