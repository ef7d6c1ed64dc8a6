import { z } from 'zod';
import { readJsonRecord, type Store } from '../store/index.js';
import { randomSecret, sha256 } from './secrets.js';
import { authKeys } from './auth-keys.js';

/** An invite lasts a week; a reset link a day. Both work once. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60_000;
export const RESET_LINK_TTL_MS = 24 * 60 * 60_000;

const InviteSchema = z.object({ createdBy: z.string(), createdAt: z.number(), expiresAt: z.number() });
/** `version`: the account's credentials generation when the link was made (links made before it existed: 0). */
const ResetSchema = z.object({ accountId: z.string(), createdAt: z.number(), expiresAt: z.number(), version: z.number().int().default(0) });
export type Invite = z.infer<typeof InviteSchema>;
export type ResetLink = z.infer<typeof ResetSchema>;

/**
 * Invites and password reset links: a random code (32 bytes) that the admin hands over; the store keeps its sha256
 * with a TTL. Taking one is GET then DEL, and only the caller whose DEL removed the key may use it, so two people
 * racing with one link get one success.
 */
export class OneTimeLinks {
  constructor(
    private readonly store: Store,
    private readonly now: () => number = Date.now,
  ) {}

  async createInvite(createdBy: string): Promise<{ code: string; expiresAt: number }> {
    const code = randomSecret();
    const createdAt = this.now();
    const invite: Invite = { createdBy, createdAt, expiresAt: createdAt + INVITE_TTL_MS };
    await this.store.set(authKeys.invite(sha256(code)), JSON.stringify(invite), { ttlMs: INVITE_TTL_MS });
    return { code, expiresAt: invite.expiresAt };
  }

  async peekInvite(code: string): Promise<Invite | null> {
    const key = authKeys.invite(sha256(code));
    const invite = readJsonRecord(await this.store.get(key), InviteSchema, { key });
    return invite && invite.expiresAt > this.now() ? invite : null;
  }

  /** Uses the invite up; null when it is unknown, expired or already used. */
  async takeInvite(code: string): Promise<Invite | null> {
    const invite = await this.peekInvite(code);
    if (!invite) return null;
    return (await this.store.del(authKeys.invite(sha256(code)))) === 1 ? invite : null;
  }

  /** Puts back an invite whose sign-up failed after taking it (e.g. the email was taken), for its remaining time. */
  async restoreInvite(code: string, invite: Invite): Promise<void> {
    const ttlMs = invite.expiresAt - this.now();
    if (ttlMs > 0) await this.store.set(authKeys.invite(sha256(code)), JSON.stringify(invite), { ttlMs, nx: true });
  }

  /** A reset link for the account's credentials generation `version` (see AccountRepository.credentialsVersion). */
  async createResetLink(accountId: string, version: number): Promise<{ code: string; expiresAt: number }> {
    const code = randomSecret();
    const createdAt = this.now();
    const link: ResetLink = { accountId, createdAt, expiresAt: createdAt + RESET_LINK_TTL_MS, version };
    await this.store.set(authKeys.resetLink(sha256(code)), JSON.stringify(link), { ttlMs: RESET_LINK_TTL_MS });
    return { code, expiresAt: link.expiresAt };
  }

  async takeResetLink(code: string): Promise<ResetLink | null> {
    const key = authKeys.resetLink(sha256(code));
    const link = readJsonRecord(await this.store.get(key), ResetSchema, { key });
    if (!link || link.expiresAt <= this.now()) return null;
    return (await this.store.del(key)) === 1 ? link : null;
  }
}
