import { z } from 'zod';
import type { CommandSchemas } from './command-schemas.js';
import { Nickname } from './display-name.js';
import { CLOUD_WORDS, MAX_QUIZ_ITEMS, MAX_TEXT_ANSWER, QUESTION_TYPES, QUIZ_TOPIC_NAMES } from './wire/quiz.js';
import type * as wire from './wire/quiz.js';

/**
 * The zod schemas of quizzes and of the `/quiz` commands (server only). Their types and the events of `/quiz` are
 * in ./wire/quiz.ts (browser-safe), re-exported here.
 */
export type * from './wire/quiz.js';
export { CLOUD_WORDS, MAX_QUIZ_ITEMS, MAX_TEXT_ANSWER, QUESTION_TYPES, QUIZ_TOPIC_NAMES };

// ---- quiz items
export const Difficulty = z.enum(['easy', 'medium', 'hard']) satisfies z.ZodType<wire.Difficulty>;
export type Difficulty = wire.Difficulty;

const ItemText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    // eslint-disable-next-line no-control-regex
    .refine((value) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value), '제어 문자는 쓸 수 없습니다.');

/** A page of a material as an item's picture (wire.PagePicture); the server checks the material and the page on save. */
export const PagePicture = z
  .object({
    kind: z.literal('page'),
    materialId: z.string().regex(/^[0-9a-f]{32}$/, 'materialId는 자료의 id(16진수 32자리)입니다.'),
    page: z.number({ error: 'page는 자료의 쪽 번호(1부터)입니다.' }).int('page는 자료의 쪽 번호(1부터)입니다.').min(1, 'page는 1쪽부터입니다.').max(100_000),
  })
  .strict() satisfies z.ZodType<wire.PagePicture>;
export type PagePicture = wire.PagePicture;

/** An item's picture (wire.ItemPicture): an uploaded image's id or a material's page, and its alt text. */
const picture = {
  image: z
    .union([z.string().regex(/^[0-9a-f]{32}$/, 'image는 올린 그림의 id(16진수 32자리)입니다.'), PagePicture], {
      error: 'image는 올린 그림의 id(16진수 32자리)이거나 {kind: "page", materialId, page}입니다.',
    })
    .optional(),
  imageAlt: z.string().trim().max(300).optional(),
};

/** Seed 001's `quiz_id`: 8 hex characters, unique within a quiz. */
export const ItemQuizId = z.string().regex(/^[0-9a-f]{8}$/, 'quizId는 16진수 8자리입니다.');

/**
 * An item of a class quiz as seed 001's `/answer` and `/evaluate` address it: `<quiz id>:<item index>` (the quiz's 32
 * hex characters, a colon, the 0-based index of the item in the quiz), e.g. `0f…e1:2`.
 */
export const CLASS_ITEM_ID = /^([0-9a-f]{32}):(\d{1,3})$/;

/** Seed 001's `quiz_id` of `/answer` and `/evaluate`: a self-study item's 8 hex characters, or a class quiz item. */
// One string check with one message (a union's failure would name neither form).
export const SeedItemId = z.string().refine((id) => ItemQuizId.safeParse(id).success || CLASS_ITEM_ID.test(id), 'quizId는 16진수 8자리이거나 「퀴즈 id:문항 번호」입니다.');

export const QuizItemSource = z
  .object({
    chunkId: z.string().regex(/^\d{1,4}\.\d{1,5}$/, 'chunkId는 「챕터.순번」 형식입니다.'),
    chapter: z.number().int().min(0).max(9999),
    chapterTitle: z.string().max(300),
    startPage: z.number().int().min(1),
    endPage: z.number().int().min(1),
  })
  .strict() satisfies z.ZodType<wire.QuizItemSource>;
export type QuizItemSource = wire.QuizItemSource;

