import type { IncomingMessage } from 'node:http';
import type { Server, Socket } from 'socket.io';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { forwardedClientAddress } from './client-address.js';
import type { ConnectRefusal } from './connect-refusal.js';

export interface SocketCapOptions {
  /** Open connections per client address on this node (all namespaces of one connection count once). */
  maxPerAddress: number;
}

/** A connection as engine.io gives it: the bits the cap needs. */
interface EngineConnection {
  request: IncomingMessage;
  once(event: 'close', listener: () => void): unknown;
  close(): unknown;
}

/**
 * The per-address cap on open socket connections (file descriptors are what runs out: 988 idle connections from one
 * client once stopped /healthz on a 1,024-descriptor node). Counted per node, because descriptors are per node.
 *
 * Two lines: over `maxPerAddress`, a connection that asks for a namespace is refused with connect_error
 * `TOO_MANY_SOCKETS` (a real client learns why) and its connection is closed; at twice the cap the engine.io
 * handshake itself is refused (HTTP 403) before any connection exists, so a raw flood that never asks for a namespace
 * holds at most 2×cap descriptors, each for at most SOCKET_AUTH_TIMEOUT_MS (socket.io's `connectTimeout`, set in
 * socket-server.ts, closes connections without a connected namespace).
 */
export class SocketCaps {
  private readonly open = new Map<string, number>();
  private readonly addressOf = new WeakMap<object, string>();

  constructor(private readonly options: SocketCapOptions) {}

  /** engine.io's `allowRequest`: refuses new handshakes from an address at twice the cap. */
  readonly allowRequest = (request: IncomingMessage, callback: (error: string | null | undefined, success: boolean) => void) => {
    const ok = this.count(addressOfRequest(request)) < this.options.maxPerAddress * 2;
    callback(ok ? null : ErrorCode.TOO_MANY_SOCKETS, ok);
  };

  /** Counts every engine.io connection of `io` until it closes. */
  attach(io: Server): void {
    io.engine.on('connection', (connection: EngineConnection) => {
      const address = addressOfRequest(connection.request);
      this.addressOf.set(connection, address);
      this.open.set(address, this.count(address) + 1);
      connection.once('close', () => {
        const left = this.count(address) - 1;
        if (left > 0) this.open.set(address, left);
        else this.open.delete(address);
      });
    });
  }

  /** Namespace middleware (first of every namespace): refuses a namespace over the cap and closes the connection. */
  readonly middleware = (socket: Socket, next: (error?: Error) => void): void => {
    const address = this.addressOf.get(socket.conn) ?? addressOfRequest(socket.conn.request);
    if (this.count(address) <= this.options.maxPerAddress) return next();
    const message = '이 주소에서 열린 연결이 너무 많습니다. 다른 창이나 탭을 닫고 다시 시도해 주세요.';
    next(Object.assign(new Error(ErrorCode.TOO_MANY_SOCKETS), { data: { code: ErrorCode.TOO_MANY_SOCKETS, message } }) as ConnectRefusal);
    // engine.io flushes the refusal before closing (close waits for its write buffer to drain).
    setImmediate(() => socket.conn.close());
  };

  /** Open connections of an address on this node. */
  count(address: string): number {
    return this.open.get(address) ?? 0;
  }
}

function addressOfRequest(request: IncomingMessage): string {
  return forwardedClientAddress(request.socket.remoteAddress ?? 'unknown', request.headers['x-forwarded-for']);
}
