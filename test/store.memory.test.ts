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
