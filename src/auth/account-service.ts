import { AppError } from '../kernel/index.js';
import type { SignupMode } from '../kernel/index.js';
import type { AccountListEntry, AccountView, ApiTokenView, CreatedApiToken } from '../protocol/account.js';
import type { PageRequest } from '../protocol/page.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { Store } from '../store/index.js';
import { AccountRepository, type AccountRecord } from './account-repository.js';
import { API_TOKEN_PREFIX, ApiTokens, MAX_API_TOKENS } from './api-tokens.js';
import { OneTimeLinks } from './one-time-links.js';
import { hashPassword, needsRehash, PASSWORD_COST, verifyPassword, type ScryptParameters } from './password.js';
import { WebSessions, type NewWebSession } from './web-sessions.js';

/** An identity asserted by the OpenID Connect provider the admin configured (OIDC_ISSUER). */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
  /** Normalised by the caller or not: it is normalised here again. */
  email: string;
  emailVerified: boolean;
  name?: string | undefined;
}

/** Who is calling, as the authenticate middleware finds it (cookie session or personal API token). */
export interface ResolvedCredential {
  account: AccountRecord;
  webSessionId?: string;
  csrfToken?: string;
}

/**
 * What a password reset or change also closes: the account's personal API keys, and its sessions (browser sessions,
 * and the class-instructor and host tokens its pages hold). Both default to yes: whoever had the old password may
 * have made a key or be signed in somewhere.
 */
export interface CloseDoors {
  revokeApiKeys?: boolean;
  endSessions?: boolean;
}

/** What was closed. */
export interface ClosedDoors {
  revokedApiKeys: number;
  endedSessions: number;
}

export interface AccountServiceOptions {
  store: Store;
  signup: SignupMode;
  sessionTtlMs: number;
  now?: () => number;
  /**
   * The scrypt cost of new password hashes (and of the decoy unknown emails verify against); PASSWORD_COST
   * otherwise. Only tests lower it: a hash at the real cost takes about 100 ms of a core, which sign-up-heavy suites
   * pay hundreds of times.
   */
  passwordCost?: ScryptParameters;
}

const invalidCredentials = () => new AppError(ErrorCode.INVALID_CREDENTIALS);
const disabled = () => new AppError(ErrorCode.ACCOUNT_DISABLED);
const emailTaken = () => new AppError(ErrorCode.EMAIL_TAKEN, '이미 가입된 이메일입니다. 로그인해 주세요.');
const signupClosed = () => new AppError(ErrorCode.SIGNUP_CLOSED, '지금은 가입을 받지 않습니다. 관리자에게 초대 링크를 요청해 주세요.');
const inviteInvalid = () => new AppError(ErrorCode.INVITE_INVALID, '초대 링크가 올바르지 않거나 만료되었거나 이미 사용되었습니다.');
const resetInvalid = () =>
  new AppError(ErrorCode.RESET_INVALID, '비밀번호 재설정 링크가 올바르지 않거나 만료되었거나 이미 사용되었습니다. 가장 최근에 받은 링크도 다른 링크를 쓴 뒤에는 쓸 수 없습니다. 관리자에게 새 링크를 받아 주세요.');
const accountNotFound = () => new AppError(ErrorCode.NOT_FOUND, '계정을 찾을 수 없습니다.');

export function accountView(record: AccountRecord): AccountView {
  return { accountId: record.accountId, email: record.email, role: record.role, createdAt: record.createdAt };
}

/**
 * Instructor accounts: sign-up (with the SIGNUP policy and the first account as admin), password sign-in, single
 * sign-on identities, browser sessions, personal API tokens, invites, reset links and the admin's actions. Knows
 * nothing of HTTP: the routers and the authenticate middleware (src/http) call it.
 */
export class AccountService {
  readonly signup: SignupMode;
  private readonly accounts: AccountRepository;
  private readonly sessions: WebSessions;
  private readonly tokens: ApiTokens;
  private readonly links: OneTimeLinks;
  private readonly now: () => number;
  private readonly passwordCost: ScryptParameters;

