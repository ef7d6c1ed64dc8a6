import { z } from 'zod';
import { AppError } from '../errors.js';
import type { ModelRole } from '../config.js';
import type { Logger } from '../logger.js';
import { ModelError, loadPrompt, type LanguageModel } from '../llm/index.js';
import { fence } from '../text/index.js';
import type { Material } from '../materials/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { Difficulty, QuizItem } from '../protocol/quiz.js';
import { newQuizSeed, shuffleChoices } from './quiz-seed.js';

/**
 * The QuizAgent (seed 001, 기능 A): five 4-choice items written from a material or one of its chapters. The model
 * proposes, the server decides: every proposed item must pass the strict `QuizItem` schema and fill a slot of the
 * difficulty plan; an item that does not (three choices, duplicate choices, an answer index of 4, a repeated
 * question, a difficulty nobody asked for) is dropped and only the missing slots are asked for again, a few rounds
 * at most. A quiz is never returned short or with a broken item. Every quiz has a seed (quiz-seed.ts) that orders
 * each item's choices and steers the offline builder, so its answer key cannot be predicted from the material.
 */

export const QUIZ_TASKS = { generate: 'quiz.generate' } as const;

export const QUIZ_ITEM_COUNT = 5;
/** Model rounds before giving up; each later round asks only for the slots still empty. */
export const MAX_GENERATION_ROUNDS = 3;
/**
 * Source text beyond this is cut (at a paragraph break when there is one): a whole 500-page material would make
 * a prompt that is slow and costly for five questions. Pick a chapter to quiz on later parts.
 */
export const MAX_SOURCE_CHARS = 60_000;
/** Seed 001: 퀴즈 생성 uses temperature 0.7 for varied questions. */
export const QUIZ_TEMPERATURE = 0.7;
const QUIZ_ROLE: ModelRole = 'generation';

/** Seed 001's difficulty plan: five of the given difficulty, or easy 2 + medium 2 + hard 1 when none is given. */
export function difficultyPlan(difficulty?: Difficulty): Difficulty[] {
  if (difficulty !== undefined) return Array.from({ length: QUIZ_ITEM_COUNT }, () => difficulty);
  return ['easy', 'easy', 'medium', 'medium', 'hard'];
}

/**
 * What the model is asked to return: deliberately loose (any number of choices, any answer index), so one broken
 * item does not sink the other four; each item is then checked with the strict `QuizItem` schema. An item that is
 * not even an object of the right field types becomes null instead of failing the whole reply.
 */
const RawQuizItem = z.object({
  question: z.string().describe('문제: 자료에 근거한 질문 한두 문장'),
  choices: z.array(z.string()).describe('서로 다른 보기 정확히 4개'),
  answer: z.number().int().describe('정답 보기의 번호 (0부터 3까지)'),
  explanation: z.string().describe('해설: 정답의 근거가 되는 자료의 내용'),
  difficulty: Difficulty.describe('이 문항의 난이도'),
});
export const QuizReplySchema = z.object({
  items: z.array(RawQuizItem.nullable().catch(null)).describe('요청한 개수의 문항, 요청한 난이도 순서대로'),
});
export type QuizReply = z.infer<typeof QuizReplySchema>;

/** The structured input of 'quiz.generate' (what the offline model works from; the prompt is built from it too). */
export const QuizGenerateInput = z.object({
  /** Where the text comes from, for the prompt (e.g. `자료 「기초 통계」 2장 「기댓값」`). */
  scope: z.string(),
  text: z.string(),
  /** One entry per item wanted, in order. */
  difficulties: z.array(Difficulty).min(1),
  /** Questions already accepted: the reply must not repeat them. */
  avoid: z.array(z.string()).default([]),
  /** The quiz's seed (quiz-seed.ts): what the offline builder leaves to chance. Not part of the prompt. */
  seed: z.string().optional(),
});
export type QuizGenerateInput = z.infer<typeof QuizGenerateInput>;

