import { z } from 'zod';
import { AppError, type Logger } from '../kernel/index.js';
import { loadPrompt, type LanguageModel } from '../llm/index.js';
import { fence } from '../text/index.js';
import { checkTypedItem, refusalsOf, rewriteFeedback, type GuardReport } from '../guard/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { GenerationShortfall } from '../protocol/wire/shortfall.js';
import { Difficulty, MultiItem, NumericItem, OrderingItem, TrueFalseItem, type RoomItem } from '../protocol/quiz.js';
import type { Passage } from '../retrieval/index.js';
import { MAX_GENERATION_ROUNDS, QUIZ_TEMPERATURE, QuizGenerateInput, difficultyPlan, newItemId, questionKey, referenceData, referencePassages, sourceOf, type QuizSource } from './quiz-agent.js';
import { newQuizSeed } from './quiz-seed.js';
import { generationRounds, refuseShortfall } from './generation-rounds.js';

/**
 * The writer of generated room items of the other scored types: true/false, multiple correct answers,
 * ordering and numeric. Like the QuizAgent it writes from the retrieved passages (the same `QuizSource`), one model
 * call per round with a loose reply schema for the asked format; every proposed item must then pass its type's strict
 * schema, cite passages it was shown, not repeat another, and pass the item guard (typed-checks.ts: an ordering's
 * steps in the source's order, a numeric answer the source states…). A refused item's slot is asked for again with
 * the refusal as feedback, {@link MAX_GENERATION_ROUNDS} rounds at most. The server decides what the model only
 * proposes: a true/false statement is framed by one fixed question, a numeric item's tolerance is the server's
 * ({@link numericTolerance}). The offline model answers with typed-offline.ts.
 *
 * A deterministic model that can make fewer items than asked returns what it made with a shortfall naming why (the
 * material has no numbered steps, no number stated with a unit…); none at all is 422 TOO_LITTLE_MATERIAL with that
 * reason. Another model's shortfall is 502 MODEL_OUTPUT_INVALID (retryable), as for 4-choice items.
 *
 * These items do not go through the EvalAgent gate, whose judge scores 4-choice items: they carry no review.
 */

export const TYPED_TASK = 'quiz.typed';
export const TYPED_FORMATS = ['truefalse', 'multi', 'ordering', 'numeric'] as const;
export type TypedFormat = (typeof TYPED_FORMATS)[number];

export const TRUE_FALSE_QUESTION = '다음 문장이 자료의 내용과 맞으면 참, 틀리면 거짓을 고르세요.';
export const MULTI_QUESTION = '다음 중 자료의 내용과 맞는 것을 모두 고르세요.';
export const orderingQuestion = (lead?: string) => (lead === undefined ? '다음 단계를 자료에 나온 순서대로 놓으세요.' : `「${lead}」의 단계를 자료에 나온 순서대로 놓으세요.`);
export const numericQuestion = (blanked: string, unit: string) => `빈칸에 들어갈 수를 쓰세요(단위: ${unit}). 「${blanked}」`;

/** Exact for small whole numbers (counts); within 5 % otherwise (a number read off a text is an estimate's target). */
export function numericTolerance(answer: number): number {
  if (Number.isInteger(answer) && Math.abs(answer) < 20) return 0;
  return Number((Math.abs(answer) * 0.05).toPrecision(2));
}

/** What the model may propose for any format: loose, so one broken item does not sink the others. */
const RawTypedItemSchema = z.object({
  question: z.string().optional().describe('문제 (참/거짓이면 쓰지 않음)'),
  statement: z.string().optional().describe('참/거짓: 판정할 한 문장'),
  answer: z.union([z.boolean(), z.number()]).optional().describe('참/거짓: true 또는 false, 수치: 정답 수'),
  choices: z.array(z.string()).optional().describe('복수 정답: 보기 4~6개'),
  answers: z.array(z.number().int()).optional().describe('복수 정답: 맞는 보기의 번호들 (0부터)'),
  steps: z.array(z.string()).optional().describe('순서: 올바른 순서대로 쓴 단계 3~6개'),
  unit: z.string().optional().describe('수치: 단위'),
  tolerance: z.number().optional().describe('수치: 서버가 정합니다'),
  explanation: z.string().describe('해설: 정답의 근거가 되는 자료의 내용'),
  difficulty: Difficulty,
  sources: z.array(z.number().int()).describe('근거가 된 참고 자료의 번호들'),
});
export type RawTypedItem = z.infer<typeof RawTypedItemSchema>;
export const TypedReplySchema = z.object({ items: z.array(RawTypedItemSchema.nullable().catch(null)) });

