import { describe, expect, it } from 'vitest';
import {
  contentTerms,
  hasFinalConsonant,
  keyTerms,
  normalizeKorean,
  quotedWithParticle,
  stripParticles,
  termOverlap,
  termOverlapDetail,
  termsMatch,
  withParticle,
} from '../src/text/korean-text.js';

const REFERENCE = '산술평균은 자료의 모든 값을 더한 뒤 값의 개수로 나눈 값이다. 평균은 자료의 중심을 나타낸다.';

describe('normalizeKorean', () => {
  it('applies NFC, lowercases, strips punctuation and collapses spaces', () => {
    const decomposed = '\u1112\u1161\u11ab\u1100\u116e\u11a8'; // 한국 in conjoining jamo
    expect(normalizeKorean(`  ${decomposed}어, "Expected   Value"!\n(기댓값)…  `)).toBe('한국어 expected value 기댓값');
  });
});

describe('stripParticles', () => {
  it('strips common particles and endings', () => {
    expect(stripParticles('평균은')).toBe('평균');
    expect(stripParticles('기댓값을')).toBe('기댓값');
    expect(stripParticles('확률변수의')).toBe('확률변수');
    expect(stripParticles('표본에서')).toBe('표본');
    expect(stripParticles('개수로')).toBe('개수');
    expect(stripParticles('분포으로')).toBe('분포');
    expect(stripParticles('평균값이에요')).toBe('평균값');
    expect(stripParticles('기댓값입니다')).toBe('기댓값');
    expect(stripParticles('계산한다')).toBe('계산');
    expect(stripParticles('학생들에게서')).toBe('학생들');
  });

  it('never empties a word or cuts a longer word down to one syllable', () => {
    for (const word of ['값을', '나이', '수는', '값이에요', '값입니다', '이다', '은', '다']) {
      const stem = stripParticles(word);
      expect(stem.length).toBeGreaterThan(0);
      if (Array.from(word).length > 1) expect(Array.from(stem).length).toBeGreaterThan(1);
    }
    expect(stripParticles('값입니다')).toBe('값입니다');
  });

  it('splits a Latin or numeric stem from its Hangul particle', () => {
    expect(stripParticles('x의')).toBe('x');
    expect(stripParticles('e는')).toBe('e');
    expect(stripParticles('abc')).toBe('abc');
  });
});

describe('key terms', () => {
  it('ranks content words by frequency and length without stopwords or particles', () => {
    const text =
      '확률변수 X의 기댓값 E[X]는 각 값에 그 확률을 곱해 모두 더한 값입니다. 기댓값은 분포의 무게중심으로 해석할 수 ' +
      '있습니다. 그리고 대수의 법칙에 따르면 표본평균은 기댓값에 가까워집니다.';
    const terms = keyTerms(text, 6);
    expect(terms[0]).toBe('기댓값');
    expect(terms).toContain('E[X]');
    expect(terms).toContain('확률변수');
    expect(terms).not.toContain('그리고');
    expect(terms).not.toContain('있습니다');
    expect(terms.length).toBe(6);
    expect(keyTerms(text, 6)).toEqual(terms);
  });

  it('keeps formulas verbatim and handles Latin and digits', () => {
    expect(keyTerms('Var(X) = E[X^2] - E[X]^2 이고 P(A|B)는 조건부 확률이다', 4)).toEqual([
      'Var(X)',
      'E[X^2]',
      'E[X]',
      'P(A|B)',
    ]);
    const english = 'The expected value of 2024 samples and the variance';
    expect(keyTerms(english, 3)).toEqual(['expected', 'value', 'samples']);
    expect(keyTerms(english, 10)).toEqual(['expected', 'value', 'samples', 'variance', '2024']);
    expect(keyTerms('', 5)).toEqual([]);
    expect(keyTerms('그리고 또한 그런 것', 5)).toEqual([]);
  });

  it('keeps predicate forms out of display terms but in content terms', () => {
    expect(keyTerms('값을 더한 뒤 개수로 나눈다', 5)).not.toContain('더한');
    expect(contentTerms('값을 더한 뒤 개수로 나눈다')).toEqual(['값을', '더한', '개수', '나눈']);
  });
});

describe('termsMatch', () => {
  it('matches compounds, leftover particles and conjugations of one stem', () => {
    expect(termsMatch('평균', '산술평균')).toBe(true);
    expect(termsMatch('값', '값이')).toBe(true);
    expect(termsMatch('값을', '값의')).toBe(true);
    expect(termsMatch('더해서', '더한')).toBe(true);
    expect(termsMatch('나누면', '나눈')).toBe(true);
    expect(termsMatch('평균', '평가')).toBe(false);
    expect(termsMatch('개수', '개념')).toBe(false);
    expect(termsMatch('분산', '분석')).toBe(false);
  });
});