  constructor(options: AccountServiceOptions) {
    this.signup = options.signup;
    this.now = options.now ?? Date.now;
    this.passwordCost = options.passwordCost ?? PASSWORD_COST;
    this.accounts = new AccountRepository(options.store);
    this.sessions = new WebSessions(options.store, options.sessionTtlMs, this.now);
    this.tokens = new ApiTokens(options.store, this.now);
    this.links = new OneTimeLinks(options.store, this.now);
  }

  /**
   * Creates an account. The first account of the deployment becomes the admin whatever SIGNUP says (SET NX on the
   * admin marker: of two simultaneous first sign-ups exactly one wins); every other one needs SIGNUP=open, or a valid
   * invite under SIGNUP=invite. `email` must already be normalised (the zod schema does it).
   */
  async signUp(input: { email: string; password: string; invite?: string | undefined }): Promise<AccountRecord> {
    // An invite that cannot work is refused before the expensive hash and before anything is written.
    if (input.invite !== undefined && !(await this.links.peekInvite(input.invite))) throw inviteInvalid();
    if (this.signup !== 'open' && input.invite === undefined && (await this.accounts.hasAdmin())) {
      throw signupClosed();
    }
    const passwordHash = await hashPassword(input.password, this.passwordCost);
    return this.create(input.email, passwordHash, async () => {
      if (this.signup === 'open') return null;
      if (this.signup === 'closed') throw signupClosed();
      if (input.invite === undefined) throw signupClosed();
      const invite = await this.links.takeInvite(input.invite);
      if (!invite) throw inviteInvalid();
      return () => this.links.restoreInvite(input.invite as string, invite);
    });
  }

  /**
   * Reserves the email, claims the admin role if nobody has it, else passes `gate` (which may take an invite and
   * return how to give it back), then writes the account. Whatever fails undoes what was done before it.
   */
  private async create(
    email: string,
    passwordHash: string,
    gate: () => Promise<(() => Promise<void>) | null>,
    options: { acceptWhenNotFirst?: boolean } = {},
  ): Promise<AccountRecord> {
    const accountId = this.accounts.newId();
    if (!(await this.accounts.reserveEmail(email, accountId))) throw emailTaken();
    let undoGate: (() => Promise<void>) | null = null;
    try {
      const record: AccountRecord = { accountId, email, role: 'instructor', status: 'active', passwordHash, createdAt: this.now() };
      // The record first, so the admin marker never names an account that does not exist.
      await this.accounts.write(record);
      if (await this.accounts.claimAdmin(accountId)) {
        record.role = 'admin';
        await this.accounts.update(accountId, { role: 'admin' });
      } else if (!options.acceptWhenNotFirst) {
        undoGate = await gate();
      }
      await this.accounts.index(accountId, record.createdAt);
      return record;
    } catch (error) {
      // Best effort: the store that failed may still be failing; what stays behind is an unlisted record at worst.
      await this.accounts.releaseAdmin(accountId).catch(() => undefined);
      await this.accounts.discard(accountId, email).catch(() => undefined);
      if (undoGate) await undoGate().catch(() => undefined);
      throw error;
    }
  }

  /** Password sign-in. Unknown email, wrong password and an account without a password cost the same scrypt work. */
  async signIn(input: { email: string; password: string }): Promise<AccountRecord> {
    const accountId = await this.accounts.idByEmail(input.email);
    const account = accountId ? await this.accounts.get(accountId) : null;
    const stored = account && account.passwordHash !== '' ? account.passwordHash : null;
    if (!(await verifyPassword(input.password, stored, this.passwordCost)) || !account) throw invalidCredentials();
    // Disabled only after the password proved who is asking: a guesser learns nothing about the account.
    if (account.status !== 'active') throw disabled();
    if (needsRehash(account.passwordHash, this.passwordCost)) await this.accounts.update(account.accountId, { passwordHash: await hashPassword(input.password, this.passwordCost) });
    return account;
  }

