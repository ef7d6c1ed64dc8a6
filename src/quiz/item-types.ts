import { createHash } from 'node:crypto';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { AnswerResponse, QuestionType, RecordedResponse, RoomItem, Solution } from '../protocol/quiz.js';
import { shortCredit, type ShortGrades } from './short-answer-judge.js';
import { cleanText } from './text-answers.js';

/**
 * What each question type means to a room: what players are shown (never the solution), which answers fit it, the
 * credit (0–1) an answer earns and the solution a reveal shows. Pure functions of the item and the room's id, so
 * every node renders and scores the same.
 *
 * - choice / truefalse: right or wrong (O/X is choice 0 = 참, 1 = 거짓).
 * - multi: (right picks − wrong picks) / correct choices, at least 0 (picking everything earns nothing); with
 *   `allOrNothing` only the exact set scores 1.
 * - ordering: the share of the n(n−1)/2 pairs of steps the player put in the right relative order. The steps are shown
 *   in a shuffled order fixed by the room and question (never the solution's own order).
 * - numeric: full credit within the tolerance, then falling linearly to 0 at `range` (default 4 × tolerance).
 * - poll: no credit (null): nothing to get right, no points, no streak change.
 * - short: typed text, graded at the question's close once per distinct answer (short-answer-judge.ts); the credit
 *   reads those grades. Unsure answers score 0 until the host marks them.
 * - cloud: typed text, no credit (null) like a poll; the reveal shows the words by count.
 */

export const TRUE_FALSE_CHOICES = ['참', '거짓'];

export function typeOf(item: RoomItem): QuestionType {
  return item.type ?? 'choice';
}

/** Shown orders computed lately: scoring asks for one per ordering answer, and each costs a SHA-256. */
const SHOWN_ORDERS_KEPT = 256;
const shownOrders = new Map<string, readonly number[]>();

/** The shown order of an ordering item's steps: shown[i] is the index (in the solution) of the i-th shown step. */
export function shownOrder(roomId: string, q: number, count: number): readonly number[] {
  const key = `${roomId}#${q}#${count}`;
  let order = shownOrders.get(key);
  if (!order) {
    if (shownOrders.size >= SHOWN_ORDERS_KEPT) shownOrders.delete(shownOrders.keys().next().value!);
    shownOrders.set(key, (order = Object.freeze(computeShownOrder(roomId, q, count))));
  }
  return order;
}

function computeShownOrder(roomId: string, q: number, count: number): number[] {
  const digest = createHash('sha256').update(`${roomId}#${q}`).digest();
  const order = Array.from({ length: count }, (_, index) => index);
  for (let index = count - 1; index > 0; index -= 1) {
    const pick = digest[index % digest.length]! % (index + 1);
    [order[index], order[pick]] = [order[pick]!, order[index]!];
  }
  // Shown in the solution's own order, the question would answer itself: turn it one step.
  if (order.every((value, index) => value === index)) order.push(order.shift()!);
  return order;
}

/** The options a player picks from (see PublicQuestion.choices). */
export function shownChoices(item: RoomItem, roomId: string, q: number): string[] {
  switch (item.type) {
    case undefined:
    case 'choice':
    case 'multi':
    case 'poll':
      return [...item.choices];
    case 'truefalse':
      return [...TRUE_FALSE_CHOICES];
    case 'ordering':
      return shownOrder(roomId, q, item.steps.length).map((step) => item.steps[step]!);
    case 'numeric':
    case 'short':
    case 'cloud':
      return [];
  }
}

const invalid = (message: string) => new AppError(ErrorCode.INVALID_PAYLOAD, message);

/**
 * A number as people type it: "1,234.5", "−3", "12.5 km" (only the item's unit may follow), "1.2e3". Null when the
 * text is not one number (optionally with the unit).
 */
