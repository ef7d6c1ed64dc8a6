import { describe, expect, it } from 'vitest';
import { judgeOfflineAnswer, studentConcepts } from '../src/lecture/offline/offline-judge.js';

/** The offline Q&A judge (src/lecture/offline/offline-judge.ts) on lecture-shaped model answers. Rule ids: test/SPEC.md. */

const QUESTION = '평균에 대해 자신의 말로 설명해 보세요.';
const MODEL_ANSWER = '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다. 평균은 자료의 무게중심입니다.';
const LECTURE = `평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.

평균은 자료의 무게중심입니다. 모든 값을 평균으로 바꾸어도 합은 같습니다.

각 값에서 평균을 뺀 편차를 모두 더하면 항상 0이 됩니다.

평균은 아주 크거나 작은 값(이상값)에 크게 흔들립니다. 이럴 때는 중앙값을 함께 봅니다.`;

const judge = (answer: string, modelAnswer = MODEL_ANSWER, question = QUESTION) =>
  judgeOfflineAnswer({ question, modelAnswer, answer, lecture: LECTURE });

describe('the offline Q&A judge', () => {
  it('TJ1: never judges good a give-up, an echo, a pasted passage, a keyword list or a negated statement', () => {
    const never = {
      'give-up': '잘 모르겠어요',
      idk: 'idk',
      echo: QUESTION,
      pasted: '각 값에서 평균을 뺀 편차를 모두 더하면 항상 0이 됩니다. 평균은 아주 크거나 작은 값(이상값)에 크게 흔들립니다.',
      keywords: '평균, 자료, 개수, 무게중심',
      // One sentence of a two-sentence model answer negated: the whole answer would dilute it.
      negation: '평균은 자료의 무게중심이 아닙니다.',
    };
    for (const [name, answer] of Object.entries(never)) expect(judge(answer).verdict, name).toBe('bad');
  });

  it('TJ1: never judges good a reversed cause and effect, "같다" for "다르다" or swapped pairs', () => {
    const causal = '표본의 크기가 커지면 표본평균이 기댓값에 가까워집니다.';
    expect(judge('표본평균이 기댓값에 가까워지면 표본의 크기가 커집니다.', causal, '대수의 법칙을 설명해 보세요.').verdict).toBe('bad');
    const same = '모든 값을 평균으로 바꾸어도 합은 같습니다.';
    expect(judge('모든 값을 평균으로 바꾸면 합은 달라요.', same, '평균의 성질을 설명해 보세요.').verdict).toBe('bad');
    const pairs = '모평균은 모집단의 평균이고, 표본평균은 표본의 평균입니다.';
    expect(judge('모평균은 표본의 평균이고, 표본평균은 모집단의 평균입니다.', pairs, '모평균과 표본평균을 비교해 보세요.').verdict).toBe('bad');
  });

  it('TJ1: never judges good the same words with the roles, the order or the operation changed, or another concept', () => {
    const mean = '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.';
    const question = '평균이란 무엇인지 설명해 보세요.';
    const never: Record<string, [string, string, string]> = {
      'swapped operands': ['자료의 개수를 모두 더한 뒤 자료의 값으로 나눈 값이에요', mean, question],
      'another operation': ['자료의 값을 모두 곱한 뒤 자료의 개수로 나눈 값이에요', mean, question],
      'the mode': ['자료에서 가장 많이 나타나는 값이에요', mean, question],
      '멀어지다': ['표본의 크기가 클수록 표본평균은 모평균에서 멀어집니다', '표본의 크기가 클수록 표본평균은 모평균에 가까워집니다.', '표본의 크기가 커지면 표본평균은 어떻게 되나요?'],
      '의-chain': ['분산은 편차의 평균의 제곱입니다', '분산은 편차의 제곱의 평균입니다.', '분산이란?'],
      'swapped operations': ['각 값에 확률을 더해서 모두 곱한 값이에요', '기댓값은 각 값에 그 확률을 곱한 것을 모두 더한 값입니다.', '기댓값은?'],
    };
    for (const [name, [answer, modelAnswer, asked]] of Object.entries(never)) {
      expect(judge(answer, modelAnswer, asked).verdict, name).toBe('bad');
    }
  });

  it('TJ2: keeps good the same ideas in other words', () => {
    const good: Record<string, [string, string, string]> = {
      mean: ['자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값이에요', '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.', '평균이란 무엇인지 설명해 보세요.'],
      'sample size': ['표본이 많아질수록 표본평균이 모평균에 가까워져요', '표본의 크기가 클수록 표본평균은 모평균에 가까워집니다.', '표본의 크기가 커지면 표본평균은 어떻게 되나요?'],
      'sample means': ['표본평균은 표본마다 다릅니다. 모평균은 하나로 정해져 있어요', '표본평균은 표본마다 달라지지만 모평균은 하나로 정해져 있습니다.', '모평균과 표본평균은 어떤 관계인가요?'],
      expectation: ['각 값에 확률을 곱해서 모두 더한 값이에요', '기댓값은 각 값에 그 확률을 곱한 것을 모두 더한 값입니다.', '기댓값은?'],
    };
    for (const [name, [answer, modelAnswer, asked]] of Object.entries(good)) {
      expect(judge(answer, modelAnswer, asked).verdict, name).toBe('good');
    }
  });

  it('TJ2: judges a paraphrase good and praises what it got right', () => {
    const result = judge('모든 값을 더해서 그 개수로 나눈 값이고, 자료의 무게중심 같은 거예요.');
    expect(result.verdict).toBe('good');
    expect(result.feedback).toMatch(/^좋아요, 핵심을 잘 이해하고 있어요\. 특히 '[가-힣]+'/u);
    expect(judge(MODEL_ANSWER).verdict).toBe('good');
  });

  it('TJ4: quotes the missing ideas with the right particle, never numbers, symbols or verb forms', () => {
    expect(judge('값들을 전부 더한 합계를 말해요.').feedback).toBe("답변에 '자료', '개수'라는 생각이 빠져 있어요. 이 부분을 함께 하나씩 짚어 봅시다.");
    expect(judge('잘 모르겠어요').feedback).toBe("괜찮아요, 처음에는 어려울 수 있어요. '자료', '개수'라는 생각부터 차근차근 함께 짚어 봅시다.");
    expect(judge('평균은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.').feedback).toContain("'무게중심'이라는 점까지");
    expect(studentConcepts(['50000', '14825', 'x̄', 'μ', '나눈', '더한', '값', '무게중심', '중심'], QUESTION, MODEL_ANSWER + ' 중심')).toEqual(['무게중심']);
    expect(studentConcepts(['평균', '표본'], QUESTION, '표본의 평균')).toEqual(['표본']);
  });

  it('TJ4: quotes nouns, never verb stems, and names the two ideas an answer swapped', () => {
    const modelAnswer = '표본평균은 표본마다 달라지지만 모평균은 하나로 정해져 있습니다.';
    const praise = judge('표본평균은 표본마다 다릅니다. 모평균은 하나로 정해져 있어요', modelAnswer, '모평균과 표본평균은 어떤 관계인가요?').feedback;
    expect(praise).toMatch(/^좋아요/u);
    expect(praise).not.toMatch(/'다르'|'달라'/u);
    const mean = '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.';
    const good = judge('자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값이에요', mean).feedback;
    expect(good).not.toMatch(/'(?:더하|나누|더한|나눈)'/u);
    expect(judge('자료에서 가장 많이 나타나는 값이에요', mean).feedback).toBe("답변에 '개수'라는 생각이 빠져 있어요. 이 부분을 함께 하나씩 짚어 봅시다.");
    expect(judge('자료의 값을 모두 곱한 뒤 자료의 개수로 나눈 값이에요', mean).feedback).toMatch(/^모범 답안과 반대되는 내용이 들어 있어요/u);
    expect(judge('자료의 개수를 모두 더한 뒤 자료의 값으로 나눈 값이에요', mean).feedback).toBe(
      "'값'과 '개수'가 놓인 자리가 모범 답안과 서로 바뀌어 있어요. 둘이 각각 어떤 역할을 하는지 다시 생각해 봅시다.",
    );
    expect(judge('분산은 편차의 평균의 제곱입니다', '분산은 편차의 제곱의 평균입니다.', '분산이란?').feedback).toMatch(/^'제곱'과 '평균'이 놓인 자리가/u);
    for (const stem of ['가깝', '나누', '다르']) expect(studentConcepts([stem, '모평균'], '', `모평균에 가까워집니다. 나눈 값. 다릅니다.`)).toEqual(['모평균']);
  });

  it('TJ4: says what kind of answer it was when a rule held it down', () => {
    expect(judge(QUESTION).feedback).toMatch(/^질문을 다시 말하기보다/u);
    expect(judge('평균, 자료, 개수, 무게중심').feedback).toMatch(/^낱말만 늘어놓기보다/u);
    expect(judge('각 값에서 평균을 뺀 편차를 모두 더하면 항상 0이 됩니다. 평균은 아주 크거나 작은 값(이상값)에 크게 흔들립니다.').feedback).toMatch(
      /^강의 문장을 그대로 옮기기보다/u,
    );
    expect(judge('평균은 자료의 무게중심이 아닙니다.').feedback).toMatch(/^모범 답안과 반대되는 내용이 들어 있어요/u);
  });
});
