import { storeKey as key } from '../store/index.js';

/**
 * The credentials' store keys: the deployment's token secret, instructor accounts, their browser sessions, API
 * tokens, invites, reset links and single sign-on logins under way. Accounts and tokens are durable (no TTL); sessions,
 * invites, links and logins carry the TTL of their life.
 */
export const authKeys = {
  /**
   * The deployment's token secret when TOKEN_SECRET is unset (string, SET NX by the first node); durable, no TTL:
   * every token in circulation depends on it (see token-secrets.ts).
   */
  tokenSecret: () => key('token-secret'),
  /** A sign-in under way (JSON: PKCE verifier, nonce, return path, redirect URI), keyed by its state; 10 min TTL, deleted on use. */
  oidcPendingLogin: (state: string) => key('oidc', 'pending', state),
  /** An instructor account (hash: email, role, status, passwordHash, createdAt); no TTL. */
  account: (id: string) => key('account', id),
  /** sha256 of a normalised email -> account id, reserved with SET NX so an email has one account; no TTL. */
  accountEmail: (emailHash: string) => key('account-email', emailHash),
  /** sha256 of an OIDC issuer and subject -> account id (SET NX); no TTL. */
  accountIdentity: (identityHash: string) => key('account-identity', identityHash),
  /** The deployment's first account, the admin (SET NX: exactly one sign-up wins it); no TTL. */
  accountAdmin: () => key('accounts', 'admin'),
  /** Every account (sorted set of ids scored by creation time): the admin's list; no TTL. */
  accountIndex: () => key('accounts'),
  /** A browser session by sha256 of its cookie value (JSON: accountId, csrfToken, createdAt, expiresAt); TTL. */
  webSession: (idHash: string) => key('web-session', idHash),
  /** An account's browser sessions (sorted set of session hashes scored by expiry), for sign out everywhere; TTL. */
  accountWebSessions: (accountId: string) => key('account', accountId, 'web-sessions'),
  /** A personal API token by sha256 of its secret -> `accountId tokenId`; no TTL (until revoked). */
  apiToken: (secretHash: string) => key('api-token', secretHash),
  /** An account's API tokens (hash: token id -> JSON name, createdAt, secretHash); no TTL. */
  accountApiTokens: (accountId: string) => key('account', accountId, 'api-tokens'),
  /** When each API token was last used (hash: token id -> ms; written at most once a minute per token); no TTL. */
  accountApiTokenUse: (accountId: string) => key('account', accountId, 'api-token-use'),
  /** An invite by sha256 of its code (JSON: createdBy, createdAt, expiresAt); TTL 7 days, deleted when used. */
  invite: (codeHash: string) => key('invite', codeHash),
  /** A password reset link by sha256 of its code (JSON: accountId, createdAt, expiresAt); TTL 24 h, one use. */
  resetLink: (codeHash: string) => key('reset-link', codeHash),
};
