import type { HsetnxUnlessResult, ScoredMember, SetOptions, Store, StreamEntry, TailOptions, TakeTokensOptions, TakeTokensResult, WriteOptions, XaddOptions } from './store.js';
import { checkBucketOptions, takeFromBucket } from './token-bucket.js';
import { optionalTtl, requireInteger, requireScore, requireCount, requireTtl } from './arguments.js';

/**
 * The one-process store (the default when no REDIS_URL is set). It follows Redis semantics wherever callers could
 * notice a difference — one key space for all types, WRONGTYPE errors, TTLs cleared by SET, empty hashes and sorted
 * sets vanishing, `${ms}-${seq}` stream ids, ties ordered by member bytes — so code tested here behaves the same on
 * Redis. The contract suite (test/store-contract.ts) pins exactly those points.
 */

export interface MemoryStoreOptions {
  /** How often expired keys are swept; lookups also check expiry lazily, the sweep only bounds memory. */
  sweepIntervalMs?: number;
  /** Wall clock in ms; stream ids and TTLs are derived from it. */
  clock?: () => number;
}

type Value =
  | { type: 'string'; data: string | Buffer }
  | { type: 'hash'; data: Map<string, string> }
  | { type: 'zset'; data: SortedSet }
  | { type: 'stream'; data: StreamLog };

type ValueOf<T extends Value['type']> = Extract<Value, { type: T }>;

interface Slot {
  value: Value;
  /** Absolute expiry in clock ms, or null when the key lives until deleted. */
  expiresAt: number | null;
}

const DEFAULT_SWEEP_INTERVAL_MS = 1_000;
const DEFAULT_TAIL_COUNT = 100;

export class MemoryStore implements Store {
  readonly kind = 'memory' as const;

  private readonly slots = new Map<string, Slot>();
  /** Keys that carry a TTL, so the sweep never walks keys that cannot expire. */
  private readonly expiring = new Set<string>();
  /** Tails blocked on a stream key, woken by xadd (a Set per key rather than EventEmitter listeners: no max-listener limit). */
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly clock: () => number;
  private readonly sweepTimer: NodeJS.Timeout;
  private closed = false;

  constructor(options: MemoryStoreOptions = {}) {
    this.clock = options.clock ?? Date.now;
    this.sweepTimer = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    // The sweep must never keep a process (or a test worker) alive on its own.
    this.sweepTimer.unref();
  }

  /**
   * Every live key starting with `prefix`, like SCAN MATCH prefix* on Redis (no ordering). For inspection only (the
   * deletion tests' leftover scan): O(keys), never called on a request path.
   */
  keysWithPrefix(prefix: string): string[] {
    return [...this.slots.keys()].filter((key) => key.startsWith(prefix) && this.live(key) !== undefined);
  }

  // strings

  async get(key: string): Promise<string | null> {
    const value = this.read(key, 'string');
    if (!value) return null;
    return typeof value.data === 'string' ? value.data : value.data.toString('utf8');
  }

  async set(key: string, value: string, options: SetOptions = {}): Promise<boolean> {
    return this.setString(key, value, options);
  }

  async incr(key: string, by = 1, options?: WriteOptions): Promise<number> {
    requireInteger(by, 'incr');
    const ttl = optionalTtl(options, 'incr');
    const value = this.read(key, 'string');
    const next = checkedAdd(value ? parseInteger(stringData(value)) : 0, by);
    // INCR keeps an existing TTL, as in Redis: change the value in place rather than replacing the slot.
    if (value) value.data = String(next);
    else this.slots.set(key, { value: { type: 'string', data: String(next) }, expiresAt: null });
    this.applyTtl(key, ttl);
    return next;
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    return keys.map((key) => {
      const slot = this.live(key);
      // Like MGET: a key of another type reads as missing rather than failing the whole batch.
      return slot?.value.type === 'string' ? stringData(slot.value) : null;
    });
  }

  async getBytes(key: string): Promise<Buffer | null> {
    const value = this.read(key, 'string');
    if (!value) return null;
    // Copy out: the caller may mutate what it gets back.
    return typeof value.data === 'string' ? Buffer.from(value.data, 'utf8') : Buffer.from(value.data);
  }

  async setBytes(key: string, value: Uint8Array, options: SetOptions = {}): Promise<boolean> {
    // Copy in: the caller may reuse its buffer after the call.
    return this.setString(key, Buffer.from(value), options);
  }

  async del(...keys: string[]): Promise<number> {
    let removed = 0;
    for (const key of keys) {
      if (this.live(key)) {
        this.remove(key);
        removed += 1;
      }
    }
    return removed;
  }

