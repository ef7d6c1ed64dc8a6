/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM15 — Generated true/false, multiple-answer and numeric items, offline. From the sample material's passages the
 *   offline writer makes items of each type that pass their strict schema and say only what a passage says: a 참
 *   statement is a sentence of the material, a 거짓 one is such a sentence negated at its predicate (the explanation
 *   quotes the original), about half of them false; a multiple-answer item has right and wrong statements of different
 *   sentences; a numeric item blanks a number the sentence states with its unit, the unit given, exact for small whole
 *   numbers and within 5 % otherwise. Sentences that lean on their context (`다음과 같습니다`, `3장에서`), examples and
 *   instructions are never statements. English text is negated at its first verb (`is` → `is not`, `magnifies` →
 *   `does not magnify`).
 * - TM16 — Ordering items only from numbered steps. An ordering item is a numbered list (1. 2. 3. …, three to six
 *   steps) of one passage in the list's order; a material without one gives none.
 * - TM17 — The guard on the other types. checkTypedItem refuses an ordering whose steps are not in the passages or
 *   not in their order, a numeric answer the passages do not state or the question states, a multiple-answer item
 *   without a wrong (or a right) choice, and placeholders.
 * - TM18 — A network model's typed items go through the guard. On the OpenAI-compatible fake, an item the guard
 *   refuses is reported as `quiz.typed`, its slot asked for again with the refusal in the prompt, and the server sets
 *   the numeric tolerance whatever the model proposed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkTypedItem, createGuardReport, type GuardRefusal } from '../src/guard/index.js';
import { MultiItem, NumericItem, OrderingItem, TrueFalseItem } from '../src/protocol/quiz.js';
import { generateTypedItems, loadQuizSource, negate, numberedLists, numericTolerance, statedAmounts, typedOfflineTasks } from '../src/quiz/index.js';
import { SAMPLE_MATERIAL_TEXT, SAMPLE_PAGE_TEXTS } from './support/hand-material.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { ENGLISH_PAGES, QUIZ_MATERIAL, quizMaterials, quizRetriever } from './support/quiz-material.js';

const ENGLISH_TEXTS = ENGLISH_PAGES.map((lines) => lines.join('\n'));

type Raw = Record<string, unknown> & { sources: number[]; explanation: string };
function offline(format: string, texts: readonly string[], seed = 'tm15'): Raw[] {
  const handler = typedOfflineTasks['quiz.typed']?.object;
  if (!handler) throw new Error('no offline quiz.typed');
  const reply = handler({ format, scope: 'test', passages: texts.map((text, index) => ({ number: index + 1, text, meta: '' })), difficulties: ['easy', 'easy', 'medium', 'medium', 'hard'], seed }) as { items: Raw[] };
  return reply.items;
}
const flat = (text: string) => text.replace(/\s+/gu, ' ');
const quoted = (explanation: string) => [...explanation.matchAll(/「([^」]+)」/gu)].map((match) => match[1] ?? '');

