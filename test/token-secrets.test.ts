/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - O1 — One secret per deployment. On Redis without `TOKEN_SECRET`, the first node generates the token secret and
 *   stores it with SET NX (`token-secret`, no TTL) …
 */
import { describe, expect, it } from 'vitest';
import { sharedTokenSecret } from '../src/auth/token-secrets.js';
import { TokenSigner } from '../src/auth/tokens.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { captureLogs } from './support/log-capture.js';
import { authKeys } from '../src/auth/auth-keys.js';

describe('the shared token secret (no TOKEN_SECRET)', () => {
  it('O1 nodes starting together agree on one secret, stored without a TTL; a restart reads the same one; each warns', async () => {
    const store = new MemoryStore();
    const { logger, lines } = captureLogs();
    const secrets = await Promise.all([1, 2, 3, 4].map(() => sharedTokenSecret(store, logger)));
    expect(new Set(secrets).size).toBe(1);
    const [secret] = secrets as [string];
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect(await store.get(authKeys.tokenSecret())).toBe(secret);
    expect(await store.pttl(authKeys.tokenSecret())).toBe(-1);

    // A token signed before the "restart" verifies after it.
    const token = new TokenSigner([secret]).sign({ kind: 'instructor', sub: 'class-1' }, 60_000);
    const again = await sharedTokenSecret(store, logger);
    expect(new TokenSigner([again]).verify(token, ['instructor']).ok).toBe(true);

    const warnings = lines().filter((line) => line.level === 40 && line.msg.includes('TOKEN_SECRET is not set'));
    expect(warnings).toHaveLength(5);
    await store.close();
  });
});
