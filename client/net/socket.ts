import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, type Ack, type Command, type CommandMap as WireCommandMap, type EventListeners, type HandshakeAuth, type NamespaceName, type Namespaces } from '../../src/protocol/wire/index.js';

/**
 * The typed socket every page and test client talks through: server events as socket.io listener maps, commands as
 * `{payload, result}` pairs whose acks are typed, and one command call that always resolves (with a local error
 * when offline or when the ack never comes), so no caller handles a throw or a hang.
 */

/** A namespace's commands (src/protocol/wire): the payload each takes and what its ack carries besides `ok: true`. */
export type CommandMap<Commands> = WireCommandMap<Commands>;

/** The client-to-server side of a command map, as socket.io types emits with an acknowledgement. */
export type Emitters<Commands> = {
  [K in keyof Commands]: Commands[K] extends Command<infer Payload, infer Result> ? (payload: Payload, ack: (response: Ack<Result>) => void) => void : never;
};

export type TypedSocket<Events, Commands> = Socket<EventListeners<Events>, Emitters<Commands>>;

/** The typed socket of a namespace, from the protocol's one table (`Namespaces`). */
export type NamespaceSocket<N extends NamespaceName> = TypedSocket<Namespaces[N]['events'], Namespaces[N]['commands']>;

/** Errors made on this side of the wire: no connection, or no ack in time. */
export interface LocalError {
  code: 'OFFLINE' | 'TIMEOUT';
  message: string;
}

/** A command's outcome as a caller sees it: the server's ack, or a local error. */
export type CommandAck<Result extends object> = Ack<Result> | { ok: false; error: LocalError };

export const ACK_TIMEOUT_MS = 10_000;

const OFFLINE: LocalError = { code: 'OFFLINE', message: '서버와 연결이 끊겨 있습니다. 다시 연결되면 시도해 주세요.' };
const TIMEOUT: LocalError = { code: 'TIMEOUT', message: '서버가 응답하지 않습니다. 잠시 후 다시 시도해 주세요.' };

export interface CommandOptions {
  timeoutMs?: number;
  /**
   * Send even while not connected: socket.io buffers the command until the socket connects (a scripted client that
   * commands right after opening its socket). Pages never buffer: a student must see at once that nothing was sent.
   */
  buffer?: boolean;
}

/** Sends a command and resolves with its ack, or with a local error when offline or when the ack times out. */
export function sendCommand<Commands extends CommandMap<Commands>, K extends keyof Commands & string>(
  socket: TypedSocket<unknown, Commands> | undefined | null,
  name: K,
  payload: Commands[K]['payload'],
  { timeoutMs = ACK_TIMEOUT_MS, buffer = false }: CommandOptions = {},
): Promise<CommandAck<Commands[K]['result']>> {
  return new Promise((resolve) => {
    if (!socket || (!socket.connected && !buffer)) {
      resolve({ ok: false, error: OFFLINE });
      return;
    }
    // The one untyped step: socket.io's timeout() decorates the emit map in a way generic code cannot name.
    const raw = socket as unknown as Socket;
    raw.timeout(timeoutMs).emit(name, payload, (error: Error | null, ack: Ack<Commands[K]['result']> | undefined) => {
      if (error) resolve({ ok: false, error: TIMEOUT });
      else resolve(ack ?? { ok: false, error: { code: 'INTERNAL', message: '요청을 처리하지 못했습니다.' } });
    });
  });
}

/** What the server put in a refused handshake's `connect_error` (`error.data`), when anything. */
export interface RefusalData {
  code?: string;
  message?: string;
}

export function refusalData(error: unknown): RefusalData | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null ? (data as RefusalData) : undefined;
}

/** The handshake `auth` of this build: its `PROTOCOL_VERSION` (the server refuses another one) and the token if any. */
export function handshakeAuth(token?: string | null): HandshakeAuth {
  return token ? { protocolVersion: PROTOCOL_VERSION, token } : { protocolVersion: PROTOCOL_VERSION };
}

/** Opens a page's typed socket on a namespace (websocket only: several server nodes need no sticky sessions). */
export function openSocket<N extends NamespaceName>(namespace: N, token?: string | null): NamespaceSocket<N> {
  return io(namespace, { auth: handshakeAuth(token), transports: ['websocket'] });
}
