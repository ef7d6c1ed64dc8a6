import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload } from 'jose';
import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { ltiKeys } from './lti-keys.js';

/**
 * lectern's own signing keys (RS256, as LTI 1.3 requires): they sign the client-credentials assertions sent to a
 * platform's token endpoint and the Deep Linking responses. Kept in the store so every node signs with the same key
 * and a restart changes nothing; the public halves are published at `/lti/jwks`, where platforms fetch them.
 *
 * Rotation puts a new key first (it signs from then on) and keeps the previous one published, so what it signed a
 * moment ago still verifies at the platform; the one before that is dropped. The first node to need a key makes it
 * (SET NX: two nodes starting at once agree on one).
 */

const ALGORITHM = 'RS256';
/** Keys published at once: the signing one and the one before it. */
const PUBLISHED = 2;

const StoredKey = z.object({ kid: z.string(), createdAt: z.number(), privateJwk: z.record(z.string(), z.unknown()), publicJwk: z.record(z.string(), z.unknown()) });
const StoredKeys = z.object({ keys: z.array(StoredKey).min(1) });
type StoredKey = z.infer<typeof StoredKey>;

export interface PublishedKey {
  kid: string;
  createdAt: number;
}

export class ToolKeys {
  private readonly imported = new Map<string, Exclude<Awaited<ReturnType<typeof importJWK>>, Uint8Array>>();

  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** The JWKS platforms fetch: the public halves of the published keys. */
  async jwks(): Promise<{ keys: JWK[] }> {
    return { keys: (await this.current()).map((entry) => ({ ...(entry.publicJwk as JWK), kid: entry.kid, alg: ALGORITHM, use: 'sig' })) };
  }

  /** The published keys, newest (the signing one) first, without their private halves. */
  async published(): Promise<PublishedKey[]> {
    return (await this.current()).map(({ kid, createdAt }) => ({ kid, createdAt }));
  }

  /** Makes a new signing key; the previous one stays published, older ones are dropped. */
  async rotate(): Promise<PublishedKey[]> {
    const fresh = await this.generate();
    const kept = [fresh, ...(await this.current())].slice(0, PUBLISHED);
    await this.store.set(ltiKeys.ltiToolKeys(), JSON.stringify({ keys: kept }));
    this.logger.info({ kid: fresh.kid }, 'lti tool key rotated');
    return kept.map(({ kid, createdAt }) => ({ kid, createdAt }));
  }

  /** Signs a JWT with the current key (`kid` in the header), issued now, expiring after `ttlSeconds`. */
  async sign(payload: JWTPayload, ttlSeconds: number): Promise<string> {
    const [signing] = await this.current();
    if (!signing) throw new Error('no LTI tool key');
    let key = this.imported.get(signing.kid);
    if (!key) {
      const imported = await importJWK(signing.privateJwk as JWK, ALGORITHM);
      if (imported instanceof Uint8Array) throw new Error('the LTI tool key is not an RSA key');
      key = imported;
      this.imported.set(signing.kid, key);
    }
    const issuedAt = Math.floor(this.now() / 1000);
    return new SignJWT(payload)
      .setProtectedHeader({ alg: ALGORITHM, kid: signing.kid, typ: 'JWT' })
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ttlSeconds)
      .setJti(randomUUID())
      .sign(key);
  }

  private async current(): Promise<StoredKey[]> {
    const key = ltiKeys.ltiToolKeys();
    const stored = readJsonRecord(await this.store.get(key), StoredKeys, { key, logger: this.logger });
    if (stored) return stored.keys;
    // The first node to need a key makes it; a node racing it reads the winner's.
    await this.store.set(key, JSON.stringify({ keys: [await this.generate()] }), { nx: true });
    const made = readJsonRecord(await this.store.get(key), StoredKeys, { key, logger: this.logger });
    if (!made) throw new Error('the LTI tool keys could not be stored');
    return made.keys;
  }

  private async generate(): Promise<StoredKey> {
    const pair = await generateKeyPair(ALGORITHM, { extractable: true, modulusLength: 2048 });
    const kid = randomUUID();
    return { kid, createdAt: this.now(), privateJwk: { ...(await exportJWK(pair.privateKey)) }, publicJwk: { ...(await exportJWK(pair.publicKey)) } };
  }
}