  /**
   * Single sign-on (for the OIDC module): the account linked to `issuer`+`subject`; else the account with that email
   * when the provider verified it (then linked); else a new account unless SIGNUP=closed (the provider is the gate the
   * admin configured, so `invite` accepts it; the first account still becomes the admin). Disabled accounts are refused
   * (ACCOUNT_DISABLED); an unverified email that belongs to an account is EMAIL_TAKEN. `mayCreate` overrides SIGNUP
   * for a gate the admin configured per source (an LMS registration's "create instructors": true creates whatever
   * SIGNUP says, false never creates and answers SIGNUP_CLOSED).
   */
  async signInWithIdentity(identity: ExternalIdentity, options: { mayCreate?: boolean } = {}): Promise<AccountRecord> {
    const closed = options.mayCreate === undefined ? this.signup === 'closed' : !options.mayCreate;
    const email = identity.email.trim().normalize('NFKC').toLowerCase();
    const linked = await this.accounts.idByIdentity(identity.issuer, identity.subject);
    let account = linked ? await this.accounts.get(linked) : null;
    if (!account) {
      const byEmail = await this.accounts.idByEmail(email);
      if (byEmail) {
        if (!identity.emailVerified) throw emailTaken();
        account = await this.accounts.get(byEmail);
        if (!account) throw emailTaken();
      } else {
        if (closed && (await this.accounts.hasAdmin())) throw signupClosed();
        account = await this.create(email, '', async () => {
          if (closed) throw signupClosed();
          return null;
        });
      }
      const owner = await this.accounts.linkIdentity(identity.issuer, identity.subject, account.accountId);
      if (owner !== account.accountId) {
        // Two first sign-ins of one identity raced: the link that won names the account.
        account = owner ? await this.accounts.get(owner) : null;
        if (!account) throw invalidCredentials();
      }
    }
    if (account.status !== 'active') throw disabled();
    return account;
  }

  /** Whether the deployment has its first account (the admin) yet. */
  hasAdmin(): Promise<boolean> {
    return this.accounts.hasAdmin();
  }

  get(accountId: string): Promise<AccountRecord | null> {
    return this.accounts.get(accountId);
  }

  /** A new browser session for an active account: the cookie value (set it with startWebSession), CSRF token, expiry. */
  async createWebSession(accountId: string): Promise<NewWebSession> {
    const account = await this.accounts.get(accountId);
    if (!account) throw accountNotFound();
    if (account.status !== 'active') throw disabled();
    return this.sessions.create(accountId);
  }

  /** The active account behind a session cookie's value, or null (then the cookie should be cleared). */
  async resolveWebSession(cookieValue: string): Promise<ResolvedCredential | null> {
    const session = await this.sessions.resolve(cookieValue);
    if (!session) return null;
    const account = await this.accounts.get(session.accountId);
    if (!account || account.status !== 'active') {
      await this.sessions.revoke(session.webSessionId, session.accountId);
      return null;
    }
    return { account, webSessionId: session.webSessionId, csrfToken: session.csrfToken };
  }

  /** The account behind a personal API token: null when unknown or revoked; throws ACCOUNT_DISABLED when disabled. */
  async resolveApiToken(token: string): Promise<ResolvedCredential | null> {
    if (!token.startsWith(API_TOKEN_PREFIX)) return null;
    const owner = await this.tokens.resolve(token);
    const account = owner ? await this.accounts.get(owner.accountId) : null;
    if (!account) return null;
    if (account.status !== 'active') throw disabled();
    return { account };
  }

  async signOut(accountId: string, webSessionId: string): Promise<void> {
    await this.sessions.revoke(webSessionId, accountId);
  }

  /**
   * Ends every browser session of the account (sign out everywhere) and the class-instructor and host tokens its pages
   * hold; API tokens stay (they are revoked one by one).
   */
  async signOutEverywhere(accountId: string): Promise<number> {
    await this.accounts.markSignedOut(accountId, this.now());
    return this.sessions.revokeAll(accountId);
  }

  /**
   * Changes the password after checking the current one. Outstanding reset links stop working; by default the
   * account's API keys are revoked and every other session ends (`keepWebSessionId`, the one asking, stays).
   */
  async changePassword(accountId: string, current: string, next: string, options: CloseDoors & { keepWebSessionId?: string | undefined } = {}): Promise<ClosedDoors> {
    const account = await this.accounts.get(accountId);
    if (!account) throw accountNotFound();
    if (!(await verifyPassword(current, account.passwordHash === '' ? null : account.passwordHash, this.passwordCost))) {
      throw new AppError(ErrorCode.INVALID_CREDENTIALS, '현재 비밀번호가 올바르지 않습니다.');
    }
    await this.accounts.update(accountId, { passwordHash: await hashPassword(next, this.passwordCost) });
    await this.accounts.bumpCredentials(accountId);
    return this.closeDoors(accountId, options, options.keepWebSessionId);
  }

