import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countTokens, tokenize } from '../src/lecture/tokenizer.js';

const graphemes = (text: string): string[] =>
  Array.from(new Intl.Segmenter('ko', { granularity: 'grapheme' }).segment(text), (part) => part.segment);

describe('tokenizer', () => {
  it('splits Korean by eojeol with trailing whitespace and punctuation attached', () => {
    expect(tokenize('평균은 모든 값을 더해서 개수로 나눈 값이에요. 쉽죠?\n\n다음')).toEqual([
      '평균은 ',
      '모든 ',
      '값을 ',
      '더해서 ',
      '개수로 ',
      '나눈 ',
      '값이에요. ',
      '쉽죠?\n\n',
      '다음',
    ]);
  });

  it('keeps formulas, markdown and mixed scripts with their word', () => {
    expect(tokenize('## 1장. 기댓값 E[X]는 **가중 평균**입니다 (x_i·p_i).')).toEqual([
      '## ',
      '1장. ',
      '기댓값 ',
      'E[X]는 ',
      '**가중 ',
      '평균**입니다 ',
      '(x_i·p_i).',
    ]);
  });

  it('puts leading whitespace on the first token and handles empty input', () => {
    expect(tokenize('  \n안녕 하세요')).toEqual(['  \n안녕 ', '하세요']);
    expect(tokenize('   ')).toEqual(['   ']);
    expect(tokenize('')).toEqual([]);
  });

  it('cuts long unspaced runs at word boundaries, never inside a grapheme', () => {
    const japanese = tokenize('東京都に住んでいます。東京都に住んでいます。', { maxGraphemes: 6 });
    expect(japanese.join('')).toBe('東京都に住んでいます。東京都に住んでいます。');
    expect(japanese.length).toBeGreaterThan(2);
    expect(tokenize('https://example.com/a/b/c/d', { maxGraphemes: 8 })).toEqual([
      'https://',
      'example.',
      'com/',
      'a/b/c/d',
    ]);
    // Emoji with a skin-tone modifier and a decomposed Hangul syllable (ᄒ+ᅡ+ᆫ) stay whole.
    const decomposed = '\u1112\u1161\u11ab';
    const tokens = tokenize(`${'👍🏽'.repeat(5)}${decomposed.repeat(5)}`, { maxGraphemes: 3 });
    expect(tokens).toEqual(['👍🏽👍🏽👍🏽', `👍🏽👍🏽${decomposed}`, decomposed.repeat(3), decomposed]);
  });

  it('is deterministic and counts tokens', () => {
    const text = '확률변수 X의 기댓값은 무게중심이다.';
    expect(tokenize(text)).toEqual(tokenize(text));
    expect(countTokens(text)).toBe(4);
  });

  it('round-trips any text and never splits a grapheme cluster', () => {
    const piece = fc.constantFrom('평균', '값을 ', ' ', '\n', '한', '\u1112\u1161\u11ab', '👍🏽', 'E[X]', '.', '東京', 'abc', '😀');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 1, max: 15 }), (pieces, max) => {
        const text = pieces.join('');
        const tokens = tokenize(text, { maxGraphemes: max });
        if (tokens.join('') !== text) return false;
        if (tokens.some((token) => token.length === 0)) return false;
        // Token boundaries are a subset of grapheme boundaries.
        const boundaries = new Set<number>();
        let offset = 0;
        for (const cluster of graphemes(text)) boundaries.add((offset += cluster.length));
        let at = 0;
        return tokens.every((token) => boundaries.has((at += token.length)));
      }),
      { numRuns: 1_000 },
    );
  });
});
