import { describe, expect, it } from 'vitest';
import { answerSentences, isAnswerSentence, pickModelAnswer } from '../src/lecture/model-answer.js';
import { writeOfflineLecture } from '../src/lecture/offline/offline-lecture.js';
import { displayText, parseLecture } from '../src/lecture/marker-parser.js';

/** The first chapter of the sample material as extracted from its PDF: cover page, running headers and all. */
const CHAPTER = `기초 통계
평균에서 대수의 법칙까지 — 확률과 통계의 첫걸음
이 자료는 세 개의 장으로 이루어져 있습니다.
1장 평균의 의미: 자료를 하나의 수로 요약하는 방법
2장 기댓값: 확률변수의 평균
3장 대수의 법칙: 표본평균이 기댓값에 가까워지는 이유
기초 통계 · 1

1. 평균의 의미
평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.
x̄ = (x₁ + x₂ + … + xₙ) / n
예를 들어 시험 점수가 70, 80, 90점이면 평균은 다음과 같습니다.
x̄ = (70 + 80 + 90) / 3 = 80
평균은 자료의 무게중심입니다. 모든 값을 평균으로 바꾸어도 합은 같습니다.
기초 통계 · 2

평균의 성질
각 값에서 평균을 뺀 편차를 모두 더하면 항상 0이 됩니다.
Σ (xᵢ − x̄) = 0
평균은 아주 크거나 작은 값(이상값)에 크게 흔들립니다.
예: 연봉 3000, 3200, 3100, 50000(만 원)의 평균은 약 14825로,
대부분의 사람이 받는 연봉과 거리가 멉니다. 이럴 때는 중앙값을 함께 봅니다.
기초 통계 · 3

표본평균과 모평균
관심 있는 집단 전체(모집단)의 평균을 모평균 μ라고 합니다.
모집단에서 일부를 뽑은 표본의 평균을 표본평균 x̄라고 합니다.
μ = 모집단 전체의 평균, x̄ = 표본 n개의 평균
표본을 새로 뽑을 때마다 x̄는 조금씩 달라집니다.
그렇다면 x̄는 μ를 얼마나 잘 추정할까요? 3장에서 답을 찾습니다.
기초 통계 · 4`;

/** The chapter's lecture as the student sees it (what the tutor receives): markers and questions removed. */
const shown = (title: string, text: string): string => displayText(parseLecture(writeOfflineLecture({ title, text })), Number.POSITIVE_INFINITY);
const LECTURE = shown('평균의 의미', CHAPTER);

describe('TJ3: the offline model answer', () => {
  it('is the definition sentences of the question concept, "평균(산술평균)은 …" included', () => {
    expect(pickModelAnswer('평균에 대해 자신의 말로 설명해 보세요.', LECTURE)).toBe(
      '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다. 평균은 자료의 무게중심입니다.',
    );
    // The name in brackets is the concept too.
    expect(pickModelAnswer('산술평균에 대해 설명해 보세요.', LECTURE)).toBe(
      '평균(산술평균)은 자료의 값을 모두 더한 뒤 자료의 개수로 나눈 값입니다.',
    );
  });

  it('reads "…을 X라고 합니다" and "X 기호는 …" as definitions of X', () => {
    expect(pickModelAnswer('표본평균이 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.', LECTURE)).toBe(
      '모집단에서 일부를 뽑은 표본의 평균을 표본평균 x̄라고 합니다.',
    );
    const lecture = shown('기댓값', '확률변수 X는 실험의 결과마다 하나의 수를 대응시킵니다.\n기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.');
    expect(pickModelAnswer('확률변수가 무엇인지 설명해 보세요.', lecture)).toBe('확률변수 X는 실험의 결과마다 하나의 수를 대응시킵니다.');
  });

  it('never takes the title page, the contents, running headers, worked examples, formulas or our own connectives', () => {
    const sentences = answerSentences(LECTURE);
    expect(sentences.length).toBeGreaterThan(3);
    for (const sentence of sentences) {
      expect(sentence).not.toMatch(/기초 통계|첫걸음|이 자료는|\d장|예:|예를 들어|연봉|14825|=|살펴보겠습니다|다룹니다|정리하면|\?$/u);
    }
    // A question whose concept only the cover page and the example name gets no sentence from them.
    expect(pickModelAnswer('연봉에 대해 설명해 보세요.', LECTURE)).toBe('');
  });

  it('drops a heading glued in front of the definition it introduces', () => {
    const lecture = shown('기댓값', '기댓값과 평균\n기댓값은 확률을 가중치로 한 평균, 즉 가중평균입니다.\n예: 1000원짜리 복권의 당첨금 기댓값이 400원이라면,\nE[이익] = 400 − 1000 = −600 (원)');
    expect(pickModelAnswer('기댓값에 대해 자신의 말로 설명해 보세요.', lecture)).toBe('기댓값은 확률을 가중치로 한 평균, 즉 가중평균입니다.');
  });

  it('tells statements from fragments, examples and pointers', () => {
    expect(isAnswerSentence('분산은 확률변수가 기댓값에서 얼마나 흩어져 있는지를 나타내는 값이다.')).toBe(true);
    expect(isAnswerSentence('The variance measures how far values spread around the mean.')).toBe(true);
    for (const sentence of [
      '1장 평균의 의미: 자료를 하나의 수로 요약하는 방법',
      '기초 통계 평균에서 대수의 법칙까지 — 확률과 통계의 첫걸음',
      '예: 주사위 두 개의 눈의 합의 기댓값은 3.5 + 3.5 = 7입니다.',
      '동전 던지기 예 앞면이면 1, 뒷면이면 0인 확률변수 X의 기댓값은 E[X] = 0.5입니다.',
      '상수 a, b에 대하여 다음이 항상 성립합니다.',
      '그렇다면 x̄는 μ를 얼마나 잘 추정할까요?',
      'For example, a die shows 3.5 on average over 100 throws.',
    ]) {
      expect(isAnswerSentence(sentence), sentence).toBe(false);
    }
  });

  it('falls back to the sentences with the most question terms, and to nothing for an empty chapter', () => {
    const lecture = shown('분산', '자료가 평균에서 얼마나 흩어져 있는지 나타내는 값이 분산의 뜻입니다.');
    expect(pickModelAnswer('흩어짐의 정도를 나타내는 값을 설명해 보세요.', lecture)).toBe('자료가 평균에서 얼마나 흩어져 있는지 나타내는 값이 분산의 뜻입니다.');
    expect(pickModelAnswer('평균에 대해 설명해 보세요.', shown('부록', ''))).toBe('');
  });
});
