import type { Expr, FunctionName } from './expression.js';
import * as Q from './rational.js';
import type { Rational } from './rational.js';

/**
 * Two evaluators over the same tree. `evaluateApprox` computes a double together with a running bound on its
 * rounding error (first-order error analysis), so a comparison can tell "equal up to rounding" from "different"
 * relative to the magnitudes actually involved — `(x+1)^2 − x^2 − 2x` at large x cancels big terms, `10^{-15}` is
 * small but exact. `evaluateExact` computes a rational exactly when the tree allows it (rational functions at
 * rational points, perfect roots) and gives up otherwise.
 */
export interface Approx {
  /** NaN when the expression is undefined at the point (outside the real domain, division by zero, overflow). */
  value: number;
  /** Bound on |computed − true|; grows with cancellation and with steep functions near their singularities. */
  error: number;
  /** An addend vanished below the sum's resolution: the sum cannot show a difference that small. */
  absorbed: boolean;
}

const EPSILON = Number.EPSILON;
/** Library functions (Math.sin, Math.log, …) are accurate to about an ulp; count a little more. */
const LIBM = 4 * EPSILON;
const UNDEFINED: Approx = { value: Number.NaN, error: Number.POSITIVE_INFINITY, absorbed: false };

export type ApproxEnv = ReadonlyMap<string, number>;
export type ExactEnv = ReadonlyMap<string, Rational>;

function result(value: number, error: number, absorbed: boolean): Approx {
  if (!Number.isFinite(value) || !Number.isFinite(error)) return UNDEFINED;
  return { value, error, absorbed };
}

/** Result of a one-argument function with derivative `slope` at the argument. */
function lifted(value: number, slope: number, argument: Approx): Approx {
  return result(value, Math.abs(slope) * argument.error + LIBM * Math.abs(value), argument.absorbed);
}

export function evaluateApprox(expr: Expr, env: ApproxEnv): Approx {
  switch (expr.kind) {
    case 'number': {
      const value = Q.toNumber(expr.value);
      return result(value, Q.isInteger(expr.value) && Number.isSafeInteger(value) ? 0 : EPSILON * Math.abs(value), false);
    }
    case 'constant':
      return result(expr.name === 'pi' ? Math.PI : Math.E, EPSILON * 4, false);
    case 'variable': {
      const value = env.get(expr.name);
      return value === undefined ? UNDEFINED : result(value, EPSILON * Math.abs(value), false);
    }
    case 'add': {
      let value = 0;
      let error = 0;
      let absorbed = false;
      let largest = 0;
      const terms = expr.terms.map((term) => evaluateApprox(term, env));
      for (const term of terms) {
        if (Number.isNaN(term.value)) return UNDEFINED;
        largest = Math.max(largest, Math.abs(term.value));
      }
      for (const term of terms) {
        value += term.value;
        error += term.error + EPSILON * (Math.abs(value) + Math.abs(term.value));
        absorbed ||= term.absorbed || (term.value !== 0 && Math.abs(term.value) < 1e-9 * largest);
      }
      return result(value, error, absorbed);
    }
    case 'multiply': {
      let value = 1;
      let relative = 0;
      let absorbed = false;
      let zero = false;
      for (const factor of expr.factors.map((item) => evaluateApprox(item, env))) {
        if (Number.isNaN(factor.value)) return UNDEFINED;
        if (factor.value === 0 && factor.error === 0) zero = true;
        else relative += factor.value === 0 ? Number.POSITIVE_INFINITY : factor.error / Math.abs(factor.value) + EPSILON;
        value *= factor.value;
        absorbed ||= factor.absorbed;
      }
      if (zero) return result(0, 0, absorbed);
      return result(value, relative * Math.abs(value), absorbed);
    }
    case 'divide': {
      const numerator = evaluateApprox(expr.numerator, env);
      const denominator = evaluateApprox(expr.denominator, env);
      if (Number.isNaN(numerator.value) || Number.isNaN(denominator.value)) return UNDEFINED;
      if (Math.abs(denominator.value) <= denominator.error * 16) return UNDEFINED;
      const value = numerator.value / denominator.value;
      const relative =
        (numerator.value === 0 ? 0 : numerator.error / Math.abs(numerator.value)) +
        denominator.error / Math.abs(denominator.value) +
        EPSILON;
      const error = numerator.value === 0 ? numerator.error / Math.abs(denominator.value) : relative * Math.abs(value);
      return result(value, error, numerator.absorbed || denominator.absorbed);
    }
    case 'negate': {
      const inner = evaluateApprox(expr.argument, env);
      return result(-inner.value, inner.error, inner.absorbed);
    }
    case 'power':
      return power(evaluateApprox(expr.base, env), evaluateApprox(expr.exponent, env));
    case 'root': {
      const inner = evaluateApprox(expr.argument, env);
      if (Number.isNaN(inner.value)) return UNDEFINED;
      if (inner.value < 0 && expr.index % 2 === 0) return UNDEFINED;
      const value = Math.sign(inner.value) * Math.pow(Math.abs(inner.value), 1 / expr.index);
      if (value === 0) return result(0, Math.pow(inner.error, 1 / expr.index), inner.absorbed);
      return lifted(value, value / (expr.index * inner.value), inner);
    }
    case 'apply':
      return applyFunction(expr.name, evaluateApprox(expr.argument, env));
    case 'log': {
      const argument = evaluateApprox(expr.argument, env);
      const base = evaluateApprox(expr.base, env);
      if (!(argument.value > 0) || !(base.value > 0) || base.value === 1) return UNDEFINED;
      const lnBase = Math.log(base.value);
      const value = Math.log(argument.value) / lnBase;
      const error =
        argument.error / (argument.value * Math.abs(lnBase)) +
        (Math.abs(value) * base.error) / (base.value * Math.abs(lnBase)) +
        LIBM * (Math.abs(value) + 1);
      return result(value, error, argument.absorbed || base.absorbed);
    }
    case 'degrees': {
      const inner = evaluateApprox(expr.argument, env);
      const value = (inner.value * Math.PI) / 180;
      return result(value, (inner.error * Math.PI) / 180 + 2 * EPSILON * Math.abs(value), inner.absorbed);
    }
  }
}

