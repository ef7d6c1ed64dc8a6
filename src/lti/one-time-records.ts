import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { sha256 } from './platform-repository.js';

/**
 * Short-lived records behind a random secret (a login's state, a deep linking request, a registration code, a quiz
 * ticket): the store keeps the record under the sha256 of the secret with a TTL, so the store never holds what opens
 * it. `take` is the one-use read: GET, then DEL, and only the caller whose DEL removed the key gets the record, so a
 * replay or two nodes racing cannot both use it.
 */
export class OneTimeRecords<T> {
  constructor(
    private readonly store: Store,
    private readonly keyOf: (secretHash: string) => string,
    private readonly schema: z.ZodType<T>,
    private readonly ttlMs: number,
    private readonly logger: Logger,
  ) {}

  /** Stores the record under a new random secret and answers the secret. */
  async put(record: T): Promise<string> {
    const secret = randomBytes(32).toString('base64url');
    await this.store.set(this.keyOf(sha256(secret)), JSON.stringify(record), { ttlMs: this.ttlMs });
    return secret;
  }

  /** The record, leaving it in place (a page reading its request again); null when unknown or expired. */
  async peek(secret: string): Promise<T | null> {
    const key = this.keyOf(sha256(secret));
    return readJsonRecord(await this.store.get(key), this.schema, { key, logger: this.logger });
  }

  /** The record, once: null when unknown, expired or already taken. */
  async take(secret: string): Promise<T | null> {
    const key = this.keyOf(sha256(secret));
    const raw = await this.store.get(key);
    if (raw === null || (await this.store.del(key)) !== 1) return null;
    return readJsonRecord(raw, this.schema, { key, logger: this.logger });
  }
}