/** 'quiz.typed' takes what 'quiz.generate' takes (quiz-agent.ts), and the item type wanted. */
export const TypedGenerateInput = QuizGenerateInput.extend({ format: z.enum(TYPED_FORMATS) });
export type TypedGenerateInput = z.infer<typeof TypedGenerateInput>;

const FORMAT_RULES: Record<TypedFormat, string> = {
  truefalse:
    '참/거짓 문항: statement(자료의 한 문장이거나 그 문장을 부정·변형한 문장 하나), answer(자료와 맞으면 true, 틀리면 false), explanation, difficulty, sources. 거짓 문장은 자료의 사실을 분명히 뒤집은 것이어야 하며, 참과 거짓을 고르게 섞으세요.',
  multi:
    '복수 정답 문항: question, choices(서로 다른 보기 4~6개), answers(자료와 맞는 보기의 번호들, 0부터; 맞는 보기와 틀린 보기가 각각 하나 이상), explanation, difficulty, sources.',
  ordering:
    '순서 문항: question(무엇의 순서인지), steps(자료에 나온 절차의 단계 3~6개를 자료의 순서 그대로, 자료의 표현대로), explanation, difficulty, sources. 자료에 순서가 있는 절차가 없으면 문항을 만들지 마세요.',
  numeric:
    '수치 문항: question(자료에 나온 수 하나를 묻는 질문; 질문에 정답 수를 쓰지 않음), answer(자료에 나온 그 수), unit(단위), explanation, difficulty, sources. 자료에 단위와 함께 나온 수가 없으면 문항을 만들지 마세요.',
};

/** The user prompt of one round (pure). */
export function renderTypedPrompt(input: TypedGenerateInput): string {
  const feedback = input.feedback.map((entry) => `- ${entry.slot + 1}번째 문항: ${entry.text.replace(/\s+/gu, ' ').trim()}`);
  return loadPrompt('quiz-typed').render({
    count: String(input.difficulties.length),
    rules: FORMAT_RULES[input.format],
    difficulties: input.difficulties.join(', '),
    scope: fence('출처', input.scope),
    avoid: fence('이미_낸_문제', input.avoid.length > 0 ? input.avoid.map((question) => `- ${question}`).join('\n') : '(없음)'),
    feedback: fence('수정_요청', feedback.length > 0 ? feedback.join('\n') : '(없음)'),
    reference: fence('참고_자료', referenceData(input.passages)),
  });
}

/** Why a material bears fewer items of a format than asked, in Korean (`scope`: 이 자료, 이 장). */
export function typedShortfallMessage(format: TypedFormat, scope: string, made: number, requested: number): string {
  const why: Record<TypedFormat, string> = {
    truefalse: '참·거짓을 가릴 수 있는 문장(부정할 수 있는 서술문)이 부족합니다',
    multi: '보기로 쓸 서술문(그중 부정할 수 있는 문장)이 부족합니다',
    ordering: '번호가 매겨진 단계 목록(1. 2. 3. …, 세 단계 이상)이 부족합니다',
    numeric: '단위와 함께 나온 수가 있는 문장이 부족합니다',
  };
  return made === 0
    ? `${scope}에는 ${why[format]}. 이 형식의 문항을 만들 수 없습니다. 다른 형식이나 다른 장을 골라 주세요.`
    : `${scope}에서 만들 수 있는 문항은 ${made}개입니다(요청 ${requested}개): ${why[format]}.`;
}

type Checked = { ok: true; item: RoomItem } | { ok: false; reason: string };

/** The strict item a raw proposal makes, with its cited passages. */
export function typedItemOf(format: TypedFormat, raw: RawTypedItem | null, passages: readonly Passage[]): Checked {
  if (raw === null) return { ok: false, reason: 'not an item of the requested shape' };
  const numbers = [...new Set(raw.sources)].sort((left, right) => left - right);
  if (numbers.length === 0) return { ok: false, reason: 'cites no passage' };
  if (numbers.some((number) => passages[number - 1] === undefined)) return { ok: false, reason: 'cites passages it was not shown' };
  const sources = numbers.map((number) => sourceOf(passages[number - 1] as Passage));
  const base = { explanation: raw.explanation, difficulty: raw.difficulty, sources };
  const parsed = (() => {
    switch (format) {
      case 'truefalse':
        return TrueFalseItem.safeParse({ ...base, type: 'truefalse', question: `${TRUE_FALSE_QUESTION} 「${(raw.statement ?? raw.question ?? '').trim()}」`, answer: raw.answer });
      case 'multi':
        return MultiItem.safeParse({ ...base, type: 'multi', question: raw.question, choices: raw.choices, answers: raw.answers });
      case 'ordering':
        return OrderingItem.safeParse({ ...base, type: 'ordering', question: raw.question, steps: raw.steps });
      case 'numeric': {
        const answer = typeof raw.answer === 'number' ? raw.answer : Number.NaN;
        return NumericItem.safeParse({ ...base, type: 'numeric', question: raw.question, answer, tolerance: Number.isFinite(answer) ? numericTolerance(answer) : 0, ...(raw.unit?.trim() ? { unit: raw.unit.trim() } : {}) });
      }
    }
  })();
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error) };
  if (format === 'truefalse' && (raw.statement ?? raw.question ?? '').trim() === '') return { ok: false, reason: 'no statement' };
  return { ok: true, item: parsed.data };
}

