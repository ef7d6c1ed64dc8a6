import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { HsetnxUnlessResult, ScoredMember, SetOptions, Store, StreamEntry, TailOptions, TakeTokensOptions, TakeTokensResult, WriteOptions, XaddOptions } from './store.js';
import { optionalTtl, requireInteger, requireCount, requireTtl } from './arguments.js';
import { checkBucketOptions } from './token-bucket.js';

/**
 * The multi-node store on Redis 7 (ioredis 5).
 *
 * Availability model: the process must survive Redis going away, callers must learn about it quickly, and
 * everything must heal by itself. So commands are never queued while disconnected (`enableOfflineQueue: false`),
 * commands in flight when the socket drops fail at once instead of being re-sent after reconnect (an INCR or XADD
 * could otherwise apply twice), a call made during a connection attempt waits only briefly, and ioredis keeps
 * reconnecting with a backoff capped at one second. Every driver failure becomes StoreUnavailableError in
 * `toStoreError`; replies Redis rejects on purpose (WRONGTYPE, bad integer) are bugs and stay plain errors.
 *
 * Tails: one subscriber connection per store carries a notification per XADD (published by the same Lua script,
 * so it cannot be lost between the two), tails on the same key share one channel subscription and, when woken
 * together, one XRANGE. A slow poll covers notifications lost while the subscriber was reconnecting.
 */

export interface RedisStoreOptions {
  url: string;
  /** Upper bound for one command on a connected but unresponsive server (default 1 s). */
  commandTimeoutMs?: number;
  logger?: Logger;
}

/** Longest a call waits for a reconnect attempt in progress before failing as unavailable. */
const READY_WAIT_MS = 250;
/** The same for the very first connection: a store is often used right after it is made, on a busy machine. */
const STARTUP_WAIT_MS = 3_000;
/** Upper bound for one command on a connected but unresponsive server, unless the options set another. */
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;
const MAX_RECONNECT_DELAY_MS = 1_000;
/** Safety net for tails: re-read this often even without a notification. */
const TAIL_POLL_MS = 1_000;
const DEFAULT_TAIL_COUNT = 100;

/** Reply errors that mean "not now" rather than "wrong command". */
const UNAVAILABLE_REPLY = /^(LOADING|BUSY|MASTERDOWN|READONLY|CLUSTERDOWN|TRYAGAIN|OOM|NOREPLICAS|MISCONF)\b/;

const RENEW_SCRIPT = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`);

const RELEASE_SCRIPT = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`);

// ARGV: field, value, guard, TTL in ms ('' for none).
const HSETNX_UNLESS_SCRIPT = script(`
local result
if redis.call('HEXISTS', KEYS[1], ARGV[3]) == 1 then
  result = 2
else
  result = redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
end
if ARGV[4] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
return result`);

// A token bucket (token-bucket.ts's takeFromBucket, step for step). ARGV: capacity, refill per ms, cost, now (ms),
// force ('1' or '0'). Returns {taken (1/0), level as a string} (Lua numbers would be truncated to integers).
const TAKE_TOKENS_SCRIPT = script(`
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
if now > at then
  tokens = math.min(capacity, tokens + (now - at) * per_ms)
  at = now
end
local taken = 0
if ARGV[5] == '1' or tokens >= cost then
  tokens = tokens - cost
  taken = 1
end
local ttl = math.ceil((capacity - tokens) / per_ms)
if ttl < 1 then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', at))
  redis.call('PEXPIRE', KEYS[1], ttl)
end
return {taken, string.format('%.17g', tokens)}`);
// ARGV: TTL in ms ('' for none), the number of guards, the guards, then field/value pairs.
const HSET_UNLESS_SCRIPT = script(`
local guards = tonumber(ARGV[2])
local result = 1
for index = 1, guards do
  if redis.call('HEXISTS', KEYS[1], ARGV[2 + index]) == 1 then
    result = 0
    break
  end
end
if result == 1 and #ARGV > 2 + guards then
  redis.call('HSET', KEYS[1], unpack(ARGV, 3 + guards))
end
if ARGV[1] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return result`);

