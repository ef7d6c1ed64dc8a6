/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - O2 — Rotation. `TOKEN_SECRET=new,old`: tokens are signed with `new`; tokens signed with `old` still verify;
 *   tokens of any other secret do not.
 * - O3 — One spelling. A token verifies only as issued: a signature respelled so that it decodes to the same bytes
 *   (last character's unused bits changed, an inserted `!` …
 */
import { describe, expect, it } from 'vitest';
import { TokenSigner } from '../src/auth/tokens.js';

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

describe('token signatures and secrets', () => {
  const signer = new TokenSigner('secret-a');
  const token = signer.sign({ kind: 'instructor', sub: 'class-1' }, 60_000);
  const [body, signature] = token.split('.') as [string, string];
  const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  it('O3 a signature whose last character differs only in its unused bits (…I → …J) is refused', () => {
    // 32 bytes are 43 base64url characters: the last one carries 4 bits of the MAC and 2 unused bits.
    expect(signature).toHaveLength(43);
    const last = BASE64URL.indexOf(signature.at(-1)!);
    const sibling = BASE64URL[last ^ 1]!;
    const respelled = `${body}.${signature.slice(0, -1)}${sibling}`;
    // The same bytes to a lenient decoder: this is the spelling that used to pass.
    expect(Buffer.from(respelled.split('.')[1]!, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expect(signer.verify(respelled)).toEqual({ ok: false, reason: 'signature' });
  });

  it('O3 a signature with an inserted character the decoder skips (!) is refused', () => {
    const inserted = `${body}.${signature.slice(0, 10)}!${signature.slice(10)}`;
    expect(Buffer.from(inserted.split('.')[1]!, 'base64url').equals(Buffer.from(signature, 'base64url'))).toBe(true);
    expect(signer.verify(inserted)).toEqual({ ok: false, reason: 'signature' });
  });

  it('O3 a signature with a trailing = is refused; the canonical one still verifies', () => {
    expect(signer.verify(`${token}=`)).toEqual({ ok: false, reason: 'signature' });
    expect(signer.verify(token).ok).toBe(true);
  });

  it('O2 with secrets new,old: new tokens use the new one, tokens of the old one still verify, others do not', () => {
    const before = new TokenSigner(['old-secret']);
    const rotated = new TokenSigner(['new-secret', 'old-secret']);
    const oldToken = before.sign({ kind: 'session', sub: 's1' }, 60_000);
    expect(rotated.verify(oldToken, ['session'])).toMatchObject({ ok: true, payload: { sub: 's1' } });

    const newToken = rotated.sign({ kind: 'session', sub: 's2' }, 60_000);
    expect(new TokenSigner(['new-secret']).verify(newToken).ok).toBe(true);
    expect(before.verify(newToken)).toEqual({ ok: false, reason: 'signature' });
    // Once the old secret is dropped, its tokens stop verifying.
    expect(new TokenSigner(['new-secret']).verify(oldToken)).toEqual({ ok: false, reason: 'signature' });
    expect(rotated.verify(new TokenSigner('another').sign({ kind: 'session', sub: 's3' }, 60_000)).ok).toBe(false);
  });

  it('refuses to sign with no secret or an empty one', () => {
    expect(() => new TokenSigner([])).toThrow();
    expect(() => new TokenSigner('')).toThrow();
  });
});
