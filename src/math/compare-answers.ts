import type { Answer, Valued } from './answer.js';
import { type Budget, type Verdict, compareExpressions, spend } from './compare-expressions.js';
import { compareEquations } from './equations.js';
import { type Expr, difference } from './expression.js';
import { type Region, compareRegions, intervalOf } from './regions.js';

/**
 * Compares two read answers shape by shape. Shapes that cannot mean the same thing, or could mean several
 * things (a set against an ordered pair, conditions against a list of values), are `unknown`, never a guess.
 */
const HUNDREDTH: Expr = { kind: 'number', value: { n: 1n, d: 100n }, decimalDigits: 0 };

function scaled(expr: Expr): Expr {
  return { kind: 'multiply', factors: [expr, HUNDREDTH] };
}

/**
 * Units: the same unit on both sides cancels; a counter (개, 명, 원) on one side only is ignored; percent is a
 * hundredth (50% = 0.5), and 50% against 50 is `unknown`; a measure on one side only, or two different units,
 * is `unknown` (nothing is converted).
 */
export function compareValued(a: Valued, b: Valued, budget: Budget): Verdict {
  const unitA = a.unit;
  const unitB = b.unit;
  if (unitA?.name === unitB?.name) return compareExpressions(a.expr, b.expr, budget);
  if (unitA !== undefined && unitB !== undefined) return 'unknown';
  const unit = (unitA ?? unitB) as NonNullable<typeof unitA>;
  if (unit.kind === 'counter') return compareExpressions(a.expr, b.expr, budget);
  if (unit.kind === 'measure') return 'unknown';
  const verdict = compareExpressions(unitA ? scaled(a.expr) : a.expr, unitB ? scaled(b.expr) : b.expr, budget);
  if (verdict !== 'different') return verdict;
  return compareExpressions(a.expr, b.expr, budget) === 'equal' ? 'unknown' : 'different';
}

/** Keeps the first of every group of equal values (a set lists each element once). */
function distinct(values: Valued[], budget: Budget): Valued[] {
  const kept: Valued[] = [];
  for (const value of values) {
    if (!kept.some((other) => compareValued(other, value, budget) === 'equal')) kept.push(value);
  }
  return kept;
}

/** Is there a one-to-one pairing using only `equal` cells? (Kuhn's augmenting paths; at most 20×20.) */
function perfectMatching(matrix: Verdict[][], columns: number): boolean {
  const owner: number[] = new Array<number>(columns).fill(-1);
  const tryRow = (row: number, seen: boolean[]): boolean => {
    for (let column = 0; column < columns; column++) {
      if (matrix[row]?.[column] !== 'equal' || seen[column]) continue;
      seen[column] = true;
      if ((owner[column] as number) === -1 || tryRow(owner[column] as number, seen)) {
        owner[column] = row;
        return true;
      }
    }
    return false;
  };
  return matrix.every((_, row) => tryRow(row, new Array<boolean>(columns).fill(false)));
}

function compareValueLists(a: Extract<Answer, { kind: 'values' }>, b: Extract<Answer, { kind: 'values' }>, budget: Budget): Verdict {
  if (a.variable !== undefined && b.variable !== undefined && a.variable !== b.variable) return 'unknown';
  if ((a.thousands && b.values.length > 1) || (b.thousands && a.values.length > 1)) return 'unknown';
  const left = a.set ? distinct(a.values, budget) : a.values;
  const right = b.set ? distinct(b.values, budget) : b.values;
  if (left.length === 1 && right.length === 1) return compareValued(left[0] as Valued, right[0] as Valued, budget);
  const matrix = left.map((x) =>
    right.map((y) => {
      spend(budget, 1);
      return compareValued(x, y, budget);
    }),
  );
  const orphan =
    matrix.some((row) => row.every((cell) => cell === 'different')) ||
    right.some((_, column) => matrix.every((row) => row[column] === 'different'));
  if (left.length === right.length && perfectMatching(matrix, right.length)) return 'equal';
  if (orphan) return 'different';
  if (left.length !== right.length) {
    // The same values with different repeats (x = 1, 1, 2 against x = 1, 2): multiplicity may matter or not.
    const setA = distinct(left, budget);
    const setB = distinct(right, budget);
    const sets = setA.map((x) => setB.map((y) => compareValued(x, y, budget)));
    if (setA.length === setB.length && perfectMatching(sets, setB.length)) return 'unknown';
  }
  return 'unknown';
}

