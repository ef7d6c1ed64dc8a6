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

/** Connections of one address on this node: all of them, and those admitted to a namespace. */
interface AddressCount {
  open: number;
  admitted: number;
}

/**
 * The per-address cap on open socket connections (file descriptors are what runs out: 988 idle connections from one
 * client once stopped /healthz on a 1,024-descriptor node). Counted per node, because descriptors are per node.
 *
 * A connection is admitted by the first namespace it asks for while fewer than `maxPerAddress` connections of its
 * address are admitted; it then counts until it closes, and its other namespaces pass. Connections that have not
 * asked yet do not count against the admitted ones: a burst of 450 simultaneous clients against a cap of 400 admits
 * 400 and refuses only the 50 excess (connect_error `TOO_MANY_SOCKETS`, then the connection is closed). At twice the
 * cap of open connections (admitted or not) the engine.io handshake itself is refused (HTTP 400) before any
 * connection exists, so a raw flood that never asks for a namespace holds at most 2×cap descriptors, each for at most
 * SOCKET_AUTH_TIMEOUT_MS (socket.io's `connectTimeout`, set in socket-server.ts, closes connections without a
 * connected namespace, and socket-server.ts refuses the default namespace `/`, so no connection stays by joining it).
 */
export class SocketCaps {
  private readonly counts = new Map<string, AddressCount>();
  private readonly addressOf = new WeakMap<object, string>();
  private readonly admitted = new WeakSet<object>();

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
      this.entry(address).open += 1;
      connection.once('close', () => {
        const entry = this.entry(address);
        entry.open -= 1;
        if (this.admitted.has(connection)) entry.admitted -= 1;
        if (entry.open <= 0) this.counts.delete(address);
      });
    });
  }

  /** Namespace middleware (first of every namespace): admits the connection, or refuses the excess and closes it. */
  readonly middleware = (socket: Socket, next: (error?: Error) => void): void => {
    const connection = socket.conn;
    if (this.admitted.has(connection)) return next();
    // Closed while its namespace request was on the way: nothing to admit (its close was counted already).
    if (connection.readyState !== 'open') return next(new Error(ErrorCode.TOO_MANY_SOCKETS));
    const address = this.addressOf.get(connection) ?? addressOfRequest(connection.request);
    const entry = this.entry(address);
    if (entry.admitted < this.options.maxPerAddress) {
      this.admitted.add(connection);
      entry.admitted += 1;
      return next();
    }
    const message = '이 주소에서 열린 연결이 너무 많습니다. 다른 창이나 탭을 닫고 다시 시도해 주세요.';
    next(Object.assign(new Error(ErrorCode.TOO_MANY_SOCKETS), { data: { code: ErrorCode.TOO_MANY_SOCKETS, message } }) as ConnectRefusal);
    // engine.io flushes the refusal before closing (close waits for its write buffer to drain).
    setImmediate(() => connection.close());
  };

  /** Open connections of an address on this node (admitted to a namespace or not). */
  count(address: string): number {
    return this.counts.get(address)?.open ?? 0;
  }

  private entry(address: string): AddressCount {
    let entry = this.counts.get(address);
    if (!entry) {
      entry = { open: 0, admitted: 0 };
      this.counts.set(address, entry);
    }
    return entry;
  }
}

function addressOfRequest(request: IncomingMessage): string {
  return forwardedClientAddress(request.socket.remoteAddress ?? 'unknown', request.headers['x-forwarded-for']);
}
