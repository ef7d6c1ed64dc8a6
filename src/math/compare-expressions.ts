import { type Approx, evaluateApprox, evaluateExact } from './evaluate.js';
import { type Expr, renameVariables, variablesOf, walk } from './expression.js';
import * as Q from './rational.js';
import { samplePoints } from './sample-points.js';

export type Verdict = 'equal' | 'different' | 'unknown';

/** Thrown when a check has used up its work budget; the caller answers `unknown`. */
export class OverBudget extends Error {}

/**
 * Work a check may do, counted in evaluated tree nodes (exact ones count four): a count, not a clock, so a
 * verdict never depends on how busy the machine is.
 */
export interface Budget {
  remaining: number;
}

export function spend(budget: Budget, units: number): void {
  budget.remaining -= units;
  if (budget.remaining < 0) throw new OverBudget('math check over its work budget');
}

/** What one comparison by sampling costs before any node is evaluated (points, maps, bookkeeping). */
export const CALL_COST = 100;

/** Nodes in a tree (what one evaluation of it costs). */
export function size(expr: Expr): number {
  let count = 0;
  for (const _ of walk(expr)) count += 1;
  return count;
}

/** Equal up to rounding: within this many times the two error bounds. */
const AGREE = 64;
/** Different for sure: further apart than this many times the error bounds (and than 1e-11 relative). */
const DIFFER = 1e4;
/** Decimals with more significant digits than this cannot be told from an irrational by doubles. */
const MAX_DOUBLE_DIGITS = 12;
/** Fewer valid points than this and sampling proves nothing. */
const MIN_POINTS = 4;

type PointVerdict = 'agree' | 'differ' | 'grey';

function comparePoint(a: Approx, b: Approx): PointVerdict {
  const difference = Math.abs(a.value - b.value);
  const bound = a.error + b.error;
  if (difference <= AGREE * bound) return 'agree';
  if (difference > DIFFER * bound && difference > 1e-11 * Math.max(Math.abs(a.value), Math.abs(b.value))) {
    return 'differ';
  }
  return 'grey';
}

function hasLongDecimal(expr: Expr): boolean {
  for (const node of walk(expr)) if (node.kind === 'number' && node.decimalDigits > MAX_DOUBLE_DIGITS) return true;
  return false;
}

function uses(expr: Expr, test: (node: Expr) => boolean): boolean {
  for (const node of walk(expr)) if (test(node)) return true;
  return false;
}

/** A canonical text of the tree up to the order of terms and factors: the cheap symbolic check. */
export function structuralKey(expr: Expr): string {
  switch (expr.kind) {
    case 'number':
      return `${expr.value.n}/${expr.value.d}`;
    case 'constant':
      return expr.name;
    case 'variable':
      return `v:${expr.name}`;
    case 'add':
      return `+(${expr.terms.map(structuralKey).sort().join(',')})`;
    case 'multiply':
      return `*(${expr.factors.map(structuralKey).sort().join(',')})`;
    case 'divide':
      return `/(${structuralKey(expr.numerator)},${structuralKey(expr.denominator)})`;
    case 'negate':
      return `-(${structuralKey(expr.argument)})`;
    case 'power':
      return `^(${structuralKey(expr.base)},${structuralKey(expr.exponent)})`;
    case 'root':
      return `root${expr.index}(${structuralKey(expr.argument)})`;
    case 'apply':
      return `${expr.name}(${structuralKey(expr.argument)})`;
    case 'log':
      return `log(${structuralKey(expr.argument)},${structuralKey(expr.base)})`;
    case 'degrees':
      return `deg(${structuralKey(expr.argument)})`;
  }
}

function compareConstants(a: Expr, b: Expr): Verdict {
  const exactA = evaluateExact(a, new Map());
  const exactB = evaluateExact(b, new Map());
  if (exactA !== undefined && exactB !== undefined) return Q.equals(exactA, exactB) ? 'equal' : 'different';
  const approxA = evaluateApprox(a, new Map());
  const approxB = evaluateApprox(b, new Map());
  if (Number.isNaN(approxA.value) || Number.isNaN(approxB.value)) return 'unknown';
  const verdict = comparePoint(approxA, approxB);
  if (verdict === 'differ') return 'different';
  if (verdict === 'grey') return 'unknown';
  // Agreeing doubles cannot see a difference below their resolution (√2 + 10^{-15}, a 17-digit decimal of √2).
  if (approxA.absorbed || approxB.absorbed || hasLongDecimal(a) || hasLongDecimal(b)) return 'unknown';
  return 'equal';
}