// ARGV: maxLen ('' for none), notification channel, TTL in ms ('' for none), then field/value pairs.
const XADD_SCRIPT = script(`
local id
if ARGV[1] == '' then
  id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 4))
else
  id = redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', unpack(ARGV, 4))
end
if ARGV[3] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
redis.call('PUBLISH', ARGV[2], id)
return id`);

// A write that may create its key, then its TTL, in one atomic step. ARGV: TTL in ms, the command, its arguments
// after the key. The reply is the command's.
const WITH_TTL_SCRIPT = script(`
local result = redis.call(ARGV[2], KEYS[1], unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return result`);

interface LuaScript {
  source: string;
  sha: string;
}

/** One channel subscription shared by every tail on the same stream key. */
interface Channel {
  tails: Set<TailWaiter>;
  /** Settles (never rejects) once SUBSCRIBE was confirmed or could not be sent. */
  subscribed: Promise<void>;
}

interface InflightRead {
  startedAt: number;
  promise: Promise<StreamEntry[]>;
}

export class RedisStore implements Store {
  readonly kind = 'redis' as const;

  private readonly client: Redis;
  private subscriber: Redis | null = null;
  private readonly logger: Logger | undefined;
  private readonly channels = new Map<string, Channel>();
  private readonly inflightReads = new Map<string, InflightRead>();
  /** Logical clock of shared reads: a tail only joins a read that started after its last wake-up. */
  private readCounter = 0;
  private pollTimer: NodeJS.Timeout | null = null;
  private readyPromise: Promise<void> | null = null;
  private everReady = false;
  private closed = false;

  constructor(options: RedisStoreOptions) {
    this.logger = options.logger;
    this.client = new Redis(options.url, {
      enableOfflineQueue: false,
      // 0 = commands in flight when the connection drops are rejected right away, never re-sent later.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      commandTimeout: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
      connectionName: 'lectern',
    });
    this.watch(this.client, 'command');
    this.client.on('ready', () => {
      this.everReady = true;
      this.wakeAllTails();
    });
  }

  // strings

  async get(key: string): Promise<string | null> {
    return asStringOrNull(await this.call('GET', [key]));
  }

  async set(key: string, value: string, options: SetOptions = {}): Promise<boolean> {
    return this.setValue(key, value, options);
  }

  async incr(key: string, by = 1, options?: WriteOptions): Promise<number> {
    requireInteger(by, 'incr');
    return asNumber(await this.write('INCRBY', key, [by], optionalTtl(options, 'incr')));
  }

  async mget(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return asNullableStringArray(await this.call('MGET', [...keys]));
  }

  async getBytes(key: string): Promise<Buffer | null> {
    return this.run('GET', (client) => client.getBuffer(key));
  }

  async setBytes(key: string, value: Uint8Array, options: SetOptions = {}): Promise<boolean> {
    // ioredis sends only Buffers as binary (other objects are stringified); a view avoids copying 5 MB twice,
    // and ioredis copies it into the outgoing command right away.
    return this.setValue(key, Buffer.from(value.buffer, value.byteOffset, value.byteLength), options);
  }

  async del(...keys: string[]): Promise<number> {
    if (keys.length === 0) return 0;
    return asNumber(await this.call('DEL', keys));
  }

  async exists(key: string): Promise<boolean> {
    return asNumber(await this.call('EXISTS', [key])) === 1;
  }

  async expire(key: string, ttlMs: number): Promise<boolean> {
    if (!Number.isFinite(ttlMs)) throw new RangeError(`expire: ttlMs must be finite, got ${ttlMs}`);
    return asNumber(await this.call('PEXPIRE', [key, Math.ceil(ttlMs)])) === 1;
  }