/** What the agent needs of the materials (MaterialService has all three). */
export interface QuizMaterialSource {
  get(id: string): Promise<Material | null>;
  chapterText(id: string, index: number): Promise<string>;
  materialText(id: string): Promise<string>;
}

export interface QuizSource {
  materialId: string;
  /** The chapter's title, or the material's when the whole material is quizzed. */
  title: string;
  scope: string;
  text: string;
}

/**
 * The text a quiz is written from: one chapter's pages, or the whole material. An unknown material is 404
 * MATERIAL_NOT_FOUND; a chapter index the material does not have is 400 INVALID_PAYLOAD naming the valid range
 * (the index comes from the request body, so it is a bad request rather than a missing resource).
 */
export async function loadQuizSource(materials: QuizMaterialSource, materialId: string, chapter?: number): Promise<QuizSource> {
  const material = await materials.get(materialId);
  if (!material) throw new AppError(ErrorCode.MATERIAL_NOT_FOUND, '강의 자료를 찾을 수 없습니다.', { status: 404 });
  if (chapter === undefined) {
    return {
      materialId,
      title: material.title,
      scope: `자료 「${material.title}」 전체`,
      text: truncateSource(await materials.materialText(materialId)),
    };
  }
  const found = material.chapters.find((entry) => entry.index === chapter);
  if (!found) {
    const last = material.chapters.length - 1;
    throw new AppError(
      ErrorCode.INVALID_PAYLOAD,
      `요청 형식이 올바르지 않습니다. chapter: 이 자료의 챕터 번호는 0부터 ${last}까지입니다.`,
      { status: 400 },
    );
  }
  return {
    materialId,
    title: found.title,
    scope: `자료 「${material.title}」 ${chapter + 1}장 「${found.title}」`,
    text: truncateSource(await materials.chapterText(materialId, chapter)),
  };
}

export function truncateSource(text: string, max = MAX_SOURCE_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n\n', max);
  return text.slice(0, cut > max / 2 ? cut : max);
}

const DIFFICULTY_NAMES: readonly Difficulty[] = ['easy', 'medium', 'hard'];

/** `easy 2문항, medium 2문항, hard 1문항` (in this order), or `모두 hard` when all are alike. */
export function difficultyInstruction(difficulties: readonly Difficulty[]): string {
  const counts = DIFFICULTY_NAMES.map((name) => [name, difficulties.filter((entry) => entry === name).length] as const).filter(
    ([, count]) => count > 0,
  );
  if (counts.length === 1 && counts[0] !== undefined) return `${difficulties.length}문항 모두 ${counts[0][0]}`;
  return `${counts.map(([name, count]) => `${name} ${count}문항`).join(', ')} (이 순서로)`;
}

/** The user prompt of one generation round (pure; pinned by exact-output tests). */
export function renderQuizPrompt(input: QuizGenerateInput): string {
  // Material text, titles and earlier questions are untrusted (anyone can upload a PDF): fenced, never bare.
  return loadPrompt('quiz-generate').render({
    scope: fence('출처', input.scope),
    count: String(input.difficulties.length),
    difficulties: difficultyInstruction(input.difficulties),
    avoid: fence('이미_낸_문제', input.avoid.length > 0 ? input.avoid.map((question) => `- ${question}`).join('\n') : '(없음)'),
    source: fence('자료', input.text),
  });
}

