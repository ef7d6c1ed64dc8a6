import { describe, expect, it } from 'vitest';
import { TokenSigner } from '../src/classroom/tokens.js';

describe('signed tokens', () => {
  const signer = new TokenSigner('secret-a');

  it('verifies a token it signed, with its kind, subject and scope', () => {
    const token = signer.sign({ kind: 'session', sub: 's1', scope: 'class-1' }, 60_000);
    const check = signer.verify(token, ['session']);
    expect(check).toMatchObject({ ok: true, payload: { kind: 'session', sub: 's1', scope: 'class-1' } });
  });

  it('refuses a token of another kind where a kind is required', () => {
    const token = signer.sign({ kind: 'session', sub: 's1' }, 60_000);
    expect(signer.verify(token, ['instructor'])).toEqual({ ok: false, reason: 'kind' });
  });

  it('refuses expired, tampered, forged and malformed tokens', () => {
    let now = 1_000;
    const clocked = new TokenSigner('secret-a', () => now);
    const token = clocked.sign({ kind: 'session', sub: 's1' }, 100);
    now = 1_100;
    expect(clocked.verify(token)).toEqual({ ok: false, reason: 'expired' });

    const fresh = signer.sign({ kind: 'session', sub: 's1' }, 60_000);
    const [body, mac] = fresh.split('.') as [string, string];
    const tamperedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: 's2' }),
    ).toString('base64url');
    expect(signer.verify(`${tamperedBody}.${mac}`)).toEqual({ ok: false, reason: 'signature' });
    expect(new TokenSigner('secret-b').verify(fresh)).toEqual({ ok: false, reason: 'signature' });
    for (const junk of [undefined, 42, '', 'abc', 'a.b.c', `${body}.`, 'x'.repeat(5000)]) {
      expect(signer.verify(junk).ok).toBe(false);
    }
  });

  it('verifies across signers that share the secret (several nodes)', () => {
    const token = new TokenSigner('shared').sign({ kind: 'host', sub: 'room-1' }, 60_000);
    expect(new TokenSigner('shared').verify(token, ['host']).ok).toBe(true);
  });
});