  async pttl(key: string): Promise<number> {
    return asNumber(await this.call('PTTL', [key]));
  }

  // hashes

  async hget(key: string, field: string): Promise<string | null> {
    return asStringOrNull(await this.call('HGET', [key, field]));
  }

  async hmget(key: string, fields: readonly string[]): Promise<(string | null)[]> {
    if (fields.length === 0) return [];
    return asNullableStringArray(await this.call('HMGET', [key, ...fields]));
  }

  async hset(key: string, fields: Record<string, string>, options?: WriteOptions): Promise<void> {
    const ttl = optionalTtl(options, 'hset');
    const flat = Object.entries(fields).flat();
    if (flat.length === 0) return;
    await this.write('HSET', key, flat, ttl);
  }

  async hsetnx(key: string, field: string, value: string, options?: WriteOptions): Promise<boolean> {
    return asNumber(await this.write('HSETNX', key, [field, value], optionalTtl(options, 'hsetnx'))) === 1;
  }

  async hsetnxUnless(key: string, field: string, value: string, guard: string, options?: WriteOptions): Promise<HsetnxUnlessResult> {
    const ttl = optionalTtl(options, 'hsetnxUnless');
    const args = [field, value, guard, ttl === undefined ? '' : String(ttl)];
    const result = asNumber(await this.eval('hsetnxUnless', HSETNX_UNLESS_SCRIPT, [key], args));
    return result === 1 ? 'set' : result === 2 ? 'guarded' : 'exists';
  }

  async hsetUnless(key: string, fields: Record<string, string>, guards: readonly string[], options?: WriteOptions): Promise<boolean> {
    const ttl = optionalTtl(options, 'hsetUnless');
    const args = [ttl === undefined ? '' : String(ttl), String(guards.length), ...guards, ...Object.entries(fields).flat()];
    return asNumber(await this.eval('hsetUnless', HSET_UNLESS_SCRIPT, [key], args)) === 1;
  }

  async hincrby(key: string, field: string, by: number, options?: WriteOptions): Promise<number> {
    requireInteger(by, 'hincrby');
    return asNumber(await this.write('HINCRBY', key, [field, by], optionalTtl(options, 'hincrby')));
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return toRecord(asStringArray(await this.call('HGETALL', [key])));
  }

  async hgetallMany(keys: readonly string[]): Promise<Record<string, string>[]> {
    if (keys.length === 0) return [];
    const replies = await this.run('HGETALL', async (client) => {
      const pipeline = client.pipeline();
      for (const key of keys) pipeline.call('HGETALL', key);
      return (await pipeline.exec()) ?? [];
    });
    if (replies.length !== keys.length) throw unexpectedReply(replies);
    return replies.map(([error, reply]) => {
      if (error) throw error;
      return toRecord(asStringArray(reply));
    });
  }

  async hdel(key: string, ...fields: string[]): Promise<number> {
    if (fields.length === 0) return 0;
    return asNumber(await this.call('HDEL', [key, ...fields]));
  }

  async hlen(key: string): Promise<number> {
    return asNumber(await this.call('HLEN', [key]));
  }

  // token buckets

  async takeTokens(key: string, options: TakeTokensOptions): Promise<TakeTokensResult> {
    checkBucketOptions(options);
    const args = [options.capacity, options.refillPerSecond / 1000, options.cost ?? 1].map((value) => value.toPrecision(17));
    const reply = await this.eval('takeTokens', TAKE_TOKENS_SCRIPT, [key], [...args, String(options.now), options.force === true ? '1' : '0']);
    if (!Array.isArray(reply) || typeof reply[0] !== 'number' || typeof reply[1] !== 'string') throw unexpectedReply(reply);
    return { taken: reply[0] === 1, tokens: Number(reply[1]) };
  }

  // sorted sets

