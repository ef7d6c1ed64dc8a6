import type { Refusal } from './guard-rules.js';
import { askedConcept, frontMatterReason, isMediumWord, loose, particleRefusals, placeholderReason } from './text-checks.js';

/**
 * The item guard for the generated room items that are not 4-choice: true/false, multiple correct answers, ordering
 * and numeric. Each rests on the passages it cites, so besides the common rules (placeholders, the medium, front
 * matter, particles) the guard checks what the type claims against them: an ordering's steps appear in the passages
 * in the keyed order, a numeric answer is a number the passages state, a multiple-answer item has at least one right
 * and one wrong choice, all different. Pure, like the rest of the guard.
 */

export type TypedItem =
  | { type: 'truefalse'; question: string; explanation: string; answer: boolean }
  | { type: 'multi'; question: string; explanation: string; choices: readonly string[]; answers: readonly number[] }
  | { type: 'ordering'; question: string; explanation: string; steps: readonly string[] }
  | { type: 'numeric'; question: string; explanation: string; answer: number; unit?: string | undefined };

const words = (text: string) => (text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 1);

/** Where a step is in the source: the first place most of its words appear together, or -1. */
function stepPosition(step: string, source: string): number {
  const flat = source.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ');
  const exact = flat.indexOf(step.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').replace(/[.。]$/u, ''));
  if (exact >= 0) return exact;
  const own = words(step);
  if (own.length === 0) return -1;
  // A model may shorten a step: the line of the source that holds most of its words is where it is.
  let best = -1;
  let bestShare = 0;
  let offset = 0;
  for (const line of flat.split(/(?<=[.!?。？！])\s+|\n/u)) {
    const found = new Set(words(line));
    const share = own.filter((word) => found.has(word)).length / own.length;
    if (share > bestShare) {
      bestShare = share;
      best = flat.indexOf(line, offset);
    }
    offset += line.length;
  }
  return bestShare >= 0.7 ? best : -1;
}

/** The numbers a text states ("1,200", "0.5", "−3"), as numbers. */
export function statedNumbers(text: string): number[] {
  return [...text.normalize('NFKC').matchAll(/(?<![\p{L}\d.,])[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\p{L}\d.,])[-−]?\d+(?:\.\d+)?/gu)].map((match) =>
    Number(match[0].replace(/,/gu, '').replace('−', '-')),
  );
}

/** A room item of another type than 4-choice against the passages it was written from. */
export function checkTypedItem(item: TypedItem, context: { passages: readonly string[] }): Refusal[] {
  const source = context.passages.join('\n\n');
  const refusals: Refusal[] = [];
  const texts = [item.question, ...(item.type === 'multi' ? item.choices : item.type === 'ordering' ? item.steps : [])];
  for (const text of [...texts, item.explanation]) {
    const placeholder = placeholderReason(text);
    if (placeholder !== undefined) {
      refusals.push({ rule: 'placeholder', reason: placeholder });
      break;
    }
  }
  const concept = askedConcept(item.question);
  if (concept !== undefined && isMediumWord(concept)) refusals.push({ rule: 'medium-question', reason: `질문이 내용이 아니라 '${concept}' 자체를 묻습니다.` });
  for (const text of texts) {
    const reason = frontMatterReason(text);
    if (reason !== undefined) {
      refusals.push({ rule: 'front-matter', reason });
      break;
    }
  }
  switch (item.type) {
    case 'truefalse':
      break;
    case 'multi': {
      const keys = item.choices.map(loose);
      if (keys.some((key) => key === '') || new Set(keys).size !== keys.length) refusals.push({ rule: 'choices', reason: '보기가 비었거나 같은 보기가 두 번 나옵니다.' });
      else if (item.answers.length === 0 || item.answers.length >= item.choices.length) {
        refusals.push({ rule: 'choices', reason: '맞는 보기와 틀린 보기가 모두 하나 이상 있어야 합니다.' });
      }
      break;
    }
    case 'ordering': {
      const positions = item.steps.map((step) => stepPosition(step, source));
      const missing = item.steps.find((_, index) => positions[index] === -1);
      if (missing !== undefined) refusals.push({ rule: 'cloze-not-in-source', reason: `단계 「${missing}」가 근거 자료에 없습니다.` });
      else if (positions.some((position, index) => index > 0 && position <= (positions[index - 1] ?? -1))) {
        refusals.push({ rule: 'cloze-not-in-source', reason: '단계의 정답 순서가 근거 자료에 나온 순서와 다릅니다.' });
      }
      if (new Set(item.steps.map(loose)).size !== item.steps.length) refusals.push({ rule: 'choices', reason: '같은 단계가 두 번 나옵니다.' });
      break;
    }
    case 'numeric':
      if (!statedNumbers(source).includes(item.answer)) refusals.push({ rule: 'cloze-not-in-source', reason: `정답 ${item.answer}은(는) 근거 자료에 나오는 수가 아닙니다.` });
      // The question must not state its own answer.
      else if (statedNumbers(item.question).includes(item.answer)) refusals.push({ rule: 'restated-question', reason: `질문에 정답 ${item.answer}이(가) 그대로 나옵니다.` });
      break;
  }
  refusals.push(...particleRefusals(item.question), ...particleRefusals(item.explanation));
  return refusals;
}