describe('TM15 offline true/false, multiple-answer and numeric items', () => {
  it('TM15 true/false statements are sentences of the material or their negations, about half false', () => {
    const items = offline('truefalse', SAMPLE_PAGE_TEXTS);
    expect(items).toHaveLength(5);
    const falses = items.filter((item) => item.answer === false);
    expect(falses.length).toBeGreaterThanOrEqual(2);
    expect(falses.length).toBeLessThanOrEqual(3);
    for (const item of items) {
      const statement = String(item.statement);
      expect(TrueFalseItem.safeParse({ type: 'truefalse', question: `판정: 「${statement}」`, answer: item.answer, explanation: item.explanation, difficulty: 'easy' }).success).toBe(true);
      expect(statement).not.toMatch(/다음과|\d장에서|^예/u);
      const [original = ''] = quoted(item.explanation);
      expect(flat(SAMPLE_MATERIAL_TEXT)).toContain(original);
      if (item.answer === true) expect(statement).toBe(original);
      else expect(negate(original)).toBe(statement);
    }
  });

  it('TM15 Korean and English negation at the predicate', () => {
    expect(negate('평균은 자료의 무게중심입니다.')).toBe('평균은 자료의 무게중심이 아닙니다.');
    expect(negate('기댓값은 확률을 가중치로 한 평균, 즉 가중평균입니다.')).toBe('기댓값은 확률을 가중치로 한 평균, 즉 가중평균이 아닙니다.');
    expect(negate('같은 실험을 아주 많이 반복해 얻은 값들의 평균은 기댓값에 가까워집니다.')).toBe('같은 실험을 아주 많이 반복해 얻은 값들의 평균은 기댓값에 가까워지지 않습니다.');
    expect(negate('10번 던지면 앞면 비율이 0.3이나 0.7이 되는 일도 흔합니다.')).toBe('10번 던지면 앞면 비율이 0.3이나 0.7이 되는 일도 흔하지 않습니다.');
    expect(negate('이 자료는 세 개의 장으로 이루어져 있습니다.')).toBe('이 자료는 세 개의 장으로 이루어져 있지 않습니다.');
    expect(negate('앞면이 다섯 번 연속 나왔다고 다음에 뒷면이 나올 확률이 커지지는 않습니다.')).toBeNull();
    expect(negate('The eyepiece lens magnifies the image 10 times.')).toBe('The eyepiece lens does not magnify the image 10 times.');
    expect(negate('The fine focus knob is used for sharp detail at high power.')).toBe('The fine focus knob is not used for sharp detail at high power.');
    expect(negate('Animal cells do not have a cell wall.')).toBeNull();
  });

  it('TM15 multiple-answer items mix statements of different sentences, at least one right and one wrong', () => {
    for (const texts of [SAMPLE_PAGE_TEXTS, ENGLISH_TEXTS]) {
      const items = offline('multi', texts);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        const parsed = MultiItem.parse({ type: 'multi', question: item.question, choices: item.choices, answers: item.answers, explanation: item.explanation, difficulty: 'easy' });
        expect(parsed.answers.length).toBeGreaterThan(0);
        expect(parsed.answers.length).toBeLessThan(parsed.choices.length);
        for (const [index, choice] of parsed.choices.entries()) {
          // Instructions (list steps) are never statements.
          expect(choice).not.toMatch(/^(?:Place|Add|Lay|Lower|Remove|Always)\b/u);
          if (parsed.answers.includes(index)) expect(flat(texts.join('\n'))).toContain(choice);
          else expect(flat(texts.join('\n'))).not.toContain(choice);
        }
      }
    }
  });

  it('TM15 numeric items blank a number stated with its unit', () => {
    const korean = offline('numeric', SAMPLE_PAGE_TEXTS);
    const english = offline('numeric', ENGLISH_TEXTS);
    expect(korean.length).toBeGreaterThan(0);
    expect(english.length).toBeGreaterThan(0);
    for (const item of [...korean, ...english]) {
      const parsed = NumericItem.parse({ type: 'numeric', question: item.question, answer: item.answer, tolerance: item.tolerance, unit: item.unit, explanation: item.explanation, difficulty: 'easy' });
      expect(parsed.question).toContain('____');
      expect(parsed.tolerance).toBe(numericTolerance(parsed.answer));
      const [sentence = ''] = quoted(parsed.explanation);
      expect(sentence.replace(String(parsed.answer), '____')).toBe(quoted(parsed.question)[0]);
    }
    expect(korean.map((item) => [item.answer, item.unit])).toContainEqual([600, '원']);
    expect(english.map((item) => [item.answer, item.unit])).toContainEqual([20, 'micrometres']);
    expect(numericTolerance(10)).toBe(0);
    expect(numericTolerance(600)).toBe(30);
    // A number the sentence states twice, or without a unit, is not asked.
    expect(statedAmounts('연봉 3000, 3200, 3100의 평균입니다.')).toEqual([]);
    expect(statedAmounts('10번과 10번을 더하면 20번입니다.').map((amount) => amount.value)).toEqual([20]);
  });
});

describe('TM16 ordering items only from numbered steps', () => {
  it('TM16 the English procedure becomes one ordering item in the list order; the sample has none', () => {
    const items = offline('ordering', ENGLISH_TEXTS);
    expect(items).toHaveLength(1);
    const item = OrderingItem.parse({ type: 'ordering', question: items[0]?.question, steps: items[0]?.steps, explanation: items[0]?.explanation, difficulty: 'easy' });
    expect(item.steps).toEqual(ENGLISH_PAGES[0]?.slice(3).map((line) => line.replace(/^\d\.\s/u, '').replace(/\.$/u, '')));
    expect(items[0]?.sources).toEqual([1]);
    expect(offline('ordering', SAMPLE_PAGE_TEXTS)).toEqual([]);
    // `1. 평균의 의미` and `2. 기댓값` are chapter headings on different pages, not a list.
    expect(numberedLists(SAMPLE_PAGE_TEXTS.map((text, index) => ({ number: index + 1, text, meta: '' })))).toEqual([]);
  });
});

