import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { ModelRole } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { loadPrompt, type LanguageModel } from '../llm/index.js';
import { DocumentTypeSchema, LevelSchema, type Passage, type Retriever } from '../retrieval/index.js';
import { fence } from '../text/index.js';
import { QuizItem } from '../protocol/quiz.js';
import { decidePass } from './pass-rule.js';

/**
 * The EvalAgent (seed 001 §3): checks one generated quiz item against the material before anyone sees it. The
 * item's question is the query for the material's five nearest passages (no filter), the passages and the item go
 * to the judge model in one call at temperature 0.3 (low, for consistent verdicts), and the model scores grounding,
 * educational value and insight from 0 to 10 with a Korean feedback. The verdict is the server's (pass-rule.ts):
 * the model's own `is_passed` is ignored. A judgement that cannot be had — a reply that does not validate even after
 * the adapter's repair turn, a model error, the agent's time limit — is `judged: false` and never a pass. Unknown
 * materials (MATERIAL_NOT_FOUND) and cancellation by the caller's signal are thrown: there is nobody to tell.
 *
 * The offline model answers the task with eval-offline.ts (deterministic; grounding from term overlap with the
 * passages).
 */

export const EVAL_TASKS = { judge: 'quiz.eval' } as const;
/** Seed 001: 퀴즈 평가 uses temperature 0.3 for consistent, strict verdicts. */
export const EVAL_TEMPERATURE = 0.3;
/** Seed 001: the question retrieves five passages, without filters. */
export const EVAL_PASSAGE_COUNT = 5;
/** judgeAll runs at most this many judgements at once (each is one model call). */
export const EVAL_CONCURRENCY = 3;
const EVAL_ROLE: ModelRole = 'judge';

/** What the model is asked to return (seed 001 §3.1). Scores are any numbers: the pass rule clamps them. */
export const EvalReplySchema = z.object({
  grounding_score: z.number().describe('원본 데이터 일치도 (0~10)'),
  educational_score: z.number().describe('교육 적합도 (0~10)'),
  insight_score: z.number().describe('실무 팁 품질 (0~10)'),
  is_passed: z.boolean().optional().describe('통과 여부 (서버가 다시 계산합니다)'),
  feedback: z.string().describe('채점 이유와 고칠 점 (한국어)'),
});
export type EvalReply = z.infer<typeof EvalReplySchema>;

/** A passage as the judge sees it: its text and where it comes from. */
export const EvalPassage = z.object({
  chunkId: z.string(),
  text: z.string(),
  chapter: z.number().int(),
  chapterTitle: z.string(),
  startPage: z.number().int(),
  endPage: z.number().int(),
  documentType: DocumentTypeSchema,
  level: LevelSchema,
  /** A passage the caller sent with the item (seed 001's code-level EvalAgent call), not one of a material. */
  given: z.boolean().optional(),
});
export type EvalPassage = z.infer<typeof EvalPassage>;

/** The structured input of 'quiz.eval' (the offline model works from it; the prompt is rendered from it too). */
export const EvalJudgeInput = z.object({
  item: QuizItem,
  topic: z.string().optional(),
  passages: z.array(EvalPassage),
});
export type EvalJudgeInput = z.infer<typeof EvalJudgeInput>;

/** Where a verdict's evidence comes from. */
export interface EvalSource {
  chunkId: string;
  chapter: number;
  startPage: number;
  endPage: number;
}

export type EvalVerdict =
  | {
      judged: true;
      grounding: number;
      educational: number;
      insight: number;
      is_passed: boolean;
      feedback: string;
      passages: EvalSource[];
    }
  | { judged: false; is_passed: false; reason: string; passages: EvalSource[] };

export interface EvalContext {
  /** The material whose passages ground the item; when `passages` is given it is only the attribution. */
  materialId?: string | undefined;
  /**
   * The source passages to judge against instead of the material's retrieved ones: a caller that evaluates quiz data
   * of its own with the passage it was written from (seed 001's `eval_agent.run({quiz_data, …})`).
   */
  passages?: EvalPassage[] | undefined;
  /** Seed 001's topic (e.g. `general`, `documents`): shown to the judge; it does not filter the passages. */
  topic?: string | undefined;
  signal?: AbortSignal | undefined;
  /** the account the call is billed to (else the surrounding runBilledTo). */
  accountId?: string | undefined;
}

export interface EvalAgentOptions {
  model: LanguageModel;
  retriever: Retriever;
  logger?: Logger | undefined;
  /** A judgement that takes longer is `judged: false` (the provider's own timeouts still apply). */
  timeoutMs?: number | undefined;
}

function pagesOf(passage: { startPage: number; endPage: number }): string {
  return passage.startPage === passage.endPage ? `${passage.startPage}쪽` : `${passage.startPage}–${passage.endPage}쪽`;
}

