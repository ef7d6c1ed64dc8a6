/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - ST11 — Across nodes. On one Redis, a tail through one store sees entries added through another, and leases are
 *   exclusive across stores.
 */
import { describe, expect, it } from 'vitest';
import { startTail, storeContract } from './store-contract.js';
import { TEST_REDIS_URL, uniquePrefix, testRedisStore } from './support/redis-server.js';

storeContract('RedisStore', async () => testRedisStore(TEST_REDIS_URL));

describe('ST11 RedisStore across nodes', () => {
  it('a tail on one store sees entries added through another (two nodes, one Redis)', async () => {
    const nodeA = testRedisStore(TEST_REDIS_URL);
    const nodeB = testRedisStore(TEST_REDIS_URL);
    const key = `${uniquePrefix()}stream`;
    try {
      const tail = startTail(nodeA, key, '0');
      await nodeB.xadd(key, { from: 'b', n: '1' });
      await tail.waitFor(1);
      await nodeB.xadd(key, { from: 'b', n: '2' });
      await tail.waitFor(2);
      await tail.stop();
      expect(tail.entries.map((entry) => entry.fields.n)).toEqual(['1', '2']);
    } finally {
      await nodeA.del(key);
      await Promise.all([nodeA.close(), nodeB.close()]);
    }
  });

  it('leases are exclusive across stores', async () => {
    const nodeA = testRedisStore(TEST_REDIS_URL);
    const nodeB = testRedisStore(TEST_REDIS_URL);
    const key = `${uniquePrefix()}lease`;
    try {
      const [a, b] = await Promise.all([nodeA.acquireLease(key, 'a', 5_000), nodeB.acquireLease(key, 'b', 5_000)]);
      expect([a, b].filter(Boolean)).toHaveLength(1);
      const owner = a ? 'a' : 'b';
      expect(await nodeB.leaseOwner(key)).toBe(owner);
      expect(await (a ? nodeB : nodeA).releaseLease(key, a ? 'b' : 'a')).toBe(false);
      expect(await (a ? nodeA : nodeB).releaseLease(key, owner)).toBe(true);
    } finally {
      await nodeA.del(key);
      await Promise.all([nodeA.close(), nodeB.close()]);
    }
  });
});
