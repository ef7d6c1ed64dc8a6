import type { Ack } from './ack.js';

/**
 * The one shape every namespace's protocol is written in: server-to-client events are a map from event name to its
 * payload, client-to-server commands a map from command name to `{payload, result}` (`result` is what an `ok` ack
 * carries besides `ok`). socket.io wants listener signatures; they are derived here, never written by hand.
 */
export interface Command<P extends object, R extends object> {
  payload: P;
  result: R;
}

/** Any command map: every entry is a `Command`. */
export type CommandMap<C> = { [K in keyof C]: Command<object, object> };

/** The payload of commands that take none: clients send `{}` (or nothing). */
export type EmptyPayload = Record<string, never>;

export type CommandPayload<C extends CommandMap<C>, K extends keyof C> = C[K]['payload'];
export type CommandResult<C extends CommandMap<C>, K extends keyof C> = C[K]['result'];

/** socket.io's "listen events" of a server for a command map: payload first, the ack callback last. */
export type CommandListeners<C extends CommandMap<C>> = {
  [K in keyof C]: (payload: C[K]['payload'], ack: (response: Ack<C[K]['result']>) => void) => void;
};

/** socket.io's "emit events" for a payload map: one payload argument per event. */
export type EventListeners<E> = { [K in keyof E]: (payload: E[K]) => void };
