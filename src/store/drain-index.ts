import type { Store } from './store.js';

/** Members read (and their keys deleted) per round trip: a big class or material is deleted in bounded steps. */
export const DELETE_BATCH = 100;

/**
 * Calls `each` on every member of a sorted set, a batch at a time, then deletes the set. Members are removed from
 * the set as they are handled, so a deletion that fails half way is finished by the next attempt (and never reads
 * the same batch forever): the work is the set's size, nothing else.
 */
export async function drainIndex(store: Store, key: string, each: (members: string[]) => Promise<void>): Promise<void> {
  for (;;) {
    const members = (await store.zrange(key, 0, DELETE_BATCH - 1)).map((entry) => entry.member);
    if (members.length === 0) break;
    await each(members);
    await store.zrem(key, ...members);
  }
  await store.del(key);
}

/** Reads a sorted set a batch at a time (members with their scores, in order), leaving it as it is. */
export async function readIndex(store: Store, key: string, each: (batch: { member: string; score: number }[]) => Promise<void>): Promise<void> {
  const total = await store.zcard(key);
  for (let start = 0; start < total; start += DELETE_BATCH) await each(await store.zrange(key, start, start + DELETE_BATCH - 1));
}