  async zadd(key: string, score: number, member: string, options?: WriteOptions): Promise<void> {
    const formatted = formatScore(score, 'zadd');
    await this.write('ZADD', key, [formatted, member], optionalTtl(options, 'zadd'));
  }

  async zincrby(key: string, by: number, member: string, options?: WriteOptions): Promise<number> {
    const formatted = formatScore(by, 'zincrby');
    return parseScore(asString(await this.write('ZINCRBY', key, [formatted, member], optionalTtl(options, 'zincrby'))));
  }

  async zscore(key: string, member: string): Promise<number | null> {
    const reply = asStringOrNull(await this.call('ZSCORE', [key, member]));
    return reply === null ? null : parseScore(reply);
  }

  async zrem(key: string, ...members: string[]): Promise<number> {
    if (members.length === 0) return 0;
    return asNumber(await this.call('ZREM', [key, ...members]));
  }

  async zcard(key: string): Promise<number> {
    return asNumber(await this.call('ZCARD', [key]));
  }

  async zrange(key: string, start: number, stop: number, options: { reverse?: boolean } = {}): Promise<ScoredMember[]> {
    const args: (string | number)[] = [key, start, stop];
    if (options.reverse) args.push('REV');
    args.push('WITHSCORES');
    const flat = asStringArray(await this.call('ZRANGE', args));
    const result: ScoredMember[] = [];
    for (let index = 0; index + 1 < flat.length; index += 2) {
      result.push({ member: flat[index] as string, score: parseScore(flat[index + 1] as string) });
    }
    return result;
  }

  async zrank(key: string, member: string, options: { reverse?: boolean } = {}): Promise<number | null> {
    const reply = await this.call(options.reverse ? 'ZREVRANK' : 'ZRANK', [key, member]);
    return reply === null ? null : asNumber(reply);
  }

  // streams

  async xadd(key: string, fields: Record<string, string>, options: XaddOptions = {}): Promise<string> {
    const flat = Object.entries(fields).flat();
    if (flat.length === 0) throw new RangeError('xadd: an entry needs at least one field');
    if (options.maxLen !== undefined) requireCount(options.maxLen, 'xadd maxLen', 0);
    const ttl = optionalTtl(options, 'xadd');
    const maxLen = options.maxLen === undefined ? '' : String(options.maxLen);
    const args = [maxLen, notifyChannel(key), ttl === undefined ? '' : String(ttl), ...flat];
    return asString(await this.eval('XADD', XADD_SCRIPT, [key], args));
  }

  async xread(key: string, afterId: string, count?: number): Promise<StreamEntry[]> {
    const args: (string | number)[] = [key, `(${afterId}`, '+'];
    if (count !== undefined) {
      requireCount(count, 'xread count', 1);
      args.push('COUNT', count);
    }
    return parseEntries(await this.call('XRANGE', args));
  }

  async xlen(key: string): Promise<number> {
    return asNumber(await this.call('XLEN', [key]));
  }

  async *xtail(key: string, afterId: string, options: TailOptions = {}): AsyncIterable<StreamEntry> {
    const { signal } = options;
    const count = options.count ?? DEFAULT_TAIL_COUNT;
    requireCount(count, 'xtail count', 1);
    if (signal?.aborted || this.closed) return;
    const waiter = new TailWaiter();
    const onAbort = () => waiter.wake(this.readCounter);
    signal?.addEventListener('abort', onAbort, { once: true });
    const channelName = notifyChannel(key);
    const channel = this.joinChannel(channelName, waiter);
    let lastId = afterId;
    let subscribed = false;
    try {
      while (!signal?.aborted && !this.closed) {
        const freshAfter = waiter.consume(this.readCounter);
        let entries: StreamEntry[];
        try {
          entries = await this.sharedRead(key, lastId, count, freshAfter);
        } catch (error) {
          if (!(error instanceof StoreUnavailableError)) throw error;
          // Redis is away: keep waiting; the reconnect or the poll tick wakes us to try again.
          await waiter.wait();
          continue;
        }
        if (entries.length > 0) {
          for (const entry of entries) {
            if (signal?.aborted || this.closed) return;
            lastId = entry.id;
            yield { id: entry.id, fields: { ...entry.fields } };
          }
          continue;
        }
        if (!subscribed) {
          // Read, subscribe, read again: entries added before the subscription took effect are not missed.
          subscribed = true;
          await channel.subscribed;
          continue;
        }
        await waiter.wait();
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.leaveChannel(channelName, waiter);
    }
  }

  // leases

  async acquireLease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.setValue(key, owner, { ttlMs, nx: true });
  }

