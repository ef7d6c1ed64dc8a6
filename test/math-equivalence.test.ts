/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - ME1 — Verdicts. Every pair of the table gets its verdict in both orders (symmetric); the same pairs give the same
 *   verdicts on every call and in any order (fixed sample points …
 * - ME2 — Normalisation. `$…$`, `\(…\)`, `\[…\]`, `\boxed{}`, `답:`/`정답:`/`Answer:` and `입니다` around an answer,
 *   spacing, thousands separators (`1,000`, `1{,}000`), other spellings of a symbol (², −, √, ≤ …
 * - ME3 — Exact numbers. Decimals are the fractions they write: `0.5` = `1/2`, `0.1+0.2` = `0.3`, `0.333` ≠ `1/3`,
 *   `1` ≠ `0.9999999999999999`, `10^{-15}` ≠ `0`, `2^{1000}` ≠ `2^{1000}+1`.
 * - ME4 — No false equal. Sign errors, a missing term, a wrong coefficient, `\sqrt{x^2}` vs `x`, `x` vs `|x|` are
 *   `different`; a rounded irrational (`3.14` vs π) is `different` or `unknown` …
 * - ME5 — Solutions and sets. Solutions compare regardless of order and of how they are written (`x=1, x=2`, `x = 2,
 *   1`, `{2, 1}`, `x=1 또는 x=2`, `x = \pm 2`); a missing or wrong solution is `different` …
 * - ME6 — Regions. Intervals and inequalities are the same set whatever the notation (`[1, 3)` = `1 \le x < 3`, `x >
 *   2` = `(2, \infty)`, `x \ne 2`, unions, `x \in I`, set-builder, `2x - 4 > 0` = `x > 2` …
 * - ME7 — Equations. Equal up to a constant nonzero factor is `equal` (`y = 2x+1` = `2x - y + 1 = 0`, `2x = 6` = `x =
 *   3`); not proportional is `different` when both are linear, `unknown` otherwise …
 * - ME8 — Unknown rather than a guess. Prose (Korean or English), unreadable LaTeX, the same form in another variable
 *   (`x^2` vs `y^2`, `x = 2` vs `y = 2`), a measure unit on one side or two different units …
 * - ME9 — Hostile input. Answers over 500 characters are `unknown` unread; deep nesting, towers, huge powers and
 *   factorials, long lists and unknown commands end with `different` or `unknown` …
 * - ME10 — Loaded on first use. Importing `src/math` loads no parser; the first check does.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MATH_PAIRS, type MathPair } from '../scripts/math-pairs.js';
import { MAX_ANSWER_LENGTH, isMathReaderLoaded, mathEquivalent } from '../src/math/index.js';

const require = createRequire(import.meta.url);

function readerInRequireCache(): boolean {
  return Object.keys(require.cache).some((path) => path.includes('compute-engine'));
}

// Before anything else in this file calls mathEquivalent.
describe('math equivalence: loading', () => {
  it('ME10: importing src/math loads no parser; the first check does', () => {
    expect(isMathReaderLoaded()).toBe(false);
    expect(readerInRequireCache()).toBe(false);
    expect(mathEquivalent('x+1', '1+x')).toBe('equal');
    expect(isMathReaderLoaded()).toBe(true);
    expect(readerInRequireCache()).toBe(true);
  });
});

const label = (pair: MathPair): string => `${pair.a}  vs  ${pair.b}: ${pair.expected} (${pair.why})`;

describe('math equivalence: the table', () => {
  it('ME1: the table has at least 60 pairs, every pair of issue 14 §1, and all three verdicts', () => {
    expect(MATH_PAIRS.length).toBeGreaterThanOrEqual(60);
    const issuePairs = MATH_PAIRS.filter((pair) => pair.issue).map((pair) => `${pair.a} | ${pair.b}`);
    for (const listed of [
      '\\frac{1}{2}x+1 | (x+2)/2',
      '2\\sqrt{2} | \\sqrt{8}',
      'x^2-1 | (x-1)(x+1)',
      '\\sin^2 x + \\cos^2 x | 1',
      '0.5 | \\frac12',
      '\\ln(e^2) | 2',
      'x^2+1 | (x+1)^2',
      'x=1, x=2 | {2, 1}',
    ]) {
      expect(issuePairs).toContain(listed);
    }
    for (const verdict of ['equal', 'different', 'unknown'] as const) {
      expect(MATH_PAIRS.filter((pair) => pair.expected === verdict).length).toBeGreaterThanOrEqual(15);
    }
  });

  it.each(MATH_PAIRS.map((pair) => [label(pair), pair] as const))('ME1–ME8: %s', (_, pair) => {
    expect(mathEquivalent(pair.a, pair.b)).toBe(pair.expected);
    // Symmetric: the order of the two answers never matters.
    expect(mathEquivalent(pair.b, pair.a)).toBe(pair.expected);
  });

  it('ME1: verdicts are deterministic: the whole table twice, in two orders, gives the same answers', () => {
    const forward = MATH_PAIRS.map((pair) => mathEquivalent(pair.a, pair.b));
    const backward = [...MATH_PAIRS].reverse().map((pair) => mathEquivalent(pair.a, pair.b)).reverse();
    expect(backward).toEqual(forward);
  });
});

describe('math equivalence: rules beyond the table', () => {
  it('ME2: other spellings of the same symbols (², −, √, ≤, full-width digits, \\left/\\right, \\dfrac)', () => {
    expect(mathEquivalent('x²−1', '(x-1)(x+1)')).toBe('equal');
    expect(mathEquivalent('√8', '2√2')).toBe('equal');
    expect(mathEquivalent('１２', '12')).toBe('equal');
    expect(mathEquivalent('x ≤ 3', 'x \\le 3')).toBe('equal');
    expect(mathEquivalent('\\left(\\dfrac{1}{2}\\right)^{2}', '0.25')).toBe('equal');
    expect(mathEquivalent('sinx', '\\sin x')).toBe('equal');
    expect(mathEquivalent('\\sin^{-1}(1)', '\\frac{\\pi}{2}')).toBe('equal');
  });

  it('ME3: exact arithmetic decides numbers: decimals are the fractions they write, nothing more', () => {
    expect(mathEquivalent('0.1+0.2', '0.3')).toBe('equal');
    expect(mathEquivalent('1/3', '0.\\overline{3}')).toBe('equal');
    expect(mathEquivalent('1', '0.9999999999999999')).toBe('different');
    expect(mathEquivalent('10^{-15}', '0')).toBe('different');
    expect(mathEquivalent('2^{1000}', '2^{1000}+1')).toBe('different');
    expect(mathEquivalent('\\sqrt{2}', '1.41421356')).toBe('different');
  });

  it('ME4: values closer than doubles can tell, and rounded irrationals, are never equal', () => {
    expect(mathEquivalent('\\sqrt{2}', '1.4142135623730951')).toBe('unknown');
    expect(mathEquivalent('\\sin(x)', '\\sin(x+10^{-12})')).toBe('unknown');
    expect(mathEquivalent('x^2', 'x^2 + 10^{-20}x')).toBe('different');
    expect(mathEquivalent('\\pi \\cdot 10^{-15}', '0')).toBe('different');
    expect(mathEquivalent('x', '|x|')).toBe('different');
    expect(mathEquivalent('\\sqrt{x}^2', 'x')).toBe('unknown');
  });

  it('ME4: no false equal between random distinct polynomials; a product and its expansion are equal', () => {
    const coefficient = fc.integer({ min: -9, max: 9 });
    fc.assert(
      fc.property(coefficient, coefficient, coefficient, coefficient, (a, b, c, d) => {
        const product = `(${a}x + ${b})(${c}x + ${d})`;
        const expanded = `${a * c}x^2 + ${a * d + b * c}x + ${b * d}`;
        expect(mathEquivalent(product, expanded)).toBe('equal');
        const wrong = `${a * c}x^2 + ${a * d + b * c + 1}x + ${b * d}`;
        expect(mathEquivalent(product, wrong)).toBe('different');
      }),
      { seed: 14, numRuns: 60 },
    );
  });

  it('ME5: sets of solutions ignore order; a set ignores repeats; ordered pairs and tuples keep their order', () => {
    const forward = Array.from({ length: 8 }, (_, index) => `x=${index - 3}`).join(', ');
    const backward = Array.from({ length: 8 }, (_, index) => `${4 - index}`).join(', ');
    expect(mathEquivalent(forward, `\\{${backward}\\}`)).toBe('equal');
    expect(mathEquivalent('(1,2,3)', '(1,2,3)')).toBe('equal');
    expect(mathEquivalent('(1,2,3)', '(3,2,1)')).toBe('different');
    expect(mathEquivalent('{1,2}', '(1,2)')).toBe('unknown');
    expect(mathEquivalent('x=1, y=2', 'y=2, x=1')).toBe('equal');
    expect(mathEquivalent('답: 없음', '\\emptyset')).toBe('equal');
  });

  it('ME6: regions: x ≠ c, set-builder and ∈ forms, and conditions joined by a comma stay unknown', () => {
    expect(mathEquivalent('x \\ne 2', '(-\\infty, 2) \\cup (2, \\infty)')).toBe('equal');
    expect(mathEquivalent('\\{x | x > 2\\}', 'x > 2')).toBe('equal');
    expect(mathEquivalent('x \\in [1,3)', '1 \\le x < 3')).toBe('equal');
    expect(mathEquivalent('1 \\le x \\text{ and } x < 3', '[1,3)')).toBe('equal');
    expect(mathEquivalent('[1,2]', '1 \\le x \\le 2')).toBe('equal');
    expect(mathEquivalent('x<1, x>3', 'x<1 또는 x>3')).toBe('unknown');
  });

  it('ME7: equations: proportional is equal; affine and not proportional is different; otherwise unknown', () => {
    expect(mathEquivalent('y=2x+1', 'y-1=2x')).toBe('equal');
    expect(mathEquivalent('x+y=1', 'x+y=2')).toBe('different');
    expect(mathEquivalent('x^2+y^2=1', 'x^2+y^2=2')).toBe('unknown');
  });

  it('ME8: function notation, derivatives, complex numbers and words are not guessed', () => {
    for (const [a, b] of [
      ['f(x)=2x', '2x'],
      ['\\frac{d}{dx}x^2', '2x'],
      ['e^{i\\pi}', '-1'],
      ['3분의 1', '1/3'],
      ['no', 'on'],
      ['abc', 'cba'],
      ['1/2x', 'x/2'],
      ['', ''],
    ] as const) {
      expect(mathEquivalent(a, b), `${a} vs ${b}`).toBe('unknown');
    }
  });
});

describe('math equivalence: hostile input', () => {
  it(`ME9: answers longer than ${MAX_ANSWER_LENGTH} characters are unknown`, () => {
    const long = `${'1+'.repeat(MAX_ANSWER_LENGTH / 2)}1`;
    expect(mathEquivalent(long, String(MAX_ANSWER_LENGTH / 2 + 1))).toBe('unknown');
    expect(mathEquivalent('x'.repeat(MAX_ANSWER_LENGTH + 1), 'x'.repeat(MAX_ANSWER_LENGTH + 1))).toBe('unknown');
  });

  it('ME9: deep nesting, towers, huge numbers and long lists end with a verdict and never an unearned equal', () => {
    const nested = `${'('.repeat(240)}x${')'.repeat(240)}`;
    const tower = `${'x^{'.repeat(160)}2${'}'.repeat(160)}`;
    const roots = `${'\\sqrt{'.repeat(70)}2${'}'.repeat(70)}`;
    for (const [a, b] of [
      [nested, 'x+1'],
      [tower, 'x'],
      [roots, '1'],
      ['10^{10^{10}}', '10^{10^{10}}+1'],
      ['9999!', '9999!+1'],
      ['(x+1)^{4000}', '(x+1)^{3999}'],
      [Array.from({ length: 30 }, (_, index) => `x=${index}`).join(','), Array.from({ length: 30 }, (_, index) => `${index}`).join(',')],
      ['\\frac{1}{2', '0.5'],
      ['\\foo{3}', '3'],
      [null as unknown as string, '1'],
    ] as const) {
      expect(['different', 'unknown']).toContain(mathEquivalent(a, b));
    }
  });
});
