/**
 * Payloads serialised once for many sockets. A reveal or a question goes to every player of a room: serialising the
 * shared part per socket (what `emit` does) was most of a 2,000-player reveal's CPU. `PayloadJson<T>` is the JSON
 * text of a `T`, made only here, so a frame sent from it (RoomMember.sendJson) parses to exactly what `send` of the
 * object would have sent: the same bytes on the wire.
 */

declare const payloadOf: unique symbol;

/** `JSON.stringify` of a `T` (branded: only `payloadJson` and `jsonWith` make one). */
export type PayloadJson<T> = string & { readonly [payloadOf]: T };

export function payloadJson<T>(value: T): PayloadJson<T> {
  return JSON.stringify(value) as PayloadJson<T>;
}

/**
 * The JSON of `{ ...base, [key]: value }` from the JSON of `base`, without serialising `base` again. `base` must be a
 * non-empty object without `key` (then the spread puts `key` last, as this does) and `value` must not be undefined
 * (JSON.stringify would leave the key out).
 */
export function jsonWith<T extends object, K extends string, V>(base: PayloadJson<T>, key: K, value: V): PayloadJson<T & Record<K, V>> {
  return `${base.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}` as PayloadJson<T & Record<K, V>>;
}