describe('termOverlap', () => {
  it('scores a correct paraphrase high and an unrelated answer low', () => {
    const good = termOverlap('평균은 모든 값을 더해서 개수로 나눈 값이에요', REFERENCE);
    const unrelated = termOverlap('오늘 점심은 김치찌개를 먹었어요', REFERENCE);
    expect(good).toBeGreaterThanOrEqual(0.5);
    expect(unrelated).toBeLessThan(0.1);
    expect(termOverlap('모르겠어요', REFERENCE)).toBe(0);
  });

  it('stays in [0, 1] and reports matched and missing terms', () => {
    const detail = termOverlapDetail('자료의 중심', REFERENCE);
    expect(detail.score).toBeGreaterThan(0);
    expect(detail.score).toBeLessThan(0.5);
    expect(detail.matched).toEqual(expect.arrayContaining(['자료', '중심']));
    expect(detail.missing).toContain('산술평균');
    expect(termOverlap(REFERENCE, REFERENCE)).toBe(1);
    expect(termOverlap('아무 말', '')).toBe(0);
  });

  it('counts formulas regardless of case and spacing', () => {
    expect(termOverlap('e[x] 는 가중평균', '기댓값 E[X]')).toBeGreaterThan(0.5);
  });
});

describe('particles', () => {
  it('picks the particle form by the final consonant', () => {
    expect(hasFinalConsonant('값')).toBe(true);
    expect(hasFinalConsonant('분포')).toBe(false);
    expect(withParticle('기댓값', '을/를')).toBe('기댓값을');
    expect(withParticle('분포', '을/를')).toBe('분포를');
    expect(withParticle('평균', '이/가')).toBe('평균이');
    expect(withParticle('E[X]', '이/가')).toBe('E[X]가');
    expect(withParticle('서울', '으로/로')).toBe('서울로');
    expect(withParticle('표본', '으로/로')).toBe('표본으로');
    expect(withParticle('3', '은/는')).toBe('3은');
    expect(withParticle('분산', '과/와')).toBe('분산과');
  });

  it('reads the last letter inside quotes and brackets, the last word of a list, a Korean word before its alias, Latin words and digits as said', () => {
    expect(withParticle("'인플레이션'", '을/를')).toBe("'인플레이션'을");
    expect(withParticle('「기댓값」', '은/는')).toBe('「기댓값」은');
    // Acronyms letter by letter (티엘비), words as loanwords are written (스위치, 알고리즘, 모델; a final r is no consonant: 서버).
    expect(["'TLB'", "'switch'", "'algorithm'", "'server'", "'RAM'"].map((word) => withParticle(word, '이/가'))).toEqual(["'TLB'가", "'switch'가", "'algorithm'이", "'server'가", "'RAM'이"]);
    expect(withParticle("'model'", '으로/로')).toBe("'model'로");
    // Digits by their Korean reading: 일 삼 육 칠 팔 십 end in a consonant, 이 사 오 구 in a vowel.
    expect(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].map((digit) => withParticle(`'${digit}'`, '이/가').slice(digit.length + 2))).toEqual(['이', '가', '이', '가', '가', '이', '이', '이', '가', '이']);
    expect(withParticle('관세지급인도조건(DDP)', '이/가')).toBe('관세지급인도조건(DDP)이');
    expect(withParticle('인플레이션 (inflation)', '을/를')).toBe('인플레이션 (inflation)을');
    expect(withParticle("'C#'", '이/가')).toBe("'C#'이");
    expect(quotedWithParticle(['caches', 'TLB'], '이/가')).toBe("'caches', 'TLB'가");
    expect(quotedWithParticle(['process', '문맥 전환'], '이/가')).toBe("'process', '문맥 전환'이");
  });

  it('reads a final t, k or p after one short vowel as a consonant (유닛, 캣, 북, 스톱) and after a long vowel or a silent e as 트 (스테이트)', () => {
    expect(['unit', 'cat', 'book', 'stop', 'robot', 'format', 'packet', 'layout'].map((word) => withParticle(word, '이/가'))).toEqual([
      'unit이', 'cat이', 'book이', 'stop이', 'robot이', 'format이', 'packet이', 'layout이',
    ]);
    expect(['state', 'make', 'boat', 'object', 'byte', 'bit', 'set'].map((word) => withParticle(word, '이/가'))).toEqual(['state가', 'make가', 'boat가', 'object가', 'byte가', 'bit가', 'set가']);
    // What the supplement of the Threads question said: the particle follows the last term, `unit` 유닛.
    expect(quotedWithParticle(['execution', 'process', 'unit'], '이/가')).toBe("'execution', 'process', 'unit'이");
  });
});
