import { randomBytes } from 'node:crypto';
import type { PageRequest } from '../protocol/page.js';
import type { AccountRole, AccountStatus } from '../protocol/account.js';
import { pageOfIndex, type Store } from '../store/index.js';
import { sha256 } from './secrets.js';
import { authKeys } from './auth-keys.js';

/** A stored account. `passwordHash` is '' for an account made by single sign-on that never set a password. */
export interface AccountRecord {
  accountId: string;
  email: string;
  role: AccountRole;
  status: AccountStatus;
  passwordHash: string;
  createdAt: number;
  /** When the account last ended its sessions (ms): class and host tokens signed before are refused. */
  signedOutAt?: number;
}

/**
 * Accounts in the store: one hash per account, an email reservation (SET NX on the sha256 of the normalised email,
 * so two sign-ups with one address race to one winner), OIDC identity links, the admin marker and the list index.
 * Fields are written one by one (HSET), so a password change and a status change never overwrite each other.
 */
export class AccountRepository {
  constructor(private readonly store: Store) {}

  newId(): string {
    return randomBytes(16).toString('hex');
  }

  async get(accountId: string): Promise<AccountRecord | null> {
    return toRecord(accountId, await this.store.hgetall(authKeys.account(accountId)));
  }

  async idByEmail(email: string): Promise<string | null> {
    return this.store.get(authKeys.accountEmail(sha256(email)));
  }

  /** Reserves `email` for `accountId`; false when another account has it. */
  reserveEmail(email: string, accountId: string): Promise<boolean> {
    return this.store.set(authKeys.accountEmail(sha256(email)), accountId, { nx: true });
  }

  async releaseEmail(email: string, accountId: string): Promise<void> {
    // Only our own reservation: never free an address a concurrent sign-up now holds.
    if ((await this.idByEmail(email)) === accountId) await this.store.del(authKeys.accountEmail(sha256(email)));
  }

  /** Claims the admin role of the deployment for `accountId`; true for exactly one account ever. */
  claimAdmin(accountId: string): Promise<boolean> {
    return this.store.set(authKeys.accountAdmin(), accountId, { nx: true });
  }

  /** Gives the admin role back (a first sign-up that failed after winning it), only if `accountId` holds it. */
  async releaseAdmin(accountId: string): Promise<void> {
    if ((await this.store.get(authKeys.accountAdmin())) === accountId) await this.store.del(authKeys.accountAdmin());
  }

  async hasAdmin(): Promise<boolean> {
    return this.store.exists(authKeys.accountAdmin());
  }

  async write(record: AccountRecord): Promise<void> {
    await this.store.hset(authKeys.account(record.accountId), {
      email: record.email,
      role: record.role,
      status: record.status,
      passwordHash: record.passwordHash,
      createdAt: String(record.createdAt),
    });
  }

  async index(accountId: string, createdAt: number): Promise<void> {
    await this.store.zadd(authKeys.accountIndex(), createdAt, accountId);
  }

  async update(accountId: string, fields: Partial<Pick<AccountRecord, 'role' | 'status' | 'passwordHash'>>): Promise<void> {
    const values: Record<string, string> = {};
    for (const [field, value] of Object.entries(fields)) if (value !== undefined) values[field] = value;
    await this.store.hset(authKeys.account(accountId), values);
  }

  /**
   * The account's credentials generation: every password change and every used reset link moves it on, and a reset
   * link works only in the generation it was made in (so using one voids every other).
   */
  async credentialsVersion(accountId: string): Promise<number> {
    return Number((await this.store.hget(authKeys.account(accountId), 'credentials')) ?? 0);
  }

  /** Moves the credentials generation on, atomically; the new generation. */
  bumpCredentials(accountId: string): Promise<number> {
    return this.store.hincrby(authKeys.account(accountId), 'credentials', 1);
  }

  /** Notes that the account ended its sessions now: class and host tokens signed before stop working. */
  async markSignedOut(accountId: string, at: number): Promise<void> {
    await this.store.hset(authKeys.account(accountId), { signedOutAt: String(at) });
  }

  /** Removes a half-made account (a sign-up refused after its email was reserved). */
  async discard(accountId: string, email: string): Promise<void> {
    await this.store.del(authKeys.account(accountId));
    await this.store.zrem(authKeys.accountIndex(), accountId);
    await this.releaseEmail(email, accountId);
  }

  identityKey(issuer: string, subject: string): string {
    return authKeys.accountIdentity(sha256(`${issuer}\n${subject}`));
  }

  async idByIdentity(issuer: string, subject: string): Promise<string | null> {
    return this.store.get(this.identityKey(issuer, subject));
  }

  /** Links an OIDC identity to an account (first link wins); the id it is linked to afterwards. */
  async linkIdentity(issuer: string, subject: string, accountId: string): Promise<string | null> {
    const key = this.identityKey(issuer, subject);
    if (await this.store.set(key, accountId, { nx: true })) return accountId;
    return this.store.get(key);
  }

  /** One page of accounts in order of creation, read in one batch. */
  async page(page: PageRequest): Promise<{ items: AccountRecord[]; nextCursor: string | null }> {
    const { members, nextCursor } = await pageOfIndex(this.store, authKeys.accountIndex(), page, { reverse: false });
    const records = await Promise.all(members.map((id) => this.get(id)));
    return { items: records.filter((record): record is AccountRecord => record !== null), nextCursor };
  }
}

function toRecord(accountId: string, hash: Record<string, string>): AccountRecord | null {
  const { email, role, status, passwordHash, createdAt, signedOutAt } = hash;
  if (email === undefined || (role !== 'admin' && role !== 'instructor') || (status !== 'active' && status !== 'disabled')) return null;
  const record: AccountRecord = { accountId, email, role, status, passwordHash: passwordHash ?? '', createdAt: Number(createdAt ?? 0) };
  if (signedOutAt !== undefined && Number.isFinite(Number(signedOutAt))) record.signedOutAt = Number(signedOutAt);
  return record;
}
