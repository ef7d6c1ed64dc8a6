import type { TakeTokensOptions, TakeTokensResult } from './store.js';

/** A bucket's stored state: its level and the caller's clock when it was last used. */
export interface BucketState {
  tokens: number;
  at: number;
}

/**
 * One `takeTokens` step on a bucket (the memory store's; redis-store.ts runs the same steps in Lua): refill for the
 * time since `at` (never backwards), then take `cost` if the level holds it, or always when `force`. `ttlMs` is how
 * long until the bucket is full again, after which the key may vanish (an absent key is a full bucket).
 */
export function takeFromBucket(state: BucketState | undefined, options: TakeTokensOptions): TakeTokensResult & { state: BucketState; ttlMs: number } {
  const { capacity, refillPerSecond, now } = options;
  const cost = options.cost ?? 1;
  const perMs = refillPerSecond / 1000;
  let tokens = state?.tokens ?? capacity;
  let at = state?.at ?? now;
  if (now > at) {
    tokens = Math.min(capacity, tokens + (now - at) * perMs);
    at = now;
  }
  const taken = options.force === true || tokens >= cost;
  if (taken) tokens -= cost;
  return { taken, tokens, state: { tokens, at }, ttlMs: Math.ceil((capacity - tokens) / perMs) };
}

/** Rejects options no bucket can honour (the Redis script would otherwise divide by zero or never refill). */
export function checkBucketOptions(options: TakeTokensOptions): void {
  const { capacity, refillPerSecond, now } = options;
  const cost = options.cost ?? 1;
  if (!(capacity > 0) || !(refillPerSecond > 0) || !(cost >= 0) || !Number.isFinite(capacity + refillPerSecond + cost) || !Number.isInteger(now)) {
    throw new RangeError('takeTokens: capacity and refillPerSecond must be positive, cost non-negative, now an integer (ms)');
  }
}
