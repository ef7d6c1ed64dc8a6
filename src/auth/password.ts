import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: scrypt from node:crypto (memory-hard, maintained with Node, nothing to download at install).
 * The stored string names its parameters — `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` (base64url) — so the cost can
 * be raised later: old hashes keep verifying with the parameters they were made with.
 */

/** N = 2^15, r = 8, p = 1: 32 MiB of memory per hash (what makes GPU guessing expensive); raise it here when needed. */
export const PASSWORD_COST: ScryptParameters = { logN: 15, r: 8, p: 1 };
const CURRENT = PASSWORD_COST;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Highest cost a stored hash may ask for, so a tampered record cannot make verification eat the machine. */
const MAX_LOG_N = 20;

export interface ScryptParameters {
  logN: number;
  r: number;
  p: number;
}

function derive(password: string, salt: Buffer, parameters: ScryptParameters, length: number): Promise<Buffer> {
  const N = 2 ** parameters.logN;
  const options: ScryptOptions = { N, r: parameters.r, p: parameters.p, maxmem: 128 * N * parameters.r * parameters.p + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => {
    // NFC so the same password typed on two keyboards (composed or decomposed Hangul) is the same bytes.
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** A new self-describing hash of `password` with the current parameters. */
export async function hashPassword(password: string, parameters: ScryptParameters = CURRENT): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, parameters, KEY_BYTES);
  return ['scrypt', parameters.logN, parameters.r, parameters.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

function parse(stored: string): { parameters: ScryptParameters; salt: Buffer; key: Buffer } | null {
  const [scheme, logN, r, p, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || salt === undefined || key === undefined) return null;
  const parameters = { logN: Number(logN), r: Number(r), p: Number(p) };
  const valid =
    Number.isInteger(parameters.logN) && parameters.logN >= 10 && parameters.logN <= MAX_LOG_N &&
    Number.isInteger(parameters.r) && parameters.r >= 1 && parameters.r <= 32 &&
    Number.isInteger(parameters.p) && parameters.p >= 1 && parameters.p <= 16;
  const keyBytes = Buffer.from(key, 'base64url');
  return valid && keyBytes.length >= 16 ? { parameters, salt: Buffer.from(salt, 'base64url'), key: keyBytes } : null;
}

/**
 * A hash of a random password, made once per cost: unknown emails verify against it so they cost the same time as
 * known ones hashed at that cost.
 */
const decoys = new Map<string, Promise<string>>();

function decoyFor(parameters: ScryptParameters): Promise<string> {
  const id = `${parameters.logN}$${parameters.r}$${parameters.p}`;
  let decoy = decoys.get(id);
  if (!decoy) decoys.set(id, (decoy = hashPassword(randomBytes(24).toString('base64url'), parameters)));
  return decoy;
}

/**
 * Whether `password` matches `stored` (constant-time compare). With `stored` null (no such account, or an account
 * without a password) it still runs one full hash and answers false, so response times do not tell which emails exist.
 */
export async function verifyPassword(password: string, stored: string | null, current: ScryptParameters = CURRENT): Promise<boolean> {
  const own = stored === null ? null : parse(stored);
  const target = own ?? parse(await decoyFor(current));
  if (!target) return false;
  const key = await derive(password, target.salt, target.parameters, target.key.length);
  return timingSafeEqual(key, target.key) && own !== null;
}

/** Whether a stored hash was made with weaker parameters than today's (re-hash it at the next successful sign-in). */
export function needsRehash(stored: string, current: ScryptParameters = CURRENT): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.parameters.logN < current.logN || parsed.parameters.r < current.r || parsed.parameters.p < current.p;
}
