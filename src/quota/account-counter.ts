import type { QuotaName } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { quotaExceeded } from './quota-messages.js';
import { quotaKeys } from './quota-keys.js';

/**
 * A count an account holds against a limit another feature enforces (quiz pictures' `quiz-image-bytes`), kept in the
 * account's quota hash like the quotas of quotas.ts, whose key stays this module's. Reserving counts up first and
 * back down when over the limit, so two reservations at once cannot both slip under it.
 */
export const accountCounter = {
  /** Counts `amount` more of `quota` for the account, or throws QUOTA_EXCEEDED (counting nothing) past `limit`. */
  async reserve(store: Store, accountId: string, quota: QuotaName, amount: number, limit: number): Promise<void> {
    const key = quotaKeys.quota('account', accountId);
    if ((await store.hincrby(key, quota, amount)) > limit) {
      await store.hincrby(key, quota, -amount);
      throw quotaExceeded(quota, limit);
    }
  },

  /** Counts `amount` of `quota` back down (a reservation rolled back, or the thing deleted). */
  async release(store: Store, accountId: string, quota: QuotaName, amount: number): Promise<void> {
    await store.hincrby(quotaKeys.quota('account', accountId), quota, -amount);
  },
};
