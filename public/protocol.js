// The socket protocol version these pages speak: every `io()` sends it in the handshake `auth` and the server refuses
// another one (connect_error CLIENT_TOO_OLD / CLIENT_TOO_NEW). Must equal PROTOCOL_VERSION in
// src/protocol/wire/ack.ts (test/protocol-version.test.ts checks it).
export const PROTOCOL_VERSION = 1;
