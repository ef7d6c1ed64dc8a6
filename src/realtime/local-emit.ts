import type { Socket } from 'socket.io';
import type { EventListeners } from '../protocol/wire/events.js';

/**
 * Sends one socket a frame from this node only. With connection-state recovery on, `socket.emit` goes through the
 * adapter so the frame can be replayed after a reconnect: with the Redis streams adapter that is one XADD per frame,
 * read back and decoded by every node, and the frame leaves only once Redis answered — so a frame emitted just
 * before `disconnect()` never arrives. Use this for frames that need no replay (the client gets a full snapshot on
 * every connection) and for the last word before a disconnect. Typed by the socket's own event map.
 */
export function emitLocal<E, K extends keyof E & string>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the socket's emit map matters here
  socket: Socket<any, EventListeners<E>, any, any>,
  event: K,
  payload: E[K],
): void {
  (socket.nsp.local.to(socket.id) as unknown as { emit(name: string, payload: unknown): boolean }).emit(event, payload);
}
