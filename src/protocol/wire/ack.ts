import type { WireError } from './error-codes.js';

/**
 * Bumped whenever an event or payload changes incompatibly. Every client sends it in the handshake `auth`
 * (`{protocolVersion}`) and every namespace refuses another version (see `../../realtime/protocol-version.ts`).
 */
export const PROTOCOL_VERSION = 1;

/** Every client command is acknowledged with one of these. */
export type Ack<T extends object = object> = ({ ok: true } & T) | { ok: false; error: WireError };
export type AckCallback<T extends object = object> = (response: Ack<T>) => void;