/** One 4-choice item: exactly four distinct non-empty choices, the answer's index, an explanation, a difficulty. */
export const QuizItem = z
  .object({
    type: z.literal('choice').optional(),
    question: ItemText(500),
    choices: z.array(ItemText(200)).length(4),
    answer: z.number().int().min(0).max(3),
    explanation: ItemText(1000),
    difficulty: Difficulty,
    quizId: ItemQuizId.optional(),
    sources: z.array(QuizItemSource).max(10).optional(),
    ...picture,
  })
  .strict()
  .refine((item) => new Set(item.choices.map((choice) => choice.toLowerCase())).size === 4, {
    message: '보기 네 개는 서로 달라야 합니다.',
    path: ['choices'],
  }) satisfies z.ZodType<wire.QuizItem>;
export type QuizItem = wire.QuizItem;

const distinct = (values: readonly string[]) => new Set(values.map((value) => value.toLowerCase())).size === values.length;
const itemBase = {
  question: ItemText(500),
  explanation: ItemText(1000),
  difficulty: Difficulty,
  quizId: ItemQuizId.optional(),
  sources: z.array(QuizItemSource).max(10).optional(),
  ...picture,
};
const Choices = z.array(ItemText(200)).min(2).max(6).refine(distinct, '보기는 서로 달라야 합니다.');

export const TrueFalseItem = z.object({ ...itemBase, type: z.literal('truefalse'), answer: z.boolean() }).strict() satisfies z.ZodType<wire.TrueFalseItem>;
export const MultiItem = z
  .object({
    ...itemBase,
    type: z.literal('multi'),
    choices: Choices,
    answers: z.array(z.number().int().min(0).max(5)).min(1).max(6),
    allOrNothing: z.boolean().optional(),
  })
  .strict()
  .refine((item) => new Set(item.answers).size === item.answers.length && item.answers.every((answer) => answer < item.choices.length), {
    message: '정답 번호는 서로 다르고 보기 안에 있어야 합니다.',
    path: ['answers'],
  }) satisfies z.ZodType<wire.MultiItem>;
export const OrderingItem = z
  .object({ ...itemBase, type: z.literal('ordering'), steps: z.array(ItemText(200)).min(2).max(6).refine(distinct, '단계는 서로 달라야 합니다.') })
  .strict() satisfies z.ZodType<wire.OrderingItem>;
const Finite = z.number().finite().min(-1e12).max(1e12);
export const NumericItem = z
  .object({
    ...itemBase,
    type: z.literal('numeric'),
    answer: Finite,
    tolerance: z.number().finite().min(0).max(1e12),
    range: z.number().finite().min(0).max(1e12).optional(),
    unit: z.string().trim().min(1).max(20).regex(/^[^\d\s]/u, '단위는 숫자로 시작할 수 없습니다.').optional(),
  })
  .strict()
  .refine((item) => item.range === undefined || item.range >= item.tolerance, { message: 'range는 tolerance 이상입니다.', path: ['range'] }) satisfies z.ZodType<wire.NumericItem>;
export const PollItem = z
  .object({ ...itemBase, type: z.literal('poll'), explanation: z.string().trim().max(1000), choices: Choices })
  .strict() satisfies z.ZodType<wire.PollItem>;

export const ShortItem = z
  .object({
    ...itemBase,
    type: z.literal('short'),
    answer: ItemText(300),
    accept: z.array(ItemText(MAX_TEXT_ANSWER)).max(10).optional(),
  })
  .strict() satisfies z.ZodType<wire.ShortItem>;
export type ShortItem = wire.ShortItem;
export const CloudItem = z
  .object({ ...itemBase, type: z.literal('cloud'), explanation: z.string().trim().max(1000) })
  .strict() satisfies z.ZodType<wire.CloudItem>;
export type CloudItem = wire.CloudItem;

/** Any item a room plays: the 4-choice `QuizItem` (with or without `type`) or one of the other types. */
export const RoomItem = z.union([QuizItem, TrueFalseItem, MultiItem, OrderingItem, NumericItem, PollItem, ShortItem, CloudItem]) satisfies z.ZodType<wire.RoomItem>;
export type RoomItem = wire.RoomItem;

