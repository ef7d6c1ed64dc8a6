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

/**
 * A Hangul word with the particle 으로/로 it takes: 로 after a vowel or ㄹ (`검토로`, `달로`), 으로 after another
 * final consonant (`정답으로`). The labels this is used on are Korean words.
 */
export function withRo(word: string): string {
  const code = word.charCodeAt(word.length - 1) - 0xac00;
  if (code < 0 || code > 11171) return `${word}(으)로`;
  const final = code % 28;
  return `${word}${final === 0 || final === 8 ? '로' : '으로'}`;
}
