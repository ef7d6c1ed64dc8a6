/**
 * The shared prefix every store key is built with (`storeKey`), so a Redis can be shared with other applications, and
 * the store's own keys. Each feature builds its keys in its folder's `*-keys.ts` file (quizKeys, classKeys, examKeys,
 * authKeys, ltiKeys…) and deletes them through its own lifecycle functions; key strings never change (test K5).
 * Ephemeral things (sessions, rooms, locks) get TTLs where they are written; results, exam logs and learner profiles
 * have none.
 */
export const KEY_PREFIX = 'lectern:';

/** Builds a key under the shared prefix: every feature's keys file builds its keys with it. */
export const storeKey = (...parts: (string | number)[]) => KEY_PREFIX + parts.join(':');
const key = storeKey;

/** The store's own keys. */
export const keys = {
  /** A string used by readiness checks. */
  health: () => key('health'),
  /** A node's heartbeat (short TTL, renewed every second): presence entries of a node without one are stale. */
  nodeHeartbeat: (nodeId: string) => key('node', nodeId),
};

export type Keys = typeof keys;
