import { describe, expect, it } from 'vitest';
import { clientAddress } from '../src/realtime/client-address.js';

const socket = (address: string, forwarded?: string | string[]) =>
  ({ handshake: { address, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } } }) as unknown as Parameters<typeof clientAddress>[0];

describe('client address for per-address limits', () => {
  it('trusts X-Forwarded-For only from a proxy on this machine, taking the rightmost address that is not loopback', () => {
    expect(clientAddress(socket('127.0.0.1'))).toBe('127.0.0.1');
    expect(clientAddress(socket('127.0.0.1', '203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddress(socket('::ffff:127.0.0.1', '198.51.100.2, 203.0.113.7'))).toBe('203.0.113.7');
    expect(clientAddress(socket('::1', '203.0.113.7, 127.0.0.1'))).toBe('203.0.113.7');
    expect(clientAddress(socket('127.0.0.1', ['198.51.100.2', '203.0.113.9']))).toBe('203.0.113.9');
    expect(clientAddress(socket('127.0.0.1', ' , '))).toBe('127.0.0.1');
  });

  it('ignores the header from a client connecting directly (it could say anything)', () => {
    expect(clientAddress(socket('198.51.100.20', '203.0.113.7'))).toBe('198.51.100.20');
  });
});