export function parseNumber(text: string, unit: string | undefined): number | null {
  let body = text.normalize('NFKC').trim().replace(/[\u2212\u2013]/g, '-');
  if (unit !== undefined) {
    const folded = unit.normalize('NFKC').trim().toLowerCase();
    if (body.toLowerCase().endsWith(folded)) body = body.slice(0, body.length - folded.length).trim();
  }
  if (!/^[-+]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][-+]?\d+)?$/.test(body) || !/\d/.test(body)) return null;
  const value = Number(body.replaceAll(',', ''));
  return Number.isFinite(value) ? value : null;
}

/** The answer as it will be recorded, or INVALID_PAYLOAD when its shape or values do not fit the question. */
export function recordedResponse(item: RoomItem, response: AnswerResponse): RecordedResponse {
  const type = typeOf(item);
  const count = type === 'truefalse' ? 2 : type === 'ordering' ? (item as { steps: string[] }).steps.length : 'choices' in item ? item.choices.length : 0;
  switch (type) {
    case 'choice':
    case 'truefalse':
    case 'poll':
      if (!('choice' in response)) throw invalid('이 문제는 보기 하나를 골라 답합니다.');
      if (response.choice >= count) throw invalid('없는 보기입니다.');
      return { choice: response.choice };
    case 'multi':
      if (!('choices' in response)) throw invalid('이 문제는 맞는 보기를 모두 골라 답합니다.');
      if (response.choices.length === 0 || response.choices.some((choice) => choice >= count)) throw invalid('보기를 하나 이상, 있는 것만 고르세요.');
      return { choices: [...response.choices].sort((left, right) => left - right) };
    case 'ordering': {
      if (!('order' in response)) throw invalid('이 문제는 단계를 순서대로 늘어놓아 답합니다.');
      const seen = new Set(response.order);
      if (response.order.length !== count || seen.size !== count || response.order.some((step) => step >= count)) {
        throw invalid('단계를 하나씩 모두 늘어놓아야 합니다.');
      }
      return { order: [...response.order] };
    }
    case 'numeric': {
      if (!('text' in response)) throw invalid('이 문제는 수로 답합니다.');
      const value = parseNumber(response.text, (item as { unit?: string }).unit);
      if (value === null) throw invalid('수 하나를 입력하세요 (단위는 문제의 것만).');
      return { value };
    }
    case 'short':
    case 'cloud': {
      if (!('text' in response)) throw invalid('이 문제는 글로 적어 답합니다.');
      const text = cleanText(response.text);
      if (text === '') throw invalid('답을 적어 주세요.');
      return { text };
    }
  }
}

/** Types with no right answer: no credit, no points, no streak change. */
export function isUnscored(item: { readonly type?: string | undefined } | undefined): boolean {
  return item?.type === 'poll' || item?.type === 'cloud';
}

/** Credit 0–1 of a recorded answer; null for a poll or word cloud. `grades`: the question's short-text grades. */
export function creditOf(item: RoomItem, response: RecordedResponse, roomId: string, q: number, grades?: ShortGrades): number | null {
  switch (item.type) {
    case 'cloud':
      return null;
    case 'short':
      return 'text' in response ? shortCredit(grades, response.text) : 0;
    case undefined:
    case 'choice':
      return 'choice' in response && response.choice === item.answer ? 1 : 0;
    case 'truefalse':
      return 'choice' in response && response.choice === (item.answer ? 0 : 1) ? 1 : 0;
    case 'poll':
      return null;
    case 'multi': {
      if (!('choices' in response)) return 0;
      const correct = new Set(item.answers);
      const right = response.choices.filter((choice) => correct.has(choice)).length;
      const wrong = response.choices.length - right;
      if (item.allOrNothing) return right === correct.size && wrong === 0 ? 1 : 0;
      return Math.max(right - wrong, 0) / correct.size;
    }
    case 'ordering': {
      if (!('order' in response)) return 0;
      const shown = shownOrder(roomId, q, item.steps.length);
      const positions = response.order.map((shownIndex) => shown[shownIndex]!);
      let inOrder = 0;
      let pairs = 0;
      for (let left = 0; left < positions.length; left += 1) {
        for (let right = left + 1; right < positions.length; right += 1) {
          pairs += 1;
          if (positions[left]! < positions[right]!) inOrder += 1;
        }
      }
      return pairs === 0 ? 0 : inOrder / pairs;
    }
    case 'numeric': {
      if (!('value' in response)) return 0;
      const distance = Math.abs(response.value - item.answer);
      if (distance <= item.tolerance) return 1;
      const range = numericRange(item);
      if (distance >= range) return 0;
      return 1 - (distance - item.tolerance) / (range - item.tolerance);
    }
  }
}