function power(base: Approx, exponent: Approx): Approx {
  if (Number.isNaN(base.value) || Number.isNaN(exponent.value)) return UNDEFINED;
  const absorbed = base.absorbed || exponent.absorbed;
  const integerExponent = exponent.error === 0 && Number.isInteger(exponent.value);
  if (base.value < 0 && !integerExponent) return UNDEFINED;
  if (base.value === 0) {
    if (exponent.value <= 0) return UNDEFINED;
    return result(0, base.error === 0 ? 0 : Math.pow(base.error, Math.min(1, exponent.value)), absorbed);
  }
  const value = Math.pow(base.value, exponent.value);
  const relative =
    (Math.abs(exponent.value) * base.error) / Math.abs(base.value) +
    Math.abs(Math.log(Math.abs(base.value))) * exponent.error +
    LIBM;
  return result(value, relative * Math.abs(value), absorbed);
}

function applyFunction(name: FunctionName, argument: Approx): Approx {
  const x = argument.value;
  if (Number.isNaN(x)) return UNDEFINED;
  switch (name) {
    case 'sin':
      return lifted(Math.sin(x), Math.cos(x), argument);
    case 'cos':
      return lifted(Math.cos(x), Math.sin(x), argument);
    case 'tan': {
      const value = Math.tan(x);
      if (Math.abs(Math.cos(x)) <= argument.error * 16) return UNDEFINED;
      return lifted(value, 1 + value * value, argument);
    }
    case 'cot': {
      if (Math.abs(Math.sin(x)) <= argument.error * 16 + LIBM) return UNDEFINED;
      const value = 1 / Math.tan(x);
      return lifted(value, 1 + value * value, argument);
    }
    case 'sec': {
      if (Math.abs(Math.cos(x)) <= argument.error * 16 + LIBM) return UNDEFINED;
      const value = 1 / Math.cos(x);
      return lifted(value, value * Math.tan(x), argument);
    }
    case 'csc': {
      if (Math.abs(Math.sin(x)) <= argument.error * 16 + LIBM) return UNDEFINED;
      const value = 1 / Math.sin(x);
      return lifted(value, value / Math.tan(x), argument);
    }
    case 'arcsin':
    case 'arccos': {
      if (Math.abs(x) > 1) return UNDEFINED;
      const slope = Math.abs(x) === 1 ? Number.POSITIVE_INFINITY : 1 / Math.sqrt(1 - x * x);
      const value = name === 'arcsin' ? Math.asin(x) : Math.acos(x);
      return argument.error === 0 ? result(value, LIBM * Math.abs(value), argument.absorbed) : lifted(value, slope, argument);
    }
    case 'arctan':
      return lifted(Math.atan(x), 1 / (1 + x * x), argument);
    case 'sinh':
      return lifted(Math.sinh(x), Math.cosh(x), argument);
    case 'cosh':
      return lifted(Math.cosh(x), Math.sinh(x), argument);
    case 'tanh':
      return lifted(Math.tanh(x), 1, argument);
    case 'ln':
      if (!(x > 0) || x <= argument.error * 16) return UNDEFINED;
      return lifted(Math.log(x), 1 / x, argument);
    case 'exp': {
      const value = Math.exp(x);
      return lifted(value, value, argument);
    }
    case 'abs':
      return result(Math.abs(x), argument.error, argument.absorbed);
    case 'factorial': {
      if (argument.error !== 0 || !Number.isInteger(x) || x < 0 || x > 170) return UNDEFINED;
      let value = 1;
      for (let k = 2; k <= x; k++) value *= k;
      return result(value, x > 18 ? EPSILON * x * value : 0, argument.absorbed);
    }
    default:
      return UNDEFINED;
  }
}

