import type { Socket } from 'socket.io';

/**
 * Sends one socket a frame from this node only. With connection-state recovery on, `socket.emit` goes through the
 * adapter so the frame can be replayed after a reconnect: with the Redis streams adapter that is one XADD per frame,
 * read back and decoded by every node, and the frame leaves only once Redis answered — so a frame emitted just
 * before `disconnect()` never arrives. Use this for frames that need no replay (the client gets a full snapshot on
 * every connection) and for the last word before a disconnect.
 */
export function emitLocal(socket: Socket, event: string, ...payload: unknown[]): void {
  (socket.nsp.local.to(socket.id) as unknown as { emit(name: string, ...args: unknown[]): boolean }).emit(event, ...payload);
}
