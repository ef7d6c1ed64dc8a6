import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError } from '../kernel/index.js';
import type { ModelRole } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { loadPrompt, type LanguageModel } from '../llm/index.js';
import { fence } from '../text/index.js';
import { checkQuizItem, duplicateRefusals, refusalsOf, rewriteFeedback, type GuardReport, type Refusal } from '../guard/index.js';
import type { Material } from '../materials/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { Difficulty, QuizItem, type QuizItemSource, type QuizTopicName } from '../protocol/quiz.js';
import type { Passage, Retriever } from '../retrieval/index.js';
import { QUIZ_PASSAGE_COUNT, retrieveQuizPassages, type QuizRetrieval } from './quiz-passages.js';
import { balanceKeys, newQuizSeed } from './quiz-seed.js';
import { generationRounds, refuseShortfall } from './generation-rounds.js';
import { quizFilters, resolveTopic, SEED_TOPIC_MAP, type TopicMap } from './quiz-topics.js';

/**
 * The QuizAgent (seed 001, 기능 A): five 4-choice items written from ten passages of the material's retrieval index
 * (quiz-passages.ts), chosen by topic (→ document type), difficulty (→ level) and chapter (quiz-topics.ts), shown to
 * the model as the seed's reference data (`- [n] 내용 (메타데이터)`). The model proposes, the server decides: every
 * proposed item must pass the strict `QuizItem` schema, cite passages it was shown, and fill a slot of the
 * difficulty plan; an item that does not (three choices, duplicate choices, an answer index of 4, a repeated
 * question, a difficulty nobody asked for, no or unknown passage numbers) is dropped and only the missing slots are
 * asked for again, a few rounds at most. Every proposed item also passes the item guard (src/guard: placeholders, the
 * medium, repeats, front matter, cloze blanks that are no whole key noun of the cited passages, choices, particles);
 * a refused item is reported (logged, counted in the AI 품질 console) and its slot asked for again with the
 * refusal as feedback. A quiz is never returned with a broken item; it is returned short only by a deterministic
 * model (asking again would give the same), with what it could make. Every quiz has a seed
 * (quiz-seed.ts) that orders each item's choices and steers the offline builder, so its answer key cannot be
 * predicted from the material. Every item gets an 8-hex `quizId` and the passages it cites as `sources`.
 *
 * For a judge gate (EvalAgent) wrapping it: the result carries the passages and how they were found, and
 * {@link generateQuizItems} takes explicit slots with review feedback, so only the rejected items are written again.
 */

export const QUIZ_TASKS = { generate: 'quiz.generate' } as const;

export const QUIZ_ITEM_COUNT = 5;
/** Model rounds before giving up; each later round asks only for the slots still empty. */
export const MAX_GENERATION_ROUNDS = 3;
/** Seed 001: 퀴즈 생성 uses temperature 0.7 for varied questions. */
export const QUIZ_TEMPERATURE = 0.7;
const QUIZ_ROLE: ModelRole = 'generation';

/** Seed 001's difficulty plan: five of the given difficulty, or easy 2 + medium 2 + hard 1 when none is given. */
export function difficultyPlan(difficulty?: Difficulty): Difficulty[] {
  if (difficulty !== undefined) return Array.from({ length: QUIZ_ITEM_COUNT }, () => difficulty);
  return ['easy', 'easy', 'medium', 'medium', 'hard'];
}

/**
 * What the model is asked to return: deliberately loose (any number of choices, any answer index, any passage
 * numbers), so one broken item does not sink the other four; each item is then checked with the strict `QuizItem`
 * schema and against the passages shown. An item that is not even an object of the right field types becomes null
 * instead of failing the whole reply.
 */
const RawQuizItem = z.object({
  question: z.string().describe('문제: 자료에 근거한 질문 한두 문장'),
  choices: z.array(z.string()).describe('서로 다른 보기 정확히 4개'),
  answer: z.number().int().describe('정답 보기의 번호 (0부터 3까지)'),
  explanation: z.string().describe('해설: 정답의 근거가 되는 자료의 내용'),
  difficulty: Difficulty.describe('이 문항의 난이도'),
  sources: z.array(z.number().int()).describe('이 문항의 근거가 된 참고 자료의 번호들'),
});
export const QuizReplySchema = z.object({
  items: z.array(RawQuizItem.nullable().catch(null)).describe('요청한 개수의 문항, 요청한 난이도 순서대로'),
});
export type QuizReply = z.infer<typeof QuizReplySchema>;

