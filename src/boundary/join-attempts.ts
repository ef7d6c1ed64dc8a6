import type { RateLimitConfig } from '../kernel/index.js';
import { RateLimitedError } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { limitKeys } from './limit-keys.js';

/**
 * A failed guess: the code names no class or room (404), or one that ended (410). A malformed body (400) or a taken
 * nickname (409) is a typo, not a guess, and costs only the attempt.
 */
export function isWrongCode(status: number): boolean {
  return status === 404 || status === 410;
}

export interface JoinAttempt {
  /** The code was wrong (or the join refused): charge the rest of a failure's cost. */
  failed(): Promise<void>;
}

/**
 * Join attempts with a class or room code, per client address, in the store (shared by every node): a token bucket
 * holding a burst of `points`, refilled at `points` per `windowMs`. An attempt takes one token and a failed one
 * `failureCost` in all (the rest is taken even when short, as a debt), so a lecture hall behind one NAT joins in a
 * burst and then at a steady rate, while guessing codes runs dry after a few dozen wrong ones. A refused attempt
 * takes nothing, so a page that retries after `Retry-After` does not push its own turn further away. Refusals are
 * 429 RATE_LIMITED with the seconds until a token is back.
 */
export class JoinAttempts {
  constructor(
    private readonly store: Store,
    private readonly limit: RateLimitConfig['join'],
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Starts an attempt costing `cost` tokens (1 for a join; 0 for a class's name list, which needs a token to be there
   * but takes none: a student asks for it right before joining, and only the join counts). Refused with RATE_LIMITED
   * while the bucket holds less than one token.
   */
  async begin(address: string, cost = 1): Promise<JoinAttempt> {
    const key = limitKeys.joinBucket(address);
    const bucket = { capacity: this.limit.points, refillPerSecond: (this.limit.points * 1000) / this.limit.windowMs };
    const result = await this.store.takeTokens(key, { ...bucket, cost, now: Math.floor(this.now()) });
    const before = result.taken ? result.tokens + cost : result.tokens;
    if (before < 1) {
      const seconds = Math.max(1, Math.ceil((1 - before) / bucket.refillPerSecond));
      throw new RateLimitedError(seconds, `입장 시도가 너무 많습니다. ${seconds}초 후에 다시 시도해 주세요.`);
    }
    return {
      failed: async () => {
        const rest = this.limit.failureCost - cost;
        if (rest > 0) await this.store.takeTokens(key, { ...bucket, cost: rest, force: true, now: Math.floor(this.now()) });
      },
    };
  }
}
