/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - ST1 — Strings. `get` answers null for a missing key; `set` round-trips, `nx` lets the first write win, a TTL
 *   expires the key and a plain `set` clears an earlier TTL …
 * - ST2 — Bytes. Binary values round-trip exactly (0x00, invalid UTF-8, 5 MB), a `Uint8Array` view stores just its
 *   bytes and is copied in and out; `nx` and TTL work as for strings …
 * - ST3 — Keys. `del` counts the keys that existed and `exists` follows; `expire` and `pttl` work on strings and
 *   whole collections.
 * - ST4 — Hashes. `hset`/`hget`/`hgetall`/`hlen`/`hdel`; a hash with no fields left no longer exists; any field name
 *   is plain data; `hsetnx` lets the first of 50 concurrent writers win …
 * - ST5 — Sorted sets. `zadd`/`zscore`/`zcard`/`zrem` (an emptied set no longer exists); order by score, ties by
 *   member bytes (UTF-8), both directions; `zrange` takes inclusive …
 * - ST6 — Streams. `xadd` returns strictly increasing `{ms}-{seq}` ids and refuses an entry without fields; `xread`
 *   returns the entries strictly after an id, oldest first, up to a count …
 * - ST7 — Batched reads. `mget` reads strings in order and `hmget` fields of one hash in order; missing keys and
 *   fields (and keys of another type for `mget`) read as null.
 * - ST8 — Leases. One owner at a time; only the owner renews or releases; an expired lease can be taken by another
 *   owner and no longer renewed by the old one.
 * - ST9 — Lifecycle. A store reports its kind and answers `ping`; `close` ends running tails.
 * - ST10 — Memory store clock. With an injected clock, keys expire exactly at their deadline, stream ids keep
 *   increasing when the clock stands still or goes back …
 */
import { describe, expect, it, vi } from 'vitest';
import { MemoryStore } from '../src/store/memory-store.js';
import { storeContract } from './store-contract.js';

storeContract('MemoryStore', async () => new MemoryStore());

describe('ST10 MemoryStore with an injected clock', () => {
  it('expires keys exactly at their deadline', async () => {
    let now = 1_000_000;
    const store = new MemoryStore({ clock: () => now });
    await store.set('k', 'v', { ttlMs: 1_000 });
    now += 999;
    expect(await store.pttl('k')).toBe(1);
    expect(await store.get('k')).toBe('v');
    now += 1;
    expect(await store.get('k')).toBeNull();
    expect(await store.pttl('k')).toBe(-2);
    await store.close();
  });

  it('keeps stream ids increasing when the clock stands still or goes backwards', async () => {
    let now = 5_000;
    const store = new MemoryStore({ clock: () => now });
    const first = await store.xadd('s', { n: '1' });
    const second = await store.xadd('s', { n: '2' });
    now = 4_000;
    const third = await store.xadd('s', { n: '3' });
    now = 6_000;
    const fourth = await store.xadd('s', { n: '4' });
    expect([first, second, third, fourth]).toEqual(['5000-0', '5000-1', '5000-2', '6000-0']);
    await store.close();
  });

  it('the sweep drops expired keys nobody reads again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let now = 0;
      const store = new MemoryStore({ clock: () => now, sweepIntervalMs: 10 });
      await store.set('gone', 'v', { ttlMs: 5 });
      await store.set('kept', 'v');
      now = 10;
      vi.advanceTimersByTime(10);
      // Only the internal map can tell a swept key from one that would merely expire on its next read.
      expect((store as unknown as { slots: Map<string, unknown> }).slots.has('gone')).toBe(false);
      expect(await store.get('kept')).toBe('v');
      await store.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
