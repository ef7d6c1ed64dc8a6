/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - J14 — A number the reference does not state is not read as wrong. A bad verdict that no deciding flag made on a
 *   short answer (at most 15 content words) that states a number the best-fitting reference does not (`373K` for
 *   `섭씨 100도`, `0.0.0.0/8` for `127.xx.yy.zz`) has a confidence below CONFIDENT_AT (NUMBER_CONFIDENCE): word overlap
 *   cannot compare another notation, range or unit. A number the reference states, a long answer or a deciding flag
 *   leave the confidence as it was.
 * - J15 — Other parts named, no sure good. A good verdict on an answer that names single-letter parts (bulb A, switch
 *   Z) that no reference nor the question names, or names two or more together that no reference names together
 *   (`A and C` where the references say `A and B`), has a confidence below CONFIDENT_AT (OTHER_LABELS_CONFIDENCE). All
 *   the references are read; `a` is a part only where no noun can follow it (`bulb a is`, `a and c`), not an article.
 * - J16 — An added negation, no sure good. A good verdict on an answer that negates something (not, no, never, 않다,
 *   없다…, or a verb that forbids or stops the action: 금지하다, 폐지하다, ban) where the best-fitting reference negates
 *   nothing has a confidence below CONFIDENT_AT (ADDED_NEGATION_CONFIDENCE): overlap reads the shared words, not what
 *   the negation does to them.
 * - J17 — An ambiguous alignment is no flip. When an answer clause shares as many words with a negated reference clause
 *   as with one that agrees with it (`median은 outlier 영향을 거의 안 받는데` against `평균은 극단값의 영향을 크게 받지만
 *   중앙값은 영향을 거의 받지 않으므로`), the negation check lines it up with the agreeing one: no `negation` flag. A clause
 *   closer to a clause of the other polarity still flips.
 * - J30 — Another number than the reference's, no sure good. A good verdict on an answer that states a number the
 *   best-fitting reference does not, where that reference states numbers (`제1차 세계 대전` for `제2차`, `from 3km to
 *   300m` for `300m to 30m`), has a confidence below CONFIDENT_AT (NUMBER_REPLACED_CONFIDENCE): overlap cannot tell a
 *   wrong number from another notation. The reference's own numbers, or none against a reference without numbers,
 *   leave the confidence as it was.
 */
import { describe, expect, it } from 'vitest';
import {
  ADDED_NEGATION_CONFIDENCE,
  CONFIDENT_AT,
  NUMBER_CONFIDENCE,
  NUMBER_REPLACED_CONFIDENCE,
  OTHER_LABELS_CONFIDENCE,
  assessAnswer,
  analyseText,
  assessmentConfidence,
  findContradiction,
  namedLabels,
  namesOtherLabels,
  statesOtherNumber,
} from '../src/judges/index.js';

const BOILING = { question: '1기압에서 물은 몇 도에서 끓나요?', reference: '1기압에서 물은 섭씨 100도에서 끓는다.' };
const CLASS_A = {
  question: 'Write down all addresses in Class A networks that are reserved.',
  reference: '127.xx.yy.zz is reserved for loopback testing; 0.xx.yy.zz is reserved for the network itself.',
};
const BULBS = {
  question: 'Why do both bulbs A and B stay on when bulb C is burned out?',
  reference: 'If C burns out, then A and B are still in a closed path with the battery.',
};
const PATHS = { question: 'Explain your reasoning.', reference: 'Bulbs A and C are still in closed paths with the battery' };
const VOLTAGE = { question: 'What is voltage?', reference: 'Voltage is the difference in electrical states between two terminals' };

