import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';

/**
 * Each platform's published keys, fetched from its JWKS URL by `jose` and cached per URL on this node. A token whose
 * `kid` the cache does not know makes `jose` fetch the set again (once per `cooldownMs`), so a platform that rotates
 * its keys keeps launching; an unknown `kid` still fails after the refetch.
 */
export interface KeySetOptions {
  /** The least time between two fetches of one set caused by unknown key ids (jose's cooldown; 30 s by default). */
  cooldownMs?: number;
  /** How long a fetched set is trusted before it is fetched again (10 minutes by default). */
  maxAgeMs?: number;
  /** How long a fetch may take (5 s by default). */
  timeoutMs?: number;
}

export class PlatformKeySets {
  private readonly sets = new Map<string, JWTVerifyGetKey>();

  constructor(private readonly options: KeySetOptions = {}) {}

  /** The key resolver of one JWKS URL (made on first use, then cached). */
  of(jwksUrl: string): JWTVerifyGetKey {
    let set = this.sets.get(jwksUrl);
    if (!set) {
      set = createRemoteJWKSet(new URL(jwksUrl), {
        cooldownDuration: this.options.cooldownMs ?? 30_000,
        cacheMaxAge: this.options.maxAgeMs ?? 10 * 60_000,
        timeoutDuration: this.options.timeoutMs ?? 5_000,
      });
      // A registration whose URL changed leaves its old resolver: bounded by the handful of platforms a deployment has.
      if (this.sets.size > 200) this.sets.clear();
      this.sets.set(jwksUrl, set);
    }
    return set;
  }
}
