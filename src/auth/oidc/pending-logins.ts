import { z } from 'zod';
import type { Store } from '../../store/index.js';
import { authKeys } from '../auth-keys.js';

/** What the callback needs to finish a sign-in that a (possibly other) node started. */
export interface PendingLogin {
  codeVerifier: string;
  nonce: string;
  returnPath: string;
  /** The redirect URI sent at the start; the code exchange must send the same one. */
  redirectUri: string;
}

const PendingLoginSchema = z.object({
  codeVerifier: z.string().min(43),
  nonce: z.string().min(1),
  returnPath: z.string().startsWith('/'),
  redirectUri: z.url(),
});

/** Ten minutes: time enough to type a password and pass a second factor at the provider. */
export const PENDING_LOGIN_TTL_MS = 10 * 60_000;

/**
 * Sign-ins under way, in the store so any node can finish what another started. Each is one-time: the callback
 * claims it by deleting it, and only the caller whose delete removed the key may use it (a replayed or raced
 * callback finds nothing).
 */
export class PendingLogins {
  constructor(
    private readonly store: Store,
    private readonly ttlMs = PENDING_LOGIN_TTL_MS,
  ) {}

  async save(state: string, login: PendingLogin): Promise<void> {
    await this.store.set(authKeys.oidcPendingLogin(state), JSON.stringify(login), { ttlMs: this.ttlMs });
  }

  /** The pending login of `state`, removed from the store; null when unknown, expired or already claimed. */
  async claim(state: string): Promise<PendingLogin | null> {
    const key = authKeys.oidcPendingLogin(state);
    const raw = await this.store.get(key);
    if (raw === null) return null;
    if ((await this.store.del(key)) !== 1) return null;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
    const parsed = PendingLoginSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
  }
}
