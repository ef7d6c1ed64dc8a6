import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from '../src/kernel/errors.js';
import type { Store, StreamEntry, TailOptions } from '../src/store/store.js';
import { uniquePrefix } from './support/redis-server.js';
import { WAIT_TIMEOUT_MS } from './support/waits.js';

/**
 * One behaviour suite for every Store implementation (memory and Redis), so code written against the memory store
 * in unit tests behaves the same on Redis in production. Each test works under its own random key prefix and
 * deletes its keys afterwards, so a shared Redis stays clean and test files can run in parallel.
 */
export function storeContract(name: string, makeStore: () => Promise<Store>, cleanup?: () => Promise<void>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    let prefix = '';
    const used = new Set<string>();
    /** A key private to the current test, deleted after it. */
    const key = (suffix: string) => {
      const full = `${prefix}${suffix}`;
      used.add(full);
      return full;
    };

    beforeAll(async () => {
      store = await makeStore();
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });
    beforeEach(() => {
      prefix = uniquePrefix();
    });
    afterEach(async () => {
      if (used.size > 0) await store.del(...used);
      used.clear();
    });

    describe('ST1 strings', () => {
      it('gets null for a missing key and round-trips a value', async () => {
        const k = key('greeting');
        expect(await store.get(k)).toBeNull();
        expect(await store.set(k, '안녕하세요 👋')).toBe(true);
        expect(await store.get(k)).toBe('안녕하세요 👋');
        expect(await store.set(k, 'overwritten')).toBe(true);
        expect(await store.get(k)).toBe('overwritten');
      });

      it('nx: first write wins', async () => {
        const k = key('first');
        expect(await store.set(k, 'a', { nx: true })).toBe(true);
        expect(await store.set(k, 'b', { nx: true })).toBe(false);
        expect(await store.get(k)).toBe('a');
      });

      it('expires a key set with a TTL', async () => {
        const k = key('short');
        expect(await store.set(k, 'v', { ttlMs: 100 })).toBe(true);
        expect(await store.get(k)).toBe('v');
        const ttl = await store.pttl(k);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(100);
        await vi.waitFor(async () => expect(await store.get(k)).toBeNull(), { timeout: WAIT_TIMEOUT_MS, interval: 20 });
        expect(await store.exists(k)).toBe(false);
        expect(await store.pttl(k)).toBe(-2);
        // Once expired, nx may write again.
        expect(await store.set(k, 'again', { nx: true, ttlMs: 5_000 })).toBe(true);
        expect(await store.get(k)).toBe('again');
      });

      it('a plain set clears an earlier TTL', async () => {
        const k = key('ttl-cleared');
        await store.set(k, 'v', { ttlMs: 10_000 });
        expect(await store.pttl(k)).toBeGreaterThan(0);
        await store.set(k, 'w');
        expect(await store.pttl(k)).toBe(-1);
      });

      it('rejects a TTL that is not positive', async () => {
        await expect(store.set(key('bad-ttl'), 'v', { ttlMs: 0 })).rejects.toBeInstanceOf(RangeError);
      });

      it('incr creates at 0, adds, keeps the TTL and is atomic under concurrency', async () => {
        const k = key('counter');
        expect(await store.incr(k)).toBe(1);
        expect(await store.incr(k, 5)).toBe(6);
        expect(await store.incr(k, -10)).toBe(-4);
        expect(await store.get(k)).toBe('-4');
        await store.expire(k, 10_000);
        await store.incr(k);
        expect(await store.pttl(k)).toBeGreaterThan(0);

        const parallel = key('parallel');
        const results = await Promise.all(Array.from({ length: 100 }, () => store.incr(parallel)));
        expect(new Set(results).size).toBe(100);
        expect(await store.get(parallel)).toBe('100');
      });

      it('incr on a non-integer rejects with a plain error, not STORE_UNAVAILABLE', async () => {
        const k = key('text');
        await store.set(k, 'abc');
        const error: unknown = await store.incr(k).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(StoreUnavailableError);
      });

      it('a command against the wrong type rejects with a plain error', async () => {
        const k = key('typed');
        await store.set(k, 'string');
        const error: unknown = await store.hget(k, 'field').catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(Error);
        expect(error).not.toBeInstanceOf(StoreUnavailableError);
        expect(String(error)).toMatch(/WRONGTYPE/);
      });
    });

    describe('ST2 bytes', () => {
      it('round-trips binary data including 0x00 and invalid UTF-8', async () => {
        const k = key('binary');
        const bytes = Buffer.from([0x00, 0xff, 0xfe, 0x00, 0xc3, 0x28, 0x80, 0x0a, 0x0d, 0x00]);
        expect(await store.getBytes(k)).toBeNull();
        expect(await store.setBytes(k, bytes)).toBe(true);
        const back = await store.getBytes(k);
        expect(Buffer.isBuffer(back)).toBe(true);
        expect(back?.equals(bytes)).toBe(true);
      });

      it('round-trips a 5 MB buffer', async () => {
        const k = key('large');
        const bytes = randomBytes(5 * 1024 * 1024);
        await store.setBytes(k, bytes);
        const back = await store.getBytes(k);
        expect(back?.length).toBe(bytes.length);
        expect(back?.equals(bytes)).toBe(true);
      });

      it('stores exactly the bytes of a Uint8Array view, and copies in and out', async () => {
        const k = key('view');
        const backing = new Uint8Array([9, 9, 1, 2, 3, 9, 9]);
        await store.setBytes(k, backing.subarray(2, 5));
        backing.fill(0);
        const first = await store.getBytes(k);
        expect(first && [...first]).toEqual([1, 2, 3]);
        first?.fill(7);
        const second = await store.getBytes(k);
        expect(second && [...second]).toEqual([1, 2, 3]);
      });

      it('honours nx and TTL, and reads strings as UTF-8 bytes and bytes as strings', async () => {
        const k = key('bytes-nx');
        expect(await store.setBytes(k, Buffer.from('첫'), { nx: true, ttlMs: 10_000 })).toBe(true);
        expect(await store.setBytes(k, Buffer.from('둘'), { nx: true })).toBe(false);
        expect(await store.get(k)).toBe('첫');
        expect(await store.pttl(k)).toBeGreaterThan(0);
        const text = key('text');
        await store.set(text, 'é');
        expect((await store.getBytes(text))?.equals(Buffer.from('é', 'utf8'))).toBe(true);
      });
    });

    describe('ST3 keys', () => {
      it('del counts the keys that existed; exists follows', async () => {
        const [a, b, missing] = [key('a'), key('b'), key('missing')];
        await store.set(a, '1');
        await store.hset(b, { f: 'v' });
        expect(await store.exists(a)).toBe(true);
        expect(await store.exists(b)).toBe(true);
        expect(await store.del(a, b, missing)).toBe(2);
        expect(await store.exists(a)).toBe(false);
        expect(await store.exists(b)).toBe(false);
        expect(await store.del()).toBe(0);
      });

      it('expire and pttl', async () => {
        const k = key('expiring');
        expect(await store.pttl(k)).toBe(-2);
        expect(await store.expire(k, 1_000)).toBe(false);
        await store.set(k, 'v');
        expect(await store.pttl(k)).toBe(-1);
        expect(await store.expire(k, 5_000)).toBe(true);
        const ttl = await store.pttl(k);
        expect(ttl).toBeGreaterThan(4_000);
        expect(ttl).toBeLessThanOrEqual(5_000);
      });

      it('expire applies to whole collections', async () => {
        const hash = key('hash');
        await store.hset(hash, { a: '1', b: '2' });
        expect(await store.expire(hash, 80)).toBe(true);
        await vi.waitFor(async () => expect(await store.exists(hash)).toBe(false), { timeout: WAIT_TIMEOUT_MS, interval: 20 });
        expect(await store.hgetall(hash)).toEqual({});
        expect(await store.hlen(hash)).toBe(0);
      });
    });

    describe('ST4 hashes', () => {
      it('hset, hget, hgetall, hlen, hdel', async () => {
        const k = key('hash');
        expect(await store.hget(k, 'a')).toBeNull();
        expect(await store.hgetall(k)).toEqual({});
        await store.hset(k, { a: '1', b: '2', 이름: '값' });
        await store.hset(k, { b: 'two' });
        expect(await store.hget(k, 'b')).toBe('two');
        expect(await store.hgetall(k)).toEqual({ a: '1', b: 'two', 이름: '값' });
        expect(await store.hlen(k)).toBe(3);
        expect(await store.hdel(k, 'a', 'nope')).toBe(1);
        expect(await store.hlen(k)).toBe(2);
        expect(await store.hdel(k)).toBe(0);
      });

      it('a hash with no fields left no longer exists', async () => {
        const k = key('emptied');
        await store.hset(k, { only: 'x' });
        expect(await store.hdel(k, 'only')).toBe(1);
        expect(await store.exists(k)).toBe(false);
      });

      it('keeps awkward field names as plain data', async () => {
        const k = key('proto');
        await store.hset(k, Object.fromEntries([['__proto__', 'p'], ['constructor', 'c']]));
        const all = await store.hgetall(k);
        expect(Object.keys(all).sort()).toEqual(['__proto__', 'constructor']);
        expect(Object.getPrototypeOf(all)).toBe(Object.prototype);
      });

      it('hsetnx: first write wins, also among 50 concurrent writers', async () => {
        const k = key('answers');
        expect(await store.hsetnx(k, 'alice', 'B')).toBe(true);
        expect(await store.hsetnx(k, 'alice', 'C')).toBe(false);
        expect(await store.hget(k, 'alice')).toBe('B');

        const results = await Promise.all(
          Array.from({ length: 50 }, (_, index) => store.hsetnx(k, 'race', `writer-${index}`)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = results.indexOf(true);
        expect(await store.hget(k, 'race')).toBe(`writer-${winner}`);
      });

      it('hsetnxUnless: first write wins until the guard field exists, among concurrent writers too', async () => {
        const k = key('answers-q0');
        expect(await store.hsetnxUnless(k, 'alice', '1', '~closed')).toBe('set');
        expect(await store.hsetnxUnless(k, 'alice', '2', '~closed')).toBe('exists');
        expect(await store.hget(k, 'alice')).toBe('1');
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, index) => store.hsetnxUnless(k, 'bob', `writer-${index}`, '~closed')),
        );
        expect(results.filter((result) => result === 'set')).toHaveLength(1);
        await store.hset(k, { '~closed': '1' });
        expect(await store.hsetnxUnless(k, 'carol', '3', '~closed')).toBe('guarded');
        expect(await store.hsetnxUnless(k, 'alice', '3', '~closed')).toBe('guarded');
        expect(await store.hget(k, 'carol')).toBeNull();
        expect(await store.hsetnxUnless(key('fresh'), 'dave', '4', '~closed')).toBe('set');
      });

      it('hsetUnless writes every field (last write wins) until one of its guards is a field; then nothing', async () => {
        const k = key('drafts');
        expect(await store.hsetUnless(k, { 1: 'a', 2: 'b' }, ['~closed', '~done:1'])).toBe(true);
        expect(await store.hsetUnless(k, { 1: 'c' }, ['~closed', '~done:1'])).toBe(true);
        expect(await store.hgetall(k)).toEqual({ 1: 'c', 2: 'b' });
        await store.hset(k, { '~done:1': '1' });
        expect(await store.hsetUnless(k, { 1: 'd', 2: 'e' }, ['~closed', '~done:1'])).toBe(false);
        expect(await store.hsetUnless(k, { 2: 'e' }, ['~closed', '~done:2'])).toBe(true);
        expect(await store.hgetall(k)).toEqual({ 1: 'c', 2: 'e', '~done:1': '1' });
        expect(await store.hsetUnless(key('fresh-drafts'), { 1: 'x' }, [])).toBe(true);
        expect(await store.hget(key('fresh-drafts'), '1')).toBe('x');
      });

      it('hincrby creates at 0 and sums concurrent increments', async () => {
        const k = key('usage');
        expect(await store.hincrby(k, 'tokens', 10)).toBe(10);
        expect(await store.hincrby(k, 'tokens', -3)).toBe(7);
        await Promise.all(Array.from({ length: 60 }, (_, index) => store.hincrby(k, 'parallel', index % 2 === 0 ? 2 : 1)));
        expect(await store.hget(k, 'parallel')).toBe('90');
        await store.hset(k, { text: 'abc' });
        await expect(store.hincrby(k, 'text', 1)).rejects.not.toBeInstanceOf(StoreUnavailableError);
      });
    });

    describe('ST5 sorted sets', () => {
      it('zadd, zscore, zcard, zrem; an emptied set no longer exists', async () => {
        const k = key('scores');
        expect(await store.zscore(k, 'a')).toBeNull();
        await store.zadd(k, 1.5, 'a');
        await store.zadd(k, -2, 'b');
        await store.zadd(k, 3, 'a');
        expect(await store.zscore(k, 'a')).toBe(3);
        expect(await store.zscore(k, 'b')).toBe(-2);
        expect(await store.zcard(k)).toBe(2);
        expect(await store.zrem(k, 'a', 'nope')).toBe(1);
        expect(await store.zrem(k, 'b')).toBe(1);
        expect(await store.zcard(k)).toBe(0);
        expect(await store.exists(k)).toBe(false);
        expect(await store.zrem(k)).toBe(0);
      });

      it('orders by score, ties by member bytes (UTF-8), both directions', async () => {
        const k = key('ties');
        const tied = ['b', 'a', 'B', 'ab', '', 'é', '😀', '\uff5e', '가', 'a\u0000'];
        for (const member of tied) await store.zadd(k, 1, member);
        await store.zadd(k, 0, 'zero');
        await store.zadd(k, 2, 'two');
        const bytewise = [...tied].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
        const ascending = ['zero', ...bytewise, 'two'];
        expect((await store.zrange(k, 0, -1)).map((entry) => entry.member)).toEqual(ascending);
        expect((await store.zrange(k, 0, -1, { reverse: true })).map((entry) => entry.member)).toEqual(
          [...ascending].reverse(),
        );
        expect(await store.zrange(k, 0, 0)).toEqual([{ member: 'zero', score: 0 }]);
      });

      it('zrange takes inclusive, negative and out-of-range indexes like Redis', async () => {
        const k = key('ranks');
        const members = ['a', 'b', 'c', 'd', 'e'];
        for (const [index, member] of members.entries()) await store.zadd(k, index * 10, member);
        const names = async (start: number, stop: number, reverse = false) =>
          (await store.zrange(k, start, stop, { reverse })).map((entry) => entry.member);
        expect(await names(0, -1)).toEqual(members);
        expect(await names(-2, -1)).toEqual(['d', 'e']);
        expect(await names(-100, 1)).toEqual(['a', 'b']);
        expect(await names(3, 100)).toEqual(['d', 'e']);
        expect(await names(4, 2)).toEqual([]);
        expect(await names(10, 20)).toEqual([]);
        expect(await names(0, 1, true)).toEqual(['e', 'd']);
        expect(await names(-1, -1, true)).toEqual(['a']);
        expect(await store.zrange(key('missing'), 0, -1)).toEqual([]);
        expect(await store.zrange(k, 1, 2, { reverse: true })).toEqual([
          { member: 'd', score: 30 },
          { member: 'c', score: 20 },
        ]);
      });

      it('zrank in both directions; null when absent', async () => {
        const k = key('rank');
        await store.zadd(k, 5, 'mid');
        await store.zadd(k, 1, 'low');
        await store.zadd(k, 9, 'high');
        expect(await store.zrank(k, 'low')).toBe(0);
        expect(await store.zrank(k, 'high')).toBe(2);
        expect(await store.zrank(k, 'high', { reverse: true })).toBe(0);
        expect(await store.zrank(k, 'low', { reverse: true })).toBe(2);
        expect(await store.zrank(k, 'nobody')).toBeNull();
        expect(await store.zrank(key('missing'), 'x')).toBeNull();
      });

      it('zincrby creates, adds fractions and negatives, and reorders', async () => {
        const k = key('board');
        expect(await store.zincrby(k, 0.5, 'alice')).toBe(0.5);
        expect(await store.zincrby(k, 0.25, 'alice')).toBe(0.75);
        expect(await store.zincrby(k, 2, 'bob')).toBe(2);
        expect(await store.zincrby(k, -1.5, 'bob')).toBe(0.5);
        expect((await store.zrange(k, 0, -1, { reverse: true })).map((entry) => entry.member)).toEqual(['alice', 'bob']);
        const results = await Promise.all(Array.from({ length: 40 }, () => store.zincrby(k, 1, 'carol')));
        expect(Math.max(...results)).toBe(40);
        expect(await store.zscore(k, 'carol')).toBe(40);
      });

      it('keeps infinite scores', async () => {
        const k = key('infinite');
        await store.zadd(k, Number.POSITIVE_INFINITY, 'top');
        await store.zadd(k, Number.NEGATIVE_INFINITY, 'bottom');
        await store.zadd(k, 0, 'middle');
        expect(await store.zscore(k, 'top')).toBe(Number.POSITIVE_INFINITY);
        expect(await store.zrange(k, 0, -1)).toEqual([
          { member: 'bottom', score: Number.NEGATIVE_INFINITY },
          { member: 'middle', score: 0 },
          { member: 'top', score: Number.POSITIVE_INFINITY },
        ]);
      });
    });

    describe('ST6 streams', () => {
      it('xadd returns strictly increasing `${ms}-${seq}` ids', async () => {
        const k = key('ids');
        const ids: string[] = [];
        for (let index = 0; index < 50; index += 1) ids.push(await store.xadd(k, { index: String(index) }));
        for (const id of ids) expect(id).toMatch(/^\d+-\d+$/);
        for (let index = 1; index < ids.length; index += 1) {
          expect(compareIds(ids[index - 1] as string, ids[index] as string)).toBeLessThan(0);
        }
        expect(await store.xlen(k)).toBe(50);
      });

      it('xread returns entries strictly after an id, oldest first, up to count', async () => {
        const k = key('log');
        expect(await store.xread(k, '0')).toEqual([]);
        const ids: string[] = [];
        for (const word of ['one', 'two', 'three', 'four']) ids.push(await store.xadd(k, { word, extra: '✓' }));
        const all = await store.xread(k, '0');
        expect(all.map((entry) => entry.id)).toEqual(ids);
        expect(all[0]?.fields).toEqual({ word: 'one', extra: '✓' });
        expect((await store.xread(k, ids[1] as string)).map((entry) => entry.fields.word)).toEqual(['three', 'four']);
        expect((await store.xread(k, '0', 2)).map((entry) => entry.fields.word)).toEqual(['one', 'two']);
        expect(await store.xread(k, ids[3] as string)).toEqual([]);
        expect(await store.xlen(k)).toBe(4);
        expect(await store.xlen(key('missing'))).toBe(0);
      });

      it('rejects an entry without fields', async () => {
        await expect(store.xadd(key('empty'), {})).rejects.toBeInstanceOf(RangeError);
      });

      it('maxLen trims old entries approximately and keeps the newest', async () => {
        const k = key('capped');
        let last = '';
        for (let index = 0; index < 300; index += 1) last = await store.xadd(k, { index: String(index) }, { maxLen: 10 });
        const length = await store.xlen(k);
        expect(length).toBeGreaterThanOrEqual(10);
        // Redis trims whole radix-tree nodes (100 entries by default), so a little more may stay.
        expect(length).toBeLessThanOrEqual(110);
        const entries = await store.xread(k, '0');
        expect(entries).toHaveLength(length);
        expect(entries.at(-1)?.id).toBe(last);
        expect(entries.at(-1)?.fields.index).toBe('299');
        expect(entries[0]?.fields.index).toBe(String(300 - length));
      });

      it('xtail yields the backlog, then live entries, in order', async () => {
        const k = key('tail');
        for (const n of ['1', '2', '3']) await store.xadd(k, { n });
        const tail = startTail(store, k, '0');
        await tail.waitFor(3);
        for (const n of ['4', '5', '6']) await store.xadd(k, { n });
        await tail.waitFor(6);
        await tail.stop();
        expect(tail.entries.map((entry) => entry.fields.n)).toEqual(['1', '2', '3', '4', '5', '6']);
        expectIncreasing(tail.entries);
      });

      it('xtail starts after the given id and waits for a stream that does not exist yet', async () => {
        const k = key('later');
        const early = startTail(store, k, '0');
        const first = await store.xadd(k, { n: '1' });
        await store.xadd(k, { n: '2' });
        await early.waitFor(2);
        const late = startTail(store, k, first);
        await late.waitFor(1);
        await store.xadd(k, { n: '3' });
        await Promise.all([early.waitFor(3), late.waitFor(2)]);
        await Promise.all([early.stop(), late.stop()]);
        expect(early.entries.map((entry) => entry.fields.n)).toEqual(['1', '2', '3']);
        expect(late.entries.map((entry) => entry.fields.n)).toEqual(['2', '3']);
      });

      it('xtail honours count as a batch size without losing entries', async () => {
        const k = key('batched');
        for (let index = 0; index < 25; index += 1) await store.xadd(k, { index: String(index) });
        const tail = startTail(store, k, '0', { count: 4 });
        await tail.waitFor(25);
        await tail.stop();
        expect(tail.entries.map((entry) => entry.fields.index)).toEqual(Array.from({ length: 25 }, (_, i) => String(i)));
      });

      it('xtail ends without error when the signal aborts, also while waiting and when already aborted', async () => {
        const k = key('abort');
        const waiting = startTail(store, k, '0');
        await store.xadd(k, { n: '1' });
        await waiting.waitFor(1);
        await waiting.stop();
        expect(waiting.ended).toBe(true);

        const controller = new AbortController();
        controller.abort();
        const seen: StreamEntry[] = [];
        for await (const entry of store.xtail(k, '0', { signal: controller.signal })) seen.push(entry);
        expect(seen).toEqual([]);
      });

      it('xtail ends when the consumer breaks out of the loop', async () => {
        const k = key('break');
        await store.xadd(k, { n: '1' });
        await store.xadd(k, { n: '2' });
        const seen: string[] = [];
        for await (const entry of store.xtail(k, '0')) {
          seen.push(entry.fields.n ?? '');
          break;
        }
        expect(seen).toEqual(['1']);
      });

      it('200 concurrent tails all see every entry in order', async () => {
        const k = key('fanout');
        const backlog = 5;
        const live = 10;
        for (let index = 0; index < backlog; index += 1) await store.xadd(k, { index: String(index) });
        const tails = Array.from({ length: 200 }, () => startTail(store, k, '0'));
        await Promise.all(tails.map((tail) => tail.waitFor(backlog)));
        for (let index = backlog; index < backlog + live; index += 1) await store.xadd(k, { index: String(index) });
        await Promise.all(tails.map((tail) => tail.waitFor(backlog + live)));
        await Promise.all(tails.map((tail) => tail.stop()));
        const expected = (await store.xread(k, '0')).map((entry) => entry.id);
        expect(expected).toHaveLength(backlog + live);
        for (const tail of tails) expect(tail.entries.map((entry) => entry.id)).toEqual(expected);
      });

      it('entries handed to a tail are its own copies', async () => {
        const k = key('copies');
        await store.xadd(k, { n: '1' });
        const a = startTail(store, k, '0');
        const b = startTail(store, k, '0');
        await Promise.all([a.waitFor(1), b.waitFor(1)]);
        await Promise.all([a.stop(), b.stop()]);
        const first = a.entries[0];
        if (first) first.fields.n = 'mutated';
        expect(b.entries[0]?.fields.n).toBe('1');
        expect((await store.xread(k, '0'))[0]?.fields.n).toBe('1');
      });
    });

    describe('K1: writes that set their TTL in the same step', () => {
      /** TTL of a key just written with `ttlMs`: set, and no longer than asked. */
      const expectTtl = async (k: string, ttlMs: number) => {
        const ttl = await store.pttl(k);
        expect(ttl, k).toBeGreaterThan(ttlMs - 5_000);
        expect(ttl, k).toBeLessThanOrEqual(ttlMs);
      };
      const writes: [string, (k: string, ttlMs?: number) => Promise<unknown>][] = [
        ['incr', (k, ttlMs) => store.incr(k, 2, ttlMs === undefined ? undefined : { ttlMs })],
        ['hset', (k, ttlMs) => store.hset(k, { f: 'v' }, ttlMs === undefined ? undefined : { ttlMs })],
        ['hsetnx', (k, ttlMs) => store.hsetnx(k, 'f', 'v', ttlMs === undefined ? undefined : { ttlMs })],
        ['hsetnxUnless', (k, ttlMs) => store.hsetnxUnless(k, 'f', 'v', '~closed', ttlMs === undefined ? undefined : { ttlMs })],
        ['hsetUnless', (k, ttlMs) => store.hsetUnless(k, { f: 'v' }, ['~closed'], ttlMs === undefined ? undefined : { ttlMs })],
        ['hincrby', (k, ttlMs) => store.hincrby(k, 'f', 3, ttlMs === undefined ? undefined : { ttlMs })],
        ['zadd', (k, ttlMs) => store.zadd(k, 1, 'm', ttlMs === undefined ? undefined : { ttlMs })],
        ['zincrby', (k, ttlMs) => store.zincrby(k, 1, 'm', ttlMs === undefined ? undefined : { ttlMs })],
        ['xadd', (k, ttlMs) => store.xadd(k, { n: '1' }, ttlMs === undefined ? {} : { ttlMs })],
        ['xadd maxLen', (k, ttlMs) => store.xadd(k, { n: '1' }, { maxLen: 5, ...(ttlMs === undefined ? {} : { ttlMs }) })],
      ];

      it.each(writes)('%s creates its key with the TTL, refreshes it, and a write without one keeps it', async (name, write) => {
        const k = key(`ttl-${name}`);
        await write(k, 60_000);
        await expectTtl(k, 60_000);
        // A later write with a TTL refreshes it (also when it changes nothing, like an HSETNX that finds its field).
        await write(k, 600_000);
        await expectTtl(k, 600_000);
        // A write without one keeps the TTL, as Redis does.
        await write(k);
        await expectTtl(k, 600_000);
        // Without any TTL asked, a new key has none.
        const plain = key(`plain-${name}`);
        await write(plain);
        expect(await store.pttl(plain)).toBe(-1);
      });

      it.each(writes)('%s with a TTL that is not positive rejects and writes nothing', async (name, write) => {
        const k = key(`bad-${name}`);
        await expect(write(k, 0)).rejects.toBeInstanceOf(RangeError);
        await expect(write(k, Number.NaN)).rejects.toBeInstanceOf(RangeError);
        expect(await store.exists(k)).toBe(false);
      });

      it('the TTL of a write also holds when the answer is guarded or the field exists', async () => {
        const k = key('guarded');
        await store.hset(k, { '~closed': '1' });
        expect(await store.pttl(k)).toBe(-1);
        expect(await store.hsetnxUnless(k, 'late', 'v', '~closed', { ttlMs: 30_000 })).toBe('guarded');
        await expectTtl(k, 30_000);
        expect(await store.hget(k, 'late')).toBeNull();
      });

      it('a key written with a TTL expires whole', async () => {
        const k = key('short-hash');
        await store.hset(k, { a: '1' }, { ttlMs: 80 });
        await store.hincrby(k, 'n', 1);
        await vi.waitFor(async () => expect(await store.exists(k)).toBe(false), { timeout: WAIT_TIMEOUT_MS, interval: 20 });
      });
    });

    describe('ST7 batched reads', () => {
      it('mget reads many strings in order; missing keys and other types read as null', async () => {
        const [a, b, hash, missing] = [key('a'), key('b'), key('hash'), key('missing')];
        await store.set(a, '가');
        await store.set(b, 'b');
        await store.hset(hash, { f: 'v' });
        expect(await store.mget([b, missing, a, hash, a])).toEqual(['b', null, '가', null, '가']);
        expect(await store.mget([])).toEqual([]);
      });

      it('hgetallMany reads whole hashes in order; a missing key reads as an empty hash', async () => {
        const [one, two, missing] = [key('h1'), key('h2'), key('missing')];
        await store.hset(one, { a: '1', 이름: '값' });
        await store.hset(two, { b: '2' });
        expect(await store.hgetallMany([two, missing, one, two])).toEqual([{ b: '2' }, {}, { a: '1', 이름: '값' }, { b: '2' }]);
        expect(await store.hgetallMany([])).toEqual([]);
      });

      it('hmget reads fields of one hash in order; missing fields and keys read as null', async () => {
        const k = key('fields');
        await store.hset(k, { phase: 'open', players: '3' });
        expect(await store.hmget(k, ['players', 'nope', 'phase'])).toEqual(['3', null, 'open']);
        expect(await store.hmget(key('missing'), ['a', 'b'])).toEqual([null, null]);
        expect(await store.hmget(k, [])).toEqual([]);
      });
    });

    describe('ST8 leases', () => {
      it('one owner at a time', async () => {
        const k = key('lease');
        expect(await store.leaseOwner(k)).toBeNull();
        expect(await store.acquireLease(k, 'node-a', 10_000)).toBe(true);
        expect(await store.acquireLease(k, 'node-b', 10_000)).toBe(false);
        expect(await store.acquireLease(k, 'node-a', 10_000)).toBe(false);
        expect(await store.leaseOwner(k)).toBe('node-a');

        const contested = key('contested');
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, index) => store.acquireLease(contested, `node-${index}`, 10_000)),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await store.leaseOwner(contested)).toBe(`node-${results.indexOf(true)}`);
      });

      it('only the owner renews', async () => {
        const k = key('renew');
        await store.acquireLease(k, 'node-a', 1_000);
        expect(await store.renewLease(k, 'node-b', 60_000)).toBe(false);
        expect(await store.pttl(k)).toBeLessThanOrEqual(1_000);
        expect(await store.renewLease(k, 'node-a', 60_000)).toBe(true);
        expect(await store.pttl(k)).toBeGreaterThan(1_000);
        expect(await store.renewLease(key('none'), 'node-a', 1_000)).toBe(false);
      });

      it('only the owner releases', async () => {
        const k = key('release');
        await store.acquireLease(k, 'node-a', 10_000);
        expect(await store.releaseLease(k, 'node-b')).toBe(false);
        expect(await store.leaseOwner(k)).toBe('node-a');
        expect(await store.releaseLease(k, 'node-a')).toBe(true);
        expect(await store.leaseOwner(k)).toBeNull();
        expect(await store.releaseLease(k, 'node-a')).toBe(false);
        expect(await store.acquireLease(k, 'node-b', 10_000)).toBe(true);
      });

      it('an expired lease can be taken by another owner and no longer renewed by the old one', async () => {
        const k = key('expiry');
        expect(await store.acquireLease(k, 'node-a', 80)).toBe(true);
        await vi.waitFor(async () => expect(await store.acquireLease(k, 'node-b', 10_000)).toBe(true), {
          timeout: WAIT_TIMEOUT_MS,
          interval: 20,
        });
        expect(await store.leaseOwner(k)).toBe('node-b');
        expect(await store.renewLease(k, 'node-a', 10_000)).toBe(false);
        expect(await store.releaseLease(k, 'node-a')).toBe(false);
      });
    });

    describe('DR7 token buckets', () => {
      const bucket = { capacity: 3, refillPerSecond: 2 };
      it('DR7 a burst of `capacity`, then refills on the caller\'s clock; a forced take leaves a debt; a full bucket leaves no key', async () => {
        const k = key('bucket');
        const now = 1_800_000_000_000;
        const takes = [];
        for (let index = 0; index < 4; index += 1) takes.push(await store.takeTokens(k, { ...bucket, now }));
        expect(takes.map((take) => take.taken)).toEqual([true, true, true, false]);
        expect(takes[3]!.tokens).toBe(0);
        // Half a second refills one token; it never goes past the capacity.
        expect(await store.takeTokens(k, { ...bucket, now: now + 500 })).toEqual({ taken: true, tokens: 0 });
        expect(await store.takeTokens(k, { ...bucket, now: now + 750 })).toEqual({ taken: false, tokens: 0.5 });
        // A clock behind the bucket's refills nothing.
        expect(await store.takeTokens(k, { ...bucket, now: now - 60_000 })).toEqual({ taken: false, tokens: 0.5 });
        expect(await store.takeTokens(k, { ...bucket, now: now + 750, cost: 4, force: true })).toEqual({ taken: true, tokens: -3.5 });
        expect((await store.takeTokens(k, { ...bucket, now: now + 2_500 })).taken).toBe(false);
        expect(await store.takeTokens(k, { ...bucket, now: now + 3_250 })).toEqual({ taken: true, tokens: 0.5 });
        // Refilled to the capacity the key expires with nothing lost: an absent key is a full bucket.
        expect(await store.pttl(k)).toBeGreaterThan(0);
        expect(await store.pttl(k)).toBeLessThanOrEqual(1_500);
        expect(await store.takeTokens(key('other'), { ...bucket, now, cost: 0 })).toEqual({ taken: true, tokens: 3 });
        expect(await store.exists(key('other'))).toBe(false);
      });

      it('DR7 concurrent takers never take more than the bucket holds', async () => {
        const k = key('crowd');
        const now = 1_800_000_000_000;
        const results = await Promise.all(Array.from({ length: 50 }, () => store.takeTokens(k, { capacity: 20, refillPerSecond: 1, now })));
        expect(results.filter((result) => result.taken)).toHaveLength(20);
        await expect(store.takeTokens(k, { capacity: 0, refillPerSecond: 1, now })).rejects.toBeInstanceOf(RangeError);
      });
    });

    describe('ST9 lifecycle', () => {
      it('reports its kind and answers ping', async () => {
        expect(['memory', 'redis']).toContain(store.kind);
        await expect(store.ping()).resolves.toBeUndefined();
      });

      it('close ends running tails', async () => {
        const own = await makeStore();
        const k = key('closing');
        const tail = startTail(own, k, '0');
        await own.xadd(k, { n: '1' });
        await tail.waitFor(1);
        await own.close();
        await expect(tail.done).resolves.toBeUndefined();
      });
    });
  });
}

