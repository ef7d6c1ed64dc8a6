/**
 * Credentials: signed tokens (kind, subject, scope, expiry), the deployment's token secrets, and the one mapping
 * from a refused token to 401/403 that HTTP routers and every socket namespace use.
 */
export { TokenKind, TokenSigner, type TokenCheck, type TokenPayload } from './tokens.js';
export { generateTokenSecret, sharedTokenSecret } from './token-secrets.js';
export { TokenRefusal, authorizeToken, isTokenRefusal, type TokenRefusalReason } from './token-refusal.js';
