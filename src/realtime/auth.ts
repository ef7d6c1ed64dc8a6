import type { Socket } from 'socket.io';
import type { TokenKind, TokenPayload, TokenSigner } from '../classroom/tokens.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/** What the auth middleware leaves on `socket.data` for handlers. */
export interface AuthedSocketData {
  token: TokenPayload;
}

/**
 * Handshake auth: `auth: {token}` must be a valid, unexpired token of one of `kinds`. Runs on recovered
 * connections too (skipMiddlewares is off), so recovery never bypasses it. A refusal reaches the client as a
 * `connect_error` whose message is the wire code and whose `data` has the details.
 */
export function socketAuth(signer: TokenSigner, kinds: readonly TokenKind[]) {
  return (socket: Socket, next: (error?: Error) => void) => {
    const auth: unknown = socket.handshake.auth;
    const token = typeof auth === 'object' && auth !== null ? (auth as { token?: unknown }).token : undefined;
    const check = signer.verify(token, kinds);
    if (!check.ok) {
      const error = new Error(ErrorCode.UNAUTHORIZED) as Error & { data?: unknown };
      error.data = {
        code: check.reason === 'kind' ? ErrorCode.FORBIDDEN : ErrorCode.UNAUTHORIZED,
        message: check.reason === 'expired' ? '토큰이 만료되었습니다.' : '유효한 토큰이 필요합니다.',
        reason: check.reason,
      };
      next(error);
      return;
    }
    (socket.data as AuthedSocketData).token = check.payload;
    next();
  };
}
