import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { CLASS_ITEM_ID, QuizItem, type Quiz, type QuizTopicName } from '../protocol/quiz.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { quizKeys } from './quiz-keys.js';
import type { EvalAgent } from './eval-agent.js';
import { SELF_QUIZ_TTL_MS, StoredAnswer, keptVerdict, shownVerdict, type AnswerOutcome, type SelfStudyObserver, type SelfStudyScope, type SelfStudyVerdict } from './self-study.js';

/**
 * Seed 001's `/answer` and `/evaluate` on the items of a class quiz (one an instructor wrote or generated), addressed
 * as `<quiz id>:<0-based item index>` (CLASS_ITEM_ID). Who may use an item:
 * - the account that owns the quiz (its instructor), at any time;
 * - a student of the quiz's class (their tutoring session), except while a room of that quiz is being played (409
 *   ROOM_LIVE: the room's reveal comes first), and evaluating only an item they answered (403 FORBIDDEN): the
 *   EvalAgent's feedback discusses the correct choice, and no solution reaches a student before their answer.
 * Anyone else gets 404 QUIZ_NOT_FOUND, exactly like a missing quiz or index (no probing). Only 4-choice items answer
 * by a choice index (seed 001's `answer`); another type is 400 INVALID_PAYLOAD.
 *
 * Each caller's first answer to an item is a fact written once (HSETNX in `quizKeys.classQuizItems`); answering again is
 * graded but the first stays recorded. A verdict is judged once per item and topic and kept. Both expire with the
 * self-study TTL and go with the quiz's deletion.
 */

export interface ClassQuizItemsOptions {
  store: Store;
  quizzes: { get(quizId: string): Promise<Quiz | null> };
  /** The account owning a quiz (OwnershipRepository.ownerOf('quiz', id)). */
  quizOwner(quizId: string): Promise<string | null>;
  /** Whether a room of the quiz is being played now (any phase but ended). */
  roomLive(quizId: string): Promise<boolean>;
  judge: EvalAgent;
  observer?: SelfStudyObserver | undefined;
  logger?: Logger | undefined;
  now?: () => number;
}

/** Whether a `quiz_id` names a class quiz item (else it is a self-study item). */
export function isClassItemId(quizId: string): boolean {
  return CLASS_ITEM_ID.test(quizId);
}

const itemNotFound = () => new AppError(ErrorCode.QUIZ_NOT_FOUND, '퀴즈 문항을 찾을 수 없습니다. 퀴즈 id와 문항 번호를 확인해 주세요.');

/** Who answered: an account, or a class student's session (a SelfStudyScope, or just the session to read it back). */
type Caller = { kind: 'account'; accountId: string } | { kind: 'student'; sessionId: string };

const callerField = (scope: Caller) => (scope.kind === 'account' ? `a:${scope.accountId}` : `s:${scope.sessionId}`);

/** The field of a caller's first answer to item `index` in the quiz's `quizKeys.classQuizItems` hash. */
export const classItemAnswerField = (index: number, scope: Caller) => `answer:${index}:${callerField(scope)}`;

export class ClassQuizItems {
  private readonly now: () => number;

  constructor(private readonly options: ClassQuizItemsOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Grades an answer by index on the server; the caller's first answer to the item is recorded once. */
  async answer(scope: SelfStudyScope, itemId: string, answer: number): Promise<AnswerOutcome> {
    const { store, logger } = this.options;
    const { quizId, index, item } = await this.load(scope, itemId);
    const correct = answer === item.answer;
    const mine: StoredAnswer = { answer, correct, at: this.now() };
    const key = quizKeys.classQuizItems(quizId);
    const field = classItemAnswerField(index, scope);
    const first = await store.hsetnx(key, field, JSON.stringify(mine), { ttlMs: SELF_QUIZ_TTL_MS });
    const recorded = first ? mine : (readJsonRecord(await store.hget(key, field), StoredAnswer, { key, logger }) ?? mine);
    if (first) {
      try {
        await this.options.observer?.answered(scope, { quizId: itemId, correct });
      } catch (error) {
        logger?.warn({ err: error, quizId: itemId }, 'class quiz item answer not reported to the monitor');
      }
    }
    return { quizId: itemId, answer, correct, item, recorded, first };
  }

  /**
   * The EvalAgent's verdict on the item for a topic, judged against the quiz's material (kept: asking again costs
   * nothing). A quiz made without a material has nothing to ground it: 400 MATERIAL_REQUIRED.
   */
  async evaluate(scope: SelfStudyScope, itemId: string, topic: QuizTopicName, options: { billTo?: string | undefined; signal?: AbortSignal | undefined } = {}): Promise<SelfStudyVerdict> {
    const { store, logger } = this.options;
    const { quiz, quizId, index, item } = await this.load(scope, itemId);
    const key = quizKeys.classQuizItems(quizId);
    if (scope.kind === 'student' && (await store.hget(key, classItemAnswerField(index, scope))) === null) {
      throw new AppError(ErrorCode.FORBIDDEN, '먼저 이 문항에 답한 뒤에 평가를 볼 수 있습니다.');
    }
    if (quiz.materialId === undefined) {
      throw new AppError(ErrorCode.MATERIAL_REQUIRED, '이 퀴즈는 강의 자료 없이 만들어져 근거를 확인할 수 없습니다. quiz_data와 source로 평가해 주세요.');
    }
    const materialId = quiz.materialId;
    return keptVerdict(store, key, `eval:${index}:${topic}`, logger, async () =>
      shownVerdict(await this.options.judge.judge(item, { materialId, topic, accountId: options.billTo, signal: options.signal }), logger, { quizId: itemId, topic }, 'class quiz item not judged'),
    );
  }

  /** The item for a caller who may use it now (see the module comment). */
  private async load(scope: SelfStudyScope, itemId: string): Promise<{ quiz: Quiz; quizId: string; index: number; item: QuizItem }> {
    const match = CLASS_ITEM_ID.exec(itemId);
    if (!match) throw itemNotFound();
    const quizId = match[1] as string;
    const index = Number(match[2]);
    const quiz = await this.options.quizzes.get(quizId);
    if (!quiz) throw itemNotFound();
    const allowed =
      scope.kind === 'account' ? (await this.options.quizOwner(quizId)) === scope.accountId : quiz.classId !== '' && quiz.classId === scope.classId;
    const roomItem = quiz.items[index];
    if (!allowed || roomItem === undefined) throw itemNotFound();
    if (scope.kind === 'student' && (await this.options.roomLive(quizId))) {
      throw new AppError(ErrorCode.ROOM_LIVE, '이 퀴즈는 지금 퀴즈 방에서 진행 중입니다. 방이 끝난 뒤에 풀어 볼 수 있습니다.');
    }
    const parsed = QuizItem.safeParse(roomItem);
    if (!parsed.success) throw new AppError(ErrorCode.INVALID_PAYLOAD, '이 문항은 4지선다 문항이 아니어서 보기 번호로 답할 수 없습니다.');
    return { quiz, quizId, index, item: parsed.data };
  }
}
