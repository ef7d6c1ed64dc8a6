/**
 * Argument checks both store implementations apply before touching data, so a bad argument fails the same way (a
 * RangeError naming the operation) on memory and on Redis, never as a driver error or a silent rounding.
 */

export function requireInteger(value: number, operation: string): void {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${operation}: expected a safe integer, got ${value}`);
}

export function requireScore(value: number, operation: string): void {
  if (Number.isNaN(value)) throw new RangeError(`${operation}: score is NaN`);
}

export function requireCount(value: number, operation: string, minimum: number): void {
  if (!Number.isSafeInteger(value) || value < minimum) {
    throw new RangeError(`${operation}: expected an integer >= ${minimum}, got ${value}`);
  }
}

/** TTLs must be positive; fractions round up so a key never lives shorter than asked. */
export function requireTtl(ttlMs: number, operation: string): number {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`${operation}: ttlMs must be > 0, got ${ttlMs}`);
  return Math.ceil(ttlMs);
}

/** The checked TTL of a write's options, or undefined when none was asked (checked before anything is written). */
export function optionalTtl(options: { ttlMs?: number } | undefined, operation: string): number | undefined {
  return options?.ttlMs === undefined ? undefined : requireTtl(options.ttlMs, operation);
}
