import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { ItemReview, ReviewAttempt } from '../protocol/wire/quiz.js';
import { shortfallMessage, type GenerationShortfall } from '../protocol/wire/shortfall.js';
import type { QuizItem } from '../protocol/quiz.js';
import { AppError } from '../kernel/index.js';
import type { EvalAgent, EvalVerdict } from './eval-agent.js';
import {
  difficultyPlan,
  generateQuizItems,
  loadQuizSource,
  newItemId,
  type GenerateQuizOptions,
  type QuizSource,
} from './quiz-agent.js';
import { balanceKeys, newQuizSeed } from './quiz-seed.js';

/**
 * The EvalAgent gate (seed 001 §3): every generated item is judged before anyone sees it. The QuizAgent
 * writes the five items, the EvalAgent judges them, and only the items that failed are written again — with the
 * judge's feedback for their slot and the accepted questions to avoid — and judged again, {@link MAX_GATE_ROUNDS}
 * rounds at most. An item whose slot never passes keeps its last version with its review marked failed (or
 * unjudged when no verdict could be had): the caller decides whether it is shown (an instructor can keep it; the
 * self-study API never serves it). Every round's verdict is kept in the item's review, so the quiz record carries
 * the judge reports it rests on.
 */

export const MAX_GATE_ROUNDS = 3;

/** Failures of a rewrite after which the gate keeps the slots it has (see generateJudgedQuiz). */
const REWRITE_ENDS_GATE = new Set<string>([ErrorCode.MODEL_OUTPUT_INVALID, ErrorCode.TOO_LITTLE_MATERIAL, ErrorCode.MODEL_UNAVAILABLE, ErrorCode.MODEL_TIMEOUT, ErrorCode.MODEL_BUDGET_EXCEEDED]);

export interface JudgedQuizOptions extends GenerateQuizOptions {
  judge: EvalAgent;
  /** the account judgements are billed to (else the surrounding runBilledTo). */
  accountId?: string | undefined;
}

export interface JudgedQuiz {
  /** All slots' final items in plan order (easy first), passed or not: see `reviews`. */
  items: QuizItem[];
  /** Each item's review by its quizId. */
  reviews: Record<string, ItemReview>;
  seed: string;
  source: QuizSource;
  /** Judge rounds run (1–3). */
  rounds: number;
  /** Present when a deterministic model could make fewer items than the plan asked for. */
  shortfall?: GenerationShortfall;
}

/** Items a student may see: uploaded ones (no review), passed ones, and failed ones the instructor kept. */
export function usableItems<T extends { quizId?: string | undefined }>(items: readonly T[], reviews: Readonly<Record<string, ItemReview>> | undefined): T[] {
  return items.filter((item) => {
    const review = item.quizId === undefined ? undefined : reviews?.[item.quizId];
    return review === undefined || review.is_passed || review.kept;
  });
}

function attemptOf(round: number, item: QuizItem, verdict: EvalVerdict): ReviewAttempt {
  if (!verdict.judged) return { round, question: item.question, judged: false, is_passed: false, feedback: verdict.reason };
  const { grounding, educational, insight, is_passed, feedback } = verdict;
  return { round, question: item.question, judged: true, grounding, educational, insight, is_passed, feedback };
}

/** What the writer is told about a slot it must write again. */
function rewriteFeedback(attempt: ReviewAttempt): string {
  if (!attempt.judged) return `이전 문항은 검증을 받지 못했습니다. 자료에 근거한 새 문항을 써 주세요.`;
  return `이전 문항(근거 ${attempt.grounding}/10, 교육 ${attempt.educational}/10, 실무 ${attempt.insight}/10)이 검증을 통과하지 못했습니다: ${attempt.feedback}`;
}

function reviewOf(attempts: readonly ReviewAttempt[]): ItemReview {
  const last = attempts[attempts.length - 1] as ReviewAttempt;
  return {
    is_passed: last.is_passed,
    judged: last.judged,
    grounding: last.grounding ?? null,
    educational: last.educational ?? null,
    insight: last.insight ?? null,
    feedback: last.feedback,
    rounds: attempts.length,
    kept: false,
    attempts: [...attempts],
  };
}

interface Slot {
  item: QuizItem;
  attempts: ReviewAttempt[];
}

/**
 * A generated quiz whose every item went through the EvalAgent (see the module comment). Errors are those of
 * generateQuiz for the first writing (404, 400, 502 MODEL_OUTPUT_INVALID); a rewrite that fails (invalid output, the
 * model unavailable or too slow, the account's daily budget spent) ends the gate early with the slots' last versions,
 * which stay failed.
 */