describe('J14: a number the reference does not state is not read as wrong', () => {
  it.each([
    [BOILING, '373K'],
    [CLASS_A, '0.0.0.0/8 and 127.0.0.0/8'],
  ])('J14: a short answer stating another number (%#) is bad but unsure', (base, answer) => {
    const result = assessAnswer({ ...base, answer });
    expect(result.label2).toBe('bad');
    expect(result.shortWithOtherNumber).toBe(true);
    expect(assessmentConfidence(result)).toBeLessThanOrEqual(NUMBER_CONFIDENCE);
    expect(assessmentConfidence(result)).toBeLessThan(CONFIDENT_AT);
  });

  it('J14: only numbers the reference does not state count, and only in a short answer', () => {
    expect(statesOtherNumber('100도', BOILING.reference)).toBe(false);
    expect(statesOtherNumber('1기압 100도', BOILING.reference)).toBe(false);
    expect(statesOtherNumber('섭씨 212도', BOILING.reference)).toBe(true);
    expect(statesOtherNumber('127.0.0.1', 'the loopback address is 127.0.0.1')).toBe(false);
    const long = 'water boils when its vapour pressure reaches the pressure of the air around it, which at sea level happens near 373 kelvin for most people who cook';
    expect(assessAnswer({ ...BOILING, answer: long }).shortWithOtherNumber).toBe(false);
  });

  it('J14: a deciding flag still decides a number answer', () => {
    const result = assessAnswer({ ...BOILING, answer: '모르겠어요 373' });
    expect(result.evidence.flags).toContain('give-up');
    expect(assessmentConfidence(result)).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });
});

describe('J15: other parts named, no sure good', () => {
  it.each([
    [BULBS, 'Bulbs A and C are still contained in closed paths with the battery'],
    [PATHS, 'bulbs b and c are still in closed paths with the battery'],
  ])('J15: the right words about other parts (%#) are not a sure good', (base, answer) => {
    const result = assessAnswer({ ...base, answer });
    expect(result.namesOtherLabels).toBe(true);
    if (result.label2 === 'good') expect(assessmentConfidence(result)).toBeLessThanOrEqual(OTHER_LABELS_CONFIDENCE);
    expect(assessmentConfidence(result) < CONFIDENT_AT || result.label2 === 'bad').toBe(true);
  });

  it('J15: the same parts, in any case, keep a sure good', () => {
    const result = assessAnswer({ ...PATHS, answer: 'bulb a and bulb c are still in closed paths with the battery' });
    expect(result.namesOtherLabels).toBe(false);
    expect(result.label2).toBe('good');
    expect(assessmentConfidence(result)).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J15: labels and the groups they are named in; an article is no label', () => {
    expect([...namedLabels('a damaged bulb creates a gap').labels]).toEqual([]);
    expect([...namedLabels('bulb a is on a closed path').labels]).toEqual(['A']);
    expect(namedLabels('If C burns out, then A and B are lit').groups.map((group) => [...group].sort().join(''))).toEqual(['C', 'AB']);
    expect(namedLabels('Bulb A and Bulb C').groups.map((group) => [...group].sort().join(''))).toEqual(['AC']);
    // Another reference that names no part does not hide the wrong pair; a part the question names is not another.
    expect(namesOtherLabels('A and C are lit', [BULBS.reference, 'There is still a closed path'], BULBS.question)).toBe(true);
    expect(namesOtherLabels('C is burned out so A and B stay lit', [BULBS.reference], BULBS.question)).toBe(false);
    expect(namesOtherLabels('A and B are lit', ['the bulbs are in a closed path'], BULBS.question)).toBe(false);
  });
});

describe('J16: an added negation, no sure good', () => {
  it('J16: a good verdict on an answer negating what the reference does not is unsure', () => {
    const result = assessAnswer({
      ...VOLTAGE,
      answer: 'voltage is the difference in electrical states between two terminals, it is not a current and it never flows through the bulb itself',
    });
    expect(result.addsNegation).toBe(true);
    expect(result.label2).toBe('good');
    expect(assessmentConfidence(result)).toBeLessThanOrEqual(ADDED_NEGATION_CONFIDENCE);
  });

  it('J16: a verb that forbids the reference\'s action is a negation too', () => {
    const REFORMATION = {
      question: '종교 개혁은 어떻게 시작되었나요?',
      reference: '교황청이 면벌부를 판매하자 루터가 이를 비판하는 95개조 반박문을 발표하면서 종교 개혁이 시작되었다.',
    };
    const forbidden = assessAnswer({ ...REFORMATION, answer: '교황청이 면벌부 판매를 금지하자 루터가 이를 비판하는 95개조 반박문을 발표하면서 시작되었다' });
    expect(forbidden.addsNegation).toBe(true);
    expect(forbidden.label2).toBe('good');
    expect(assessmentConfidence(forbidden)).toBeLessThan(CONFIDENT_AT);
    const sold = assessAnswer({ ...REFORMATION, answer: '교황청이 면벌부를 판매하자 루터가 이를 비판하는 95개조 반박문을 발표하면서 시작되었다' });
    expect(sold.addsNegation).toBe(false);
    expect(assessmentConfidence(sold)).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J16: without a negation the same good is sure; a reference that negates too leaves it alone', () => {
    const plain = assessAnswer({ ...VOLTAGE, answer: 'voltage is the difference in electrical states between two terminals of a battery' });
    expect(plain.addsNegation).toBe(false);
    expect(plain.label2).toBe('good');
    expect(assessmentConfidence(plain)).toBeGreaterThanOrEqual(CONFIDENT_AT);
    const negatedReference = assessAnswer({
      question: 'What happens to the other bulbs?',
      reference: 'the other bulbs do not go out because they are still in a closed path',
      answer: 'they do not go out, they are still in a closed path',
    });
    expect(negatedReference.addsNegation).toBe(false);
  });
});

