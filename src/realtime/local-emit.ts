import type { Socket } from 'socket.io';
import type { PayloadJson } from '../quiz/index.js';
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

/**
 * `emitLocal` of a payload given as its JSON text (src/quiz/payload-json.ts): the frame socket.io's encoder would make
 * (`2<namespace>,["<event>",<payload>]`, no attachments, no ack id) written to the connection as it is, so a payload
 * shared by many sockets is serialised once. Like a local emit, it goes only to a connected socket.
 */
export function emitJsonLocal<E, K extends keyof E & string>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- only the socket's emit map matters here
  socket: Socket<any, EventListeners<E>, any, any>,
  event: K,
  json: PayloadJson<E[K]>,
): void {
  if (!socket.connected) return;
  const namespace = socket.nsp.name === '/' ? '' : `${socket.nsp.name},`;
  // 2: socket.io-parser's EVENT packet type.
  const frame = `2${namespace}[${JSON.stringify(event)},${json}]`;
  // `preEncoded`: the packet is the encoded string (what socket.io's adapter hands the client for a broadcast).
  socket.client._packet(frame as unknown as Parameters<typeof socket.client._packet>[0], { preEncoded: true });
}