/** The interval a bracketed pair means when it is compared with a set of reals. */
function asRegion(bracket: Extract<Answer, { kind: 'bracket' }>): Region | undefined {
  if (bracket.items.length !== 2) return undefined;
  const [low, high] = bracket.items as [Expr, Expr];
  const ends = new Map<string, Expr>([
    ['low', low],
    ['high', high],
  ]);
  try {
    return intervalOf(bracket.open, bracket.close, 'low', 'high', (text) => ends.get(text) as Expr);
  } catch {
    return undefined;
  }
}

function compareInOrder(a: Expr[], b: Expr[], budget: Budget): Verdict {
  if (a.length !== b.length) return 'different';
  let verdict: Verdict = 'equal';
  a.forEach((item, index) => {
    const result = compareExpressions(item, b[index] as Expr, budget);
    if (result === 'different') verdict = 'different';
    else if (result === 'unknown' && verdict === 'equal') verdict = 'unknown';
  });
  return verdict;
}

function asEquation(answer: Answer): Expr | undefined {
  if (answer.kind === 'equation') return difference(answer.left, answer.right);
  if (answer.kind === 'values' && answer.variable !== undefined && answer.values.length === 1) {
    const [value] = answer.values as [Valued];
    if (value.unit !== undefined) return undefined;
    return difference({ kind: 'variable', name: answer.variable }, value.expr);
  }
  return undefined;
}

export function compareAnswers(a: Answer, b: Answer, budget: Budget): Verdict {
  if (a.kind === 'empty' || b.kind === 'empty') {
    const other = a.kind === 'empty' ? b : a;
    if (other.kind === 'empty') return 'equal';
    if (other.kind === 'region') return other.region.intervals.length === 0 ? 'equal' : 'different';
    if (other.kind === 'values' || other.kind === 'named') return 'different';
    return 'unknown';
  }
  if (a.kind === 'values' && b.kind === 'values') return compareValueLists(a, b, budget);
  if (a.kind === 'named' && b.kind === 'named') {
    if (a.entries.size !== b.entries.size || [...a.entries.keys()].some((name) => !b.entries.has(name))) return 'unknown';
    let verdict: Verdict = 'equal';
    for (const [name, value] of a.entries) {
      const result = compareValued(value, b.entries.get(name) as Valued, budget);
      if (result === 'different') return 'different';
      if (result === 'unknown') verdict = 'unknown';
    }
    return verdict;
  }
  if (a.kind === 'region' && b.kind === 'region') return compareRegions(a.region, b.region, budget);
  if (a.kind === 'bracket' && b.kind === 'bracket') {
    if (a.open === b.open && a.close === b.close) return compareInOrder(a.items, b.items, budget);
    const regionA = asRegion(a);
    const regionB = asRegion(b);
    return regionA && regionB ? compareRegions(regionA, regionB, budget) : 'unknown';
  }
  if ((a.kind === 'bracket' && b.kind === 'region') || (a.kind === 'region' && b.kind === 'bracket')) {
    const bracket = (a.kind === 'bracket' ? a : b) as Extract<Answer, { kind: 'bracket' }>;
    const region = (a.kind === 'region' ? a : b) as Extract<Answer, { kind: 'region' }>;
    const interval = asRegion(bracket);
    return interval ? compareRegions(interval, region.region, budget) : 'unknown';
  }
  // `y = 2x + 1` against `2x + 1`: the expression the equation was solved for.
  for (const [equation, other] of [
    [a, b],
    [b, a],
  ] as const) {
    if (equation.kind === 'equation' && equation.solvedFor !== undefined && other.kind === 'values' && other.variable === undefined && other.values.length === 1) {
      const [value] = other.values as [Valued];
      return value.unit === undefined ? compareExpressions(equation.right, value.expr, budget) : 'unknown';
    }
  }
  if (a.kind === 'equation' || b.kind === 'equation') {
    if (a.kind === 'equation' && b.kind === 'equation' && a.solvedFor !== undefined && a.solvedFor === b.solvedFor) {
      return compareExpressions(a.right, b.right, budget);
    }
    const f = asEquation(a);
    const g = asEquation(b);
    return f && g ? compareEquations(f, g, budget) : 'unknown';
  }
  return 'unknown';
}