  /** Revokes the API keys and ends the sessions `options` ask for (both unless told no). */
  private async closeDoors(accountId: string, options: CloseDoors, keepWebSessionId?: string): Promise<ClosedDoors> {
    const revokedApiKeys = options.revokeApiKeys === false ? 0 : await this.tokens.revokeAll(accountId);
    if (options.endSessions === false) return { revokedApiKeys, endedSessions: 0 };
    await this.accounts.markSignedOut(accountId, this.now());
    return { revokedApiKeys, endedSessions: await this.sessions.revokeAll(accountId, keepWebSessionId) };
  }

  listApiTokens(accountId: string): Promise<ApiTokenView[]> {
    return this.tokens.list(accountId);
  }

  async createApiToken(accountId: string, name: string): Promise<CreatedApiToken> {
    const created = await this.tokens.create(accountId, name);
    if (created === 'too-many') {
      throw new AppError(ErrorCode.TOO_MANY_API_TOKENS, `API 키는 계정마다 ${MAX_API_TOKENS}개까지 만들 수 있습니다. 쓰지 않는 키를 지워 주세요.`);
    }
    return created;
  }

  async revokeApiToken(accountId: string, tokenId: string): Promise<void> {
    if (!(await this.tokens.revoke(accountId, tokenId))) {
      throw new AppError(ErrorCode.NOT_FOUND, 'API 키를 찾을 수 없습니다.');
    }
  }

  createInvite(adminId: string): Promise<{ code: string; expiresAt: number }> {
    return this.links.createInvite(adminId);
  }

  /** Whether an invite code can still be used (for the sign-up page), and until when. */
  async checkInvite(code: string): Promise<{ expiresAt: number } | null> {
    const invite = await this.links.peekInvite(code);
    return invite ? { expiresAt: invite.expiresAt } : null;
  }

  async createResetLink(accountId: string): Promise<{ code: string; expiresAt: number }> {
    if (!(await this.accounts.get(accountId))) throw accountNotFound();
    return this.links.createResetLink(accountId, await this.accounts.credentialsVersion(accountId));
  }

  /**
   * Sets a new password from a one-time reset link. The link must belong to the account's current credentials
   * generation, and using it moves the generation on (atomically: of two links used at once, one wins), so every
   * other reset link of the account stops working, older and newer alike; a password change does the same. By
   * default the account's API keys are revoked and every session ends.
   */
  async resetPassword(code: string, password: string, options: CloseDoors = {}): Promise<{ account: AccountRecord } & ClosedDoors> {
    const link = await this.links.takeResetLink(code);
    const account = link ? await this.accounts.get(link.accountId) : null;
    if (!link || !account) throw resetInvalid();
    if ((await this.accounts.credentialsVersion(account.accountId)) !== link.version) throw resetInvalid();
    if ((await this.accounts.bumpCredentials(account.accountId)) !== link.version + 1) throw resetInvalid();
    await this.accounts.update(account.accountId, { passwordHash: await hashPassword(password, this.passwordCost) });
    return { account, ...(await this.closeDoors(account.accountId, options)) };
  }

  async listAccounts(page: PageRequest): Promise<{ accounts: AccountListEntry[]; nextCursor: string | null }> {
    const { items, nextCursor } = await this.accounts.page(page);
    return { accounts: items.map((record) => ({ ...accountView(record), status: record.status })), nextCursor };
  }

  /**
   * Disables or re-enables an account. Disabling ends its browser sessions at once, and its API tokens stop working
   * at once (every use checks the status). An admin cannot disable themself (the deployment would lose its admin).
   */
  async setStatus(adminId: string, accountId: string, status: 'active' | 'disabled'): Promise<AccountListEntry> {
    if (status === 'disabled' && adminId === accountId) {
      throw new AppError(ErrorCode.FORBIDDEN, '자기 자신의 계정은 사용 중지할 수 없습니다.');
    }
    const account = await this.accounts.get(accountId);
    if (!account) throw accountNotFound();
    await this.accounts.update(accountId, { status });
    if (status === 'disabled') await this.sessions.revokeAll(accountId);
    return { ...accountView(account), status };
  }
}