export async function generateJudgedQuiz(options: JudgedQuizOptions): Promise<JudgedQuiz> {
  const { judge, chapter, topic, difficulty, signal, logger, guard } = options;
  const source = await loadQuizSource(options.materials, options.retriever, options.materialId, { chapter, topic, focus: options.focus, difficulty }, {
    ...(options.topics ? { topics: options.topics } : {}),
    signal,
  });
  const seed = options.seed ?? newQuizSeed();
  const plan = difficultyPlan(difficulty).map((entry) => ({ difficulty: entry }));
  const first = await generateQuizItems({ model: options.model, source, slots: plan, seed, signal, logger, guard });
  const shortfall: GenerationShortfall | undefined =
    first.length < plan.length
      ? { requested: plan.length, made: first.length, reason: 'too-little-material', message: shortfallMessage(chapter === undefined ? '이 자료' : '이 장', first.length, plan.length) }
      : undefined;
  const slots: Slot[] = first.map((item) => ({ item, attempts: [] }));
  const context = { materialId: source.materialId, topic: topic ?? 'general', signal, accountId: options.accountId };

  let rounds = 0;
  let pending = slots.map((_, index) => index);
  while (pending.length > 0 && rounds < MAX_GATE_ROUNDS) {
    rounds += 1;
    const verdicts = await judge.judgeAll(
      pending.map((index) => (slots[index] as Slot).item),
      context,
    );
    for (const [position, index] of pending.entries()) {
      const slot = slots[index] as Slot;
      slot.attempts.push(attemptOf(rounds, slot.item, verdicts[position] as EvalVerdict));
    }
    pending = pending.filter((index) => !(slots[index] as Slot).attempts.at(-1)?.is_passed);
    if (pending.length === 0 || rounds === MAX_GATE_ROUNDS) break;

    // Only the failed slots are written again; every question seen so far (kept or refused) is not to be repeated.
    const avoid = slots.flatMap((slot) => slot.attempts.map((attempt) => attempt.question));
    let rewritten: QuizItem[];
    try {
      rewritten = await generateQuizItems({
        model: options.model,
        source,
        slots: pending.map((index) => {
          const slot = slots[index] as Slot;
          return { difficulty: slot.item.difficulty, feedback: rewriteFeedback(slot.attempts.at(-1) as ReviewAttempt) };
        }),
        avoid,
        seed,
        signal,
        logger,
        guard,
      });
    } catch (error) {
      // The first writing succeeded: a rewrite the model cannot give (invalid output, an outage, the day's budget
      // spent by the judgements) leaves the failed slots failed rather than losing the quiz. A closed tab still aborts.
      if (signal?.aborted !== true && error instanceof AppError && REWRITE_ENDS_GATE.has(error.code)) {
        logger?.warn({ materialId: source.materialId, round: rounds, code: error.code }, 'quiz gate: the rewrite failed; failed items stay failed');
        break;
      }
      throw error;
    }
    for (const [position, index] of pending.entries()) {
      const item = rewritten[position];
      if (item !== undefined) (slots[index] as Slot).item = item;
    }
  }

  // Item ids are unique within the quiz: a rewrite drew its ids on its own. Keys spread over the positions across the
  // whole quiz, rewritten items included.
  const placed = balanceKeys(
    slots.map((slot) => slot.item),
    seed,
  );
  slots.forEach((slot, index) => {
    slot.item = placed[index] ?? slot.item;
  });
  const taken = new Set<string>();
  const items: QuizItem[] = [];
  const reviews: Record<string, ItemReview> = {};
  for (const slot of slots) {
    const quizId = slot.item.quizId !== undefined && !taken.has(slot.item.quizId) ? slot.item.quizId : newItemId(taken);
    taken.add(quizId);
    items.push({ ...slot.item, quizId });
    // A slot the gate never judged (it cannot happen with rounds ≥ 1, but the type allows it) is unjudged.
    reviews[quizId] =
      slot.attempts.length > 0
        ? reviewOf(slot.attempts)
        : reviewOf([{ round: 0, question: slot.item.question, judged: false, is_passed: false, feedback: '검증을 받지 못했습니다.' }]);
  }
  const failed = Object.values(reviews).filter((review) => !review.is_passed).length;
  if (failed > 0) logger?.info({ materialId: source.materialId, rounds, failed }, 'quiz gate: items that never passed');
  return { items, reviews, seed, source, rounds, ...(shortfall === undefined ? {} : { shortfall }) };
}

/** A logger-free summary for reports: how many items passed and how many rounds it took. */
export function gateSummary(quiz: Pick<JudgedQuiz, 'items' | 'reviews' | 'rounds'>): { passed: number; total: number; rounds: number } {
  const passed = quiz.items.filter((item) => item.quizId !== undefined && quiz.reviews[item.quizId]?.is_passed === true).length;
  return { passed, total: quiz.items.length, rounds: quiz.rounds };
}

