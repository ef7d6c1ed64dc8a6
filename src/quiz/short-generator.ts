import { checkAnswer, refusalsOf, type GuardReport } from '../guard/index.js';
import { MAX_TEXT_ANSWER, type QuizItem, type RoomItem, type ShortItem } from '../protocol/quiz.js';

/**
 * Short-text items from generated 4-choice items (the quiz agent's, with a model or offline): the question stays, the
 * correct choice becomes the model answer, the choices are dropped. An item becomes short text only when that reads
 * as a question without choices (it does not point at "다음 중", 보기, "which of the following") and its answer is a
 * short phrase that passes the item guard's answer check (no placeholder, no restated question, no front matter,
 * fitting particles) against the passages it was written from; otherwise it stays a 4-choice item, and a guard
 * refusal is reported like any generator's. The EvalAgent gate's verdict on the item (by its quizId) stays with it.
 */

export const SHORT_GENERATOR_AGENT = 'quiz.short';
/** Longest model answer a generated short-text item gets (longer ones are explanations, not short answers). */
const MAX_SHORT_ANSWER = 40;
const POINTS_AT_CHOICES = /다음\s*중|보기|아래\s*중|옳은\s*것|옳지\s*않은|아닌\s*것|which of the following|all of the above/iu;

export interface ShortConversion {
  items: RoomItem[];
  /** How many items became short text. */
  converted: number;
}

export function toShortItems(
  items: readonly QuizItem[],
  context: { passages: readonly string[]; titles?: readonly string[]; materialId?: string | undefined; guard?: GuardReport | undefined },
): ShortConversion {
  let converted = 0;
  const result = items.map((item): RoomItem => {
    const answer = item.choices[item.answer]?.trim() ?? '';
    if (answer === '' || answer.length > Math.min(MAX_SHORT_ANSWER, MAX_TEXT_ANSWER) || POINTS_AT_CHOICES.test(item.question)) return item;
    const refusals = checkAnswer(item.question, answer, { passages: context.passages, titles: context.titles });
    if (refusals.length > 0) {
      context.guard?.refused(refusalsOf(SHORT_GENERATOR_AGENT, item.question, refusals, { materialId: context.materialId }));
      return item;
    }
    converted += 1;
    const short: ShortItem = {
      type: 'short',
      question: item.question,
      answer,
      explanation: item.explanation,
      difficulty: item.difficulty,
      ...(item.quizId === undefined ? {} : { quizId: item.quizId }),
      ...(item.sources === undefined ? {} : { sources: item.sources }),
      ...(item.image === undefined ? {} : { image: item.image, imageAlt: item.imageAlt }),
    };
    return short;
  });
  return { items: result, converted };
}
