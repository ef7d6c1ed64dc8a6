import type { QuotaLimits } from '../kernel/index.js';
import type { Store } from '../store/index.js';
import { quotaExceeded } from './quota-messages.js';
import { quotaKeys } from './quota-keys.js';

/**
 * Who holds rooms against the open-rooms quota. Rooms belong to an account once ownership lands (OWN); until then
 * the class is the only owner a room has, so the seam takes either and the route passes what it knows.
 */
export interface RoomOwner {
  scope: 'account' | 'class';
  id: string;
}

export interface QuotasOptions {
  store: Store;
  limits: QuotaLimits;
  /** Whether a room still counts as open: it exists (not expired or deleted) and has not ended. */
  roomOpen: (roomId: string) => Promise<boolean>;
}

const MATERIALS = 'materials';
const PDF_BYTES = 'pdf-bytes';
const QUIZZES = 'quizzes';
const OPEN_ROOMS = 'open-rooms';

/**
 * Per-account (per-class for quizzes) quotas, kept as counters in the store so every node agrees. Each creation
 * reserves first (HINCRBY, atomic on both stores), checks the new value against the limit and rolls its reservation
 * back when over it or when the creation fails: two parallel requests for the last slot see 11 and 10, not 10 and
 * 10, so only one passes. Deletion (src/data/, through {@link QuotaReleases}) counts back down.
 *
 * Counters rather than counting the indexes: the indexes that will say what an account owns are OWN's and not there
 * yet, a count of them is not atomic with the creation, and open rooms cannot be counted from any index without
 * reading every room. A process dying between a reservation and its rollback leaves the counter one too high; the
 * open-rooms counter heals itself (it re-checks its rooms when full), the others by a deletion.
 */
export class Quotas {
  constructor(private readonly options: QuotasOptions) {}

  get limits(): QuotaLimits {
    return this.options.limits;
  }

  /** Refuses before a byte of the upload is read when the account already holds its last material. */
  async assertMaterialSlot(accountId: string): Promise<void> {
    const { materialsPerAccount } = this.options.limits;
    const held = Number((await this.options.store.hget(quotaKeys.quota('account', accountId), MATERIALS)) ?? 0);
    if (held >= materialsPerAccount) throw quotaExceeded('materials', materialsPerAccount);
  }

  /**
   * Charges an uploaded material to the account around its ingest: one material and its bytes, reserved before the
   * (slow) ingest and rolled back when it fails. A material the account already has (same bytes) costs nothing again.
   */
  async chargeMaterial<T>(accountId: string, materialId: string, bytes: number, ingest: () => Promise<T>): Promise<T> {
    const { store, limits } = this.options;
    if ((await store.hget(quotaKeys.quotaMaterial(materialId), accountId)) !== null) return ingest();
    const key = quotaKeys.quota('account', accountId);
    const [materials, pdfBytes] = await Promise.all([store.hincrby(key, MATERIALS, 1), store.hincrby(key, PDF_BYTES, bytes)]);
    const rollback = () => Promise.all([store.hincrby(key, MATERIALS, -1), store.hincrby(key, PDF_BYTES, -bytes)]);
    if (materials > limits.materialsPerAccount || pdfBytes > limits.pdfBytesPerAccount) {
      await rollback();
      throw materials > limits.materialsPerAccount
        ? quotaExceeded('materials', limits.materialsPerAccount)
        : quotaExceeded('pdf-bytes', limits.pdfBytesPerAccount);
    }
    let result: T;
    try {
      result = await ingest();
    } catch (error) {
      await rollback();
      throw error;
    }
    // First write wins: a parallel upload of the same bytes by the same account is charged once.
    if (!(await store.hsetnx(quotaKeys.quotaMaterial(materialId), accountId, String(bytes)))) await rollback();
    return result;
  }

  /** Creates a quiz in a class within its quota; the reservation is rolled back when the creation fails. */
  async chargeQuiz<T>(classId: string, create: () => Promise<T>): Promise<T> {
    const { store, limits } = this.options;
    const key = quotaKeys.quota('class', classId);
    if ((await store.hincrby(key, QUIZZES, 1)) > limits.quizzesPerClass) {
      await store.hincrby(key, QUIZZES, -1);
      throw quotaExceeded('quizzes-per-class', limits.quizzesPerClass);
    }
    try {
      return await create();
    } catch (error) {
      await store.hincrby(key, QUIZZES, -1);
      throw error;
    }
  }