export interface TypedGeneration {
  items: RoomItem[];
  shortfall?: GenerationShortfall;
}

export interface GenerateTypedOptions {
  model: LanguageModel;
  source: QuizSource;
  format: TypedFormat;
  difficulty?: Difficulty | undefined;
  /** `이 자료` or `이 장`: where the shortfall says the items could not be found. */
  scopeLabel: string;
  seed?: string | undefined;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
  guard?: GuardReport | undefined;
}

/** Five items of one format from the source's passages (see the module comment). */
export async function generateTypedItems(options: GenerateTypedOptions): Promise<TypedGeneration> {
  const { model, source, format, signal } = options;
  const seed = options.seed ?? newQuizSeed();
  const wanted = difficultyPlan(options.difficulty);
  const passages = source.retrieval.passages;
  if (passages.length === 0) throw new AppError(ErrorCode.INVALID_PAYLOAD, '이 자료(또는 챕터)에는 퀴즈를 만들 본문이 없습니다.');
  const reference = referencePassages(passages);
  const accepted: RoomItem[] = [];
  const seen = new Set<string>();
  let feedback: { slot: number; text: string }[] = [];
  const deterministic = model.capabilities.deterministic;
  const rejected = await generationRounds({
    rounds: deterministic ? 1 : MAX_GENERATION_ROUNDS,
    missing: () => accepted.length < wanted.length,
    ask: async () => {
      const input: TypedGenerateInput = {
        format,
        scope: source.scope,
        passages: reference,
        difficulties: wanted.slice(accepted.length),
        feedback,
        avoid: accepted.map((item) => item.question),
        seed,
      };
      feedback = [];
      const { object } = await model.generateObject({
        task: TYPED_TASK,
        role: 'generation',
        temperature: QUIZ_TEMPERATURE,
        input,
        prompt: renderTypedPrompt(input),
        schema: TypedReplySchema,
        attribution: { materialId: source.materialId },
        ...(signal ? { signal } : {}),
      });
      return object;
    },
    take: (reply, round, reject) => {
      for (const [position, raw] of reply.items.entries()) {
        if (accepted.length >= wanted.length) break;
        const checked = typedItemOf(format, raw, passages);
        if (!checked.ok) {
          reject(`round ${round} item ${position}: ${checked.reason}`);
          continue;
        }
        const { item } = checked;
        const key = questionKey(format === 'truefalse' || format === 'numeric' ? item.question : `${item.question}\u0000${JSON.stringify(item)}`);
        if (seen.has(key)) {
          reject(`round ${round} item ${position}: duplicate`);
          continue;
        }
        const cited = (item.sources ?? []).map((entry) => passages.find((passage) => passage.chunkId === entry.chunkId)?.text ?? '');
        const refusals = checkTypedItem(item as Parameters<typeof checkTypedItem>[0], { passages: cited });
        if (refusals.length > 0) {
          reject(`round ${round} item ${position}: ${refusals.map((refusal) => refusal.rule).join(', ')}`);
          options.guard?.refused(refusalsOf(TYPED_TASK, item.question, refusals, { materialId: source.materialId }));
          feedback.push({ slot: feedback.length, text: rewriteFeedback(refusals) });
          continue;
        }
        seen.add(key);
        accepted.push(item);
      }
    },
  });
  if (rejected.length > 0) options.logger?.warn({ materialId: source.materialId, format, rejected }, 'typed quiz items rejected');
  refuseShortfall({ made: accepted.length, wanted: wanted.length, deterministic, rejected, tooLittle: typedShortfallMessage(format, options.scopeLabel, 0, wanted.length) });
  const ids = new Set<string>();
  const items = accepted.map((item) => ({ ...item, quizId: newItemId(ids) }));
  return {
    items,
    ...(items.length < wanted.length
      ? { shortfall: { requested: wanted.length, made: items.length, reason: 'too-little-material' as const, message: typedShortfallMessage(format, options.scopeLabel, items.length, wanted.length) } }
      : {}),
  };
}
