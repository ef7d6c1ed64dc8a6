import type { ClientRateLimitInfo, Options, Store as RateLimitStore } from 'express-rate-limit';
import type { Store } from '../store/index.js';
import { limitKeys } from './limit-keys.js';

/**
 * express-rate-limit's Store over our own Store: one atomic `incr` with a TTL per hit, in fixed windows whose number
 * is part of the key (`lectern:rate:<name>:<client>:<window>`). We chose this over rate-limit-redis because our
 * Store already is the one place that talks to Redis (its own connection, key prefix, STORE_UNAVAILABLE mapping and
 * outage handling) and the same adapter then runs unchanged on the memory store of a single node; rate-limit-redis
 * would need a second raw ioredis client and a memory fallback of its own. Because the window is in the key, a
 * TTL refreshed by every hit never stretches a window, and `resetTime` is exact on every node. The clock is
 * injected so tests never wait.
 */
export class StoreRateLimitStore implements RateLimitStore {
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs = 60_000;

  constructor(
    private readonly store: Store,
    private readonly name: string,
    private readonly now: () => number = Date.now,
  ) {
    this.prefix = `${name}:`;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  private window(): { key: (client: string) => string; resetTime: Date } {
    const index = Math.floor(this.now() / this.windowMs);
    return { key: (client) => limitKeys.rateLimit(this.name, client, index), resetTime: new Date((index + 1) * this.windowMs) };
  }

  async get(client: string): Promise<ClientRateLimitInfo | undefined> {
    const { key, resetTime } = this.window();
    const value = await this.store.get(key(client));
    return value === null ? undefined : { totalHits: Number(value), resetTime };
  }

  async increment(client: string): Promise<ClientRateLimitInfo> {
    const { key, resetTime } = this.window();
    const totalHits = await this.store.incr(key(client), 1, { ttlMs: this.windowMs });
    return { totalHits, resetTime };
  }

  async decrement(client: string): Promise<void> {
    const { key } = this.window();
    await this.store.incr(key(client), -1, { ttlMs: this.windowMs });
  }

  async resetKey(client: string): Promise<void> {
    const { key } = this.window();
    await this.store.del(key(client));
  }
}
