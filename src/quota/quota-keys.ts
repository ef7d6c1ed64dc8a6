import { storeKey as key } from '../store/index.js';

/**
 * The quotas' store keys: the counters of what an owner holds and the records that let a deletion count them back
 * down; durable (no TTL), kept down by deletion.
 */
export const quotaKeys = {
  /**
   * What an owner holds (hash: `materials`, `pdf-bytes`, `quiz-image-bytes` for an account; `quizzes` for a class; `open-rooms` for
   * whoever owns rooms), counted up before a creation and back down on failure or deletion; no TTL.
   */
  quota: (scope: 'account' | 'class', id: string) => key('quota', scope, id),
  /** The open rooms counted in an owner's `open-rooms` (sorted set of room ids by creation time); no TTL. */
  quotaRooms: (scope: 'account' | 'class', id: string) => key('quota', scope, id, 'rooms'),
  /** The accounts a material is charged to (hash: account id -> bytes charged), so its deletion credits them; no TTL. */
  quotaMaterial: (materialId: string) => key('quota', 'material', materialId),
};
