/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - J1 — Give-up. An empty answer, punctuation only, or a give-up ("모르겠어요", "잘 모르", "몰라", "idk", "I don't know", "no
 *   idea" …
 * - J35 — A give-up names the topic. A Korean give-up phrase said beside nothing but the question's own words and
 *   talk about one's own studying (`배우긴 했는데`, `시험 범위였나요`, `뭐였는지`; faces like `ㅠ` are no words) is a
 *   give-up, told as sure; with a word of the reference the question does not give (`모르겠지만 … 작아진다`), or three
 *   words of its own, it is a hedged attempt, judged on what it says.
 * - J2 — Echo. An answer that repeats the question's own wording and none of the reference's new concepts (those the
 *   question does not contain) is incorrect (`echo`).
 * - J3 — Pasted passage. With a `source` text, an answer at least half made of verbatim runs of the source that are
 *   not part of the reference is never correct (`pasted-passage`) …
 * - J4 — Keyword list. A bare list of terms with no predicate (comma-separated short items, or three or more words
 *   with nothing between) is never correct (`keyword-list`) …
 * - J5 — Contradiction. A short answer that reuses the reference's words to say the opposite is incorrect: a negation
 *   on one side only (not/never/no, 않다/없다/아니다/못/안) …
 * - J6 — Keywords. A Latin multi-word keyword matches only as the same words in the same order ("product right" ≠
 *   "right product"); Korean keywords match regardless of spacing and particles …
 * - J7 — Text. Korean particles and endings (은/는/이/가/을/를/에/에서/으로/의/와/과/도/만/이다/입니다, 해요체 and 개조식 endings) are stripped,
 *   spacing does not matter, full-width text is folded (NFKC) …
 * - J8 — Paraphrases. Clear correct paraphrases (informal endings, 한영 혼용, reordered wording) are good; an answer
 *   about something else is bad.
 * - J9 — Output. The assessment is deterministic; `score` is in [0, 1] and ordered like `label3` (every correct score
 *   above every partial one, every partial above every incorrect) …
 * - J10 — Same words, something else. A short answer that reuses the reference's words but gives two nouns each
 *   other's roles (Korean particles: "자료의 개수를 모두 더한 뒤 자료의 값으로 나눈" for "자료의 값을 … 개수로 나눈" …
 * - J11 — Thin coverage. A short answer (at most 15 content words) covering under 30 % of the reference's concepts
 *   and under half of those the question does not give is never correct (`thin-coverage` …
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AssessInput, CERTAIN_CONFIDENCE, MAX_ANSWER_CHARACTERS, assessAnswer, assessmentConfidence, keywordFound, matchKeywords } from '../src/judges/index.js';
import { analyseText } from '../src/judges/text-units.js';

const MEAN = {
  question: '평균(산술평균)이란 무엇인지 설명해 보세요.',
  reference: '평균(mean)은 자료의 모든 값을 더한 뒤 자료의 개수로 나눈 값으로, 자료의 중심을 나타낸다.',
};
const VARIANCE = {
  question: '분산은 무엇을 나타내나요?',
  reference: '분산(variance)은 편차를 제곱한 값들의 평균이다. 분산이 클수록 자료가 평균 주위에 넓게 흩어져 있다.',
};
const BULB = {
  question: 'Why did bulb A stay on when bulb C burned out?',
  reference: 'Bulb A is still in a closed path with the battery.',
};
const WARMING = {
  question: '온실가스가 늘어나면 지구의 기온은 어떻게 되나요?',
  reference: '온실가스가 증가하면 지구에서 빠져나가는 열이 더 많이 갇혀서 지구의 평균 기온이 올라간다.',
};

const LISTS = {
  question: '연결 리스트란 무엇인가요?',
  reference: '연결 리스트는 각 노드가 데이터와 다음 노드를 가리키는 포인터를 가지고 줄지어 연결된 자료 구조이다.',
};
const WAVES = {
  question: '지진파 중 P파와 S파는 어떻게 다른가요?',
  reference: 'P파는 속도가 빨라 먼저 도착하고 고체, 액체, 기체를 모두 통과한다. S파는 느리고 고체만 통과한다.',
};
const VARIANCE_OF_MEAN = {
  question: '표본의 크기가 커지면 표본평균의 분산은 어떻게 되나요?',
  reference: '표본의 크기가 커지면 표본평균의 분산은 작아진다.',
};

function assess(base: Omit<AssessInput, 'answer'>, answer: string): ReturnType<typeof assessAnswer> {
  return assessAnswer({ ...base, answer });
}

describe('answer assessor: never good', () => {
  it.each(['잘 모르겠어요', '모르겠습니다', '몰라요 ㅠㅠ', 'idk', "I don't know", 'no idea', 'pass', '', '   ', '?'])(
    'J1: a give-up (%j) is incorrect with score 0',
    (answer) => {
      const result = assess(MEAN, answer);
      expect(result).toMatchObject({ label3: 'incorrect', label2: 'bad', score: 0 });
      expect(result.evidence.flags).toContain('give-up');
    },
  );

  it('J1: a give-up followed by a real attempt is judged on the attempt', () => {
    const result = assess(MEAN, '잘 모르겠지만 모든 값을 더해서 개수로 나눈 값이고 자료의 중심을 나타내요');
    expect(result.evidence.flags).not.toContain('give-up');
    expect(result.label2).toBe('good');
  });

  it.each([
    [LISTS, '연결 리스트가 뭐였는지 기억이 안 나요.. 죄송합니다'],
    [WAVES, 'P파랑 S파 배우긴 했는데 뭐가 뭔지 기억이 안 나요ㅠ'],
    [WAVES, '잘 모르겠어요.. 이거 시험 범위였나요?'],
  ])('J35: a give-up that names the question\'s topic (%#) is a give-up, told as sure', (base, answer) => {
    const result = assess(base, answer);
    expect(result.evidence.flags).toContain('give-up');
    expect(result).toMatchObject({ label3: 'incorrect', score: 0 });
    expect(assessmentConfidence(result)).toBe(CERTAIN_CONFIDENCE);
  });

  it('J35: beside a word of the reference, or words of its own, a give-up phrase hedges an attempt', () => {
    // 작아진다 is the reference's, not the question's: the student says what happens.
    expect(assess(VARIANCE_OF_MEAN, '잘 모르겠지만 표본이 커지면 분산이 작아진다?').evidence.flags).not.toContain('give-up');
    // An everyday guess in words of its own is an attempt, judged (here: not sure) rather than a give-up.
    expect(assess(WAVES, '잘 모르겠는데 땅이 흔들리는 방식이 서로 달라서요?').evidence.flags).not.toContain('give-up');
  });

  it('J2: an echo of the question is incorrect (Korean and English)', () => {
    const korean = assess(VARIANCE, '분산은 무엇을 나타내나요');
    expect(korean).toMatchObject({ label3: 'incorrect', label2: 'bad' });
    expect(korean.evidence.flags).toContain('echo');
    const english = assess(BULB, 'bulb A stayed on when bulb C burned out');
    expect(english).toMatchObject({ label3: 'incorrect', label2: 'bad' });
    expect(english.evidence.flags).toContain('echo');
  });

  it('J3: a passage pasted from the source beyond the reference is never correct; reciting the reference is not pasting', () => {
    const source =
      `대푯값은 자료 전체의 특징을 하나의 수로 나타낸 값이다. ${MEAN.reference} 평균은 계산이 쉽고 모든 값을 ` +
      '반영하지만 극단값의 영향을 크게 받는다. 예를 들어 다섯 명의 용돈이 3만 원, 4만 원, 5만 원, 5만 원, 8만 원이라면 평균은 5만 원이다.';
    const pasted = assessAnswer({
      ...MEAN,
      source,
      answer: '평균은 계산이 쉽고 모든 값을 반영하지만 극단값의 영향을 크게 받는다. 예를 들어 다섯 명의 용돈이 3만 원, 4만 원, 5만 원, 5만 원, 8만 원이라면 평균은 5만 원이다',
    });
    expect(pasted.evidence.flags).toContain('pasted-passage');
    expect(pasted.label3).not.toBe('correct');
    expect(pasted.label2).toBe('bad');
    const recited = assessAnswer({ ...MEAN, source, answer: MEAN.reference });
    expect(recited.evidence.flags).not.toContain('pasted-passage');
    const english = assessAnswer({
      ...BULB,
      source:
        'A circuit is a closed path. Bulb A is still in a closed path with the battery. Voltage is the difference in electrical ' +
        'states between two terminals, and a burned out bulb creates a gap in the path of the circuit.',
      answer: 'voltage is the difference in electrical states between two terminals, and a burned out bulb creates a gap',
    });
    expect(english.evidence.flags).toContain('pasted-passage');
    expect(english.label2).toBe('bad');
  });

  it.each([
    [MEAN, '값, 개수, 중심'],
    [MEAN, '평균 값 개수 중심'],
    [VARIANCE, '편차, 제곱, 평균, 흩어짐'],
    [BULB, 'bulb, closed path, battery'],
  ])('J4: a bare keyword list (%#) is never correct', (base, answer) => {
    const result = assess(base, answer);
    expect(result.evidence.flags).toContain('keyword-list');
    expect(result.label3).not.toBe('correct');
    expect(result.label2).toBe('bad');
  });

  it('J4: a term answering a term, numbers, and answers to "list …" questions are not keyword lists', () => {
    const term = assessAnswer({ question: '훈련 데이터에만 지나치게 맞는 현상은?', reference: '과적합(overfitting)', answer: 'overfitting' });
    expect(term.evidence.flags).not.toContain('keyword-list');
    expect(term.label3).toBe('correct');
    const list = assessAnswer({ question: 'List the primary colours of light.', reference: 'The primary colours of light are red, green and blue.', answer: 'red, green, blue' });
    expect(list.evidence.flags).not.toContain('keyword-list');
  });
});

describe('answer assessor: contradictions with the reference’s own words', () => {
  it.each([
    ['negation (않다)', WARMING, '온실가스가 증가해도 열이 갇히지 않아서 기온이 올라가지 않는다', ['negation']],
    ['antonym 같다/다르다', { question: '두 집단의 분산을 비교하세요.', reference: '두 집단의 분산은 같다.' }, '두 집단의 분산은 다르다', ['antonym']],
    ['antonym 넓게/좁게', VARIANCE, '분산이 클수록 자료가 평균 주위에 좁게 모여 있어요', ['antonym']],
    ['antonym increase/decrease', { question: 'What happens to B when A increases?', reference: 'When A increases, B decreases.' }, 'When A increases, B increases too.', ['antonym']],
    // 아니다 in its formal ending (아닙니다: the ㅂ of -ㅂ니다 fused onto 니) is a negation like 아니에요.
    ['negation (아닙니다)', { question: '평균은 무엇인가요?', reference: '평균은 자료의 무게중심입니다.' }, '평균은 자료의 무게중심이 아닙니다.', ['negation']],
    ['negation (not)', { question: 'Are terminals 1 and 2 connected?', reference: 'Terminal 1 and terminal 2 are connected.' }, 'Terminal 1 and terminal 2 are not connected.', ['negation']],
    ['reversed cause and effect (English)', { question: 'What is the relation between heat and expansion?', reference: 'Heat causes the expansion of the metal.' }, 'The expansion of the metal causes heat.', ['reversed']],
    ['reversed condition (Korean)', WARMING, '기온이 올라가면 온실가스가 증가해요', ['reversed']],
    ['swapped paired concepts', { question: '평균과 분산은 각각 무엇을 나타내나요?', reference: '평균은 자료의 중심을 나타내고, 분산은 자료의 퍼짐을 나타낸다.' }, '평균은 자료의 퍼짐을 나타내고, 분산은 자료의 중심을 나타내요', ['swapped']],
  ] as const)('J5: %s is incorrect', (_name, base, answer, flags) => {
    const result = assess(base, answer);
    expect(result).toMatchObject({ label3: 'incorrect', label2: 'bad' });
    for (const flag of flags) expect(result.evidence.flags).toContain(flag);
  });

  it('J5: a negation and an antonym together agree with the reference', () => {
    const result = assessAnswer({
      question: 'Why are terminals 4, 5 and 6 in a different state?',
      reference: 'Terminals 4, 5 and 6 are not connected to the negative battery terminal.',
      answer: 'Terminals 4, 5 and 6 are connected to the positive battery terminal.',
    });
    expect(result.evidence.flags).not.toContain('negation');
    expect(result.evidence.flags).not.toContain('antonym');
  });

  it('J5: a passive keeps the meaning of a causal sentence', () => {
    const base = { question: 'What is the relation between heat and expansion?', reference: 'Heat causes the expansion of the metal.' };
    const result = assess(base, 'The expansion of the metal is caused by heat.');
    expect(result.evidence.flags).not.toContain('reversed');
    expect(result.label2).toBe('good');
  });

  it('J5: an answer that agrees with an acceptable alternative is judged against it', () => {
    const result = assessAnswer({
      question: 'Explain why you got a voltage reading of 1.5 for terminal 1 and the positive terminal.',
      reference: 'Terminal 1 and the positive terminal are separated by the gap',
      alternatives: ['Terminal 1 and the positive terminal are not connected'],
      answer: 'terminal 1 and the positive terminal are not connected',
    });
    expect(result.evidence.flags).toEqual([]);
    expect(result.label2).toBe('good');
  });
});

const MEAN_DEFINITION = {
  question: '평균이란 무엇인지 설명해 보세요.',
  reference: '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.',
};
const SAMPLE_SIZE = {
  question: '표본의 크기가 커지면 표본평균은 어떻게 되나요?',
  reference: '표본의 크기가 클수록 표본평균은 모평균에 가까워집니다.',
};
const EXPECTATION = { question: '기댓값은?', reference: '기댓값은 각 값에 그 확률을 곱한 것을 모두 더한 값입니다.' };
const MEAN_EN = { question: 'What is the mean?', reference: 'The mean is the sum of the values divided by the number of values.' };

describe('answer assessor: the same words saying something else', () => {
  it.each([
    ['values and count trade 을/를 and (으)로', MEAN_DEFINITION, '자료의 개수를 모두 더한 뒤 자료의 값으로 나눈 값이에요', 'swapped'],
    ['subject and goal traded', { question: '표본평균과 모평균은?', reference: '표본평균이 모평균에 가까워진다.' }, '모평균이 표본평균에 가까워진다', 'swapped'],
    ['a 의-chain in reverse order', { question: '분산이란?', reference: '분산은 편차의 제곱의 평균입니다.' }, '분산은 편차의 평균의 제곱입니다', 'swapped'],
    ['곱한 for 더한', MEAN_DEFINITION, '자료의 값을 모두 곱한 뒤 자료의 개수로 나눈 값이에요', 'antonym'],
    ['뺀 for 더한', MEAN_DEFINITION, '자료의 값을 모두 뺀 뒤 자료의 개수로 나눈 값이에요', 'antonym'],
    ['the two operations swapped', EXPECTATION, '각 값에 확률을 더해서 모두 곱한 값이에요', 'antonym'],
    ['나눈 for 곱한 (확률로: 로 after ㄹ)', EXPECTATION, '각 값을 모두 더한 뒤 확률로 나눈 값이에요', 'antonym'],
    ['멀어지다 for 가까워지다 in a -수록 clause', SAMPLE_SIZE, '표본의 크기가 클수록 표본평균은 모평균에서 멀어집니다', 'antonym'],
    ['작을수록 for 클수록', SAMPLE_SIZE, '표본의 크기가 작을수록 표본평균은 모평균에 가까워집니다', 'antonym'],
    ['the number divided by the sum (of/by roles)', MEAN_EN, 'The mean is the number of values divided by the sum of the values.', 'swapped'],
    ['the square of the mean (of-chain)', { question: 'What is variance?', reference: 'Variance is the mean of the squared deviations.' }, 'Variance is the square of the mean deviation.', 'swapped'],
    ['product for sum', MEAN_EN, 'The mean is the product of the values divided by the number of values.', 'antonym'],
    ['farther for closer', { question: 'What happens as the sample grows?', reference: 'As the sample size increases, the sample mean gets closer to the population mean.' }, 'As the sample size increases, the sample mean gets farther from the population mean.', 'antonym'],
  ] as const)('J10: %s is incorrect', (_name, base, answer, flag) => {
    const result = assess(base, answer);
    expect(result).toMatchObject({ label3: 'incorrect', label2: 'bad' });
    expect(result.evidence.flags).toContain(flag);
  });

  it.each([
    [MEAN_DEFINITION, '자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값이에요'],
    [MEAN_DEFINITION, '자료값을전부더한다음에 자료개수로나눈값이에요'],
    [SAMPLE_SIZE, '표본이 많아질수록 표본평균이 모평균에 가까워져요'],
    [{ question: '모평균과 표본평균은 어떤 관계인가요?', reference: '표본평균은 표본마다 달라지지만 모평균은 하나로 정해져 있습니다.' }, '표본평균은 표본마다 다릅니다. 모평균은 하나로 정해져 있어요'],
    [EXPECTATION, '각 값에 확률을 곱해서 모두 더한 값이에요'],
    [EXPECTATION, '값마다 그 확률을 곱한 다음에 전부 합해요'],
    [MEAN_EN, 'You add up all the values and divide by how many values there are.'],
    [{ question: 'What happens as the sample grows?', reference: 'As the sample size increases, the sample mean gets closer to the population mean.' }, 'With a bigger sample the sample mean gets closer to the population mean.'],
  ])('J10: the same roles, order and operations in other words (%#) stay good', (base, answer) => {
    const result = assess(base, answer);
    expect(result).toMatchObject({ label3: 'correct', label2: 'good' });
    expect(result.evidence.flags).toEqual([]);
  });

  it('J11: a short answer sharing only a few generic words of the reference is never correct', () => {
    // The mode ("the most frequent value") against the mean: only 자료 and 값 are shared; 더한, 개수, 나눈 are missing.
    const mode = assess(MEAN_DEFINITION, '자료에서 가장 많이 나타나는 값이에요');
    expect(mode.label2).toBe('bad');
    expect(mode.evidence.flags).toContain('thin-coverage');
    expect(mode.evidence.missing).toEqual(expect.arrayContaining(['개수']));
    expect(assess(MEAN_EN, 'It is the value that appears most often.').label2).toBe('bad');
    // A long answer in its own words is left to the score.
    const long = assess(MEAN, '평균은 모든 자료값을 하나로 합친 다음 몇 개인지로 나누어서 얻는 수로, 자료가 대체로 어디쯤 모여 있는지 알려 주는 대표적인 값이라고 할 수 있어요 예를 들면 시험 점수 같은 것에서 많이 써요');
    expect(long.evidence.flags).not.toContain('thin-coverage');
  });
});

describe('answer assessor: keywords', () => {
  it('J6: a Latin phrase keyword needs the same words in the same order', () => {
    const answer = analyseText('Verification checks that we build the product right.');
    expect(keywordFound('product right', answer)).toBe(true);
    expect(keywordFound('right product', answer)).toBe(false);
    expect(keywordFound('Product Right', analyseText('we built the right product'))).toBe(false);
  });

  it('J6: Korean keywords match across spacing and particles, synonyms with a slash', () => {
    const answer = analyseText('사용자니즈가 중요하고 과적합을 막아야 해요');
    expect(keywordFound('사용자 니즈', answer)).toBe(true);
    expect(matchKeywords(['overfitting/과적합', '명세'], answer)).toEqual({ matched: ['overfitting/과적합'], missing: ['명세'], coverage: 0.5 });
  });

  it('J6: fewer than half of the keywords present is never correct, and evidence names them', () => {
    const base = {
      question: 'Boehm이 정의한 Verification과 Validation의 차이는?',
      reference: 'Verification은 product right, 즉 명세대로 제품을 올바르게 만드는지, Validation은 right product, 즉 사용자 니즈에 맞는 올바른 제품을 만드는지 확인한다.',
      keywords: ['Product right', 'Right product', '명세', '사용자 니즈'],
    };
    const partial = assessAnswer({ ...base, answer: 'Verification은 명세를 잘 지켰는지 확인하는 것이고, Validation은 사용자가 원하는 걸 만들었는지 확인하는 것이다.' });
    expect(partial.evidence.flags).toContain('missing-keywords');
    expect(partial.label3).not.toBe('correct');
    expect(partial.evidence.matched).toEqual(['명세']);
    expect(partial.evidence.missing).toEqual(['Product right', 'Right product', '사용자 니즈']);
    const full = assessAnswer({ ...base, answer: 'Verification은 명세대로 product right을, Validation은 사용자 니즈에 맞는 right product를 확인하는 것' });
    expect(full.evidence.flags).not.toContain('missing-keywords');
    expect(full.evidence.missing).toEqual([]);
  });
});

describe('answer assessor: Korean and English text', () => {
  it('J7: particles and endings are stripped, spacing and width do not matter, 한영 혼용 matches', () => {
    const units = (text: string): string[] => analyseText(text).units;
    expect(units('평균은 자료의 중심을 나타내요')).toEqual(['평균', '자료', '중심', '나타내']);
    expect(units('분산이 증가한다')).toEqual(units('분산이 증가해요'));
    expect(units('variance가 크다')).toEqual([...units('variance'), '크']);
    expect(units('ＶＡＲＩＡＮＣＥ가')).toEqual(units('variance'));
    const spaced = assess(MEAN, '자료의 모든 값을 더한 뒤 개수로 나눈 값으로 자료의 중심을 나타내요');
    const unspaced = assess(MEAN, '자료의모든값을더한뒤 개수로나눈값으로 자료의중심을나타내요');
    expect(spaced.label2).toBe('good');
    expect(unspaced.label2).toBe('good');
    const mixed = assess(VARIANCE, 'variance가 클수록 자료가 평균 주위에 넓게 흩어져 있어요. 편차 제곱의 평균이에요');
    // `분산(variance)`: the alias in parentheses is the same concept, shown under its first name.
    expect(mixed.evidence.matched).toContain('분산');
    expect(mixed.label2).toBe('good');
  });

  it('J7: English words are stemmed and stopwords ignored', () => {
    expect(analyseText('The bulbs are contained in closed paths').units).toEqual(analyseText('bulb contain close path').units);
  });

  it.each([
    [MEAN, '모든 값을 다 더해서 개수로 나눈 거요. 자료의 중심을 나타내요'],
    [VARIANCE, '편차를 제곱해서 평균 낸 값이고, 분산이 클수록 자료가 평균에서 넓게 흩어져 있다는 뜻이에요'],
    [WARMING, 'CO2 같은 온실가스가 늘면 열이 더 많이 갇혀서 평균 기온이 올라가요'],
    [BULB, 'because bulb A is still contained in a closed path with the battery'],
    [{ question: 'What does a voltage reading of 0 tell you?', reference: 'the terminals are connected' }, 'it means the two terminals are connected'],
  ])('J8: a clear correct paraphrase (%#) is good', (base, answer) => {
    const result = assess(base, answer);
    expect(result).toMatchObject({ label3: 'correct', label2: 'good' });
    expect(result.evidence.flags).toEqual([]);
  });

  it('J8: an answer about something else is bad', () => {
    expect(assess(BULB, 'The switch makes the motor spin faster.').label2).toBe('bad');
    expect(assess(MEAN, '가장 많이 나타나는 값이에요').label2).toBe('bad');
  });
});

describe('answer assessor: output', () => {
  const answers = ['모든 값을 더해서 개수로 나눠요', '잘 모르겠어요', '값, 개수', '자료의 중심', 'bulb A is in a closed path', '', 'x'];
  const bases = [MEAN, VARIANCE, BULB, WARMING];

  it('J9: deterministic, score in [0, 1], label2 good exactly when label3 is correct, scores ordered like labels', () => {
    const results: ReturnType<typeof assessAnswer>[] = [];
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.constantFrom(...answers), fc.string({ maxLength: 12 }), (base, answer, noise) => {
        const input = { ...base, answer: `${answer}${noise}` };
        const result = assessAnswer(input);
        expect(assessAnswer(input)).toEqual(result);
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(1);
        expect(result.label2 === 'good').toBe(result.label3 === 'correct');
        results.push(result);
      }),
      { seed: 16, numRuns: 200 },
    );
    const rank = { incorrect: 0, partial: 1, correct: 2 } as const;
    for (const left of results) {
      for (const right of results) {
        if (rank[left.label3] > rank[right.label3]) expect(left.score).toBeGreaterThan(right.score);
      }
    }
  });

  it('J9: only the first MAX_ANSWER_CHARACTERS characters of an answer are read', () => {
    const head = '모든 값을 다 더해서 개수로 나눈 거요. 자료의 중심을 나타내요. '.repeat(120).slice(0, MAX_ANSWER_CHARACTERS);
    expect(assess(MEAN, `${head}그런데 사실 잘 모르겠어요`)).toEqual(assess(MEAN, head));
  });
});