/** One gate round's verdict, as stored with a generated quiz (wire.ReviewAttempt). */
const Score = z.number().min(0).max(10);
export const ReviewAttempt = z.object({
  round: z.number().int().min(0).max(10),
  question: z.string(),
  judged: z.boolean(),
  grounding: Score.optional(),
  educational: Score.optional(),
  insight: Score.optional(),
  is_passed: z.boolean(),
  feedback: z.string(),
}) satisfies z.ZodType<wire.ReviewAttempt>;
export type ReviewAttempt = wire.ReviewAttempt;

/** A generated item's judge report, as stored with its quiz (wire.ItemReview). */
export const ItemReview = z.object({
  is_passed: z.boolean(),
  judged: z.boolean(),
  grounding: Score.nullable(),
  educational: Score.nullable(),
  insight: Score.nullable(),
  feedback: z.string(),
  rounds: z.number().int().min(0).max(10),
  kept: z.boolean(),
  attempts: z.array(ReviewAttempt),
}) satisfies z.ZodType<wire.ItemReview>;
export type ItemReview = wire.ItemReview;

export const CreateQuizBody = z
  .object({
    title: ItemText(100),
    items: z
      .array(RoomItem)
      .min(1)
      .max(MAX_QUIZ_ITEMS)
      // A quizId names one item of its quiz (seed 001's quiz_id), so two items cannot share one.
      .refine((items) => {
        const ids = items.flatMap((item) => (item.quizId === undefined ? [] : [item.quizId]));
        return new Set(ids).size === ids.length;
      }, '문항의 quizId는 퀴즈 안에서 서로 달라야 합니다.'),
    materialId: z.string().trim().min(1).max(128).optional(),
    /** the class the quiz is for (one of the account's); absent: the account's own quiz. */
    classId: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type CreateQuizBody = z.infer<typeof CreateQuizBody>;

export const QuizTopicName = z.enum(QUIZ_TOPIC_NAMES, {
  error: () => `topic은 ${QUIZ_TOPIC_NAMES.join(', ')} 중 하나입니다.`,
}) satisfies z.ZodType<wire.QuizTopicName>;
export type QuizTopicName = wire.QuizTopicName;

export const GenerateQuizBody = z
  .object({
    /** 0-based chapter index of the material; the whole material when absent. */
    chapter: z.number().int().min(0).max(999).optional(),
    /** All five items at this difficulty; 2 easy + 2 medium + 1 hard when absent. Also the passages' level. */
    difficulty: Difficulty.optional(),
    /**
     * What the quiz is about: `general` (no filter), a topic of the seed's map (mistakes, negotiation, country,
     * documents) or a document type by name; it filters the passages the quiz is written from.
     */
    topic: QuizTopicName.optional(),
    /** A key term of the material (GET /api/materials/:id/key-terms): the passages are the ones about it. */
    focus: z.string().trim().min(1).max(80).optional(),
    /**
     * `short`: every generated item that reads as a question without choices, and whose answer is a short phrase the
     * item guard accepts, is stored as short text (the correct choice its model answer); the rest stay 4-choice.
     * `truefalse`, `multi`, `ordering`, `numeric`: five items of that type written from the same passages through the
     * item guard (src/quiz/typed-agent.ts); fewer, with a `shortfall` naming why, when the material cannot bear them.
     */
    format: z.enum(['choice', 'short', 'truefalse', 'multi', 'ordering', 'numeric']).optional(),
    title: ItemText(100).optional(),
    /** the class the quiz is for (one of the account's). */
    classId: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type GenerateQuizBody = z.infer<typeof GenerateQuizBody>;

/** `POST /api/quizzes/:id/items/:itemId/keep`: use (or stop using) a generated item that did not pass its judge. */
export const KeepItemBody = z.object({ kept: z.boolean() }).strict();
export type KeepItemBody = z.infer<typeof KeepItemBody>;

// ---- rooms
export const MIN_TEAMS = 2;
export const MAX_TEAMS = 10;
export const RoomOptions = z
  .object({
    questionSeconds: z.number().int().min(5).max(120).default(20),
    /** Seconds the question is shown before choices open; 0 opens at once. */
    previewSeconds: z.number().int().min(0).max(30).default(3),
    lateJoin: z.boolean().default(true),
    streakBonus: z.boolean().default(true),
    speedBonus: z.boolean().default(true),
    maxPlayers: z.number().int().min(1).max(10_000).default(500),
    teams: z.number().int().min(MIN_TEAMS, `팀은 ${MIN_TEAMS}개 이상이어야 합니다.`).max(MAX_TEAMS, `팀은 ${MAX_TEAMS}개까지 만들 수 있습니다.`).exactOptional(),
    teamPick: z.boolean().exactOptional(),
  })
  .strict() satisfies z.ZodType<wire.RoomOptions>;
export type RoomOptions = wire.RoomOptions;

export const CreateRoomBody = z
  .object({
    quizId: z.string().trim().min(1).max(64),
    options: RoomOptions.default(RoomOptions.parse({})),
  })
  .strict();
export type CreateRoomBody = z.infer<typeof CreateRoomBody>;

/** Room codes: 6 digits, easy to type on a phone and to read off a projector. */
export const RoomCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, '방 코드는 숫자 6자리입니다.');


// ---- /quiz commands (client -> server)
export const JoinRoomPayload = z.object({ code: RoomCode, nickname: Nickname }).strict() satisfies z.ZodType<wire.JoinRoomPayload>;
const QuestionIndex = z.number().int().min(0).max(MAX_QUIZ_ITEMS - 1);
const Picks = z.array(z.number().int().min(0).max(5)).max(6);
export const SubmitAnswerPayload = z.union([
  z.object({ questionIndex: QuestionIndex, choice: z.number().int().min(0).max(5) }).strict(),
  z.object({ questionIndex: QuestionIndex, choices: Picks.refine((picks) => new Set(picks).size === picks.length, '같은 보기를 두 번 고를 수 없습니다.') }).strict(),
  z.object({ questionIndex: QuestionIndex, order: Picks.min(2) }).strict(),
  z.object({ questionIndex: QuestionIndex, text: z.string().trim().min(1).max(MAX_TEXT_ANSWER) }).strict(),
]) satisfies z.ZodType<wire.SubmitAnswerPayload>;
export const ReviewPayload = z
  .object({ questionIndex: QuestionIndex, key: z.string().min(1).max(MAX_TEXT_ANSWER * 2), correct: z.boolean() })
  .strict() satisfies z.ZodType<wire.ReviewPayload>;
export const ExtraTimePayload = z
  .object({ playerId: z.string().min(1).max(64), seconds: z.number().int().min(0).max(300) })
  .strict() satisfies z.ZodType<wire.ExtraTimePayload>;
export const KickPayload = z.object({ playerId: z.string().min(1).max(64) }).strict() satisfies z.ZodType<wire.KickPayload>;
export const TeamPickPayload = z.object({ team: z.number().int().min(0).max(MAX_TEAMS - 1) }).strict() satisfies z.ZodType<wire.TeamPickPayload>;
const NoPayload = z.object({}).strict();

export type JoinRoomPayload = wire.JoinRoomPayload;
export type SubmitAnswerPayload = wire.SubmitAnswerPayload;
export type KickPayload = wire.KickPayload;
export type ReviewPayload = wire.ReviewPayload;
export type ExtraTimePayload = wire.ExtraTimePayload;
export type TeamPickPayload = wire.TeamPickPayload;

/** The schema of every host command, by name. */
export const HOST_COMMANDS = {
  'room:start': NoPayload,
  'room:next': NoPayload,
  'room:skip': NoPayload,
  'room:pause': NoPayload,
  'room:resume': NoPayload,
  'room:kick': KickPayload,
  'room:lock': NoPayload,
  'room:unlock': NoPayload,
  'room:end': NoPayload,
  'room:extra-time': ExtraTimePayload,
  'room:review': ReviewPayload,
} as const satisfies CommandSchemas<wire.HostCommands>;

/** The schema of every `/quiz` command, by name. */
export const QUIZ_COMMANDS = {
  ...HOST_COMMANDS,
  'room:join': JoinRoomPayload,
  'answer:submit': SubmitAnswerPayload,
  'team:pick': TeamPickPayload,
} as const satisfies CommandSchemas<wire.QuizCommands>;
