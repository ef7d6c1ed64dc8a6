/**
 * Exact rational numbers on BigInt, for the part of the check that must not round: decimals against fractions
 * (`0.333` is not `1/3`) and rational functions at rational points. Sizes are capped so a hostile exponent cannot
 * make a number that takes seconds to multiply: anything larger is "not exact" and left to the other checks.
 */
export interface Rational {
  /** Numerator; carries the sign. */
  n: bigint;
  /** Denominator, always positive. */
  d: bigint;
}

/** Numbers wider than this (numerator or denominator, in bits) are not computed exactly. */
export const MAX_RATIONAL_BITS = 2048;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function bitLength(value: bigint): number {
  const hex = (value < 0n ? -value : value).toString(16);
  return (hex.length - 1) * 4 + Number.parseInt(hex[0] ?? '0', 16).toString(2).length;
}

/** A reduced rational, or undefined when the denominator is zero or the result is too wide. */
export function rational(n: bigint, d: bigint = 1n): Rational | undefined {
  if (d === 0n) return undefined;
  const g = gcd(n, d);
  let num = g === 0n ? n : n / g;
  let den = g === 0n ? d : d / g;
  if (den < 0n) [num, den] = [-num, -den];
  if (bitLength(num) > MAX_RATIONAL_BITS || bitLength(den) > MAX_RATIONAL_BITS) return undefined;
  return { n: num, d: den };
}

export const ZERO: Rational = { n: 0n, d: 1n };
export const ONE: Rational = { n: 1n, d: 1n };

export function add(a: Rational, b: Rational): Rational | undefined {
  return rational(a.n * b.d + b.n * a.d, a.d * b.d);
}

export function multiply(a: Rational, b: Rational): Rational | undefined {
  return rational(a.n * b.n, a.d * b.d);
}

export function divide(a: Rational, b: Rational): Rational | undefined {
  return rational(a.n * b.d, a.d * b.n);
}

export function negate(a: Rational): Rational {
  return { n: -a.n, d: a.d };
}

export function equals(a: Rational, b: Rational): boolean {
  return a.n === b.n && a.d === b.d;
}

export function isInteger(a: Rational): boolean {
  return a.d === 1n;
}

/** a^k for an integer k (|k| ≤ 4096), undefined for 0^negative or a result past the size cap. */
export function power(a: Rational, k: bigint): Rational | undefined {
  if (k > 4096n || k < -4096n) return undefined;
  if (k < 0n) {
    if (a.n === 0n) return undefined;
    return powerPositive(rational(a.d, a.n), -k);
  }
  return powerPositive(a, k);
}

function powerPositive(a: Rational | undefined, k: bigint): Rational | undefined {
  if (a === undefined) return undefined;
  if (k === 0n) return ONE;
  const bits = Math.max(bitLength(a.n), bitLength(a.d)) - 1;
  if (bits * Number(k) > MAX_RATIONAL_BITS) return undefined;
  return rational(a.n ** k, a.d ** k);
}

/** The exact integer k-th root of a non-negative integer, or undefined when it is not a perfect power. */
function integerRoot(value: bigint, k: number): bigint | undefined {
  if (value < 0n) return undefined;
  if (value < 2n) return value;
  const estimate = BigInt(Math.round(Math.pow(Number(value), 1 / k)));
  for (const candidate of [estimate - 1n, estimate, estimate + 1n]) {
    if (candidate >= 0n && candidate ** BigInt(k) === value) return candidate;
  }
  return undefined;
}

/**
 * The exact k-th root of a rational when both parts are perfect powers (√(9/4) = 3/2); odd roots of negatives
 * are negative. Undefined otherwise (√2 is not rational) and for numbers too wide to estimate in a double.
 */
export function root(a: Rational, k: number): Rational | undefined {
  if (!Number.isInteger(k) || k < 2 || k > 64) return undefined;
  if (bitLength(a.n) > 900 || bitLength(a.d) > 900) return undefined;
  const negative = a.n < 0n;
  if (negative && k % 2 === 0) return undefined;
  const n = integerRoot(negative ? -a.n : a.n, k);
  const d = integerRoot(a.d, k);
  if (n === undefined || d === undefined) return undefined;
  return rational(negative ? -n : n, d);
}

export function toNumber(a: Rational): number {
  const value = Number(a.n) / Number(a.d);
  if (Number.isFinite(value)) return value;
  // Both parts beyond the double range: scale them down together.
  const shift = BigInt(Math.max(bitLength(a.n), bitLength(a.d)) - 1000);
  return Number(a.n >> shift) / Number(a.d >> shift);
}

/**
 * A decimal literal as written (`0.333`, `1.50`, `1.5e3`, `-2`, `0.(3)` for a repeating part) as an exact
 * rational; undefined for anything else.
 */
export function parseDecimal(text: string): Rational | undefined {
  const match = /^([+-]?)(\d*)(?:\.(\d*)(?:\((\d+)\))?)?(?:e([+-]?\d{1,4}))?$/i.exec(text.trim());
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', repeating, exponent] = match;
  if (whole === '' && fraction === '' && repeating === undefined) return undefined;
  let value = rational(BigInt(`${whole || '0'}${fraction}`), 10n ** BigInt(fraction.length));
  if (value === undefined) return undefined;
  if (repeating !== undefined) {
    // 0.1(6): the repeating block adds block / (10^len(fraction) · (10^len(block) − 1)).
    const block = rational(BigInt(repeating), 10n ** BigInt(fraction.length) * (10n ** BigInt(repeating.length) - 1n));
    value = block === undefined ? undefined : add(value, block);
  }
  if (value !== undefined && exponent !== undefined) {
    const scale = power({ n: 10n, d: 1n }, BigInt(exponent));
    value = scale === undefined ? undefined : multiply(value, scale);
  }
  if (value === undefined) return undefined;
  return sign === '-' ? negate(value) : value;
}
