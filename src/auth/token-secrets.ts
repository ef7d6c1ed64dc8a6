import { randomBytes } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { StoreUnavailableError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { authKeys } from './auth-keys.js';

/** How long a starting node waits for Redis to answer before it gives up (a Redis started a moment later is fine). */
const STORE_WAIT_MS = 30_000;
const RETRY_MS = 1_000;

/** 32 random bytes as base64url: no comma, so it can be pasted into TOKEN_SECRET as it is. */
export function generateTokenSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The secret every node of a Redis deployment signs with when TOKEN_SECRET is unset: the first node generates it
 * and stores it with SET NX (durable, no TTL); every other node, and every restart, reads the same one. Without
 * this, a restart would invalidate every token while the classes, rooms and results they open stay in Redis.
 * Retries while the store is unreachable, up to {@link STORE_WAIT_MS}.
 */
export async function sharedTokenSecret(store: Store, logger: Logger, waitMs = STORE_WAIT_MS): Promise<string> {
  const key = authKeys.tokenSecret();
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const candidate = generateTokenSecret();
      const created = await store.set(key, candidate, { nx: true });
      // Read back even after our own write: whatever the store holds is what every node uses.
      const stored = created ? candidate : await store.get(key);
      if (stored) {
        logger.warn(
          { key, generated: created },
          'TOKEN_SECRET is not set: tokens are signed with the secret shared in Redis; set TOKEN_SECRET explicitly (see README)',
        );
        return stored;
      }
      // Deleted between our SET NX and GET (someone reset it): try again at once, within the same deadline.
      if (Date.now() >= deadline) throw new Error(`the shared token secret (${key}) keeps disappearing`);
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || Date.now() >= deadline) throw error;
      logger.warn({ key }, 'waiting for Redis to read the shared token secret');
      await delay(RETRY_MS);
    }
  }
}
