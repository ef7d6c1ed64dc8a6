/**
 * Store keys shared by several folders, and the shared prefix every key is built with (`storeKey`), so a Redis can be
 * shared with other applications. A feature's own keys live in its folder's keys file (quiz/quiz-keys.ts,
 * classroom/class-keys.ts, lecture/lecture-keys.ts, math-problems/math-keys.ts, quality/quality-keys.ts,
 * materials/material-keys.ts, retrieval/retrieval-keys.ts, llm/usage-keys.ts, exams/exam-keys.ts, lti/lti-keys.ts, auth/auth-keys.ts, jobs/job-keys.ts, quota/quota-keys.ts,
 * ownership/ownership-keys.ts, boundary/limit-keys.ts). Ephemeral things (sessions, rooms, locks) get TTLs where they are
 * written; results, exam logs and learner profiles have none.
 */
export const KEY_PREFIX = 'lectern:';

/** Builds a key under the shared prefix: every feature's keys file builds its keys with it. */
export const storeKey = (...parts: (string | number)[]) => KEY_PREFIX + parts.join(':');
const key = storeKey;

export const keys = {
  /** A string used by readiness checks. */
  health: () => key('health'),
  /** A node's heartbeat (short TTL, renewed every second): presence entries of a node without one are stale. */
  nodeHeartbeat: (nodeId: string) => key('node', nodeId),
  // Data lifecycle (deletion, retention, export: src/data/).
  /** Rooms whose results hold student data (sorted set scored by the last results write): the retention purge's queue. */
  retentionRooms: () => key('retention', 'rooms'),
  /** Lease of the one node running the retention purge. */
  retentionLease: () => key('retention', 'lease'),
};

export type Keys = typeof keys;