  async renewLease(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const ttl = requireTtl(ttlMs, 'renewLease');
    return asNumber(await this.eval('renewLease', RENEW_SCRIPT, [key], [owner, String(ttl)])) === 1;
  }

  async releaseLease(key: string, owner: string): Promise<boolean> {
    return asNumber(await this.eval('releaseLease', RELEASE_SCRIPT, [key], [owner])) === 1;
  }

  async leaseOwner(key: string): Promise<string | null> {
    return this.get(key);
  }

  async ping(): Promise<void> {
    await this.call('PING', []);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopPolling();
    this.wakeAllTails();
    await Promise.all([quit(this.client), this.subscriber ? quit(this.subscriber) : Promise.resolve()]);
  }

  // commands

  private call(command: string, args: (string | number | Buffer)[]): Promise<unknown> {
    return this.run(command, (client) => client.call(command, args));
  }

  /** A write that may create `key`: the plain command, or with its TTL in the same atomic step (a Lua script). */
  private write(command: string, key: string, args: (string | number)[], ttlMs: number | undefined): Promise<unknown> {
    if (ttlMs === undefined) return this.call(command, [key, ...args]);
    return this.eval(command, WITH_TTL_SCRIPT, [key], [String(ttlMs), command, ...args.map(String)]);
  }

  /** EVALSHA, falling back to EVAL once per server that has not seen the script (e.g. after a restart). */
  private eval(operation: string, lua: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    return this.run(operation, async (client) => {
      try {
        return await client.call('EVALSHA', [lua.sha, keys.length, ...keys, ...args]);
      } catch (error) {
        if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
        return client.call('EVAL', [lua.source, keys.length, ...keys, ...args]);
      }
    });
  }

  /** The one place a driver call happens, so the one place its failures are translated. */
  private async run<T>(operation: string, command: (client: Redis) => Promise<T>): Promise<T> {
    await this.whenReady();
    try {
      return await command(this.client);
    } catch (error) {
      throw toStoreError(operation, error);
    }
  }

