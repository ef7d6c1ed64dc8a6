import type { Socket } from 'socket.io-client';
import { refusalData, type RefusalData } from './socket.js';

/** The connection as a page shows it (the badge in the header). */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline';

export interface LifecycleHandlers {
  /** Every change the page shows: connecting at once, connected, reconnecting while socket.io retries. */
  state(state: ConnectionState): void;
  /** Connected (the first time and after every reconnection). */
  connected?(): void;
  /**
   * The server closed the socket (`io server disconnect`): socket.io will not reconnect by itself. Without this
   * handler the page shows `offline`.
   */
  closedByServer?(): void;
  /** The handshake refused the socket (a bad or expired token): socket.io does not retry these. */
  refused(data: RefusalData | undefined): void;
}

/**
 * The socket lifecycle every live page shares: which socket.io event means which connection state, and when the
 * page has to step in (the server closed the socket, or refused it at the handshake).
 */
export function watchConnection(socket: Socket, handlers: LifecycleHandlers): void {
  handlers.state('connecting');
  socket.on('connect', () => {
    handlers.state('connected');
    handlers.connected?.();
  });
  socket.on('disconnect', (reason) => {
    if (reason !== 'io server disconnect') handlers.state('reconnecting');
    else if (handlers.closedByServer) handlers.closedByServer();
    else handlers.state('offline');
  });
  socket.on('connect_error', (error) => {
    if (socket.active) handlers.state('reconnecting');
    else handlers.refused(refusalData(error));
  });
}

/** Stops a page's socket for good: no listener of it runs again. */
export function closeSocket(socket: Socket | null | undefined): void {
  if (!socket) return;
  socket.removeAllListeners();
  socket.disconnect();
}
