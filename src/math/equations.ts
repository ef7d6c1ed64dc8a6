import { type Budget, CALL_COST, type Verdict, size, spend } from './compare-expressions.js';
import { evaluateApprox, evaluateExact } from './evaluate.js';
import { type Expr, variablesOf } from './expression.js';
import * as Q from './rational.js';
import { type SamplePoint, samplePoints } from './sample-points.js';

/**
 * Equations compared as equations: `f = g` and `p = q` say the same when f − g = k·(p − q) for a constant k ≠ 0
 * (`y = 2x + 1` and `2x − y + 1 = 0`, k = −1). When the ratio is not constant the equations may still have the
 * same solutions (`y = x` and `y³ = x³`), so that is `different` only when both sides are affine, where
 * proportionality is the whole story.
 */
function ratioAt(f: Expr, g: Expr, point: SamplePoint): { exact?: Q.Rational; value?: number; relative?: number; broken?: true } | undefined {
  const exactF = evaluateExact(f, point.exact);
  const exactG = evaluateExact(g, point.exact);
  if (exactF !== undefined && exactG !== undefined) {
    if (exactF.n === 0n && exactG.n === 0n) return undefined;
    if (exactF.n === 0n || exactG.n === 0n) return { broken: true };
    return { exact: Q.divide(exactF, exactG) as Q.Rational };
  }
  const approxF = evaluateApprox(f, point.approx);
  const approxG = evaluateApprox(g, point.approx);
  if (Number.isNaN(approxF.value) || Number.isNaN(approxG.value)) return undefined;
  const negligibleF = Math.abs(approxF.value) <= 16 * approxF.error;
  const negligibleG = Math.abs(approxG.value) <= 16 * approxG.error;
  if (negligibleF && negligibleG) return undefined;
  if (negligibleF || negligibleG) return { broken: true };
  return {
    value: approxF.value / approxG.value,
    relative: approxF.error / Math.abs(approxF.value) + approxG.error / Math.abs(approxG.value),
  };
}

type Proportion = 'proportional' | 'not' | 'unsure';

function proportion(f: Expr, g: Expr, points: SamplePoint[], budget: Budget): Proportion {
  let first: ReturnType<typeof ratioAt>;
  let valid = 0;
  let unsure = false;
  const cost = size(f) + size(g);
  spend(budget, CALL_COST);
  for (const point of points) {
    spend(budget, 5 * cost);
    const ratio = ratioAt(f, g, point);
    if (ratio === undefined) continue;
    if (ratio.broken) return 'not';
    valid += 1;
    if (first === undefined) {
      first = ratio;
      continue;
    }
    if (ratio.exact !== undefined && first.exact !== undefined) {
      if (!Q.equals(ratio.exact, first.exact)) return 'not';
      continue;
    }
    const a = ratio.exact !== undefined ? Q.toNumber(ratio.exact) : (ratio.value as number);
    const b = first.exact !== undefined ? Q.toNumber(first.exact) : (first.value as number);
    const tolerance = ((ratio.relative ?? 1e-15) + (first.relative ?? 1e-15)) * Math.max(Math.abs(a), Math.abs(b));
    const gap = Math.abs(a - b);
    if (gap <= 64 * tolerance) continue;
    if (gap > 1e4 * tolerance && gap > 1e-11 * Math.abs(b)) return 'not';
    unsure = true;
  }
  if (valid < 4 || unsure) return 'unsure';
  return 'proportional';
}

/** Affine (a·x + b·y + c): f(p) + f(q) = 2·f((p+q)/2) exactly at several pairs of points. */
function isAffine(f: Expr, points: SamplePoint[]): boolean {
  for (let index = 0; index + 1 < points.length; index += 2) {
    const p = points[index] as SamplePoint;
    const q = points[index + 1] as SamplePoint;
    const middle = new Map<string, Q.Rational>();
    for (const [name, value] of p.exact) {
      const sum = Q.add(value, q.exact.get(name) as Q.Rational);
      const half = sum === undefined ? undefined : Q.divide(sum, { n: 2n, d: 1n });
      if (half === undefined) return false;
      middle.set(name, half);
    }
    const fp = evaluateExact(f, p.exact);
    const fq = evaluateExact(f, q.exact);
    const fm = evaluateExact(f, middle);
    if (fp === undefined || fq === undefined || fm === undefined) return false;
    const sides = Q.add(fp, fq);
    const twice = Q.multiply(fm, { n: 2n, d: 1n });
    if (sides === undefined || twice === undefined || !Q.equals(sides, twice)) return false;
  }
  return true;
}

/** `f = 0` against `g = 0` (each already moved to one side). */
export function compareEquations(f: Expr, g: Expr, budget: Budget): Verdict {
  const variablesF = variablesOf(f);
  const variablesG = variablesOf(g);
  if (variablesF.size === 0 || variablesF.size !== variablesG.size || [...variablesF].some((name) => !variablesG.has(name))) {
    return 'unknown';
  }
  const points = samplePoints(variablesF);
  const result = proportion(f, g, points, budget);
  if (result === 'proportional') return 'equal';
  if (result !== 'not') return 'unknown';
  spend(budget, 4 * 3 * points.length * (size(f) + size(g)));
  if (isAffine(f, points) && isAffine(g, points)) return 'different';
  return 'unknown';
}