  async exists(key: string): Promise<boolean> {
    return this.live(key) !== undefined;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    if (!Number.isFinite(ttlMs)) throw new RangeError(`expire: ttlMs must be finite, got ${ttlMs}`);
    const slot = this.live(key);
    if (!slot) return false;
    // Like PEXPIRE: a TTL that is already over deletes the key.
    if (ttlMs <= 0) this.remove(key);
    else this.setExpiry(key, slot, this.clock() + Math.ceil(ttlMs));
    return true;
  }

  async pttl(key: string): Promise<number> {
    const slot = this.live(key);
    if (!slot) return -2;
    if (slot.expiresAt === null) return -1;
    return slot.expiresAt - this.clock();
  }

  // hashes

  async hget(key: string, field: string): Promise<string | null> {
    return this.read(key, 'hash')?.data.get(field) ?? null;
  }

  async hmget(key: string, fields: readonly string[]): Promise<(string | null)[]> {
    const hash = this.read(key, 'hash');
    return fields.map((field) => hash?.data.get(field) ?? null);
  }

  async hset(key: string, fields: Record<string, string>, options?: WriteOptions): Promise<void> {
    const ttl = optionalTtl(options, 'hset');
    const entries = Object.entries(fields);
    if (entries.length === 0) return;
    const hash = this.write(key, 'hash', () => ({ type: 'hash', data: new Map() }));
    for (const [field, value] of entries) hash.data.set(field, value);
    this.applyTtl(key, ttl);
  }

  async hsetnx(key: string, field: string, value: string, options?: WriteOptions): Promise<boolean> {
    const ttl = optionalTtl(options, 'hsetnx');
    const hash = this.write(key, 'hash', () => ({ type: 'hash', data: new Map() }));
    const written = !hash.data.has(field);
    if (written) hash.data.set(field, value);
    this.applyTtl(key, ttl);
    return written;
  }

  async hsetnxUnless(key: string, field: string, value: string, guard: string, options?: WriteOptions): Promise<HsetnxUnlessResult> {
    const ttl = optionalTtl(options, 'hsetnxUnless');
    const existing = this.read(key, 'hash')?.data;
    let result: HsetnxUnlessResult = 'set';
    if (existing?.has(guard)) result = 'guarded';
    else if (existing?.has(field)) result = 'exists';
    else this.write(key, 'hash', () => ({ type: 'hash', data: new Map() })).data.set(field, value);
    this.applyTtl(key, ttl);
    return result;
  }

  async hsetUnless(key: string, fields: Record<string, string>, guards: readonly string[], options?: WriteOptions): Promise<boolean> {
    const ttl = optionalTtl(options, 'hsetUnless');
    const existing = this.read(key, 'hash')?.data;
    const guarded = guards.some((guard) => existing?.has(guard) === true);
    const entries = Object.entries(fields);
    if (!guarded && entries.length > 0) {
      const hash = this.write(key, 'hash', () => ({ type: 'hash', data: new Map() }));
      for (const [field, value] of entries) hash.data.set(field, value);
    }
    this.applyTtl(key, ttl);
    return !guarded;
  }

  async hincrby(key: string, field: string, by: number, options?: WriteOptions): Promise<number> {
    requireInteger(by, 'hincrby');
    const ttl = optionalTtl(options, 'hincrby');
    const existing = this.read(key, 'hash')?.data.get(field);
    const next = checkedAdd(existing === undefined ? 0 : parseInteger(existing), by);
    this.write(key, 'hash', () => ({ type: 'hash', data: new Map() })).data.set(field, String(next));
    this.applyTtl(key, ttl);
    return next;
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    const hash = this.read(key, 'hash');
    return hash ? Object.fromEntries(hash.data) : {};
  }

