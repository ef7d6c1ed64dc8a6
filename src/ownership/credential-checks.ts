import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { OwnershipRepository } from './ownership-repository.js';

/** The parts of a signed class-instructor or host token these checks read (auth/'s TokenPayload satisfies it). */
export interface ScopedToken {
  kind: string;
  sub: string;
  scope?: string | undefined;
  /** When it was signed (ms); see `signedOutAt`. */
  iat?: number | undefined;
}

export interface CredentialCheckDeps {
  ownership: OwnershipRepository;
  /**
   * The account store (AccountService satisfies it): a disabled account's tokens stop working at once, and so do
   * tokens signed before `signedOutAt` (when the account last ended its sessions).
   */
  accounts: { get(accountId: string): Promise<{ status: string; signedOutAt?: number | undefined } | null> };
}

/** Tokens from before accounts have no scope: they name no owner, so the instructor must sign in for fresh ones. */
export const signInAgain = () =>
  new AppError(ErrorCode.UNAUTHORIZED, '접속 정보가 오래되었습니다. 다시 로그인한 뒤 수업을 열어 주세요.');
const disabled = () => new AppError(ErrorCode.ACCOUNT_DISABLED);
export const classNotFound = () => new AppError(ErrorCode.CLASS_NOT_FOUND, '수업을 찾을 수 없습니다.');
export const roomNotFound = () => new AppError(ErrorCode.ROOM_NOT_FOUND);

/**
 * What every use of a class-instructor token (`/monitor` handshakes, new and recovered, and class routes) and of a
 * host token checks beyond its signature: it names its account (scope), the class or room still exists and is that
 * account's, and the account is active. Read on every use, never cached, so disabling an account or deleting the
 * class refuses its tokens at once.
 */
export class CredentialChecks {
  constructor(private readonly deps: CredentialCheckDeps) {}

  /** The class's owner account, or throws (401 without scope, 404 no such class or not the scope's, 403 disabled). */
  async classToken(token: ScopedToken): Promise<string> {
    return this.owned('class', token, classNotFound);
  }

  /** The same for a host token and its room. */
  async hostToken(token: ScopedToken): Promise<string> {
    return this.owned('room', token, roomNotFound);
  }

  /** Throws 403 ACCOUNT_DISABLED (404 when the account is gone) unless the account is active. */
  async activeAccount(accountId: string): Promise<void> {
    await this.active(accountId);
  }

  /**
   * An account-scoped token (a job token of a job its owner started): the account is active and did not end its
   * sessions after the token was signed.
   */
  async accountToken(accountId: string, token: Pick<ScopedToken, 'iat'>): Promise<void> {
    const account = await this.active(accountId);
    if (signedBeforeCut(account, token)) throw signInAgain();
  }

  private async active(accountId: string): Promise<{ status: string; signedOutAt?: number | undefined }> {
    const account = await this.deps.accounts.get(accountId);
    if (!account) throw signInAgain();
    if (account.status !== 'active') throw disabled();
    return account;
  }

  private async owned(kind: 'class' | 'room', token: ScopedToken, notFound: () => AppError): Promise<string> {
    if (token.scope === undefined) throw signInAgain();
    const owner = await this.deps.ownership.ownerOf(kind, token.sub);
    if (owner === null || owner !== token.scope) throw notFound();
    const account = await this.active(owner);
    if (signedBeforeCut(account, token)) throw signInAgain();
    return owner;
  }
}

/** Signed before the account ended its sessions (e.g. by whoever had its password before a reset): refused. */
const signedBeforeCut = (account: { signedOutAt?: number | undefined }, token: Pick<ScopedToken, 'iat'>) =>
  account.signedOutAt !== undefined && (token.iat ?? 0) < account.signedOutAt;