/** One passage as shown to the model: its number in the reference data, its text, its metadata line. */
export const ReferencePassage = z.object({ number: z.number().int().min(1), text: z.string(), meta: z.string() });
export type ReferencePassage = z.infer<typeof ReferencePassage>;

/** The structured input of 'quiz.generate' (what the offline model works from; the prompt is built from it too). */
export const QuizGenerateInput = z.object({
  /** Where the passages come from, for the prompt (e.g. `자료 「기초 통계」 2장 「기댓값」`). */
  scope: z.string(),
  /** The retrieved passages, numbered from 1: the items cite these numbers. */
  passages: z.array(ReferencePassage).min(1),
  /** One entry per item wanted, in order. */
  difficulties: z.array(Difficulty).min(1),
  /** Review feedback for some of the wanted items (index into `difficulties`). */
  feedback: z.array(z.object({ slot: z.number().int().min(0), text: z.string() })).default([]),
  /** Questions already accepted: the reply must not repeat them. */
  avoid: z.array(z.string()).default([]),
  /** The quiz's seed (quiz-seed.ts): what the offline builder leaves to chance. Not part of the prompt. */
  seed: z.string().optional(),
});
export type QuizGenerateInput = z.input<typeof QuizGenerateInput>;

/** What the agent needs of the materials (MaterialService has it). */
export interface QuizMaterialSource {
  get(id: string): Promise<Material | null>;
}

export interface QuizSource {
  materialId: string;
  /** The chapter's title, or the material's when the whole material is quizzed. */
  title: string;
  scope: string;
  /** The passages the items are written from, and how they were found (filters, relaxing). */
  retrieval: QuizRetrieval;
}

export interface QuizScope {
  /** 0-based chapter index; the whole material when absent. */
  chapter?: number | undefined;
  /** A topic of the map or a document type; `general` or absent: no document-type filter. */
  topic?: QuizTopicName | undefined;
  /** A key term of the material: the retrieval query (before the topic's words and the chapter's title). */
  focus?: string | undefined;
  /** Also the passages' level (easy → beginner, medium → working, hard → manager). */
  difficulty?: Difficulty | undefined;
}

/**
 * The passages a quiz is written from (see quiz-passages.ts for relaxing). The query is the topic's words when a
 * topic is given, else the chapter's title, else the material's title: what the quiz is about, in the material's
 * own words where there are any. An unknown material is 404 MATERIAL_NOT_FOUND; a chapter index the material does
 * not have is 400 INVALID_PAYLOAD naming the valid range (the index comes from the request body, so it is a bad
 * request rather than a missing resource).
 */