function numericRange(item: { tolerance: number; range?: number | undefined }): number {
  return item.range ?? item.tolerance * 4;
}

/** The solution a reveal shows (in the shown indices for ordering). */
export function solutionOf(item: RoomItem, roomId: string, q: number): Solution {
  switch (item.type) {
    case undefined:
    case 'choice':
      return { type: 'choice', correctChoice: item.answer };
    case 'truefalse':
      return { type: 'truefalse', answer: item.answer, correctChoice: item.answer ? 0 : 1 };
    case 'multi':
      return { type: 'multi', correctChoices: [...item.answers].sort((left, right) => left - right), allOrNothing: Boolean(item.allOrNothing) };
    case 'ordering': {
      const shown = shownOrder(roomId, q, item.steps.length);
      // The shown index of each step, in the solution's order.
      return { type: 'ordering', correctOrder: item.steps.map((_, step) => shown.indexOf(step)) };
    }
    case 'numeric':
      return { type: 'numeric', answer: item.answer, tolerance: item.tolerance, range: numericRange(item), ...(item.unit === undefined ? {} : { unit: item.unit }) };
    case 'poll':
      return { type: 'poll' };
    case 'short':
      return { type: 'short', answer: item.answer, accept: [...(item.accept ?? [])] };
    case 'cloud':
      return { type: 'cloud' };
  }
}

/** `correctChoice` of a reveal: the 4-choice or O/X answer, -1 otherwise. */
export function correctChoiceOf(solution: Solution): number {
  return solution.type === 'choice' || solution.type === 'truefalse' ? solution.correctChoice : -1;
}

/** The choice-shaped part of a recorded answer (AnswerResult.choice), -1 for other shapes. */
export function choiceOf(response: RecordedResponse): number {
  return 'choice' in response ? response.choice : -1;
}

/** Adds one answer to a question's distribution (see RevealPayload.distribution). */
export function countAnswer(distribution: number[], item: RoomItem, response: RecordedResponse, roomId: string, q: number): void {
  if ('choice' in response) distribution[response.choice] = (distribution[response.choice] ?? 0) + 1;
  else if ('choices' in response) for (const choice of response.choices) distribution[choice] = (distribution[choice] ?? 0) + 1;
  else if ('order' in response && item.type === 'ordering') {
    const shown = shownOrder(roomId, q, item.steps.length);
    response.order.forEach((shownIndex, position) => {
      if (shown[shownIndex] === position) distribution[shownIndex] = (distribution[shownIndex] ?? 0) + 1;
    });
  }
}

/** A zeroed distribution of the question's length. */
export function emptyDistribution(item: RoomItem): number[] {
  const type = typeOf(item);
  const length = type === 'truefalse' ? 2 : type === 'numeric' || type === 'short' || type === 'cloud' ? 0 : type === 'ordering' ? (item as { steps: string[] }).steps.length : (item as { choices: string[] }).choices.length;
  return new Array<number>(length).fill(0);
}

/** The answer part of a recorded answer (without its timing). */
export function responseOf(answer: RecordedResponse & { responseMs: number; allowedMs?: number | undefined }): RecordedResponse {
  if ('choice' in answer) return { choice: answer.choice };
  if ('choices' in answer) return { choices: answer.choices };
  if ('order' in answer) return { order: answer.order };
  if ('text' in answer) return { text: answer.text };
  return { value: answer.value };
}
