import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ApiTokenView, CreatedApiToken } from '../protocol/account.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { randomSecret, sha256 } from './secrets.js';
import { authKeys } from './auth-keys.js';

/** Personal API tokens start with this, so a leaked one is recognisable (secret scanners) and routed to us. */
export const API_TOKEN_PREFIX = 'lct_';
const TOKEN_SHAPE = /^lct_[A-Za-z0-9_-]{43}$/;
/** lastUsedAt is written at most this often per token: a busy script must not turn every request into a write. */
const USE_WRITE_INTERVAL_MS = 60_000;
/** Tokens one account may hold (the list is one read, and nobody needs more). */
export const MAX_API_TOKENS = 50;

const StoredToken = z.object({ name: z.string(), createdAt: z.number(), secretHash: z.string() });

/**
 * Personal API tokens: `lct_` + 32 random bytes, shown once; the store keeps only the sha256 (the lookup key) and,
 * per account, the name and creation time of each. A token works while its account is active; revoking deletes both.
 */
export class ApiTokens {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async create(accountId: string, name: string): Promise<CreatedApiToken | 'too-many'> {
    if ((await this.store.hlen(authKeys.accountApiTokens(accountId))) >= MAX_API_TOKENS) return 'too-many';
    const token = API_TOKEN_PREFIX + randomSecret();
    const tokenId = randomBytes(16).toString('hex');
    const secretHash = sha256(token);
    const createdAt = this.now();
    await this.store.hset(authKeys.accountApiTokens(accountId), { [tokenId]: JSON.stringify({ name, createdAt, secretHash }) });
    await this.store.set(authKeys.apiToken(secretHash), `${accountId} ${tokenId}`);
    return { tokenId, name, createdAt, lastUsedAt: null, token };
  }

  async list(accountId: string): Promise<ApiTokenView[]> {
    const [tokens, uses] = await Promise.all([
      this.store.hgetall(authKeys.accountApiTokens(accountId)),
      this.store.hgetall(authKeys.accountApiTokenUse(accountId)),
    ]);
    const views: ApiTokenView[] = [];
    for (const [tokenId, raw] of Object.entries(tokens)) {
      const stored = readJsonRecord(raw, StoredToken, { key: authKeys.accountApiTokens(accountId) });
      if (!stored) continue;
      const used = uses[tokenId];
      views.push({ tokenId, name: stored.name, createdAt: stored.createdAt, lastUsedAt: used === undefined ? null : Number(used) });
    }
    return views.sort((a, b) => b.createdAt - a.createdAt || a.tokenId.localeCompare(b.tokenId));
  }

  /** Revokes one of the account's tokens; false when it has no such token. */
  async revoke(accountId: string, tokenId: string): Promise<boolean> {
    const raw = await this.store.hget(authKeys.accountApiTokens(accountId), tokenId);
    const stored = readJsonRecord(raw, StoredToken, { key: authKeys.accountApiTokens(accountId) });
    if (raw === null) return false;
    if (stored) await this.store.del(authKeys.apiToken(stored.secretHash));
    await this.store.hdel(authKeys.accountApiTokens(accountId), tokenId);
    await this.store.hdel(authKeys.accountApiTokenUse(accountId), tokenId);
    return true;
  }

  /** Revokes every token of the account (a password reset or change that asked for it); how many there were. */
  async revokeAll(accountId: string): Promise<number> {
    const tokenIds = Object.keys(await this.store.hgetall(authKeys.accountApiTokens(accountId)));
    for (const tokenId of tokenIds) await this.revoke(accountId, tokenId);
    return tokenIds.length;
  }

  /** The account and token id a presented token belongs to, or null; notes its use (throttled). */
  async resolve(token: string): Promise<{ accountId: string; tokenId: string } | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const owner = await this.store.get(authKeys.apiToken(sha256(token)));
    const [accountId, tokenId] = owner?.split(' ') ?? [];
    if (!accountId || !tokenId) return null;
    const now = this.now();
    const useKey = authKeys.accountApiTokenUse(accountId);
    const last = Number((await this.store.hget(useKey, tokenId)) ?? 0);
    if (now - last >= USE_WRITE_INTERVAL_MS) await this.store.hset(useKey, { [tokenId]: String(now) });
    return { accountId, tokenId };
  }
}
