import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random secrets (cookie values, API tokens, invite and reset codes) and the sha256 under which the store keeps them. */

/** `bytes` random bytes as base64url (32 bytes: 43 characters, 256 bits). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** sha256 hex: the store keeps only this, so a leaked store dump holds no usable cookie, token or link. */
export function sha256(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time equality of two strings (false when the lengths differ). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