describe('J17: an ambiguous alignment is no flip', () => {
  const MEDIAN = {
    question: '극단값이 있는 자료에서 평균보다 중앙값이 대푯값으로 더 알맞은 이유는 무엇인가요?',
    reference: '극단값(outlier)이 있으면 평균은 극단값의 영향을 크게 받지만 중앙값(median)은 영향을 거의 받지 않으므로 중앙값이 자료의 중심을 더 잘 나타낸다.',
  };
  const flip = (answer: string) => findContradiction(analyseText(answer), analyseText(MEDIAN.reference)).negationFlip;

  it('J17: a clause as close to the agreeing clause as to the other is not a negation', () => {
    expect(flip('median은 outlier 영향을 거의 안 받는데 평균은 많이 받아서요')).toBe(false);
    expect(assessAnswer({ ...MEDIAN, answer: 'median은 outlier 영향을 거의 안 받는데 평균은 많이 받아서요' }).evidence.flags).not.toContain('negation');
  });

  it('J17: a clause closest to a clause of the other polarity still flips', () => {
    expect(flip('중앙값은 극단값의 영향을 크게 받지만 평균은 영향을 거의 받지 않는다')).toBe(true);
  });
});

describe('J30: another number than the reference\'s, no sure good', () => {
  const COLD_WAR = {
    question: '냉전이란 무엇인가요?',
    reference: '냉전은 제2차 세계 대전 이후 미국 중심의 자본주의 진영과 소련 중심의 공산주의 진영이 직접 전쟁은 하지 않으면서 대립한 상황이다.',
  };
  const copy = (number: string) => `제${number}차 세계 대전 이후에 미국 중심 자본주의 진영과 소련 중심 공산주의 진영이 직접 전쟁없이 대립한 상황`;

  it('J30: a Korean copy with another ordinal is good at most unsure; with the reference\'s own it is sure', () => {
    const wrong = assessAnswer({ ...COLD_WAR, answer: copy('1') });
    expect(wrong.replacesNumber).toBe(true);
    expect(assessmentConfidence(wrong)).toBeLessThanOrEqual(NUMBER_REPLACED_CONFIDENCE);
    expect(assessmentConfidence(wrong)).toBeLessThan(CONFIDENT_AT);
    const right = assessAnswer({ ...COLD_WAR, answer: copy('2') });
    expect(right.replacesNumber).toBe(false);
    expect(right.label2).toBe('good');
    expect(assessmentConfidence(right)).toBeGreaterThanOrEqual(CONFIDENT_AT);
  });

  it('J30: an English example with other figures is unsure; a reference without numbers raises nothing', () => {
    const diameter = { question: 'What happens to the collision domain diameter if the speed is increased by a factor of 10?', reference: 'Diameter decreases by a factor of 10, e.g 300m to 30m.' };
    const other = assessAnswer({ ...diameter, answer: 'The collision domain diameter decreases by a factor of 10, for example from 3km to 300m.' });
    expect(other.replacesNumber).toBe(true);
    expect(other.label2).toBe('good');
    expect(assessmentConfidence(other)).toBeLessThan(CONFIDENT_AT);
    const plain = { question: 'What is voltage?', reference: 'Voltage is the difference in electrical states between two terminals' };
    expect(assessAnswer({ ...plain, answer: 'the difference in electrical states between 2 terminals' }).replacesNumber).toBe(false);
  });
});