  private whenReady(): Promise<void> {
    const { status } = this.client;
    if (status === 'ready') return Promise.resolve();
    // Between reconnect attempts ('reconnecting', 'close') the last attempt already failed: answer at once rather
    // than make every caller sit out the backoff. Only an attempt in progress is worth a short wait.
    if (this.closed || (status !== 'connecting' && status !== 'connect' && status !== 'wait')) {
      return Promise.reject(new StoreUnavailableError());
    }
    // One 'ready' listener shared by every waiting call, each bounded by its own timer.
    this.readyPromise ??= new Promise<void>((resolve) => {
      this.client.once('ready', () => {
        this.readyPromise = null;
        resolve();
      });
    });
    const ready = this.readyPromise;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new StoreUnavailableError()),
        this.everReady ? READY_WAIT_MS : STARTUP_WAIT_MS,
      );
      void ready.then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private async setValue(key: string, value: string | Buffer, options: SetOptions): Promise<boolean> {
    const args: (string | number | Buffer)[] = [key, value];
    if (options.ttlMs !== undefined) args.push('PX', requireTtl(options.ttlMs, 'set'));
    if (options.nx) args.push('NX');
    return (await this.call('SET', args)) !== null;
  }

  /** Logs a connection going down once and coming back once, instead of every failed reconnect attempt. */
  private watch(connection: Redis, role: 'command' | 'subscriber'): void {
    let healthy = true;
    // Without an 'error' listener an outage would crash the process; the errors themselves surface per call.
    connection.on('error', (error: unknown) => {
      if (healthy && !this.closed) this.logger?.warn({ err: error, role }, 'redis connection lost');
      else this.logger?.debug({ err: error, role }, 'redis still unavailable');
      healthy = false;
    });
    connection.on('ready', () => {
      if (!healthy) this.logger?.info({ role }, 'redis connection restored');
      healthy = true;
    });
  }

  // tails

  private sharedRead(key: string, afterId: string, count: number, freshAfter: number): Promise<StreamEntry[]> {
    const id = `${count}\u0000${afterId}\u0000${key}`;
    const existing = this.inflightReads.get(id);
    if (existing && existing.startedAt > freshAfter) return existing.promise;
    this.readCounter += 1;
    const flight: InflightRead = { startedAt: this.readCounter, promise: this.xread(key, afterId, count) };
    this.inflightReads.set(id, flight);
    const forget = () => {
      if (this.inflightReads.get(id) === flight) this.inflightReads.delete(id);
    };
    flight.promise.then(forget, forget);
    return flight.promise;
  }

  private joinChannel(name: string, waiter: TailWaiter): Channel {
    let channel = this.channels.get(name);
    if (!channel) {
      channel = { tails: new Set(), subscribed: this.subscribe([name]) };
      this.channels.set(name, channel);
    }
    channel.tails.add(waiter);
    this.pollTimer ??= setInterval(() => this.wakeAllTails(), TAIL_POLL_MS);
    this.pollTimer.unref();
    return channel;
  }

  private leaveChannel(name: string, waiter: TailWaiter): void {
    const channel = this.channels.get(name);
    if (!channel) return;
    channel.tails.delete(waiter);
    if (channel.tails.size > 0) return;
    this.channels.delete(name);
    if (this.subscriber?.status === 'ready') {
      this.subscriber.unsubscribe(name).catch((error: unknown) => this.logger?.debug({ err: error }, 'unsubscribe failed'));
    }
    if (this.channels.size === 0) this.stopPolling();
  }

  /** Never rejects: a subscription that cannot be made now is made by the subscriber's 'ready' handler. */
  private async subscribe(names: string[]): Promise<void> {
    const subscriber = this.ensureSubscriber();
    if (subscriber.status !== 'ready' || names.length === 0) return;
    try {
      await subscriber.subscribe(...names);
    } catch (error) {
      this.logger?.debug({ err: error }, 'subscribe failed; retried when the subscriber reconnects');
    }
  }

  private ensureSubscriber(): Redis {
    if (this.subscriber) return this.subscriber;
    // ioredis would resubscribe by itself, but only to what it had confirmed; our channel map is the truth.
    const subscriber = this.client.duplicate({ autoResubscribe: false, connectionName: 'lectern:tails' });
    this.watch(subscriber, 'subscriber');
    subscriber.on('message', (channel: string) => {
      const state = this.channels.get(channel);
      if (!state) return;
      const mark = this.readCounter;
      for (const waiter of state.tails) waiter.wake(mark);
    });
    subscriber.on('ready', () => {
      // A fresh connection starts with no subscriptions, and notifications sent meanwhile are gone: resubscribe
      // everything, then let every tail re-read.
      void this.subscribe([...this.channels.keys()]).then(() => this.wakeAllTails());
    });
    this.subscriber = subscriber;
    return subscriber;
  }

  private wakeAllTails(): void {
    const mark = this.readCounter;
    for (const channel of this.channels.values()) {
      for (const waiter of channel.tails) waiter.wake(mark);
    }
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }
}