/** Two questions are the same when they differ only in spacing or letter case. */
export function questionKey(question: string): string {
  return question.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

export interface GenerateQuizItemsOptions {
  model: LanguageModel;
  source: QuizSource;
  difficulty?: Difficulty | undefined;
  /** The quiz's seed (quiz-seed.ts); a fresh random one when absent. Store it to reproduce the quiz. */
  seed?: string | undefined;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

/** Runs the agent on an already loaded source; see the module comment for the rules. */
export async function generateQuizItems(options: GenerateQuizItemsOptions): Promise<QuizItem[]> {
  const { model, source, signal, logger } = options;
  const seed = options.seed ?? newQuizSeed();
  const plan = difficultyPlan(options.difficulty);
  const missing = [...plan];
  const accepted: QuizItem[] = [];
  const seen = new Set<string>();
  const rejected: string[] = [];

  for (let round = 1; round <= MAX_GENERATION_ROUNDS && missing.length > 0; round += 1) {
    const input: QuizGenerateInput = {
      scope: source.scope,
      text: source.text,
      difficulties: [...missing],
      avoid: accepted.map((item) => item.question),
      seed,
    };
    let reply: QuizReply;
    try {
      const result = await model.generateObject({
        task: QUIZ_TASKS.generate,
        role: QUIZ_ROLE,
        temperature: QUIZ_TEMPERATURE,
        input,
        prompt: renderQuizPrompt(input),
        schema: QuizReplySchema,
        attribution: { materialId: source.materialId },
        ...(signal ? { signal } : {}),
      });
      reply = result.object;
    } catch (error) {
      // A reply that did not even parse (after the adapter's own repair turn) is one more failed round.
      if (error instanceof ModelError && error.code === ErrorCode.MODEL_OUTPUT_INVALID) {
        rejected.push(`round ${round}: ${error.message}`);
        continue;
      }
      throw error;
    }
    for (const [index, raw] of reply.items.entries()) {
      if (missing.length === 0) break;
      const verdict = checkItem(raw, missing, seen);
      if (!verdict.ok) {
        rejected.push(`round ${round} item ${index}: ${verdict.reason}`);
        continue;
      }
      accepted.push(verdict.item);
      seen.add(questionKey(verdict.item.question));
      missing.splice(missing.indexOf(verdict.item.difficulty), 1);
    }
  }

  if (rejected.length > 0) logger?.warn({ materialId: source.materialId, rejected }, 'quiz items rejected');
  if (missing.length > 0) {
    throw new ModelError(
      ErrorCode.MODEL_OUTPUT_INVALID,
      `AI 모델이 올바른 퀴즈 문항을 만들지 못했습니다(${plan.length}문항 중 ${accepted.length}문항). 잠시 후 다시 시도해 주세요.`,
      { cause: new Error(rejected.join('\n')), retryable: true },
    );
  }
  // Plan order (easy first), whatever order the rounds filled the slots in; choices in the seed's order, whatever
  // order the model wrote them in.
  return DIFFICULTY_NAMES.flatMap((name) => accepted.filter((item) => item.difficulty === name)).map((item) => shuffleChoices(item, seed));
}

type ItemCheck = { ok: true; item: QuizItem } | { ok: false; reason: string };

function checkItem(raw: unknown, missing: readonly Difficulty[], seen: ReadonlySet<string>): ItemCheck {
  if (raw === null) return { ok: false, reason: 'not an item of the requested shape' };
  const parsed = QuizItem.safeParse(raw);
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error) };
  if (!missing.includes(parsed.data.difficulty)) return { ok: false, reason: `difficulty ${parsed.data.difficulty} not asked for` };
  if (seen.has(questionKey(parsed.data.question))) return { ok: false, reason: 'duplicate question' };
  return { ok: true, item: parsed.data };
}

export interface GenerateQuizOptions {
  model: LanguageModel;
  materials: QuizMaterialSource;
  materialId: string;
  seed?: string | undefined;
  /** 0-based chapter index; the whole material when absent. */
  chapter?: number | undefined;
  difficulty?: Difficulty | undefined;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
}

/**
 * Five validated items for a material (or one chapter of it): 404 MATERIAL_NOT_FOUND, 400 INVALID_PAYLOAD for a
 * chapter the material lacks, 502 MODEL_OUTPUT_INVALID when the model cannot fill every slot in
 * {@link MAX_GENERATION_ROUNDS} rounds; other model failures pass through as their ModelError.
 */
export async function generateQuiz(options: GenerateQuizOptions): Promise<QuizItem[]> {
  const source = await loadQuizSource(options.materials, options.materialId, options.chapter);
  return generateQuizItems({
    model: options.model,
    source,
    difficulty: options.difficulty,
    seed: options.seed,
    signal: options.signal,
    logger: options.logger,
  });
}
