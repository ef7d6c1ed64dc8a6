import { storeKey as key, type Store } from '../store/index.js';

/** The retrieval index's store keys. */
export const retrievalKeys = {
  /** A material's retrieval index (bytes: passages, labels, BM25 postings, vectors; see retrieval/index-codec.ts); no TTL. */
  retrievalIndex: (materialId: string) => key('material', materialId, 'retrieval'),
  /** Single-flight lease of the node building or re-embedding a material's retrieval index. */
  retrievalLock: (materialId: string) => key('material', materialId, 'retrieval', 'lock'),
};

/** Deletes a material's index-building lease (data/'s material deletion; the index goes through RetrievalService.deleteIndex). */
export async function deleteRetrievalLock(store: Store, materialId: string): Promise<void> {
  await store.del(retrievalKeys.retrievalLock(materialId));
}