  async hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]> {
    return Promise.all(keys.map((key) => this.hgetall(key)));
  }

  async hdel(key: string, ...fields: string[]): Promise<number> {
    const hash = this.read(key, 'hash');
    if (!hash) return 0;
    let removed = 0;
    for (const field of fields) if (hash.data.delete(field)) removed += 1;
    // Redis removes a hash with no fields left; exists() must agree.
    if (hash.data.size === 0) this.remove(key);
    return removed;
  }

  async hlen(key: string): Promise<number> {
    return this.read(key, 'hash')?.data.size ?? 0;
  }

  // sorted sets

  async zadd(key: string, score: number, member: string, options?: WriteOptions): Promise<void> {
    requireScore(score, 'zadd');
    const ttl = optionalTtl(options, 'zadd');
    this.write(key, 'zset', () => ({ type: 'zset', data: new SortedSet() })).data.set(member, score);
    this.applyTtl(key, ttl);
  }

  async zincrby(key: string, by: number, member: string, options?: WriteOptions): Promise<number> {
    requireScore(by, 'zincrby');
    const ttl = optionalTtl(options, 'zincrby');
    const zset = this.write(key, 'zset', () => ({ type: 'zset', data: new SortedSet() })).data;
    const next = (zset.score(member) ?? 0) + by;
    if (Number.isNaN(next)) throw new Error('ERR resulting score is not a number (NaN)');
    zset.set(member, next);
    this.applyTtl(key, ttl);
    return next;
  }

  async zscore(key: string, member: string): Promise<number | null> {
    return this.read(key, 'zset')?.data.score(member) ?? null;
  }

  async zrem(key: string, ...members: string[]): Promise<number> {
    const zset = this.read(key, 'zset');
    if (!zset) return 0;
    let removed = 0;
    for (const member of members) if (zset.data.delete(member)) removed += 1;
    if (zset.data.size === 0) this.remove(key);
    return removed;
  }

  async zcard(key: string): Promise<number> {
    return this.read(key, 'zset')?.data.size ?? 0;
  }

  async zrange(key: string, start: number, stop: number, options: { reverse?: boolean } = {}): Promise<ScoredMember[]> {
    return this.read(key, 'zset')?.data.range(start, stop, options.reverse === true) ?? [];
  }

  async zrank(key: string, member: string, options: { reverse?: boolean } = {}): Promise<number | null> {
    return this.read(key, 'zset')?.data.rank(member, options.reverse === true) ?? null;
  }

  // streams

  async xadd(key: string, fields: Record<string, string>, options: XaddOptions = {}): Promise<string> {
    if (Object.keys(fields).length === 0) throw new RangeError('xadd: an entry needs at least one field');
    if (options.maxLen !== undefined) requireCount(options.maxLen, 'xadd maxLen', 0);
    const ttl = optionalTtl(options, 'xadd');
    const stream = this.write(key, 'stream', () => ({ type: 'stream', data: new StreamLog() })).data;
    const id = stream.append(this.clock(), { ...fields }, options.maxLen);
    this.applyTtl(key, ttl);
    this.wake(key);
    return id;
  }

  async xread(key: string, afterId: string, count?: number): Promise<StreamEntry[]> {
    if (count !== undefined) requireCount(count, 'xread count', 1);
    return this.readStream(key, afterId, count);
  }

  async xlen(key: string): Promise<number> {
    return this.read(key, 'stream')?.data.length ?? 0;
  }

  async *xtail(key: string, afterId: string, options: TailOptions = {}): AsyncIterable<StreamEntry> {
    const { signal } = options;
    const count = options.count ?? DEFAULT_TAIL_COUNT;
    requireCount(count, 'xtail count', 1);
    parseStreamId(afterId);
    let lastId = afterId;
    while (!signal?.aborted && !this.closed) {
      // Read and (if empty) register the waiter in the same synchronous step: no xadd can slip in between.
      const entries = this.readStream(key, lastId, count);
      if (entries.length === 0) {
        await this.nextAppend(key, signal);
        continue;
      }
      for (const entry of entries) {
        if (signal?.aborted || this.closed) return;
        lastId = entry.id;
        yield entry;
      }
    }
  }

  // token buckets

  async takeTokens(key: string, options: TakeTokensOptions): Promise<TakeTokensResult> {
    checkBucketOptions(options);
    const hash = this.read(key, 'hash')?.data;
    const tokens = Number(hash?.get('tokens'));
    const at = Number(hash?.get('at'));
    const state = hash && Number.isFinite(tokens) && Number.isFinite(at) ? { tokens, at } : undefined;
    const result = takeFromBucket(state, options);
    if (result.ttlMs < 1) {
      this.remove(key);
    } else {
      const data = this.write(key, 'hash', () => ({ type: 'hash', data: new Map() })).data;
      data.set('tokens', String(result.state.tokens));
      data.set('at', String(result.state.at));
      this.applyTtl(key, result.ttlMs);
    }
    return { taken: result.taken, tokens: result.tokens };
  }

  // leases

  async acquireLease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.setString(key, owner, { ttlMs, nx: true });
  }

  async renewLease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = requireTtl(ttlMs, 'renewLease');
    const slot = this.live(key);
    if (!slot || slot.value.type !== 'string' || stringData(slot.value) !== owner) return false;
    this.setExpiry(key, slot, this.clock() + ttl);
    return true;
  }

  async releaseLease(key: string, owner: string): Promise<boolean> {
    const slot = this.live(key);
    if (!slot || slot.value.type !== 'string' || stringData(slot.value) !== owner) return false;
    this.remove(key);
    return true;
  }

  async leaseOwner(key: string): Promise<string | null> {
    return this.get(key);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweepTimer);
    // Blocked tails end (without error) instead of hanging forever.
    for (const key of [...this.waiters.keys()]) this.wake(key);
  }

  // internals

  private setString(key: string, data: string | Buffer, options: SetOptions): boolean {
    const expiresAt = options.ttlMs === undefined ? null : this.clock() + requireTtl(options.ttlMs, 'set');
    if (options.nx && this.live(key)) return false;
    // SET replaces any type and clears an old TTL unless a new one is given, as in Redis.
    const slot: Slot = { value: { type: 'string', data }, expiresAt: null };
    this.slots.set(key, slot);
    this.setExpiry(key, slot, expiresAt);
    return true;
  }

  /** Gives a key that was just written the TTL its write asked for (in the same synchronous step as the write). */
  private applyTtl(key: string, ttlMs: number | undefined): void {
    if (ttlMs === undefined) return;
    const slot = this.live(key);
    if (slot) this.setExpiry(key, slot, this.clock() + ttlMs);
  }

  /** The slot when the key exists and has not expired; expired keys are deleted on the way. */
  private live(key: string): Slot | undefined {
    const slot = this.slots.get(key);
    if (slot && slot.expiresAt !== null && slot.expiresAt <= this.clock()) {
      this.remove(key);
      return undefined;
    }
    return slot;
  }

  private read<T extends Value['type']>(key: string, type: T): ValueOf<T> | undefined {
    const slot = this.live(key);
    if (!slot) return undefined;
    if (slot.value.type !== type) throw wrongType();
    return slot.value as ValueOf<T>;
  }

  private write<T extends Value['type']>(key: string, type: T, create: () => ValueOf<T>): ValueOf<T> {
    const existing = this.read(key, type);
    if (existing) return existing;
    const value = create();
    this.slots.set(key, { value, expiresAt: null });
    return value;
  }

  private setExpiry(key: string, slot: Slot, expiresAt: number | null): void {
    slot.expiresAt = expiresAt;
    if (expiresAt === null) this.expiring.delete(key);
    else this.expiring.add(key);
  }

  private remove(key: string): void {
    this.slots.delete(key);
    this.expiring.delete(key);
  }

  private sweep(): void {
    for (const key of this.expiring) this.live(key);
  }

  private readStream(key: string, afterId: string, count: number | undefined): StreamEntry[] {
    const after = parseStreamId(afterId);
    return this.read(key, 'stream')?.data.after(after, count) ?? [];
  }

  private nextAppend(key: string, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      let waiters = this.waiters.get(key);
      if (!waiters) {
        waiters = new Set();
        this.waiters.set(key, waiters);
      }
      const set = waiters;
      const done = () => {
        set.delete(done);
        if (set.size === 0 && this.waiters.get(key) === set) this.waiters.delete(key);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      set.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  private wake(key: string): void {
    const waiters = this.waiters.get(key);
    if (!waiters) return;
    // Copy first: each waiter removes itself from the set while we iterate.
    for (const wake of [...waiters]) wake();
  }
}

interface StreamId {
  ms: number;
  seq: number;
}

/** Parses `${ms}-${seq}`, `${ms}` (seq 0) or '0', rejecting anything Redis would reject. */
function parseStreamId(id: string): StreamId {
  const match = /^(\d+)(?:-(\d+))?$/.exec(id);
  const ms = match?.[1] === undefined ? Number.NaN : Number(match[1]);
  const seq = match?.[2] === undefined ? 0 : Number(match[2]);
  if (!Number.isSafeInteger(ms) || !Number.isSafeInteger(seq)) {
    throw new Error(`ERR Invalid stream ID specified as stream command argument: ${id}`);
  }
  return { ms, seq };
}

function compareStreamIds(a: StreamId, b: StreamId): number {
  return a.ms === b.ms ? a.seq - b.seq : a.ms - b.ms;
}

interface StoredEntry extends StreamId {
  id: string;
  fields: Record<string, string>;
}

class StreamLog {
  private entries: StoredEntry[] = [];
  private last: StreamId = { ms: 0, seq: 0 };

  get length(): number {
    return this.entries.length;
  }

  append(now: number, fields: Record<string, string>, maxLen: number | undefined): string {
    // Same rule as Redis: the id follows the clock, but never goes backwards when the clock does or ms repeats.
    const next = now > this.last.ms ? { ms: now, seq: 0 } : { ms: this.last.ms, seq: this.last.seq + 1 };
    this.last = next;
    const id = `${next.ms}-${next.seq}`;
    this.entries.push({ ...next, id, fields });
    if (maxLen !== undefined) this.trim(maxLen);
    return id;
  }

  after(afterId: StreamId, count: number | undefined): StreamEntry[] {
    // Binary search for the first entry strictly after afterId: ids are sorted by construction.
    let low = 0;
    let high = this.entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const entry = this.entries[middle];
      if (entry && compareStreamIds(entry, afterId) <= 0) low = middle + 1;
      else high = middle;
    }
    const end = count === undefined ? this.entries.length : Math.min(this.entries.length, low + count);
    return this.entries.slice(low, end).map((entry) => ({ id: entry.id, fields: { ...entry.fields } }));
  }

  /**
   * Approximate trimming like `MAXLEN ~`: at least maxLen entries stay, and the array is only spliced once the
   * excess reaches a slack, so a capped stream does not pay an O(n) splice on every append.
   */
  private trim(maxLen: number): void {
    const slack = Math.max(1, Math.min(100, Math.ceil(maxLen / 10)));
    if (this.entries.length >= maxLen + slack) this.entries = this.entries.slice(this.entries.length - maxLen);
  }
}

