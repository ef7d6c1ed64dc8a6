import { z } from 'zod';
import { readJsonRecord, type Store } from '../store/index.js';
import { randomSecret, sha256 } from './secrets.js';
import { authKeys } from './auth-keys.js';

/** A browser session as stored, under the sha256 of its cookie value. */
export interface WebSessionRecord {
  accountId: string;
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
}

/** What a new session hands to the HTTP layer: the cookie's value (never stored) and the CSRF token. */
export interface NewWebSession {
  /** Random 32 bytes (base64url); the store keeps only its sha256. */
  cookieValue: string;
  csrfToken: string;
  expiresAt: number;
  /** The session's id in the store (sha256 of the cookie value): what `Principal.webSessionId` holds. */
  webSessionId: string;
}

const WebSessionSchema = z.object({
  accountId: z.string(),
  csrfToken: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
});

/**
 * Server-side browser sessions with a fixed lifetime (the store's TTL ends them; no sliding renewal, so a stolen
 * cookie dies on schedule). Each account keeps an index of its sessions so they can all be revoked at once: sign
 * out everywhere, a password change (all but the current one), a reset link, a disabled account.
 */
export class WebSessions {
  constructor(
    private readonly store: Store,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async create(accountId: string): Promise<NewWebSession> {
    const cookieValue = randomSecret();
    const webSessionId = sha256(cookieValue);
    const createdAt = this.now();
    const record: WebSessionRecord = { accountId, csrfToken: randomSecret(), createdAt, expiresAt: createdAt + this.ttlMs };
    await this.store.set(authKeys.webSession(webSessionId), JSON.stringify(record), { ttlMs: this.ttlMs });
    // The index lives as long as its newest session; entries of sessions that expired are dropped at the next revoke.
    await this.store.zadd(authKeys.accountWebSessions(accountId), record.expiresAt, webSessionId, { ttlMs: this.ttlMs });
    return { cookieValue, csrfToken: record.csrfToken, expiresAt: record.expiresAt, webSessionId };
  }

  /** The session a cookie value names, or null (unknown, expired, or not a value we could have made). */
  async resolve(cookieValue: string): Promise<(WebSessionRecord & { webSessionId: string }) | null> {
    if (!/^[A-Za-z0-9_-]{43}$/.test(cookieValue)) return null;
    const webSessionId = sha256(cookieValue);
    const key = authKeys.webSession(webSessionId);
    const record = readJsonRecord(await this.store.get(key), WebSessionSchema, { key });
    if (!record || record.expiresAt <= this.now()) return null;
    return { ...record, webSessionId };
  }

  async revoke(webSessionId: string, accountId: string): Promise<void> {
    await this.store.del(authKeys.webSession(webSessionId));
    await this.store.zrem(authKeys.accountWebSessions(accountId), webSessionId);
  }

  /** Ends every session of the account, or every one but `except` (the session that changed the password). */
  async revokeAll(accountId: string, except?: string): Promise<number> {
    const index = authKeys.accountWebSessions(accountId);
    const ids = (await this.store.zrange(index, 0, -1)).map((entry) => entry.member).filter((id) => id !== except);
    if (ids.length === 0) return 0;
    await this.store.del(...ids.map((id) => authKeys.webSession(id)));
    await this.store.zrem(index, ...ids);
    return ids.length;
  }
}
