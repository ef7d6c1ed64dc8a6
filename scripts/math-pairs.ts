/**
 * The equivalence table shared by `test/math-equivalence.test.ts` and `npm run bench:math`: pairs of answers (LaTeX
 * or plain text, as students and models write them) with the verdict `mathEquivalent` must give. `unknown` rows are
 * pairs that must not be guessed: a wrong `equal` would accept a wrong answer, a wrong `different` would reject a
 * right one.
 */
export type MathVerdictExpected = 'equal' | 'different' | 'unknown';

export interface MathPair {
  a: string;
  b: string;
  expected: MathVerdictExpected;
  /** What the row is about (shown in test names). */
  why: string;
  /** A pair that must be handled. */
  issue?: true;
}

export const MATH_PAIRS: readonly MathPair[] = [
  // The issue's list.
  { a: '\\frac{1}{2}x+1', b: '(x+2)/2', expected: 'equal', why: 'fraction coefficient vs plain division', issue: true },
  { a: '2\\sqrt{2}', b: '\\sqrt{8}', expected: 'equal', why: 'simplified radical', issue: true },
  { a: 'x^2-1', b: '(x-1)(x+1)', expected: 'equal', why: 'factored polynomial', issue: true },
  { a: '\\sin^2 x + \\cos^2 x', b: '1', expected: 'equal', why: 'Pythagorean identity', issue: true },
  { a: '0.5', b: '\\frac12', expected: 'equal', why: 'decimal vs fraction', issue: true },
  { a: '\\ln(e^2)', b: '2', expected: 'equal', why: 'logarithm of a power', issue: true },
  { a: 'x^2+1', b: '(x+1)^2', expected: 'different', why: 'missing middle term', issue: true },
  { a: 'x-1', b: '1-x', expected: 'different', why: 'sign error', issue: true },
  { a: '[1, 3)', b: '1 \\le x < 3', expected: 'equal', why: 'interval vs inequality', issue: true },
  { a: '[1, 3)', b: '1 \\le x \\le 3', expected: 'different', why: 'open vs closed end', issue: true },
  { a: 'x=1, x=2', b: '{2, 1}', expected: 'equal', why: 'solutions in another order', issue: true },
  { a: '0.333', b: '1/3', expected: 'different', why: 'rounded decimal is not the fraction', issue: true },
  { a: 'y = 2x+1', b: '2x - y + 1 = 0', expected: 'equal', why: 'equation up to a factor', issue: true },

  // Normalisation: wrappers, prefixes, separators, units.
  { a: '$\\boxed{12}$', b: '12', expected: 'equal', why: 'dollar signs and \\boxed' },
  { a: '\\(\\frac{3}{4}\\)', b: '0.75', expected: 'equal', why: '\\( \\) delimiters' },
  { a: '\\[x^2\\]', b: 'x^{2}', expected: 'equal', why: '\\[ \\] delimiters and braces' },
  { a: '답: 3', b: '3', expected: 'equal', why: '답: prefix' },
  { a: '정답: x = 5', b: '5', expected: 'equal', why: '정답: prefix and x =' },
  { a: 'Answer: 1/4', b: '0.25', expected: 'equal', why: 'Answer: prefix' },
  { a: '답은 7입니다.', b: '7', expected: 'equal', why: 'a Korean sentence around a number' },
  { a: '1,000', b: '1000', expected: 'equal', why: 'thousands separator' },
  { a: '1{,}000', b: '1000', expected: 'equal', why: 'LaTeX thousands separator' },
  { a: '12,345,678', b: '12345678', expected: 'equal', why: 'several thousands separators' },
  { a: '12 cm', b: '12cm', expected: 'equal', why: 'same unit, spacing' },
  { a: '12\\,\\text{cm}', b: '12 cm', expected: 'equal', why: 'unit written in LaTeX' },
  { a: '5개', b: '5', expected: 'equal', why: 'a Korean counter on one side' },
  { a: '3명', b: '3 명', expected: 'equal', why: 'same counter' },
  { a: '1,500원', b: '1500원', expected: 'equal', why: 'won with a separator' },
  { a: '50\\%', b: '0.5', expected: 'equal', why: 'percent is a hundredth' },
  { a: '25%', b: '25\\%', expected: 'equal', why: 'percent in text and LaTeX' },
  { a: '\\dfrac{\\pi}{3}', b: '60^\\circ', expected: 'equal', why: 'explicit degrees vs radians' },
  { a: '60°', b: '60^{\\circ}', expected: 'equal', why: 'degree sign spellings' },

  // Expressions.
  { a: 'sqrt(8)', b: '2\\sqrt{2}', expected: 'equal', why: 'plain-text square root' },
  { a: 'sin(x)^2 + cos(x)^2', b: '1', expected: 'equal', why: 'plain-text identity (sin(x)^2 is (sin x)^2)' },
  { a: '(x+1)^2', b: 'x^2+2x+1', expected: 'equal', why: 'expanded square' },
  { a: '\\frac{x^2-1}{x-1}', b: 'x+1', expected: 'equal', why: 'removable singularity' },
  { a: '\\log_2 8', b: '3', expected: 'equal', why: 'logarithm base 2' },
  { a: '\\log 100', b: '2', expected: 'equal', why: '\\log is base 10' },
  { a: 'e^{\\ln 5}', b: '5', expected: 'equal', why: 'exp of ln' },
  { a: '\\sqrt[3]{27}', b: '3', expected: 'equal', why: 'cube root' },
  { a: '2^{10}', b: '1024', expected: 'equal', why: 'power of two' },
  { a: '\\frac{\\sqrt{3}}{2}', b: '\\sin\\frac{\\pi}{3}', expected: 'equal', why: 'exact trigonometric value' },
  { a: '\\frac{1}{\\sqrt{2}}', b: '\\frac{\\sqrt{2}}{2}', expected: 'equal', why: 'rationalised denominator' },
  { a: '\\tan x', b: '\\frac{\\sin x}{\\cos x}', expected: 'equal', why: 'tangent as a quotient' },
  { a: 'e^{2x}', b: '(e^x)^2', expected: 'equal', why: 'power of an exponential' },
  { a: '|x-3|', b: '\\left|3-x\\right|', expected: 'equal', why: 'absolute value' },
  { a: '3 \\times 4', b: '12', expected: 'equal', why: '\\times' },
  { a: 'x \\cdot y', b: 'yx', expected: 'equal', why: 'commuted product' },
  { a: '-\\frac{1}{2}', b: '-0.5', expected: 'equal', why: 'negative fraction vs decimal' },
  { a: '\\frac{-1}{2}', b: '-\\frac12', expected: 'equal', why: 'where the minus sign goes' },
  { a: '1.50', b: '\\frac{3}{2}', expected: 'equal', why: 'trailing zero' },
  { a: '3\\frac{1}{2}', b: '\\frac{7}{2}', expected: 'equal', why: 'mixed number' },
  { a: '2x^2 - 8', b: '2(x-2)(x+2)', expected: 'equal', why: 'factored with a constant' },
  { a: 'x - x + 1', b: '1', expected: 'equal', why: 'a variable that cancels' },
  { a: '\\frac{1}{2}x+1', b: '(x+1)/2', expected: 'different', why: 'wrong numerator' },
  { a: '2\\sqrt{2}', b: '\\sqrt{6}', expected: 'different', why: 'wrong radical' },
  { a: '\\ln(e^2)', b: 'e', expected: 'different', why: 'wrong logarithm' },
  { a: '-2', b: '2', expected: 'different', why: 'sign of a number' },
  { a: '3.14', b: '\\pi', expected: 'different', why: 'rounded pi' },
  { a: '\\sqrt{x^2}', b: 'x', expected: 'different', why: 'square root of a square is |x|' },
  { a: '\\sin x', b: '\\cos x', expected: 'different', why: 'wrong function' },
  { a: '2^{10}', b: '1000', expected: 'different', why: 'close but wrong' },
  { a: 'x+1', b: 'x+1.000001', expected: 'different', why: 'a tiny difference is still different' },
  { a: '60', b: '\\frac{\\pi}{3}', expected: 'different', why: 'degrees are converted only when explicit' },
  { a: 'x + y', b: 'x', expected: 'different', why: 'a missing term' },
  { a: '(x-2)(x+3)', b: '(x+2)(x-3)', expected: 'different', why: 'swapped signs in factors' },

  // Solutions, sets, named values.
  { a: 'x = \\pm 2', b: 'x=2, x=-2', expected: 'equal', why: '± expands to two solutions' },
  { a: 'x=1 또는 x=2', b: 'x = 2, 1', expected: 'equal', why: '또는 between solutions' },
  { a: '\\{-1, 3\\}', b: 'x=3 or x=-1', expected: 'equal', why: 'a LaTeX set vs or' },
  { a: 'x = 1 \\pm \\sqrt{2}', b: 'x = 1-\\sqrt{2}, 1+\\sqrt{2}', expected: 'equal', why: 'a ± with a radical' },
  { a: 'a=2, b=3', b: 'b=3, a=2', expected: 'equal', why: 'named values in another order' },
  { a: '\\emptyset', b: '해 없음', expected: 'equal', why: 'no solution' },
  { a: '{1, 1, 2}', b: '\\{2, 1\\}', expected: 'equal', why: 'a set ignores repeats' },
  { a: 'x=1, x=2', b: '{1, 3}', expected: 'different', why: 'one wrong solution' },
  { a: 'x=1, x=2', b: 'x = 1', expected: 'different', why: 'a missing solution' },
  { a: 'a=2, b=3', b: 'a=3, b=2', expected: 'different', why: 'values swapped between names' },
  { a: '(1, 2)', b: '(2, 1)', expected: 'different', why: 'an ordered pair is ordered' },
  { a: '\\emptyset', b: 'x = 2', expected: 'different', why: 'no solution vs a solution' },
  { a: 'x = 1, 1, 2', b: 'x=1, x=2', expected: 'unknown', why: 'multiplicity may matter' },

  // Intervals and inequalities.
  { a: 'x > 2', b: '(2, \\infty)', expected: 'equal', why: 'ray as an interval' },
  { a: 'x \\ge 3', b: '[3, \\infty)', expected: 'equal', why: 'closed ray' },
  { a: '-1 < x \\le 4', b: '(-1, 4]', expected: 'equal', why: 'chained inequality' },
  { a: 'x < 1 또는 x > 3', b: '(-\\infty,1) \\cup (3,\\infty)', expected: 'equal', why: 'union of rays' },
  { a: '2 < x', b: 'x > 2', expected: 'equal', why: 'inequality read both ways' },
  { a: '2x - 4 > 0', b: 'x > 2', expected: 'equal', why: 'a linear inequality solved' },
  { a: '-2x \\ge 6', b: 'x \\le -3', expected: 'equal', why: 'dividing by a negative flips the sign' },
  { a: '(1, 2)', b: '1 < x < 2', expected: 'equal', why: 'parentheses next to an inequality are an interval' },
  { a: 'x > 2', b: 'x \\ge 2', expected: 'different', why: 'strict vs non-strict' },
  { a: 'x > 2', b: 'x < 2', expected: 'different', why: 'reversed inequality' },
  { a: '(1, 3]', b: '1 \\le x \\le 3', expected: 'different', why: 'left end open vs closed' },
  { a: '1 < x < 3', b: '1 < x < 4', expected: 'different', why: 'wrong end' },

  // Equations.
  { a: '2x = 6', b: 'x = 3', expected: 'equal', why: 'an equation and its solution' },
  { a: 'x^2 - 5x + 6 = 0', b: '(x-2)(x-3) = 0', expected: 'equal', why: 'factored equation' },
  { a: 'y = 2x+1', b: '2x+1', expected: 'equal', why: 'y = prefix' },
  { a: 'y = 2x+1', b: 'x = \\frac{y-1}{2}', expected: 'equal', why: 'solved for the other variable' },
  { a: 'y = 2x+1', b: 'y = 2x-1', expected: 'different', why: 'sign error in a line' },
  { a: 'y = 2x+1', b: 'y = -2x+1', expected: 'different', why: 'wrong slope' },

  // Must stay unknown.
  { a: 'x^2', b: 'y^2', expected: 'unknown', why: 'the same form in another variable' },
  { a: 'x = 2', b: 'y = 2', expected: 'unknown', why: 'another variable name' },
  { a: '두 수의 합이 같다', b: '합이 같음', expected: 'unknown', why: 'prose' },
  { a: 'hello world', b: 'world hello', expected: 'unknown', why: 'English prose is not a product of letters' },
  { a: '12 cm', b: '12 m', expected: 'unknown', why: 'different units (no conversion)' },
  { a: '12 cm', b: '12', expected: 'unknown', why: 'a measurement unit on one side only' },
  { a: '50\\%', b: '50', expected: 'unknown', why: 'percent on one side, same number' },
  { a: '60', b: '60^\\circ', expected: 'unknown', why: 'a bare number might be degrees' },
  { a: '\\int_0^1 x\\,dx', b: '\\frac12', expected: 'unknown', why: 'integrals are not evaluated' },
  { a: 'x^{', b: 'x^2', expected: 'unknown', why: 'unparseable' },
  { a: '\\frac{1}{2', b: '0.5', expected: 'unknown', why: 'unbalanced braces' },
  { a: '\\ln(x^2)', b: '2\\ln x', expected: 'unknown', why: 'different domains' },
  { a: '\\sqrt{2}+10^{-15}', b: '\\sqrt{2}', expected: 'unknown', why: 'too close for doubles, not equal' },
  { a: '1/0', b: '2/0', expected: 'unknown', why: 'undefined values' },
  { a: '2i', b: '\\sqrt{-4}', expected: 'unknown', why: 'complex numbers are out of scope' },
  { a: '100,200', b: '\\{100, 200\\}', expected: 'unknown', why: 'a thousands separator or a list' },
  { a: '9999!', b: '9999!+1', expected: 'unknown', why: 'too large to evaluate' },
  { a: 'x^{x^{x^{x^{x}}}}', b: 'x^{x^{x^{x}}}', expected: 'different', why: 'towers are compared where they are finite' },
];
