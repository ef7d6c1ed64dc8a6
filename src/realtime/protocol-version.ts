import type { Socket } from 'socket.io';
import { PROTOCOL_VERSION } from '../protocol/wire/ack.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/** What a refused handshake carries in `connect_error`'s `data` (its `message` is the code). */
export interface VersionRefusal {
  code: typeof ErrorCode.CLIENT_TOO_OLD | typeof ErrorCode.CLIENT_TOO_NEW;
  message: string;
  serverVersion: number;
  clientVersion: unknown;
}

/**
 * Handshake middleware of every namespace, before its auth: the client's `auth.protocolVersion` must be this
 * server's `PROTOCOL_VERSION`. An older (or missing) version is a page loaded before a deploy: it must reload. A
 * newer one talks to a node not yet updated: it may retry. Either way the client gets a `connect_error` saying so
 * with a code, instead of events it would misread. Runs on recovered connections too (skipMiddlewares is off).
 */
export function checkProtocolVersion(socket: Socket, next: (error?: Error) => void): void {
  const auth: unknown = socket.handshake.auth;
  const version = typeof auth === 'object' && auth !== null ? (auth as { protocolVersion?: unknown }).protocolVersion : undefined;
  if (version === PROTOCOL_VERSION) {
    next();
    return;
  }
  const tooNew = typeof version === 'number' && version > PROTOCOL_VERSION;
  const data: VersionRefusal = tooNew
    ? { code: ErrorCode.CLIENT_TOO_NEW, message: '서버가 아직 이전 버전입니다. 잠시 후 다시 연결해 주세요.', serverVersion: PROTOCOL_VERSION, clientVersion: version }
    : { code: ErrorCode.CLIENT_TOO_OLD, message: '페이지가 서버보다 오래된 버전입니다. 새로고침해 주세요.', serverVersion: PROTOCOL_VERSION, clientVersion: version ?? null };
  const refusal = new Error(data.code) as Error & { data?: VersionRefusal };
  refusal.data = data;
  next(refusal);
}
