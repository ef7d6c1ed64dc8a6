/**
 * Credentials: signed tokens (kind, subject, scope, expiry), the deployment's token secrets, and the one mapping
 * from a refused token to 401/403 that HTTP routers and every socket namespace use. Instructor accounts: the
 * AccountService with its sessions, API tokens, invites and reset links.
 * - TokenSigner holds secrets newest first (the first signs, every one verifies; compared as canonical base64url in
 *   constant time). Without TOKEN_SECRET a Redis deployment shares one generated secret; the memory store one per
 *   process.
 * - Accounts know nothing of HTTP: emails normalised and reserved with SET NX, scrypt passwords, the admin is
 *   whoever wins SET NX; a status or password change ends sessions and tokens when asked.
 * - oidc/: OpenID Connect code flow with PKCE, one-use state and nonce in the store.
 */
export { TokenKind, TokenSigner, type TokenCheck, type TokenPayload } from './tokens.js';
export { generateTokenSecret, sharedTokenSecret } from './token-secrets.js';
export { TokenRefusal, authorizeToken, isTokenRefusal, type TokenRefusalReason } from './token-refusal.js';
export { OidcSignIn, safeReturnPath, type OidcIdentity } from './oidc/index.js';
export {
  AccountService,
  accountView,
  type AccountServiceOptions,
  type CloseDoors,
  type ClosedDoors,
  type ExternalIdentity,
  type ResolvedCredential,
} from './account-service.js';
export type { AccountRecord } from './account-repository.js';
export type { NewWebSession } from './web-sessions.js';
export { API_TOKEN_PREFIX } from './api-tokens.js';
export { INVITE_TTL_MS, RESET_LINK_TTL_MS } from './one-time-links.js';
export { hashPassword, verifyPassword, type ScryptParameters } from './password.js';
export { sameSecret } from './secrets.js';
export { authKeys } from './auth-keys.js';
