import type { RequestHandler } from 'express';
import type { RateLimitConfig } from '../config.js';
import { RateLimitedError } from '../errors.js';
import { keys, type Store } from '../store/index.js';
import { requestAddress } from './rate-limit.js';

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
 * Join attempts with a class or room code, per client address, in the store (shared by every node): each attempt
 * takes one point from a budget of `points` per fixed window and a failed one `failureCost` in all, so a classroom
 * behind one NAT joins freely while guessing codes runs dry after a few dozen wrong ones a minute. Refusals are 429
 * RATE_LIMITED with the seconds until the window turns.
 */
export class JoinAttempts {
  constructor(
    private readonly store: Store,
    private readonly limit: RateLimitConfig['join'],
    private readonly now: () => number = Date.now,
  ) {}

  async begin(address: string): Promise<JoinAttempt> {
    const index = Math.floor(this.now() / this.limit.windowMs);
    const key = keys.rateLimit('join', address, index);
    const ttlMs = this.limit.windowMs;
    const used = await this.store.incr(key, 1, { ttlMs });
    if (used > this.limit.points) {
      const seconds = Math.max(1, Math.ceil(((index + 1) * this.limit.windowMs - this.now()) / 1000));
      throw new RateLimitedError(seconds, `입장 시도가 너무 많습니다. ${seconds}초 후에 다시 시도해 주세요.`);
    }
    return {
      failed: async () => {
        if (this.limit.failureCost > 1) await this.store.incr(key, this.limit.failureCost - 1, { ttlMs });
      },
    };
  }
}

/**
 * Express middleware for a join route: one attempt per request, a failure when the code was wrong
 * ({@link isWrongCode}). `applies` picks the requests that are joins (POST /api/sessions only with a class code).
 */
export function joinAttemptGuard(attempts: JoinAttempts, applies: (body: unknown) => boolean = () => true): RequestHandler {
  return (request, response, next) => {
    if (!applies(request.body)) return next();
    attempts.begin(requestAddress(request)).then(
      (attempt) => {
        response.on('finish', () => {
          if (isWrongCode(response.statusCode)) {
            // The answer is already sent; a store failure here only loses one charge.
            attempt.failed().catch(() => undefined);
          }
        });
        next();
      },
      (error: unknown) => next(error),
    );
  };
}
