/**
 * Accounts over HTTP (`/api/auth`, `/api/admin`): the shapes the pages and API clients read (browser-safe types).
 * The zod schemas of the bodies are in ../account.ts; docs/PROTOCOL.md describes the same thing for people.
 */
export type AccountRole = 'admin' | 'instructor';
export type AccountStatus = 'active' | 'disabled';

/** What `/api/auth/me` and sign-up/sign-in answer about the signed-in account. */
export interface AccountView {
  accountId: string;
  email: string;
  role: AccountRole;
  createdAt: number;
}

/** One row of the admin's account list. */
export interface AccountListEntry extends AccountView {
  status: AccountStatus;
}

/** `{account, csrfToken}`: sign-up, sign-in and `/me`. */
export interface SignedIn {
  account: AccountView;
  /**
   * Send it as `X-CSRF-Token` on every POST/PUT/PATCH/DELETE that the session cookie authorises. Null on `/me` called
   * with a personal API token (no browser session).
   */
  csrfToken: string | null;
}

/** A personal API token as listed (never its secret). */
export interface ApiTokenView {
  tokenId: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** The answer to creating a token: the only time the secret is shown. */
export interface CreatedApiToken extends ApiTokenView {
  token: string;
}

export interface SignUpBody {
  email: string;
  password: string;
  invite?: string | undefined;
}
export interface SignInBody {
  email: string;
  password: string;
}
/**
 * What a password change or reset also closes (both default to true): `revokeApiKeys`, every personal API key of the
 * account; `endSessions`, its browser sessions (a change keeps the one asking) and the class and host tokens its
 * pages hold.
 */
export interface CloseDoorsChoice {
  revokeApiKeys?: boolean;
  endSessions?: boolean;
}
export interface ChangePasswordBody extends CloseDoorsChoice {
  current: string;
  next: string;
}
export interface CreateApiTokenBody {
  name: string;
}
export interface ResetPasswordBody extends CloseDoorsChoice {
  code: string;
  password: string;
}
/** The answer of a password change or reset: what it closed (a reset also names the account's email). */
export interface ClosedDoorsReply {
  ok: true;
  revokedApiKeys: number;
  endedSessions: number;
}

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;
