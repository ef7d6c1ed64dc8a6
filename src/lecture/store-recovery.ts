import { setTimeout as sleep } from 'node:timers/promises';
import type { Store } from '../store/index.js';

/** First wait before asking the store again; it doubles up to the cap (Redis reconnects within about a second). */
const FIRST_WAIT_MS = 200;
const MAX_WAIT_MS = 2_000;

/**
 * Waits until the store answers a ping again, asking with a capped backoff; false when `gone()` turns true first
 * (the session was closed meanwhile). One loop per session that lost the store, so a session never retries faster
 * than this, however many writes failed.
 */
export async function waitForStore(store: Pick<Store, 'ping'>, gone: () => boolean): Promise<boolean> {
  for (let wait = FIRST_WAIT_MS; !gone(); wait = Math.min(wait * 2, MAX_WAIT_MS)) {
    await sleep(wait, undefined, { ref: false });
    if (gone()) return false;
    try {
      await store.ping();
      return true;
    } catch {
      // still away: wait longer
    }
  }
  return false;
}