/**
 * A tail's wake-up flag. A wake that arrives while the tail is busy (reading, or yielding to its consumer) is kept,
 * so the next wait returns at once; `mark` remembers the read clock at the wake, so the tail's next read must start
 * after it and therefore sees whatever caused the wake.
 */
class TailWaiter {
  private pending = false;
  private mark = 0;
  private resolve: (() => void) | null = null;

  wake(mark: number): void {
    this.pending = true;
    this.mark = mark;
    const resolve = this.resolve;
    this.resolve = null;
    resolve?.();
  }

  /** Clears the flag and returns the read clock a fresh read must be newer than. */
  consume(now: number): number {
    if (!this.pending) return now;
    this.pending = false;
    return this.mark;
  }

  wait(): Promise<void> {
    if (this.pending) return Promise.resolve();
    return new Promise((resolve) => {
      this.resolve = resolve;
    });
  }
}

function toStoreError(operation: string, error: unknown): Error {
  if (error instanceof StoreUnavailableError) return error;
  // ioredis reports what the server refused as ReplyError; everything else (closed socket, timeouts, refused
  // connection, aborted commands) means the store cannot be reached.
  if (error instanceof Error && error.name === 'ReplyError' && !UNAVAILABLE_REPLY.test(error.message)) {
    return new Error(`redis rejected ${operation}: ${error.message}`, { cause: error });
  }
  return new StoreUnavailableError(undefined, error);
}

async function quit(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}

function script(source: string): LuaScript {
  const trimmed = source.trim();
  return { source: trimmed, sha: createHash('sha1').update(trimmed).digest('hex') };
}

function notifyChannel(key: string): string {
  return `${key}:notify`;
}

function parseEntries(reply: unknown): StreamEntry[] {
  if (!Array.isArray(reply)) throw unexpectedReply(reply);
  return reply.map((item: unknown) => {
    if (!Array.isArray(item) || typeof item[0] !== 'string') throw unexpectedReply(item);
    return { id: item[0], fields: toRecord(asStringArray(item[1])) };
  });
}

/** Flat [field, value, ...] to an object; fromEntries defines own properties, so a field named __proto__ is safe. */
function toRecord(flat: string[]): Record<string, string> {
  const pairs: [string, string][] = [];
  for (let index = 0; index + 1 < flat.length; index += 2) pairs.push([flat[index] as string, flat[index + 1] as string]);
  return Object.fromEntries(pairs);
}

function asString(reply: unknown): string {
  if (typeof reply !== 'string') throw unexpectedReply(reply);
  return reply;
}

function asStringOrNull(reply: unknown): string | null {
  return reply === null ? null : asString(reply);
}

function asNumber(reply: unknown): number {
  if (typeof reply !== 'number') throw unexpectedReply(reply);
  return reply;
}

function asNullableStringArray(reply: unknown): (string | null)[] {
  if (!Array.isArray(reply) || !reply.every((item) => item === null || typeof item === 'string')) throw unexpectedReply(reply);
  return reply as (string | null)[];
}

function asStringArray(reply: unknown): string[] {
  if (!Array.isArray(reply) || !reply.every((item) => typeof item === 'string')) throw unexpectedReply(reply);
  return reply as string[];
}

function unexpectedReply(reply: unknown): Error {
  return new Error(`unexpected redis reply: ${JSON.stringify(reply)?.slice(0, 200)}`);
}

/** Redis spells infinite scores 'inf'/'-inf' in replies and wants '+inf'/'-inf' in arguments. */
function parseScore(text: string): number {
  if (text === 'inf' || text === '+inf') return Number.POSITIVE_INFINITY;
  if (text === '-inf') return Number.NEGATIVE_INFINITY;
  return Number(text);
}

function formatScore(score: number, operation: string): string {
  if (Number.isNaN(score)) throw new RangeError(`${operation}: score is NaN`);
  if (score === Number.POSITIVE_INFINITY) return '+inf';
  if (score === Number.NEGATIVE_INFINITY) return '-inf';
  return String(score);
}
