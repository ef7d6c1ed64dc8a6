import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { readJsonRecord, type Store } from '../store/index.js';
import { PlatformRecord, type PlatformInput } from './platform-record.js';
import { ltiKeys } from './lti-keys.js';

/**
 * The platforms in the store: one JSON record each (`lti:platform:{id}`), the list by registration time, and per
 * issuer a hash of client id → platform id, which a login initiation (`iss`, `client_id`) is looked up in. Deleting
 * a platform deletes its record, its place in the issuer's hash, its links and its map of course classes (the
 * classes stay with their owners, like any class).
 */

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A resource a teacher put into a course with Deep Linking: what a launch of that link opens. */
export const LinkRecord = z.object({
  linkId: z.string(),
  platformId: z.string(),
  kind: z.enum(['lecture', 'quiz', 'exam']),
  /** The material (lecture), quiz or exam id. */
  resourceId: z.string(),
  /** The material the resource is made from (a lecture's own; a quiz's or exam's material), null for a quiz without one. */
  materialId: z.string().nullable(),
  title: z.string(),
  /** The lectern account that chose it: the course's class belongs to it. */
  accountId: z.string(),
  createdAt: z.number(),
});
export type LinkRecord = z.infer<typeof LinkRecord>;

export class PlatformRepository {
  constructor(
    private readonly store: Store,
    private readonly logger: Logger,
  ) {}

  /** Stores a new registration; null when the issuer already has a registration with this client id. */
  async create(input: PlatformInput, meta: { createdAt: number; createdBy: string; via: 'manual' | 'dynamic' }): Promise<PlatformRecord | null> {
    const platformId = randomUUID();
    if (!(await this.store.hsetnx(ltiKeys.ltiIssuer(sha256(input.issuer)), input.clientId, platformId))) return null;
    const record: PlatformRecord = { ...input, platformId, ...meta };
    await this.store.set(ltiKeys.ltiPlatform(platformId), JSON.stringify(record));
    await this.store.zadd(ltiKeys.ltiPlatforms(), meta.createdAt, platformId);
    return record;
  }

  /** Replaces a registration's editable fields (issuer and client id stay: they are how launches find it). */
  async update(record: PlatformRecord): Promise<void> {
    await this.store.set(ltiKeys.ltiPlatform(record.platformId), JSON.stringify(record));
  }

  async get(platformId: string): Promise<PlatformRecord | null> {
    const key = ltiKeys.ltiPlatform(platformId);
    return readJsonRecord(await this.store.get(key), PlatformRecord, { key, logger: this.logger });
  }

  /**
   * The registration a login names: by issuer and client id; without a client id (optional in a login initiation),
   * the issuer's only registration, or null when it has several.
   */
  async find(issuer: string, clientId: string | undefined): Promise<PlatformRecord | null> {
    const key = ltiKeys.ltiIssuer(sha256(issuer));
    if (clientId !== undefined) {
      const platformId = await this.store.hget(key, clientId);
      return platformId === null ? null : this.get(platformId);
    }
    const registered = Object.values(await this.store.hgetall(key));
    return registered.length === 1 && registered[0] !== undefined ? this.get(registered[0]) : null;
  }

  /** Every platform, oldest first (an admin registers a handful, so the list is read whole, 100 at most). */
  async list(): Promise<PlatformRecord[]> {
    const ids = (await this.store.zrange(ltiKeys.ltiPlatforms(), 0, 99)).map(({ member }) => member);
    const raws = await this.store.mget(ids.map((id) => ltiKeys.ltiPlatform(id)));
    return raws.flatMap((raw, index) => readJsonRecord(raw, PlatformRecord, { key: ltiKeys.ltiPlatform(ids[index] ?? ''), logger: this.logger }) ?? []);
  }

  /** Deletes a registration with its links and its map of course classes; false when there was none. */
  async delete(platformId: string): Promise<boolean> {
    const record = await this.get(platformId);
    if (!record) return false;
    const issuerKey = ltiKeys.ltiIssuer(sha256(record.issuer));
    if ((await this.store.hget(issuerKey, record.clientId)) === platformId) await this.store.hdel(issuerKey, record.clientId);
    await this.store.del(ltiKeys.ltiPlatform(platformId));
    await this.store.zrem(ltiKeys.ltiPlatforms(), platformId);
    for (;;) {
      const batch = (await this.store.zrange(ltiKeys.ltiPlatformLinks(platformId), 0, 99)).map(({ member }) => member);
      if (batch.length === 0) break;
      await this.store.del(...batch.map((linkId) => ltiKeys.ltiLink(linkId)));
      await this.store.zrem(ltiKeys.ltiPlatformLinks(platformId), ...batch);
    }
    await this.store.del(ltiKeys.ltiPlatformClasses(platformId));
    return true;
  }

  // ---- links -------------------------------------------------------------------------------------------------------

  async saveLink(link: LinkRecord): Promise<void> {
    await this.store.set(ltiKeys.ltiLink(link.linkId), JSON.stringify(link));
    await this.store.zadd(ltiKeys.ltiPlatformLinks(link.platformId), link.createdAt, link.linkId);
  }

  async link(linkId: string): Promise<LinkRecord | null> {
    const key = ltiKeys.ltiLink(linkId);
    return readJsonRecord(await this.store.get(key), LinkRecord, { key, logger: this.logger });
  }

  // ---- course classes ----------------------------------------------------------------------------------------------

  /** The class made for a course, its owner and material; null when there is none yet. */
  courseClass(platformId: string, courseKey: string): Promise<string | null> {
    return this.store.hget(ltiKeys.ltiPlatformClasses(platformId), courseKey);
  }

  /** Records the class of a course (first write wins): the class id that holds the place afterwards. */
  async claimCourseClass(platformId: string, courseKey: string, classId: string): Promise<string | null> {
    if (await this.store.hsetnx(ltiKeys.ltiPlatformClasses(platformId), courseKey, classId)) return classId;
    return this.store.hget(ltiKeys.ltiPlatformClasses(platformId), courseKey);
  }

  async forgetCourseClass(platformId: string, courseKey: string, classId: string): Promise<void> {
    if ((await this.store.hget(ltiKeys.ltiPlatformClasses(platformId), courseKey)) === classId) {
      await this.store.hdel(ltiKeys.ltiPlatformClasses(platformId), courseKey);
    }
  }
}

/** The key of a course's class: one class per course, owner account and material. */
export function courseKey(contextId: string, accountId: string, materialId: string): string {
  return sha256(JSON.stringify([contextId, accountId, materialId]));
}