interface ZMember {
  member: string;
  score: number;
}

/** Members kept sorted by (score, member bytes), so ranges and ranks are array slices and binary searches. */
class SortedSet {
  private readonly scores = new Map<string, number>();
  private readonly ordered: ZMember[] = [];

  get size(): number {
    return this.scores.size;
  }

  score(member: string): number | undefined {
    return this.scores.get(member);
  }

  set(member: string, score: number): void {
    const previous = this.scores.get(member);
    if (previous === score) return;
    if (previous !== undefined) this.ordered.splice(this.indexOf(member, previous), 1);
    this.scores.set(member, score);
    this.ordered.splice(this.indexOf(member, score), 0, { member, score });
  }

  delete(member: string): boolean {
    const score = this.scores.get(member);
    if (score === undefined) return false;
    this.ordered.splice(this.indexOf(member, score), 1);
    this.scores.delete(member);
    return true;
  }

  rank(member: string, reverse: boolean): number | null {
    const score = this.scores.get(member);
    if (score === undefined) return null;
    const rank = this.indexOf(member, score);
    return reverse ? this.ordered.length - 1 - rank : rank;
  }

  range(start: number, stop: number, reverse: boolean): ScoredMember[] {
    const length = this.ordered.length;
    // Redis index rules: negatives count from the end, out-of-range ends are clamped, an empty range is [].
    let from = start < 0 ? start + length : start;
    let to = stop < 0 ? stop + length : stop;
    if (from < 0) from = 0;
    if (to >= length) to = length - 1;
    if (from > to || from >= length) return [];
    const result: ScoredMember[] = [];
    for (let rank = from; rank <= to; rank += 1) {
      const entry = this.ordered[reverse ? length - 1 - rank : rank];
      if (entry) result.push({ member: entry.member, score: entry.score });
    }
    return result;
  }

