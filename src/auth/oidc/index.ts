/** OpenID Connect sign-in (authorization code + PKCE), its pending logins in the store, and safe return paths. */
export { OidcSignIn, type OidcIdentity, type OidcSignInOptions } from './oidc-sign-in.js';
export { PENDING_LOGIN_TTL_MS, PendingLogins, type PendingLogin } from './pending-logins.js';
export { DEFAULT_RETURN_PATH, safeReturnPath } from './return-path.js';
