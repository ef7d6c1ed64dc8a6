import { isTokenRefusal } from '../auth/index.js';
import { toWireError } from '../kernel/index.js';

/** What a refused handshake sends: socket.io delivers it to the client as `connect_error` (message and `data`). */
export type ConnectRefusal = Error & { data: { code: string; message: string; reason?: string } };

/**
 * The one conversion of a handshake failure, for every namespace. A refused token (the auth module's mapping:
 * `FORBIDDEN` for a token of another kind, `UNAUTHORIZED` otherwise) has the message `UNAUTHORIZED` and its code
 * and `reason` in `data`; any other refusal (a kicked player, an unknown room) has its code as the message.
 */
export function connectRefusal(error: unknown): ConnectRefusal {
  const { body } = toWireError(error);
  if (isTokenRefusal(error)) {
    return Object.assign(new Error('UNAUTHORIZED'), { data: { ...body, reason: error.reason } });
  }
  return Object.assign(new Error(body.code), { data: body });
}
