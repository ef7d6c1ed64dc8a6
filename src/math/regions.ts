import { type Budget, type Verdict, approximateValue, compareExpressions, exactValue } from './compare-expressions.js';
import { evaluateExact } from './evaluate.js';
import { type Expr, UnsupportedMath, difference, variablesOf } from './expression.js';
import * as Q from './rational.js';
import type { RelationOperator } from './split.js';

/**
 * Sets of real numbers written as intervals (`[1, 3)`, `(-\infty, 2]`, unions) or inequalities in one variable
 * (`1 \le x < 3`, `x < 1 \lor x > 3`, `2x - 4 > 0`, `x \ne 2`). Both become a sorted union of intervals with open
 * or closed ends, compared end by end: an end that is open on one side and closed on the other is a difference.
 */
export interface Bound {
  /** ±Infinity for an unbounded side. */
  value: number;
  expr?: Expr;
  closed: boolean;
}

export interface Interval {
  low: Bound;
  high: Bound;
}

export interface Region {
  variable?: string;
  intervals: Interval[];
}

export type ReadExpr = (text: string) => Expr;

const INFINITY = /^([+-]?)\s*\\infty$/;

function bound(text: string, read: ReadExpr, closed: boolean): Bound {
  const infinite = INFINITY.exec(text.trim());
  if (infinite) {
    if (closed) throw new UnsupportedMath('a closed end at infinity');
    return { value: infinite[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY, closed: false };
  }
  const expr = read(text);
  if (variablesOf(expr).size > 0) throw new UnsupportedMath('an interval end with a variable');
  const value = approximateValue(expr);
  if (Number.isNaN(value)) throw new UnsupportedMath('an undefined interval end');
  return { value, expr, closed };
}

function finite(value: Expr): Bound {
  const approx = approximateValue(value);
  if (Number.isNaN(approx)) throw new UnsupportedMath('an undefined bound');
  return { value: approx, expr: value, closed: false };
}

const BELOW: Bound = { value: Number.NEGATIVE_INFINITY, closed: false };
const ABOVE: Bound = { value: Number.POSITIVE_INFINITY, closed: false };

/** `(a, b]` and friends; `[a, b]` only when the caller knows it is an interval and not a list. */
export function intervalOf(open: string, close: string, low: string, high: string, read: ReadExpr): Region {
  const interval = { low: bound(low, read, open === '['), high: bound(high, read, close === ']') };
  if (!(interval.low.value <= interval.high.value)) throw new UnsupportedMath('an interval with its ends swapped');
  return { intervals: normalise([interval]) };
}

function flip(operator: RelationOperator): RelationOperator {
  return ({ '<': '>', '<=': '>=', '>': '<', '>=': '<=', '!=': '!=', '=': '=' } as const)[operator];
}

/** The set where `variable operator value` holds. */
function ray(operator: RelationOperator, value: Expr): Interval[] {
  const at = (closed: boolean): Bound => ({ ...finite(value), closed });
  switch (operator) {
    case '<':
      return [{ low: BELOW, high: at(false) }];
    case '<=':
      return [{ low: BELOW, high: at(true) }];
    case '>':
      return [{ low: at(false), high: ABOVE }];
    case '>=':
      return [{ low: at(true), high: ABOVE }];
    case '!=':
      return [
        { low: BELOW, high: at(false) },
        { low: at(false), high: ABOVE },
      ];
    case '=':
      throw new UnsupportedMath('an equation in a chain of inequalities');
  }
}

/**
 * Solves `left operator right` for its one variable when `left − right` is affine with exact coefficients
 * (checked at four points): `2x − 4 > 0` is `x > 2`, `−2x \ge 6` is `x \le −3`.
 */
function solveLinear(left: Expr, right: Expr, operator: RelationOperator, variable: string): Interval[] {
  const h = difference(left, right);
  const at = (value: bigint): Q.Rational | undefined => evaluateExact(h, new Map([[variable, { n: value, d: 1n }]]));
  const values = [0n, 1n, 2n, 3n].map(at);
  if (values.some((value) => value === undefined)) throw new UnsupportedMath('not a linear inequality');
  const [h0, h1, h2, h3] = values as [Q.Rational, Q.Rational, Q.Rational, Q.Rational];
  const slope = Q.add(h1, Q.negate(h0));
  const second = Q.add(h2, Q.negate(h1));
  const third = Q.add(h3, Q.negate(h2));
  if (slope === undefined || second === undefined || third === undefined) throw new UnsupportedMath('too large');
  if (!Q.equals(slope, second) || !Q.equals(slope, third) || slope.n === 0n) {
    throw new UnsupportedMath('not a linear inequality');
  }
  const root = Q.divide(Q.negate(h0), slope);
  if (root === undefined) throw new UnsupportedMath('too large');
  const value: Expr = { kind: 'number', value: root, decimalDigits: 0 };
  return ray(slope.n > 0n ? operator : flip(operator), value);
}

function isVariable(expr: Expr): expr is Extract<Expr, { kind: 'variable' }> {
  return expr.kind === 'variable';
}

/** A chain of inequalities in one variable as a region. */
export function relationRegion(terms: string[], operators: RelationOperator[], read: ReadExpr): Region {
  const exprs = terms.map(read);
  const variables = new Set<string>();
  exprs.forEach((expr) => variablesOf(expr, variables));
  if (variables.size !== 1) throw new UnsupportedMath('an inequality needs exactly one variable');
  const variable = [...variables][0] as string;
  if (exprs.length === 2 && operators.length === 1) {
    const [left, right] = exprs as [Expr, Expr];
    const operator = operators[0] as RelationOperator;
    let intervals: Interval[];
    if (isVariable(left) && variablesOf(right).size === 0) intervals = ray(operator, right);
    else if (isVariable(right) && variablesOf(left).size === 0) intervals = ray(flip(operator), left);
    else intervals = solveLinear(left, right, operator, variable);
    return { variable, intervals: normalise(intervals) };
  }
  if (exprs.length === 3 && operators.length === 2) {
    const [low, middle, high] = exprs as [Expr, Expr, Expr];
    const ascending = operators.every((operator) => operator === '<' || operator === '<=');
    const descending = operators.every((operator) => operator === '>' || operator === '>=');
    if (!isVariable(middle) || (!ascending && !descending)) throw new UnsupportedMath('an unusual chain');
    if (variablesOf(low).size > 0 || variablesOf(high).size > 0) throw new UnsupportedMath('a chain with two variables');
    const [first, second] = operators as [RelationOperator, RelationOperator];
    const lowBound = { ...finite(ascending ? low : high), closed: (ascending ? first : second) .length === 2 };
    const highBound = { ...finite(ascending ? high : low), closed: (ascending ? second : first).length === 2 };
    if (!(lowBound.value <= highBound.value)) throw new UnsupportedMath('an empty chain');
    return { variable, intervals: normalise([{ low: lowBound, high: highBound }]) };
  }
  throw new UnsupportedMath('an unusual chain');
}

function nonEmpty(interval: Interval): boolean {
  return interval.low.value < interval.high.value || (interval.low.value === interval.high.value && interval.low.closed && interval.high.closed);
}

/** Sorted, with overlapping or touching intervals merged. */
export function normalise(intervals: Interval[]): Interval[] {
  const sorted = intervals.filter(nonEmpty).sort((a, b) => a.low.value - b.low.value || Number(b.low.closed) - Number(a.low.closed));
  const merged: Interval[] = [];
  for (const interval of sorted) {
    const last = merged.at(-1);
    if (
      last &&
      (interval.low.value < last.high.value ||
        (interval.low.value === last.high.value && (interval.low.closed || last.high.closed)))
    ) {
      if (interval.high.value > last.high.value || (interval.high.value === last.high.value && interval.high.closed)) {
        last.high = interval.high;
      }
    } else {
      merged.push({ low: interval.low, high: interval.high });
    }
  }
  return merged;
}

export function union(regions: Region[]): Region {
  return { ...commonVariable(regions), intervals: normalise(regions.flatMap((region) => region.intervals)) };
}

export function intersection(regions: Region[]): Region {
  let intervals: Interval[] = [{ low: BELOW, high: ABOVE }];
  for (const region of regions) {
    const next: Interval[] = [];
    for (const a of intervals) {
      for (const b of region.intervals) {
        const low = a.low.value > b.low.value ? a.low : b.low.value > a.low.value ? b.low : { ...a.low, closed: a.low.closed && b.low.closed };
        const high = a.high.value < b.high.value ? a.high : b.high.value < a.high.value ? b.high : { ...a.high, closed: a.high.closed && b.high.closed };
        next.push({ low, high });
      }
    }
    intervals = normalise(next);
  }
  return { ...commonVariable(regions), intervals };
}

function commonVariable(regions: Region[]): { variable?: string } {
  const names = new Set(regions.map((region) => region.variable).filter((name) => name !== undefined));
  if (names.size > 1) throw new UnsupportedMath('conditions on different variables');
  const [variable] = names;
  return variable === undefined ? {} : { variable };
}

function compareBounds(a: Bound, b: Bound, budget: Budget): Verdict {
  const infiniteA = !Number.isFinite(a.value);
  const infiniteB = !Number.isFinite(b.value);
  if (infiniteA || infiniteB) return infiniteA && infiniteB && a.value === b.value ? 'equal' : 'different';
  if (a.expr === undefined || b.expr === undefined) return 'unknown';
  const exactA = exactValue(a.expr);
  const exactB = exactValue(b.expr);
  const verdict = exactA !== undefined && exactB !== undefined ? (Q.equals(exactA, exactB) ? 'equal' : 'different') : compareExpressions(a.expr, b.expr, budget);
  if (verdict === 'equal' && a.closed !== b.closed) return 'different';
  return verdict;
}

export function compareRegions(a: Region, b: Region, budget: Budget): Verdict {
  if (a.variable !== undefined && b.variable !== undefined && a.variable !== b.variable) return 'unknown';
  if (a.intervals.length !== b.intervals.length) return 'different';
  let verdict: Verdict = 'equal';
  a.intervals.forEach((interval, index) => {
    const other = b.intervals[index] as Interval;
    for (const result of [compareBounds(interval.low, other.low, budget), compareBounds(interval.high, other.high, budget)]) {
      if (result === 'different') verdict = 'different';
      else if (result === 'unknown' && verdict === 'equal') verdict = 'unknown';
    }
  });
  return verdict;
}