export async function loadQuizSource(
  materials: QuizMaterialSource,
  retriever: Retriever,
  materialId: string,
  scope: QuizScope = {},
  options: { topics?: TopicMap; signal?: AbortSignal | undefined } = {},
): Promise<QuizSource> {
  const material = await materials.get(materialId);
  if (!material) throw new AppError(ErrorCode.MATERIAL_NOT_FOUND);
  const topic = scope.topic === undefined ? undefined : resolveTopic(scope.topic, options.topics ?? SEED_TOPIC_MAP);
  const topicLabel = topic?.documentType === undefined ? '' : ` · 주제 ${scope.topic ?? ''} (${topic.documentType})`;
  let title = material.title;
  let where = `자료 「${material.title}」 전체`;
  if (scope.chapter !== undefined) {
    const found = material.chapters.find((entry) => entry.index === scope.chapter);
    if (!found) {
      const last = material.chapters.length - 1;
      throw new AppError(
        ErrorCode.INVALID_PAYLOAD,
        `요청 형식이 올바르지 않습니다. chapter: 이 자료의 챕터 번호는 0부터 ${last}까지입니다.`,
      );
    }
    title = found.title;
    where = `자료 「${material.title}」 ${scope.chapter + 1}장 「${found.title}」`;
  }
  const query = scope.focus ?? (topic !== undefined && topic.query !== '' ? topic.query : title);
  const retrieval = await retrieveQuizPassages({
    retriever,
    materialId,
    query,
    filters: quizFilters({ chapter: scope.chapter, topic, difficulty: scope.difficulty }),
    k: QUIZ_PASSAGE_COUNT,
    signal: options.signal,
  });
  const focusLabel = scope.focus === undefined ? '' : ` · 핵심 용어 「${scope.focus}」`;
  return { materialId, title, scope: `${where}${topicLabel}${focusLabel}`, retrieval };
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

/** A passage's metadata as the reference data shows it: `2장 「기댓값」, 5–7쪽, definition, beginner`. */
export function passageMeta(passage: Passage): string {
  const pages = passage.startPage === passage.endPage ? `${passage.startPage}쪽` : `${passage.startPage}–${passage.endPage}쪽`;
  return `${passage.chapter + 1}장 「${passage.chapterTitle}」, ${pages}, ${passage.documentType}, ${passage.level}`;
}

/** The retrieved passages numbered for the prompt and the offline builder. */
export function referencePassages(passages: readonly Passage[]): ReferencePassage[] {
  return passages.map((passage, index) => ({ number: index + 1, text: passage.text, meta: passageMeta(passage) }));
}

/** Seed 001's reference data: one passage a line, `- [n] 내용 (메타데이터)`, its text on one line. */
export function referenceData(passages: readonly ReferencePassage[]): string {
  return passages.map((passage) => `- [${passage.number}] ${passage.text.replace(/\s+/gu, ' ').trim()} (${passage.meta})`).join('\n');
}

/** The user prompt of one generation round (pure; pinned by exact-output tests). */
export function renderQuizPrompt(input: QuizGenerateInput): string {
  const parsed = QuizGenerateInput.parse(input);
  const feedback = parsed.feedback
    .filter((entry) => entry.slot < parsed.difficulties.length)
    .map((entry) => `- ${entry.slot + 1}번째 문항(${parsed.difficulties[entry.slot] ?? ''}): ${entry.text.replace(/\s+/gu, ' ').trim()}`);
  // Passages, titles, earlier questions and review feedback are untrusted (anyone can upload a PDF): fenced, never bare.
  return loadPrompt('quiz-generate').render({
    scope: fence('출처', parsed.scope),
    count: String(parsed.difficulties.length),
    difficulties: difficultyInstruction(parsed.difficulties),
    avoid: fence('이미_낸_문제', parsed.avoid.length > 0 ? parsed.avoid.map((question) => `- ${question}`).join('\n') : '(없음)'),
    feedback: fence('수정_요청', feedback.length > 0 ? feedback.join('\n') : '(없음)'),
    reference: fence('참고_자료', referenceData(parsed.passages)),
  });
}

/** Two questions are the same when they differ only in spacing or letter case. */
export function questionKey(question: string): string {
  return question.normalize('NFC').replace(/\s+/gu, ' ').trim().toLowerCase();
}

/** One item wanted: its difficulty and, when a reviewer sent it back, what to do better. */
export interface QuizSlot {
  difficulty: Difficulty;
  feedback?: string | undefined;
}

export interface GenerateQuizItemsOptions {
  model: LanguageModel;
  source: QuizSource;
  difficulty?: Difficulty | undefined;
  /** The items wanted (default: the difficulty plan). A judge gate passes only the rejected slots, with feedback. */
  slots?: readonly QuizSlot[] | undefined;
  /** Questions kept from earlier (e.g. the items a judge passed): not to be repeated. */
  avoid?: readonly string[] | undefined;
  /** The quiz's seed (quiz-seed.ts); a fresh random one when absent. Store it to reproduce the quiz. */
  seed?: string | undefined;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
  /** Where the item guard's refusals go (logged and counted); refusals still refuse without it. */
  guard?: GuardReport | undefined;
}

/**
 * Runs the agent on already retrieved passages; one item per slot, in slot order. See the module comment. A
 * deterministic model's items come back fewer than the slots when it could not fill them (never none: that is 422
 * TOO_LITTLE_MATERIAL); another model's shortfall is 502 MODEL_OUTPUT_INVALID (retryable).
 */
export async function generateQuizItems(options: GenerateQuizItemsOptions): Promise<QuizItem[]> {
  const { model, source, signal, logger } = options;
  const seed = options.seed ?? newQuizSeed();
  const slots: readonly QuizSlot[] = options.slots ?? difficultyPlan(options.difficulty).map((difficulty) => ({ difficulty }));
  const passages = source.retrieval.passages;
  if (passages.length === 0) {
    throw new AppError(ErrorCode.INVALID_PAYLOAD, '이 자료(또는 챕터)에는 퀴즈를 만들 본문이 없습니다.');
  }
  const reference = referencePassages(passages);
  const filled: (QuizItem | undefined)[] = slots.map(() => undefined);
  const seen = new Set<string>((options.avoid ?? []).map(questionKey));
  /** What the guard said of the last item written for a slot: its feedback for the next round. */
  const guardFeedback = new Map<number, string>();
  const open = () => slots.flatMap((slot, index) => (filled[index] === undefined ? [index] : []));
  /** The slots asked for in the current round, in the order asked (a reply's items come in that order). */
  let missing: number[] = [];

  const rejected = await generationRounds({
    rounds: MAX_GENERATION_ROUNDS,
    missing: () => open().length > 0,
    ask: async () => {
      missing = open();
      const input: QuizGenerateInput = {
        scope: source.scope,
        passages: reference,
        difficulties: missing.map((index) => slots[index]?.difficulty ?? 'easy'),
        feedback: missing.flatMap((index, position) => {
          const text = [slots[index]?.feedback, guardFeedback.get(index)].filter((entry) => entry !== undefined && entry.trim() !== '').join(' ');
          return text === '' ? [] : [{ slot: position, text }];
        }),
        avoid: [...(options.avoid ?? []), ...filled.flatMap((item) => (item ? [item.question] : []))],
        seed,
      };
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
      return result.object;
    },
    take: (reply, round, reject) => {
      for (const [position, raw] of reply.items.entries()) {
        const still = open();
        if (still.length === 0) break;
        const verdict = checkItem(raw, passages, seen);
        if (!verdict.ok) {
          reject(`round ${round} item ${position}: ${verdict.reason}`);
          continue;
        }
        const accepted = filled.filter((item): item is QuizItem => item !== undefined);
        const refusals = guardItem(verdict.item, passages, accepted, options.avoid ?? []);
        if (refusals.length > 0) {
          reject(`round ${round} item ${position}: ${refusals.map((refusal) => refusal.rule).join(', ')}`);
          options.guard?.refused(refusalsOf(QUIZ_TASKS.generate, verdict.item.question, refusals, { materialId: source.materialId }));
          const meant = missing[position];
          if (meant !== undefined) guardFeedback.set(meant, rewriteFeedback(refusals));
          continue;
        }
        // The slot the reply meant (items come in the order asked), else the first open one of that difficulty.
        const meant = missing[position];
        const slot =
          meant !== undefined && filled[meant] === undefined && slots[meant]?.difficulty === verdict.item.difficulty
            ? meant
            : still.find((index) => slots[index]?.difficulty === verdict.item.difficulty);
        if (slot === undefined) {
          reject(`round ${round} item ${position}: difficulty ${verdict.item.difficulty} not asked for`);
          continue;
        }
        filled[slot] = verdict.item;
        seen.add(questionKey(verdict.item.question));
      }
    },
  });

  if (rejected.length > 0) logger?.warn({ materialId: source.materialId, rejected }, 'quiz items rejected');
  const items = filled.filter((item): item is QuizItem => item !== undefined);
  refuseShortfall({
    made: items.length,
    wanted: slots.length,
    deterministic: model.capabilities.deterministic,
    rejected,
    tooLittle: '이 자료(또는 장)에서는 근거가 충분한 퀴즈 문항을 만들 수 없습니다. 다른 장을 고르거나 내용이 더 많은 자료를 올려 주세요.',
  });
  // Slot order (the plan's: easy first), whatever order the rounds filled them in; choices in the seed's order,
  // whatever order the model wrote them in; a fresh quizId each.
  const ids = new Set<string>();
  return balanceKeys(items, seed).map((item) => ({ ...item, quizId: newItemId(ids) }));
}

/** Seed 001's `quiz_id`: 8 hex characters from the CSPRNG, unique within the quiz. */
export function newItemId(taken: Set<string>): string {
  for (;;) {
    const id = randomBytes(4).toString('hex');
    if (taken.has(id)) continue;
    taken.add(id);
    return id;
  }
}

/** A retrieved passage as an item cites it. */
export function sourceOf(passage: Passage): QuizItemSource {
  const { chunkId, chapter, chapterTitle, startPage, endPage } = passage;
  return { chunkId, chapter, chapterTitle, startPage, endPage };
}

/**
 * The item guard's refusals of a checked item: its own rules against the passages it cites, and a repeat of an item
 * already accepted (the same question, or another blank of the same sentence).
 */
function guardItem(item: QuizItem, passages: readonly Passage[], accepted: readonly QuizItem[], avoid: readonly string[]): Refusal[] {
  const cited = (item.sources ?? []).map((source) => passages.find((passage) => passage.chunkId === source.chunkId)?.text ?? '');
  const own = checkQuizItem(item, { passages: cited.length > 0 ? cited : passages.map((passage) => passage.text) });
  const withKey = (entry: QuizItem) => ({ question: entry.question, key: entry.choices[entry.answer] });
  const repeats = duplicateRefusals([...accepted.map(withKey), withKey(item)], avoid).at(-1) ?? [];
  return [...own, ...repeats];
}

type ItemCheck = { ok: true; item: QuizItem } | { ok: false; reason: string };

function checkItem(raw: QuizReply['items'][number], passages: readonly Passage[], seen: ReadonlySet<string>): ItemCheck {
  if (raw === null) return { ok: false, reason: 'not an item of the requested shape' };
  const { sources: cited, ...fields } = raw;
  const parsed = QuizItem.safeParse(fields);
  if (!parsed.success) return { ok: false, reason: z.prettifyError(parsed.error) };
  // Citations must name passages the model was shown: an item citing none, or a passage 12 of 10, is not grounded.
  const numbers = [...new Set(cited)];
  if (numbers.length === 0) return { ok: false, reason: 'cites no passage' };
  const unknown = numbers.filter((number) => passages[number - 1] === undefined);
  if (unknown.length > 0) return { ok: false, reason: `cites passages it was not shown: ${unknown.join(', ')}` };
  if (seen.has(questionKey(parsed.data.question))) return { ok: false, reason: 'duplicate question' };
  const sources = numbers.sort((left, right) => left - right).map((number) => sourceOf(passages[number - 1] as Passage));
  return { ok: true, item: { ...parsed.data, sources } };
}

export interface GenerateQuizOptions extends QuizScope {
  model: LanguageModel;
  materials: QuizMaterialSource;
  retriever: Retriever;
  materialId: string;
  seed?: string | undefined;
  topics?: TopicMap | undefined;
  signal?: AbortSignal | undefined;
  logger?: Logger | undefined;
  guard?: GuardReport | undefined;
}

/** A generated quiz with what it rests on, so a judge gate can check every item against its passages. */
export interface QuizGeneration {
  items: QuizItem[];
  seed: string;
  source: QuizSource;
}

/**
 * Five validated items for a material (or one chapter, topic, difficulty of it): 404 MATERIAL_NOT_FOUND, 400
 * INVALID_PAYLOAD for a chapter the material lacks, 502 MODEL_OUTPUT_INVALID when the model cannot fill every slot in
 * {@link MAX_GENERATION_ROUNDS} rounds; other model failures pass through as their ModelError.
 */
export async function generateQuiz(options: GenerateQuizOptions): Promise<QuizGeneration> {
  const { chapter, topic, difficulty } = options;
  const source = await loadQuizSource(options.materials, options.retriever, options.materialId, { chapter, topic, focus: options.focus, difficulty }, {
    ...(options.topics ? { topics: options.topics } : {}),
    signal: options.signal,
  });
  const seed = options.seed ?? newQuizSeed();
  const items = await generateQuizItems({ model: options.model, source, difficulty, seed, signal: options.signal, logger: options.logger, guard: options.guard });
  return { items, seed, source };
}
