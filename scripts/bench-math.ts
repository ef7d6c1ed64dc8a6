/**
 * npm run bench:math -- [--rounds 20] [--mix 2000]
 *
 * How fast `mathEquivalent` is, in this process (it is synchronous: its time is event-loop time):
 *
 * - loadMs / loadRssMb: the first call's cost of loading the LaTeX reader, and the resident memory it adds.
 * - table: the equivalence table (`scripts/math-pairs.ts`) `--rounds` times: checksPerSecond, p50Ms, p99Ms, maxMs.
 * - mix: `--mix` generated pairs (products against expansions and wrong expansions, fractions against decimals,
 *   shuffled solution lists, intervals against inequalities, lines in two forms, with a fixed seed), once each.
 * - hostile: inputs near the caps (deep nesting, towers, 500-character sums, 10-item lists, huge powers): the slowest
 *   single check (worstMs) and its input, the verdicts, and falseEqual (an `equal` for a pair that is not an
 *   identity: must be 0).
 *
 * Prints one JSON line.
 */
import { MATH_PAIRS } from './math-pairs.js';
import { numberArg, percentile, round } from './bench-support.js';
import { MAX_ANSWER_LENGTH, loadMathReader, mathEquivalent } from '../src/math/index.js';

const rounds = numberArg('rounds', 20);
const mixSize = numberArg('mix', 2_000);

function timed(a: string, b: string): { ms: number; verdict: string } {
  const start = performance.now();
  const verdict = mathEquivalent(a, b);
  return { ms: performance.now() - start, verdict };
}

function summary(times: number[]): { checks: number; checksPerSecond: number; p50Ms: number; p99Ms: number; maxMs: number } {
  const sorted = [...times].sort((x, y) => x - y);
  const total = times.reduce((sum, ms) => sum + ms, 0);
  return {
    checks: times.length,
    checksPerSecond: Math.round(times.length / (total / 1000)),
    p50Ms: round(percentile(sorted, 50), 3),
    p99Ms: round(percentile(sorted, 99), 3),
    maxMs: round(sorted.at(-1) ?? 0, 3),
  };
}

/** A small seeded generator, so every run measures the same pairs. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mix(count: number): Array<[string, string]> {
  const random = generator(14);
  const integer = (low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index < count; index++) {
    const [a, b, c, d] = [integer(-9, 9), integer(-9, 9), integer(-9, 9), integer(-9, 9)];
    const wrong = index % 2 === 1 ? 1 : 0;
    switch (index % 5) {
      case 0:
        pairs.push([`(${a}x + ${b})(${c}x + ${d})`, `${a * c}x^2 + ${a * d + b * c + wrong}x + ${b * d}`]);
        break;
      case 1: {
        const denominator = [2, 4, 5, 8, 3][index % 5] as number;
        pairs.push([`\\frac{${a}}{${denominator}}`, (a / denominator).toFixed(3)]);
        break;
      }
      case 2: {
        const roots = [a, b, c].map(String);
        pairs.push([roots.map((root) => `x=${root}`).join(', '), `\\{${[...roots].reverse().join(', ')}\\}`]);
        break;
      }
      case 3: {
        const low = Math.min(a, b);
        const high = Math.max(a, b) + 1;
        pairs.push([`[${low}, ${high})`, `${low} \\le x ${wrong ? '\\le' : '<'} ${high}`]);
        break;
      }
      default:
        pairs.push([`y = ${a || 1}x + ${b}`, `${a || 1}x - y + ${b + wrong} = 0`]);
    }
  }
  return pairs;
}

/** [a, b, whether a = b is a true identity]. */
const HOSTILE: Array<[string, string, boolean?]> = [
  [`${'('.repeat(240)}x${')'.repeat(240)}`, 'x'],
  [`${'x^{'.repeat(160)}2${'}'.repeat(160)}`, 'x'],
  [`${'\\sqrt{'.repeat(70)}2${'}'.repeat(70)}`, '1'],
  [`${'\\frac{'.repeat(40)}1${'}{2}'.repeat(40)}`, '0'],
  [Array.from({ length: 120 }, () => 'x').join('+'), '121x'],
  [Array.from({ length: 83 }, (_, index) => `x^{${index % 9}}`).join('+'), Array.from({ length: 83 }, (_, index) => `x^{${index % 9}}`).reverse().join('+'), true],
  [Array.from({ length: 10 }, (_, index) => `x=${index}`).join(','), Array.from({ length: 10 }, (_, index) => `x=${9 - index}+10^{-30}`).join(',')],
  [
    Array.from({ length: 10 }, (_, index) => `${index}x^{2}+\\sin(${index}x)+\\sqrt{x+${index}}`).join(','),
    Array.from({ length: 10 }, (_, index) => `${index}x^{2}+\\sin(${index}x)+\\sqrt{x+${index}}+1`).join(','),
  ],
  ['(x+1)^{100}', '(x+1)^{99}(x+1)', true],
  ['(x+y+z)^{40}', '(z+y+x)^{39}(x+y+z+1)'],
  ['9999!', '9999!+1'],
  ['10^{10^{10}}', '10^{10^{10}}+1'],
  ['x'.repeat(MAX_ANSWER_LENGTH), 'x'.repeat(MAX_ANSWER_LENGTH - 1)],
  [`${'\\sin('.repeat(60)}x${')'.repeat(60)}`, `${'\\sin('.repeat(59)}x${')'.repeat(59)}`],
];

const rssBefore = process.memoryUsage().rss;
const loadStart = performance.now();
loadMathReader();
const loadMs = performance.now() - loadStart;
const loadRssMb = (process.memoryUsage().rss - rssBefore) / 1e6;

// Warm the JIT on the table once, then measure.
for (const pair of MATH_PAIRS) mathEquivalent(pair.a, pair.b);
const tableTimes: number[] = [];
let tableRight = 0;
for (let round_ = 0; round_ < rounds; round_++) {
  for (const pair of MATH_PAIRS) {
    const { ms, verdict } = timed(pair.a, pair.b);
    tableTimes.push(ms);
    if (round_ === 0 && verdict === pair.expected) tableRight += 1;
  }
}
const mixTimes: number[] = [];
const mixVerdicts: Record<string, number> = {};
for (const [a, b] of mix(mixSize)) {
  const { ms, verdict } = timed(a, b);
  mixTimes.push(ms);
  mixVerdicts[verdict] = (mixVerdicts[verdict] ?? 0) + 1;
}
const hostile = HOSTILE.map(([a, b, identity]) => ({ input: `${a.slice(0, 24)}… (${a.length} chars)`, identity: identity === true, ...timed(a, b) }));
const worst = hostile.reduce((slowest, item) => (item.ms > slowest.ms ? item : slowest));

console.log(
  JSON.stringify({
    node: process.version,
    loadMs: round(loadMs, 1),
    loadRssMb: round(loadRssMb, 1),
    table: { pairs: MATH_PAIRS.length, rounds, right: tableRight, ...summary(tableTimes) },
    mix: { ...summary(mixTimes), verdicts: mixVerdicts },
    hostile: {
      checks: hostile.length,
      worstMs: round(worst.ms, 2),
      worstInput: worst.input,
      falseEqual: hostile.filter((item) => item.verdict === 'equal' && !item.identity).length,
      verdicts: hostile.map((item) => item.verdict),
    },
  }),
);
