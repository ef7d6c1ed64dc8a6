import { drainIndex, type Store } from '../store/index.js';
import { qualityKeys } from './quality-keys.js';

/**
 * The quality console's samples of outputs written from a material or for a session (queued cases and graded
 * interactions share their id; they can quote students' answers): deleted with what they came from (data/ decides
 * when). Timelines and daily counts keep no text; their entries for a deleted sample are skipped when read.
 */
async function deleteSamples(store: Store, owner: 'material' | 'session', id: string): Promise<void> {
  await drainIndex(store, qualityKeys.qualityOwned(owner, id), async (sampleIds) => {
    await store.del(...sampleIds.flatMap((sampleId) => [qualityKeys.qualityCase(sampleId), qualityKeys.qualityInteraction(sampleId)]));
    await store.zrem(qualityKeys.qualityQueue(), ...sampleIds);
  });
}

export const qualityLifecycle = {
  deleteByMaterial: (store: Store, materialId: string) => deleteSamples(store, 'material', materialId),
  deleteBySession: (store: Store, sessionId: string) => deleteSamples(store, 'session', sessionId),
};
