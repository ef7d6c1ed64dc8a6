/**
 * Every store key is built here, so the key space can be read in one place. All keys share one prefix so a
 * Redis can be shared with other applications. Ephemeral things (sessions, rooms, locks) get TTLs where they are
 * written; results, exam logs and learner profiles have none.
 */
export const KEY_PREFIX = 'lectern:';

const key = (...parts: (string | number)[]) => KEY_PREFIX + parts.join(':');

export const keys = {
  /** A string used by readiness checks. */
  health: () => key('health'),
  /** Token usage attributed to a session, room or material (hash: field per role and direction). */
  usage: (scope: 'session' | 'room' | 'material', id: string) => key('usage', scope, id),
  material: (id: string) => key('material', id),
  materialIndex: () => key('materials'),
  materialLock: (id: string) => key('material', id, 'lock'),
  blob: (name: string) => key('blob', name),
};

export type Keys = typeof keys;
