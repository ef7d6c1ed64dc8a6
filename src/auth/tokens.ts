import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Signed bearer tokens: `base64url(json payload) + '.' + base64url(HMAC-SHA256)`. The secrets come from config (or
 * are shared through the store, see token-secrets.ts) and are the same on every node, so any node can check a token
 * another node issued. Tokens carry their kind, so a student's token can never pass where an instructor's or host's
 * is required.
 */
export const TokenKind = z.enum(['session', 'instructor', 'player', 'host', 'job']);
export type TokenKind = z.infer<typeof TokenKind>;

const TokenPayload = z.object({
  kind: TokenKind,
  /** The id the token speaks for: session id, class id, player id, room id or job id. */
  sub: z.string().min(1),
  /** Class (or room) the token is bound to, where there is one; the owner account for class, host and job tokens. */
  scope: z.string().min(1).optional(),
  /** Expiry, ms since epoch. */
  exp: z.number().int(),
  /**
   * Issue time, ms since epoch: class-instructor and host tokens issued before their account ended its sessions (a
   * password reset or change, sign out everywhere) are refused (ownership/credential-checks.ts). Absent on tokens
   * signed before it existed, which such an account's cut refuses too.
   */
  iat: z.number().int().optional(),
});
export type TokenPayload = z.infer<typeof TokenPayload>;

export type TokenCheck = { ok: true; payload: TokenPayload } | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'kind' };

export class TokenSigner {
  /** Newest first: the first signs, every one verifies (rotation: `TOKEN_SECRET=new,old`). */
  private readonly secrets: readonly Buffer[];

  constructor(
    secrets: string | readonly string[],
    private readonly now: () => number = Date.now,
  ) {
    const list = typeof secrets === 'string' ? [secrets] : secrets;
    if (list.length === 0 || list.some((secret) => secret.length === 0)) throw new Error('TokenSigner needs at least one non-empty secret');
    this.secrets = list.map((secret) => Buffer.from(secret, 'utf8'));
  }

  sign(payload: Omit<TokenPayload, 'exp' | 'iat'>, ttlMs: number): string {
    const now = this.now();
    const body = Buffer.from(JSON.stringify({ ...payload, exp: now + ttlMs, iat: now }), 'utf8').toString('base64url');
    return `${body}.${mac(this.secrets[0]!, body)}`;
  }

  /** Checks signature, shape, expiry and (when given) the expected kinds. */
  verify(token: unknown, kinds?: readonly TokenKind[]): TokenCheck {
    if (typeof token !== 'string' || token.length > 4096) return { ok: false, reason: 'malformed' };
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.')) return { ok: false, reason: 'malformed' };
    const body = token.slice(0, dot);
    if (!this.signedHere(body, token.slice(dot + 1))) return { ok: false, reason: 'signature' };
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    const parsed = TokenPayload.safeParse(json);
    if (!parsed.success) return { ok: false, reason: 'malformed' };
    if (parsed.data.exp <= this.now()) return { ok: false, reason: 'expired' };
    if (kinds && !kinds.includes(parsed.data.kind)) return { ok: false, reason: 'kind' };
    return { ok: true, payload: parsed.data };
  }

  /**
   * Compares the signature as the canonical base64url text, not as decoded bytes: Node's lenient decoder would let
   * `…J` pass for `…I` (unused low bits), skip an inserted `!` and ignore a trailing `=`, so one token would have many
   * accepted spellings. Every secret is tried (no early exit), each comparison in constant time.
   */
  private signedHere(body: string, signature: string): boolean {
    const given = Buffer.from(signature, 'utf8');
    let matched = false;
    for (const secret of this.secrets) {
      const expected = Buffer.from(mac(secret, body), 'utf8');
      if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
    }
    return matched;
  }
}

function mac(secret: Buffer, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}