  /** Lower bound of (score, member): the member's index when present, its insertion point otherwise. */
  private indexOf(member: string, score: number): number {
    let low = 0;
    let high = this.ordered.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const entry = this.ordered[middle];
      if (entry && compareScored(entry, score, member) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function compareScored(entry: ZMember, score: number, member: string): number {
  if (entry.score !== score) return entry.score < score ? -1 : 1;
  return compareMembers(entry.member, member);
}

/**
 * Byte-wise (UTF-8) order, as Redis compares members. UTF-8 order equals code point order, which differs from
 * JavaScript's UTF-16 `<` only when a surrogate (a code point above U+FFFF) meets a unit in U+E000–U+FFFF.
 */
function compareMembers(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    const x = a.charCodeAt(index);
    const y = b.charCodeAt(index);
    if (x === y) continue;
    const xSurrogate = x >= 0xd800 && x <= 0xdfff;
    const ySurrogate = y >= 0xd800 && y <= 0xdfff;
    if (xSurrogate !== ySurrogate) return xSurrogate ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function stringData(value: ValueOf<'string'>): string {
  return typeof value.data === 'string' ? value.data : value.data.toString('utf8');
}

function wrongType(): Error {
  return new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
}

function parseInteger(text: string): number {
  if (!/^-?(0|[1-9]\d*)$/.test(text)) throw new Error('ERR value is not an integer or out of range');
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error('ERR value is not an integer or out of range');
  return value;
}

function checkedAdd(current: number, by: number): number {
  const next = current + by;
  if (!Number.isSafeInteger(next)) throw new Error('ERR increment or decrement would overflow');
  return next;
}