/** Compares two expressions as functions of `variables` at the sample points. */
function compareFunctions(a: Expr, b: Expr, variables: Set<string>, budget: Budget): Verdict {
  let valid = 0;
  let doubtful = false;
  const cost = size(a) + size(b);
  spend(budget, CALL_COST);
  for (const point of samplePoints(variables)) {
    spend(budget, 5 * cost);
    const exactA = evaluateExact(a, point.exact);
    const exactB = evaluateExact(b, point.exact);
    if (exactA !== undefined && exactB !== undefined) {
      if (!Q.equals(exactA, exactB)) return 'different';
      valid += 1;
      continue;
    }
    const approxA = evaluateApprox(a, point.approx);
    const approxB = evaluateApprox(b, point.approx);
    const definedA = !Number.isNaN(approxA.value);
    const definedB = !Number.isNaN(approxB.value);
    if (!definedA && !definedB) continue;
    if (definedA !== definedB) {
      // Defined on one side only: the two differ in domain (ln x² vs 2 ln x), which is not for us to excuse.
      doubtful = true;
      continue;
    }
    const verdict = comparePoint(approxA, approxB);
    if (verdict === 'differ') return 'different';
    if (verdict === 'grey' || approxA.absorbed || approxB.absorbed) doubtful = true;
    valid += 1;
  }
  if (valid < MIN_POINTS || doubtful) return 'unknown';
  if (hasLongDecimal(a) || hasLongDecimal(b)) return 'unknown';
  return 'equal';
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

function compareValues(a: Expr, b: Expr, budget: Budget): Verdict {
  spend(budget, size(a) + size(b));
  if (structuralKey(a) === structuralKey(b)) return 'equal';
  const variablesA = variablesOf(a);
  const variablesB = variablesOf(b);
  const all = new Set([...variablesA, ...variablesB]);
  if (all.size === 0) return compareConstants(a, b);
  const verdict = compareFunctions(a, b, all, budget);
  const sameVariables = variablesA.size === variablesB.size && [...variablesA].every((name) => variablesB.has(name));
  if (verdict !== 'different' || sameVariables) return verdict;
  // x² against y²: the same answer in another variable is not ours to accept or reject.
  if (variablesA.size === variablesB.size && variablesA.size > 0 && variablesA.size <= 3) {
    const namesB = [...variablesB];
    for (const order of permutations([...variablesA])) {
      const renamed = renameVariables(b, new Map(namesB.map((name, index) => [name, order[index] as string])));
      if (compareFunctions(a, renamed, variablesA, budget) !== 'different') return 'unknown';
    }
  }
  return 'different';
}

function withoutDegrees(expr: Expr): Expr {
  switch (expr.kind) {
    case 'degrees':
      return withoutDegrees(expr.argument);
    case 'add':
      return { kind: 'add', terms: expr.terms.map(withoutDegrees) };
    case 'multiply':
      return { kind: 'multiply', factors: expr.factors.map(withoutDegrees) };
    case 'divide':
      return { kind: 'divide', numerator: withoutDegrees(expr.numerator), denominator: withoutDegrees(expr.denominator) };
    case 'power':
      return { kind: 'power', base: withoutDegrees(expr.base), exponent: withoutDegrees(expr.exponent) };
    case 'log':
      return { kind: 'log', argument: withoutDegrees(expr.argument), base: withoutDegrees(expr.base) };
    case 'negate':
    case 'root':
    case 'apply':
      return { ...expr, argument: withoutDegrees(expr.argument) };
    default:
      return expr;
  }
}

/**
 * Compares two scalar expressions: structure, then exact rationals, then sampling with error bounds. Degrees are
 * converted only where written (`60^\circ` = π/3); a bare number against the same number in degrees (`60` vs
 * `60°`) is `unknown`, since the bare one may mean degrees.
 */
export function compareExpressions(a: Expr, b: Expr, budget: Budget): Verdict {
  const verdict = compareValues(a, b, budget);
  if (verdict !== 'different') return verdict;
  const degreesA = uses(a, (node) => node.kind === 'degrees');
  const degreesB = uses(b, (node) => node.kind === 'degrees');
  const radians = (expr: Expr): boolean => uses(expr, (node) => node.kind === 'constant' && node.name === 'pi');
  if (degreesA !== degreesB && !radians(degreesA ? b : a)) {
    if (compareValues(withoutDegrees(a), withoutDegrees(b), budget) === 'equal') return 'unknown';
  }
  return verdict;
}

/** The exact value of a constant expression when it has one. */
export function exactValue(expr: Expr): Q.Rational | undefined {
  return evaluateExact(expr, new Map());
}

/** A constant expression's value as a double, NaN when undefined. */
export function approximateValue(expr: Expr): number {
  return evaluateApprox(expr, new Map()).value;
}
