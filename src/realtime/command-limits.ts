import { TokenBucket } from './rate-limiter.js';

export interface CommandLimit {
  capacity: number;
  refillPerSecond: number;
}

/**
 * Socket command budgets per identity (a tutoring session, a quiz player or host, a class's instructor), shared by
 * every socket of that identity on this node: 2,000 sockets opened with one session token share one bucket instead
 * of getting 2,000 budgets. Kept in process, not in the store, on purpose: every command (the quiz answer path
 * included) would otherwise pay a store round trip before its real work. Across nodes an identity gets at most one
 * budget per node, a small factor that the per-address socket cap (socket-caps.ts) bounds further. Idle identities
 * are forgotten (their bucket would be full again anyway), so the map holds only recently active ones.
 */
export class IdentityBuckets {
  private readonly buckets = new Map<string, { bucket: TokenBucket; seen: number }>();
  private sweptAt: number;
  /** After this long without a command a bucket has refilled completely: dropping it changes nothing. */
  private readonly idleMs: number;

  constructor(
    private readonly limit: CommandLimit,
    private readonly now: () => number = Date.now,
  ) {
    this.sweptAt = now();
    this.idleMs = Math.max(1_000, Math.ceil((limit.capacity / limit.refillPerSecond) * 1000));
  }

  /** Takes one command from the identity's budget; false when it is spent. */
  take(identity: string): boolean {
    const now = this.now();
    if (now - this.sweptAt > Math.max(this.idleMs, 10_000)) this.sweep(now);
    let entry = this.buckets.get(identity);
    if (!entry) {
      entry = { bucket: new TokenBucket(this.limit.capacity, this.limit.refillPerSecond, this.now), seen: now };
      this.buckets.set(identity, entry);
    }
    entry.seen = now;
    return entry.bucket.take();
  }

  /** Identities tracked right now (for tests and metrics). */
  get size(): number {
    return this.buckets.size;
  }

  private sweep(now: number): void {
    for (const [identity, entry] of this.buckets) if (now - entry.seen > this.idleMs) this.buckets.delete(identity);
    this.sweptAt = now;
  }
}