  /**
   * Opens a room within the owner's open-rooms quota. The counter may include rooms that have since ended or expired
   * (nothing tells the quota when a room's TTL runs out): when the reservation finds the quota full, the owner's rooms
   * are re-checked, those no longer open are removed (ZREM decides who counts each one down, exactly once), and the
   * reservation is judged again.
   */
  async openRoom<T extends { roomId: string }>(owner: RoomOwner, create: () => Promise<T>): Promise<T> {
    const { store, limits } = this.options;
    const key = quotaKeys.quota(owner.scope, owner.id);
    let held = await store.hincrby(key, OPEN_ROOMS, 1);
    if (held > limits.openRoomsPerAccount) {
      await this.pruneRooms(owner);
      held = await store.hincrby(key, OPEN_ROOMS, 0);
    }
    if (held > limits.openRoomsPerAccount) {
      await store.hincrby(key, OPEN_ROOMS, -1);
      throw quotaExceeded('open-rooms', limits.openRoomsPerAccount);
    }
    let created: T;
    try {
      created = await create();
    } catch (error) {
      await store.hincrby(key, OPEN_ROOMS, -1);
      throw error;
    }
    await store.zadd(quotaKeys.quotaRooms(owner.scope, owner.id), Date.now(), created.roomId);
    return created;
  }

  /** Removes the owner's rooms that ended or expired from its count. Bounded: the set holds at most the limit's worth. */
  private async pruneRooms(owner: RoomOwner): Promise<void> {
    const { store, roomOpen } = this.options;
    const set = quotaKeys.quotaRooms(owner.scope, owner.id);
    const members = await store.zrange(set, 0, -1);
    for (const { member } of members) {
      if (await roomOpen(member)) continue;
      if ((await store.zrem(set, member)) === 1) await store.hincrby(quotaKeys.quota(owner.scope, owner.id), OPEN_ROOMS, -1);
    }
  }

  /** What an owner holds now (the counters as stored; for tests and the account page). */
  async usage(scope: 'account' | 'class', id: string): Promise<Record<string, number>> {
    const fields = await this.options.store.hgetall(quotaKeys.quota(scope, id));
    return Object.fromEntries(Object.entries(fields).map(([field, value]) => [field, Number(value)]));
  }

  /** The releases src/data/ calls when it deletes (see {@link QuotaReleases}). */
  readonly releases: QuotaReleases = {
    materialDeleted: async (materialId) => {
      const { store } = this.options;
      const charged = await store.hgetall(quotaKeys.quotaMaterial(materialId));
      for (const accountId of Object.keys(charged)) await this.releaseMaterial(accountId, materialId);
      await store.del(quotaKeys.quotaMaterial(materialId));
    },
    quizDeleted: async (classId) => {
      const { store } = this.options;
      const key = quotaKeys.quota('class', classId);
      // Quizzes made before quotas existed were never counted: their deletion must not take the counter below 0.
      if ((await store.hincrby(key, QUIZZES, -1)) < 0) await store.hincrby(key, QUIZZES, 1);
    },
    classDeleted: async (classId) => {
      await this.options.store.del(quotaKeys.quota('class', classId), quotaKeys.quotaRooms('class', classId));
    },
  };

  /**
   * One account no longer holds a material (deleted, or — with OWN's shared ownership — its own ownership removed):
   * its material and bytes are credited back, once (HDEL says who removed the charge).
   */
  async releaseMaterial(accountId: string, materialId: string): Promise<void> {
    const { store } = this.options;
    const bytes = Number((await store.hget(quotaKeys.quotaMaterial(materialId), accountId)) ?? NaN);
    if (Number.isNaN(bytes) || (await store.hdel(quotaKeys.quotaMaterial(materialId), accountId)) !== 1) return;
    const key = quotaKeys.quota('account', accountId);
    await Promise.all([store.hincrby(key, MATERIALS, -1), store.hincrby(key, PDF_BYTES, -bytes)]);
  }
}

/** What deletion (src/data/) tells the quotas; structurally the same as data's QuotaReleases port. */
export interface QuotaReleases {
  materialDeleted(materialId: string): Promise<void>;
  quizDeleted(classId: string): Promise<void>;
  classDeleted(classId: string): Promise<void>;
}
