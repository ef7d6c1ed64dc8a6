import type { Socket } from 'socket.io';
import { authorizeToken, type TokenKind, type TokenPayload, type TokenSigner } from '../auth/index.js';
import { connectRefusal } from './connect-refusal.js';

/** What the auth middleware leaves on `socket.data` for handlers. */
export interface AuthedSocketData {
  token: TokenPayload;
}

/** The token a client put in its handshake (`auth: {token}`), if any. */
export function handshakeToken(socket: Socket): unknown {
  const auth: unknown = socket.handshake.auth;
  return typeof auth === 'object' && auth !== null ? (auth as { token?: unknown }).token : undefined;
}

/**
 * Handshake auth: `auth: {token}` must be a valid, unexpired token of one of `kinds`. Runs on recovered
 * connections too (skipMiddlewares is off), so recovery never bypasses it. A refusal reaches the client as a
 * `connect_error` (see connect-refusal.ts).
 */
export function socketAuth(signer: TokenSigner, kinds: readonly TokenKind[]) {
  return (socket: Socket, next: (error?: Error) => void) => {
    try {
      (socket.data as AuthedSocketData).token = authorizeToken(signer, handshakeToken(socket), kinds);
    } catch (error) {
      next(connectRefusal(error));
      return;
    }
    next();
  };
}
