import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

/**
 * Signed bearer tokens: `base64url(json payload) + '.' + base64url(HMAC-SHA256)`. The secret comes from config
 * and is shared by every node, so any node can check a token another node issued. Tokens carry their kind, so a
 * student's token can never pass where an instructor's or host's is required.
 */
export const TokenKind = z.enum(['session', 'instructor', 'player', 'host']);
export type TokenKind = z.infer<typeof TokenKind>;

const TokenPayload = z.object({
  kind: TokenKind,
  /** The id the token speaks for: session id, class id, player id or room id. */
  sub: z.string().min(1),
  /** Class (or room) the token is bound to, where there is one. */
  scope: z.string().min(1).optional(),
  /** Expiry, ms since epoch. */
  exp: z.number().int(),
});
export type TokenPayload = z.infer<typeof TokenPayload>;

export type TokenCheck = { ok: true; payload: TokenPayload } | { ok: false; reason: 'malformed' | 'signature' | 'expired' | 'kind' };

export class TokenSigner {
  private readonly secret: Buffer;

  constructor(
    secret: string | undefined,
    private readonly now: () => number = Date.now,
  ) {
    // Without a configured secret tokens only verify on this process: fine for one node, documented in README.
    this.secret = secret ? Buffer.from(secret, 'utf8') : randomBytes(32);
  }

  sign(payload: Omit<TokenPayload, 'exp'>, ttlMs: number): string {
    const body = Buffer.from(JSON.stringify({ ...payload, exp: this.now() + ttlMs }), 'utf8').toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** Checks signature, shape, expiry and (when given) the expected kinds. */
  verify(token: unknown, kinds?: readonly TokenKind[]): TokenCheck {
    if (typeof token !== 'string' || token.length > 4096) return { ok: false, reason: 'malformed' };
    const dot = token.indexOf('.');
    if (dot <= 0 || dot !== token.lastIndexOf('.')) return { ok: false, reason: 'malformed' };
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.mac(body), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'signature' };
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

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