/**
 * The user prompt of one judgement (pure; pinned by exact-output tests). Seed 001's `_format_reference_data` writes
 * "- 내용 (메타데이터)"; here every passage and its metadata (a chapter title is the PDF's text) sit inside their own
 * fence, and the item — model output — inside another.
 */
export function renderEvalPrompt(input: EvalJudgeInput): string {
  const { item } = input;
  const quiz = JSON.stringify(
    { question: item.question, choices: item.choices, answer: item.answer, explanation: item.explanation, difficulty: item.difficulty },
    null,
    2,
  );
  const passages = input.passages
    .map(
      (passage, index) =>
        `발췌문 ${index + 1}:\n${fence('자료_발췌', `${passage.text}\n(${passage.given === true ? '평가 요청과 함께 받은 원문' : `${passage.chapter + 1}장 「${passage.chapterTitle}」, ${pagesOf(passage)}`}, ${passage.documentType}, ${passage.level})`)}`,
    )
    .join('\n\n');
  return loadPrompt('quiz-eval').render({
    count: String(input.passages.length),
    topic: fence('출처', input.topic ?? '(지정 없음)'),
    quiz: fence('퀴즈_문항', quiz),
    passages,
  });
}

function toSource(passage: EvalPassage): EvalSource {
  return { chunkId: passage.chunkId, chapter: passage.chapter, startPage: passage.startPage, endPage: passage.endPage };
}

function toEvalPassage(passage: Passage): EvalPassage {
  const { chunkId, text, chapter, chapterTitle, startPage, endPage, documentType, level } = passage;
  return { chunkId, text, chapter, chapterTitle, startPage, endPage, documentType, level };
}

export class EvalAgent {
  constructor(private readonly options: EvalAgentOptions) {}

  /** One item's verdict; see the module comment for what is thrown and what is `judged: false`. */
  async judge(item: QuizItem, context: EvalContext): Promise<EvalVerdict> {
    const { model, retriever, logger, timeoutMs } = this.options;
    const parsed = QuizItem.safeParse(item);
    if (!parsed.success) return { judged: false, is_passed: false, reason: `invalid item: ${z.prettifyError(parsed.error)}`, passages: [] };
    const shown: EvalPassage[] =
      context.passages ??
      (context.materialId === undefined
        ? []
        : (
            await retriever.retrieve({
              materialId: context.materialId,
              query: parsed.data.question,
              k: EVAL_PASSAGE_COUNT,
              ...(context.signal ? { signal: context.signal } : {}),
            })
          ).map(toEvalPassage));
    const passages = shown.filter((passage) => passage.given !== true).map(toSource);
    // Nothing to ground the item on: no verdict rather than a score invented from nothing.
    if (shown.length === 0) return { judged: false, is_passed: false, reason: 'no passages retrieved for the question', passages };

    const input: EvalJudgeInput = {
      item: parsed.data,
      ...(context.topic === undefined ? {} : { topic: context.topic }),
      passages: shown,
    };
    const signals = [context.signal, timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs)].filter(
      (signal): signal is AbortSignal => signal !== undefined,
    );
    const signal = signals.length === 0 ? undefined : AbortSignal.any(signals);
    try {
      const { object } = await model.generateObject({
        task: EVAL_TASKS.judge,
        role: EVAL_ROLE,
        temperature: EVAL_TEMPERATURE,
        input,
        prompt: renderEvalPrompt(input),
        schema: EvalReplySchema,
        attribution: {
          ...(context.materialId === undefined ? {} : { materialId: context.materialId }),
          ...(context.accountId === undefined ? {} : { accountId: context.accountId }),
        },
        ...(signal ? { signal } : {}),
      });
      const decision = decidePass({ grounding: object.grounding_score, educational: object.educational_score, insight: object.insight_score });
      return { judged: true, ...decision, feedback: object.feedback.trim(), passages };
    } catch (error) {
      if (context.signal?.aborted === true) throw error;
      // Expected failures of the call (invalid reply after repair, provider errors, timeouts, budget) are no verdict;
      // anything else is a bug and is thrown.
      if (!(error instanceof AppError)) throw error;
      const reason = signal?.aborted === true ? `timed out after ${timeoutMs ?? 0} ms` : `${error.code}: ${error.message}`;
      logger?.warn({ materialId: context.materialId, code: error.code, reason }, 'quiz item not judged');
      return { judged: false, is_passed: false, reason, passages };
    }
  }

  /**
   * Verdicts for several items, in their order, at most {@link EVAL_CONCURRENCY} judged at once: what a generation
   * gate calls with the candidate items of one quiz.
   */
  async judgeAll(items: readonly QuizItem[], context: EvalContext): Promise<EvalVerdict[]> {
    const verdicts: EvalVerdict[] = new Array<EvalVerdict>(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next;
        next += 1;
        verdicts[index] = await this.judge(items[index] as QuizItem, context);
      }
    };
    await Promise.all(Array.from({ length: Math.min(EVAL_CONCURRENCY, items.length) }, worker));
    return verdicts;
  }
}