describe('TM17 the guard on the other types', () => {
  const passages = [ENGLISH_TEXTS[0] ?? '', '복권을 많이 살수록 한 장에 평균 600원씩 잃게 됩니다.'];
  const explanation = '자료에 나옵니다.';
  it('TM17 refuses steps out of order or not in the source, numbers not stated, one-sided multi items and placeholders', () => {
    const steps = ['Place a clean glass slide on a flat surface', 'Add one drop of water to the centre of the slide', 'Lay the specimen in the drop of water'];
    expect(checkTypedItem({ type: 'ordering', question: '순서대로 놓으세요.', explanation, steps }, { passages })).toEqual([]);
    expect(checkTypedItem({ type: 'ordering', question: '순서대로 놓으세요.', explanation, steps: [steps[1] ?? '', steps[0] ?? '', steps[2] ?? ''] }, { passages }).map((refusal) => refusal.rule)).toEqual(['cloze-not-in-source']);
    expect(checkTypedItem({ type: 'ordering', question: '순서대로 놓으세요.', explanation, steps: [...steps, 'Stain the cells with iodine'] }, { passages }).map((refusal) => refusal.rule)).toEqual(['cloze-not-in-source']);
    expect(checkTypedItem({ type: 'numeric', question: '한 장에 평균 몇 원을 잃습니까?', explanation, answer: 600, unit: '원' }, { passages })).toEqual([]);
    expect(checkTypedItem({ type: 'numeric', question: '한 장에 평균 몇 원을 잃습니까?', explanation, answer: 700, unit: '원' }, { passages }).map((refusal) => refusal.rule)).toEqual(['cloze-not-in-source']);
    expect(checkTypedItem({ type: 'numeric', question: '600원씩 잃는다면 몇 원을 잃습니까?', explanation, answer: 600, unit: '원' }, { passages }).map((refusal) => refusal.rule)).toEqual(['restated-question']);
    const choices = ['평균은 중심이다.', '분산은 퍼짐이다.', '기댓값은 평균이다.', '중앙값은 가운데 값이다.'];
    expect(checkTypedItem({ type: 'multi', question: '맞는 것을 모두 고르세요.', explanation, choices, answers: [0, 1, 2, 3] }, { passages }).map((refusal) => refusal.rule)).toEqual(['choices']);
    expect(checkTypedItem({ type: 'multi', question: '맞는 것을 모두 고르세요.', explanation, choices: ['같다', '같다', '다르다', '크다'], answers: [0] }, { passages }).map((refusal) => refusal.rule)).toEqual(['choices']);
    expect(checkTypedItem({ type: 'truefalse', question: 'TODO', explanation, answer: true }, { passages }).map((refusal) => refusal.rule)).toEqual(['placeholder']);
  });
});

describe('TM18 a network model through the guard', () => {
  let fake: ScriptedProvider;
  beforeEach(async () => {
    fake = await startScriptedProvider('openai');
  });
  afterEach(async () => {
    await fake.close();
  });

  it('TM18 a refused numeric item is reported and asked for again; the server sets the tolerance', async () => {
    const source = await loadQuizSource(quizMaterials(), quizRetriever(), QUIZ_MATERIAL.id);
    const at = (needle: string) => source.retrieval.passages.findIndex((passage) => flat(passage.text).includes(needle)) + 1;
    const lottery = at('600원씩');
    const coins = at('10000번');
    expect(lottery).toBeGreaterThan(0);
    expect(coins).toBeGreaterThan(0);
    const good = (question: string, answer: number, unit: string, cited: number) => ({ question, answer, unit, tolerance: 999, explanation: '자료에 나온 수입니다.', difficulty: 'easy', sources: [cited] });
    const invented = good('복권 한 장의 값은 몇 원입니까?', 1234, '원', lottery);
    fake.enqueue({
      json: {
        items: [
          good('복권을 많이 사면 한 장에 평균 몇 원씩 잃게 됩니까?', 600, '원', lottery),
          invented,
          good('앞면 비율이 거의 항상 0.5 근처가 되려면 동전을 몇 번 던지면 됩니까?', 10000, '번', coins),
          good('1000원짜리 복권의 당첨금 기댓값은 몇 원입니까?', 400, '원', lottery),
          good('복권 한 장의 가격은 몇 원입니까?', 1000, '원', lottery),
        ],
      },
    });
    fake.enqueue({ json: { items: [good('앞면 비율이 0.3이나 0.7이 되는 일이 흔한 것은 몇 번 던질 때입니까?', 10, '번', coins)] } });
    const refused: GuardRefusal[] = [];
    const guard = createGuardReport({ count: async (entries) => void refused.push(...entries) });
    const { items, shortfall } = await generateTypedItems({ model: fake.model({ maxAttempts: 1 }), source, format: 'numeric', scopeLabel: '이 자료', guard });
    expect(shortfall).toBeUndefined();
    expect(items).toHaveLength(5);
    expect(items.map((item) => item.question)).not.toContain(invented.question);
    expect(items.map((item) => (item.type === 'numeric' ? item.tolerance : -1))).toEqual(items.map((item) => (item.type === 'numeric' ? numericTolerance(item.answer) : -2)));
    expect(refused.map((entry) => [entry.agent, entry.rule])).toEqual([['quiz.typed', 'cloze-not-in-source']]);
    const requests = fake.requests();
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]?.body)).toContain('1234');
  });
});
