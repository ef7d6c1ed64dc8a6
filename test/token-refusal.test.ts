/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - A1 — One mapping. A valid token of another kind is `403 FORBIDDEN`; a missing, malformed, forged or expired token
 *   is `401 UNAUTHORIZED`; the refusal keeps its reason (`kind`, `malformed`, `signature` …
 */
import { describe, expect, it } from 'vitest';
import { TokenRefusal, TokenSigner, authorizeToken } from '../src/auth/index.js';
import { ErrorCode } from '../src/protocol/wire/error-codes.js';

/** The one mapping from a refused token to a wire code and HTTP status (rule A1 of test/SPEC.md). */

const signer = new TokenSigner('refusal-test-secret');

function refusal(token: unknown, kinds: Parameters<typeof authorizeToken>[2]): TokenRefusal {
  try {
    authorizeToken(signer, token, kinds);
  } catch (error) {
    if (error instanceof TokenRefusal) return error;
    throw error;
  }
  throw new Error('token was accepted');
}

describe('token refusals', () => {
  it('A1: a valid token of another kind is 403 FORBIDDEN; every other refusal is 401 UNAUTHORIZED', () => {
    const session = signer.sign({ kind: 'session', sub: 's1' }, 60_000);
    expect(refusal(session, ['player', 'host'])).toMatchObject({ code: ErrorCode.FORBIDDEN, reason: 'kind' });
    expect(refusal(session, ['instructor'])).toMatchObject({ code: ErrorCode.FORBIDDEN, reason: 'kind' });
    const cases: [unknown, string][] = [
      [undefined, 'malformed'],
      ['not-a-token', 'malformed'],
      [new TokenSigner('another-secret').sign({ kind: 'host', sub: 'r1' }, 60_000), 'signature'],
      [signer.sign({ kind: 'host', sub: 'r1' }, -1), 'expired'],
    ];
    for (const [token, reason] of cases) {
      expect(refusal(token, ['player', 'host']), reason).toMatchObject({ code: ErrorCode.UNAUTHORIZED, reason });
    }
  });

  it('A1: an accepted token gives its payload', () => {
    const host = signer.sign({ kind: 'host', sub: 'r1', scope: 'c1' }, 60_000);
    expect(authorizeToken(signer, host, ['player', 'host'])).toMatchObject({ kind: 'host', sub: 'r1', scope: 'c1' });
  });
});
