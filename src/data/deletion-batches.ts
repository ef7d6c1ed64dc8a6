import { keys, type Store } from '../store/index.js';

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

/**
 * The quality console's samples of outputs written from a material or for a session (queued cases and graded
 * interactions share their id; they can quote students' answers): deleted with what they came from. Timelines and
 * daily counts keep no text; their entries for a deleted sample are skipped when read.
 */
export async function deleteQualitySamples(store: Store, owner: 'material' | 'session', id: string): Promise<void> {
  await drainIndex(store, keys.qualityOwned(owner, id), async (sampleIds) => {
    await store.del(...sampleIds.flatMap((sampleId) => [keys.qualityCase(sampleId), keys.qualityInteraction(sampleId)]));
    await store.zrem(keys.qualityQueue(), ...sampleIds);
  });
}
