import { storeKey as key, type Store } from '../store/index.js';

/** The model usage meter's store keys. */
export const usageKeys = {
  /**
   * Token usage attributed to a session, room or material (hash: field per role and direction). Quota: scope
   * `account` with id `{accountId}:{yyyy-mm-dd}` is one account's usage on one UTC day (the model budget); ~2 days TTL.
   */
  usage: (scope: 'session' | 'room' | 'material' | 'account', id: string) => key('usage', scope, id),
};

/** Deletes the usage counters of sessions, rooms or a material (data/'s deletions; an account's day counters expire). */
export async function deleteUsage(store: Store, scope: 'session' | 'room' | 'material', ids: string[]): Promise<void> {
  if (ids.length > 0) await store.del(...ids.map((id) => usageKeys.usage(scope, id)));
}
