import { ERROR_MESSAGES } from '../../src/protocol/wire/index.js';

/** An error as it reaches a page: a socket ack's, an HTTP body's or a refused handshake's (any part may be missing). */
export interface ErrorLike {
  code?: string | undefined;
  message?: string | undefined;
}

/** The words for an error: the server's message, else the protocol's sentence for its code, else `fallback`. */
export function errorText(error: ErrorLike | null | undefined, fallback: string): string {
  const byCode = error?.code !== undefined ? (ERROR_MESSAGES as Record<string, string | undefined>)[error.code] : undefined;
  return error?.message || byCode || fallback;
}
