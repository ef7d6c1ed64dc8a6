/**
 * The store: a small set of primitives that every piece of shared state is built from. Two implementations
 * satisfy it — memory (one process, the default) and Redis (several nodes) — and one contract suite
 * (test/store-contract.ts) runs the same cases against both.
 *
 * Every method may reject with StoreUnavailableError (code STORE_UNAVAILABLE) when the backing service cannot be
 * reached; callers never see driver-specific errors. Keys are built with ./keys.ts's `storeKey` only.
 */

export interface SetOptions {
  /** Expire the key after this many milliseconds. */
  ttlMs?: number;
  /** Only set when the key does not exist yet (first write wins). */
  nx?: boolean;
}

/**
 * Options of a write that may create its key. `ttlMs` (re)sets the key's TTL in the same atomic step as the write
 * (one Lua script on Redis, one synchronous step in memory), whatever the write's outcome (an HSETNX that finds its
 * field still refreshes the TTL): an ephemeral key never exists without its TTL, not even after a failure between
 * two commands. Without it an existing TTL is kept and a new key has none.
 */
export interface WriteOptions {
  ttlMs?: number;
}

export interface XaddOptions extends WriteOptions {
  /** Trims old entries approximately (`MAXLEN ~`). */
  maxLen?: number;
}

export interface StreamEntry {
  /** Monotonic id, comparable as `${ms}-${seq}` (Redis stream id format in both implementations). */
  id: string;
  fields: Record<string, string>;
}

export interface TailOptions {
  /** Stop tailing when this aborts; the iterator then ends without error. */
  signal?: AbortSignal;
  /** Entries per read. */
  count?: number;
}

export interface ScoredMember {
  member: string;
  score: number;
}

export type HsetnxUnlessResult = 'set' | 'exists' | 'guarded';

export interface TakeTokensOptions {
  /** The bucket's size: what an idle key holds (a burst). */
  capacity: number;
  /** Tokens added back per second, up to `capacity`. */
  refillPerSecond: number;
  /** Tokens this call takes (1 when unset). */
  cost?: number;
  /** The caller's clock (ms): refills are computed from it (a bucket never refills backwards when clocks differ). */
  now: number;
  /** Take even when short: the level goes below zero, a debt that refills pay back first. */
  force?: boolean;
}

export interface TakeTokensResult {
  taken: boolean;
  /** The level after this call (fractional; negative after a forced take). */
  tokens: number;
}

export interface Store {
  readonly kind: 'memory' | 'redis';

  // strings
  get(key: string): Promise<string | null>;
  /** Returns false only when `nx` was asked and the key already existed. */
  set(key: string, value: string, options?: SetOptions): Promise<boolean>;
  /** Atomic integer increment; creates the key at 0 first. */
  incr(key: string, by?: number, options?: WriteOptions): Promise<number>;
  /** Many strings in one round trip, in the order asked; null for a missing key (or one that is not a string). */
  mget(keys: readonly string[]): Promise<(string | null)[]>;
  getBytes(key: string): Promise<Buffer | null>;
  setBytes(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean>;
  del(...keys: string[]): Promise<number>;
  exists(key: string): Promise<boolean>;
  /** Sets a TTL on an existing key; false when the key does not exist. */
  expire(key: string, ttlMs: number): Promise<boolean>;
  /** Remaining TTL in ms; -1 when the key has none, -2 when it does not exist. */
  pttl(key: string): Promise<number>;

  // hashes
  hget(key: string, field: string): Promise<string | null>;
  /** Several fields of one hash in one round trip, in the order asked; null for a missing field. */
  hmget(key: string, fields: readonly string[]): Promise<(string | null)[]>;
  hset(key: string, fields: Record<string, string>, options?: WriteOptions): Promise<void>;
  /** First write wins: returns false (and changes nothing but the TTL asked for) when the field already exists. */
  hsetnx(key: string, field: string, value: string, options?: WriteOptions): Promise<boolean>;
  /**
   * HSETNX unless `guard` is already a field of the hash, atomically: 'set' (written), 'exists' (field was there;
   * nothing changed) or 'guarded' (the guard field exists; nothing written). A quiz question's close writes the
   * guard, so an answer is either recorded before the close (and counted) or refused; never both.
   */
  hsetnxUnless(key: string, field: string, value: string, guard: string, options?: WriteOptions): Promise<HsetnxUnlessResult>;
  /**
   * HSET unless one of the `guards` is already a field of the hash, atomically: true when written, false (nothing
   * written) when guarded. An exam's close (or a submission) writes the guard before it reads the drafts, so a draft
   * is either saved before it (and read) or refused; never acknowledged and then missed.
   */
  hsetUnless(key: string, fields: Record<string, string>, guards: readonly string[], options?: WriteOptions): Promise<boolean>;
  hincrby(key: string, field: string, by: number, options?: WriteOptions): Promise<number>;
  hgetall(key: string): Promise<Record<string, string>>;
  /** Many whole hashes in one round trip (a pipeline), in the order asked; `{}` for a missing key. */
  hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]>;
  hdel(key: string, ...fields: string[]): Promise<number>;
  hlen(key: string): Promise<number>;

  // sorted sets (equal scores order by member, as in Redis)
  zadd(key: string, score: number, member: string, options?: WriteOptions): Promise<void>;
  zincrby(key: string, by: number, member: string, options?: WriteOptions): Promise<number>;
  zscore(key: string, member: string): Promise<number | null>;
  zrem(key: string, ...members: string[]): Promise<number>;
  zcard(key: string): Promise<number>;
  /** Members by rank, inclusive, negative indexes from the end; `reverse` ranks highest score first. */
  zrange(key: string, start: number, stop: number, options?: { reverse?: boolean }): Promise<ScoredMember[]>;
  /** 0-based rank, or null when absent; `reverse` ranks highest score first. */
  zrank(key: string, member: string, options?: { reverse?: boolean }): Promise<number | null>;

  // append-only streams
  /** Appends an entry and returns its id. `maxLen` trims old entries approximately. */
  xadd(key: string, fields: Record<string, string>, options?: XaddOptions): Promise<string>;
  /** Entries with id strictly greater than `afterId` ('0' for all), oldest first. */
  xread(key: string, afterId: string, count?: number): Promise<StreamEntry[]>;
  xlen(key: string): Promise<number>;
  /**
   * Yields every entry after `afterId`, then waits for new ones until the signal aborts. The Redis implementation
   * shares one subscriber connection per store for all tails (no connection per tail), so thousands of tails are cheap.
   */
  xtail(key: string, afterId: string, options?: TailOptions): AsyncIterable<StreamEntry>;

  // token buckets: one hash per key, expiring once it would be full again (an absent key is a full bucket)
  /** Refills the bucket at `key` for the time since its last use, then takes `cost` tokens if it holds them, atomically. */
  takeTokens(key: string, options: TakeTokensOptions): Promise<TakeTokensResult>;

  // leases: a key owned by one holder until it expires; renew/release only by the owner
  acquireLease(key: string, owner: string, ttlMs: number): Promise<boolean>;
  renewLease(key: string, owner: string, ttlMs: number): Promise<boolean>;
  releaseLease(key: string, owner: string): Promise<boolean>;
  leaseOwner(key: string): Promise<string | null>;

  /** Resolves when the backing service answers; rejects with StoreUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
