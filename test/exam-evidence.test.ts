/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EG1 — Korean keywords, with offsets. Key keywords are found through particles, missing spaces and 한영 혼용
 *   (`variance가`, `표본평균은` for `표본 평균`, `사용자니즈가`) …
 * - EG2 — Latin phrase order. "product right" is not found in "the right product"; both phrases in one answer are
 *   each located at their own place.
 * - EG3 — Synonyms. A keyword written `a/b` or `a|b` is found by any synonym, and the one that matched is reported.
 * - EG4 — Exact keyword answer. `과적합`, `Overfitting`, `과적합입니다.`, `과적합(overfitting)이요` are the keyword; more content,
 *   a negation, another word, or a keyword the question itself contains are not.
 * - EG21 — Formal endings. A keyword verb is found in the formal style whose ㅂ sits in the stem (`작아집니다`, `달라집니다`,
 *   `커집니다`, `줄어듭니다`); `같습니다` and the copula `평균입니다` keep their stems …
 */
import { describe, expect, it } from 'vitest';
import { exactKeywordAnswer, keywordEvidence } from '../src/exams/index.js';

/**
 * EG1–EG4 (test/SPEC.md, "Exams: grading, evidence and feedback"): the deterministic keyword matcher behind every
 * exam grade — which key keywords (or synonyms) an answer contains and where, after Korean normalisation.
 */

const span = (answer: string, at: { start: number; end: number } | null) => (at === null ? null : answer.slice(at.start, at.end));

describe('keyword evidence', () => {
  it('EG1 Korean keywords are found through particles, spacing and 한영 혼용, with offsets in the answer as written', () => {
    const answer = '이 경우 variance가 커지고, 표본평균은 그대로이며 사용자니즈가 중요하다';
    const evidence = keywordEvidence(['분산/variance', '표본 평균', '사용자 니즈', '편향'], answer);
    expect(evidence.map((item) => [item.keyword, item.matchedAs, span(answer, item.at)])).toEqual([
      ['분산/variance', 'variance', 'variance가'],
      ['표본 평균', '표본 평균', '표본평균은'],
      ['사용자 니즈', '사용자 니즈', '사용자니즈가'],
      ['편향', null, null],
    ]);
    expect(evidence[0]?.at).toEqual({ start: 5, end: 14 });
    // Far into a long answer, and only the first occurrence.
    const long = `${'관련 없는 이야기를 계속 씁니다. '.repeat(60)}그래서 표본 평균이 중요하고 표본평균은 또 나옵니다`;
    const [late] = keywordEvidence(['표본 평균'], long);
    expect(span(long, late?.at ?? null)).toBe('표본 평균이');
    expect(late?.at?.start).toBe(long.indexOf('표본 평균이'));
  });

  it('EG2 a Latin phrase needs its exact order: "product right" is not "right product"', () => {
    const answer = 'Validation checks that we build the right product.';
    const [productRight, rightProduct] = keywordEvidence(['Product Right', 'Right Product'], answer);
    expect(productRight).toEqual({ keyword: 'Product Right', matchedAs: null, at: null });
    expect(rightProduct?.matchedAs).toBe('Right Product');
    expect(span(answer, rightProduct?.at ?? null)).toBe('right product');
    // Both, each at its own place.
    const both = 'Verification: the product right; validation: the right product.';
    const located = keywordEvidence(['product right', 'right product'], both).map((item) => span(both, item.at));
    expect(located).toEqual(['product right', 'right product']);
  });

  it('EG3 synonyms written with / or | are accepted, and the one that matched is reported', () => {
    const answer = '훈련 데이터에 과적합된 모델입니다';
    expect(keywordEvidence(['overfitting|과적합'], answer)).toEqual([{ keyword: 'overfitting|과적합', matchedAs: '과적합', at: { start: 8, end: 12 } }]);
    expect(keywordEvidence(['과적합/overfitting'], 'It is Overfitting.')[0]?.matchedAs).toBe('overfitting');
    expect(keywordEvidence(['underfitting/과소적합'], answer)[0]?.matchedAs).toBeNull();
  });

  it('EG4 an answer that IS a keyword is recognised; more content, a negation or a keyword of the question is not', () => {
    const question = '모델이 훈련 데이터에는 잘 맞지만 테스트 데이터에서는 성능이 떨어지는 현상을 무엇이라 하는가?';
    const keywords = ['과적합/overfitting', '훈련 데이터'];
    for (const answer of ['과적합', 'Overfitting', '과적합입니다.', '과적합(overfitting)이요', 'the overfitting']) {
      expect(exactKeywordAnswer(keywords, answer, question), answer).toBe('과적합/overfitting');
    }
    for (const answer of ['과적합 아님', '과적합된 모델', 'underfitting', '훈련 데이터', '']) {
      expect(exactKeywordAnswer(keywords, answer, question), answer).toBeNull();
    }
  });
});

describe('formal endings', () => {
  it('EG21 a keyword verb is found in the formal -ㅂ니다 style whose ㅂ sits in the stem (작아집니다, 달라집니다, 커집니다, 줄어듭니다)', () => {
    const found = (keyword: string, answer: string) => keywordEvidence([keyword], answer)[0]?.matchedAs ?? null;
    expect(found('작아진다', '표본평균의 분산이 작아집니다.')).toBe('작아진다');
    expect(found('다르다', '두 값은 서로 달라집니다.')).toBe('다르다');
    expect(found('커진다', '표본이 클수록 정확도가 커집니다')).toBe('커진다');
    expect(found('줄어든다', '오차가 줄어듭니다')).toBe('줄어든다');
    // 습니다 and the copula 입니다 keep their own stems; a different verb is still not the keyword.
    expect(found('같다', '두 평균은 같습니다')).toBe('같다');
    expect(found('평균', '이 값이 평균입니다')).toBe('평균');
    expect(found('작아진다', '분산이 커집니다')).toBeNull();
  });
});
