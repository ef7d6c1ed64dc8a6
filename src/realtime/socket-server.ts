import type { Server as HttpServer } from 'node:http';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import type { Metrics } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import type { ConnectRefusal } from './connect-refusal.js';
import { checkProtocolVersion } from './protocol-version.js';
import { SocketCaps } from './socket-caps.js';

export const NAMESPACES = ['/tutor', '/monitor', '/quiz', '/jobs'] as const;
export type NamespaceName = (typeof NAMESPACES)[number];

export interface SocketServerOptions {
  metrics: Metrics;
  /** socket.io adapter (the Redis streams adapter on several nodes); the in-memory one otherwise. */
  adapter?: ServerOptions['adapter'];
  /** open connections per client address, and how long a connection may stay without a connected namespace. */
  caps?: { maxSocketsPerAddress: number; authTimeoutMs: number };
}

/**
 * socket.io with connection-state recovery. `skipMiddlewares: false` makes auth middleware run again on
 * recovered connections, so an expired or revoked token cannot ride a recovery.
 */
export function createSocketServer(httpServer: HttpServer, options: SocketServerOptions): Server {
  const caps = options.caps ? new SocketCaps({ maxPerAddress: options.caps.maxSocketsPerAddress }) : undefined;
  const io = new Server(httpServer, {
    ...(caps && options.caps
      ? // A connection that never connects a namespace (or whose every handshake is refused) is closed after this.
        { allowRequest: caps.allowRequest, connectTimeout: options.caps.authTimeoutMs }
      : {}),
    ...(options.adapter ? { adapter: options.adapter } : {}),
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60_000, skipMiddlewares: false },
    maxHttpBufferSize: 64 * 1024,
    pingInterval: 20_000,
    pingTimeout: 20_000,
    serveClient: true,
  });
  // socket.io's default namespace serves nothing here; refused, a connection that asked only for it has no connected
  // namespace, so the cap's rules apply to it: `connectTimeout` closes it, and it counts toward 2×cap meanwhile.
  io.of('/').use(refuseDefaultNamespace);
  for (const name of NAMESPACES) {
    const namespace = io.of(name);
    if (caps) namespace.use(caps.middleware);
    // First middleware of every namespace: a client of another protocol version is refused before its token is read.
    namespace.use(checkProtocolVersion);
    const gauge = options.metrics.socketsConnected.labels(name);
    gauge.set(0);
    namespace.on('connection', (socket) => {
      gauge.inc();
      socket.on('disconnect', () => gauge.dec());
    });
  }
  caps?.attach(io);
  return io;
}

function refuseDefaultNamespace(_socket: Socket, next: (error?: Error) => void): void {
  const message = `이 주소로는 연결할 수 없습니다. ${NAMESPACES.join(', ')} 중 하나에 연결하세요.`;
  next(Object.assign(new Error(ErrorCode.NOT_FOUND), { data: { code: ErrorCode.NOT_FOUND, message } }) as ConnectRefusal);
}