/** Exact value, or undefined when the tree leaves the rationals (π, √2, sin 1) or the numbers get too wide. */
export function evaluateExact(expr: Expr, env: ExactEnv): Rational | undefined {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'constant':
      return undefined;
    case 'variable':
      return env.get(expr.name);
    case 'add': {
      let sum: Rational | undefined = Q.ZERO;
      for (const term of expr.terms) {
        const value = evaluateExact(term, env);
        if (value === undefined || sum === undefined) return undefined;
        sum = Q.add(sum, value);
      }
      return sum;
    }
    case 'multiply': {
      let product: Rational | undefined = Q.ONE;
      for (const factor of expr.factors) {
        const value = evaluateExact(factor, env);
        if (value === undefined || product === undefined) return undefined;
        product = Q.multiply(product, value);
      }
      return product;
    }
    case 'divide': {
      const numerator = evaluateExact(expr.numerator, env);
      const denominator = evaluateExact(expr.denominator, env);
      return numerator === undefined || denominator === undefined ? undefined : Q.divide(numerator, denominator);
    }
    case 'negate': {
      const value = evaluateExact(expr.argument, env);
      return value === undefined ? undefined : Q.negate(value);
    }
    case 'power': {
      const base = evaluateExact(expr.base, env);
      const exponent = evaluateExact(expr.exponent, env);
      if (base === undefined || exponent === undefined) return undefined;
      if (exponent.d === 1n) return Q.power(base, exponent.n);
      // A rational exponent p/q: the q-th root must be exact (8^{2/3} = 4; 2^{1/2} is not rational).
      if (exponent.d > 64n || (base.n < 0n && exponent.d % 2n === 0n)) return undefined;
      const rooted = Q.root(base, Number(exponent.d));
      return rooted === undefined ? undefined : Q.power(rooted, exponent.n);
    }
    case 'root': {
      const value = evaluateExact(expr.argument, env);
      return value === undefined ? undefined : Q.root(value, expr.index);
    }
    case 'apply': {
      const value = evaluateExact(expr.argument, env);
      if (value === undefined) return undefined;
      if (expr.name === 'abs') return value.n < 0n ? Q.negate(value) : value;
      if (expr.name === 'factorial') {
        if (value.d !== 1n || value.n < 0n || value.n > 300n) return undefined;
        let product = 1n;
        for (let k = 2n; k <= value.n; k++) product *= k;
        return Q.rational(product);
      }
      // Exact values at zero only (sin 0, ln 1, …); anything else is left to the approximate check.
      if (value.n === 0n && ['sin', 'tan', 'arcsin', 'arctan', 'sinh', 'tanh'].includes(expr.name)) return Q.ZERO;
      if (value.n === 0n && ['cos', 'cosh', 'exp', 'sec'].includes(expr.name)) return Q.ONE;
      if (Q.equals(value, Q.ONE) && expr.name === 'ln') return Q.ZERO;
      return undefined;
    }
    case 'log': {
      // log_b(x) is rational when x = b^k for an integer k (log_2 8 = 3, log 0.01 = −2).
      const argument = evaluateExact(expr.argument, env);
      const base = evaluateExact(expr.base, env);
      if (argument === undefined || base === undefined || argument.n <= 0n || base.n <= 0n || Q.equals(base, Q.ONE)) {
        return undefined;
      }
      const estimate = Math.round(Math.log(Q.toNumber(argument)) / Math.log(Q.toNumber(base)));
      if (!Number.isFinite(estimate) || Math.abs(estimate) > 4096) return undefined;
      const check = Q.power(base, BigInt(estimate));
      return check !== undefined && Q.equals(check, argument) ? Q.rational(BigInt(estimate)) : undefined;
    }
    case 'degrees': {
      const value = evaluateExact(expr.argument, env);
      return value !== undefined && value.n === 0n ? Q.ZERO : undefined;
    }
  }
}