function compareIds(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split('-').map(Number);
  const [bMs = 0, bSeq = 0] = b.split('-').map(Number);
  return aMs === bMs ? aSeq - bSeq : aMs - bMs;
}

function expectIncreasing(entries: StreamEntry[]): void {
  for (let index = 1; index < entries.length; index += 1) {
    expect(compareIds((entries[index - 1] as StreamEntry).id, (entries[index] as StreamEntry).id)).toBeLessThan(0);
  }
}

export interface RunningTail {
  /** Everything the tail has yielded so far, in order. */
  entries: StreamEntry[];
  /** Settles when the tail ends: resolves on a clean end, rejects when the iterator threw. */
  done: Promise<void>;
  /** True once the iterator has ended (cleanly or not). */
  readonly ended: boolean;
  /** Resolves once at least `count` entries arrived; rejects if the tail ends first or after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  /** Aborts the tail and waits for it to end. */
  stop(): Promise<void>;
}

/** Consumes `store.xtail` in the background so a test can wait on progress events instead of sleeping. */
export function startTail(store: Store, key: string, afterId: string, options: Omit<TailOptions, 'signal'> = {}): RunningTail {
  const controller = new AbortController();
  const entries: StreamEntry[] = [];
  const progress = new Set<() => void>();
  let ended = false;
  const notify = () => {
    for (const listener of [...progress]) listener();
  };
  const done = (async () => {
    try {
      for await (const entry of store.xtail(key, afterId, { ...options, signal: controller.signal })) {
        entries.push(entry);
        notify();
      }
    } finally {
      ended = true;
      notify();
    }
  })();
  // The test awaits `done` (via stop) or sees the failure through waitFor; never an unhandled rejection.
  done.catch(() => {});

  return {
    entries,
    done,
    get ended() {
      return ended;
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (entries.length >= count) finish();
          else if (ended) finish(new Error(`tail ended after ${entries.length} of ${count} entries`));
        };
        const timer = setTimeout(
          () => finish(new Error(`tail got ${entries.length} of ${count} entries within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const finish = (error?: Error) => {
          clearTimeout(timer);
          progress.delete(check);
          if (error) reject(error);
          else resolve();
        };
        progress.add(check);
        check();
      });
    },
    async stop() {
      controller.abort();
      await done;
    },
  };
}
