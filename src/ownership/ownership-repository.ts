import type { PageRequest } from '../protocol/page.js';
import { pageOfIndex, type Store } from '../store/index.js';
import { ownershipKeys } from './ownership-keys.js';

/** What an account can own one of: each has exactly one owner. Materials have a set of owners (see below). */
export type OwnedKind = 'class' | 'quiz' | 'room';
const LIST_OF = { class: 'classes', quiz: 'quizzes', room: 'rooms' } as const;

/**
 * Ownership in the store, kept beside the things themselves so the repositories of classes, quizzes and rooms stay
 * as they were: one string per class, quiz or room naming its account, and per account a sorted set per kind scored
 * by creation time (the lists "내 수업", "내 퀴즈", "내 자료", paged with pageOfIndex). A material is content-addressed
 * (the same bytes uploaded twice are one material), so it has a set of owners: a hash of account ids. Writes go owner
 * first, then the list entry, so a list never names a thing nobody owns.
 */
export class OwnershipRepository {
  constructor(private readonly store: Store) {}

  async setOwner(kind: OwnedKind, id: string, accountId: string, createdAt: number): Promise<void> {
    await this.store.set(ownershipKeys.ownerOf(kind, id), accountId);
    await this.store.zadd(ownershipKeys.accountOwned(accountId, LIST_OF[kind]), createdAt, id);
  }

  /** The owning account, or null (no such thing, or made before accounts: nobody may use it through an account). */
  ownerOf(kind: OwnedKind, id: string): Promise<string | null> {
    return this.store.get(ownershipKeys.ownerOf(kind, id));
  }

  /** Forgets the owner and the list entry (the thing itself is deleted by data/). */
  async forget(kind: OwnedKind, id: string): Promise<void> {
    const owner = await this.ownerOf(kind, id);
    if (owner !== null) await this.store.zrem(ownershipKeys.accountOwned(owner, LIST_OF[kind]), id);
    await this.store.del(ownershipKeys.ownerOf(kind, id));
  }

  /** One page of an account's things of a kind, newest first (ids). */
  page(accountId: string, kind: OwnedKind | 'material', page: PageRequest): Promise<{ members: string[]; nextCursor: string | null }> {
    const list = kind === 'material' ? 'materials' : LIST_OF[kind];
    return pageOfIndex(this.store, ownershipKeys.accountOwned(accountId, list), page, { reverse: true });
  }

  /** How many things of a kind the account owns (quotas read this). */
  count(accountId: string, kind: OwnedKind | 'material'): Promise<number> {
    return this.store.zcard(ownershipKeys.accountOwned(accountId, kind === 'material' ? 'materials' : LIST_OF[kind]));
  }

  /** Makes the account an owner of the material (again: the first time is kept). */
  async addMaterialOwner(materialId: string, accountId: string, at: number): Promise<void> {
    await this.store.hsetnx(ownershipKeys.materialOwners(materialId), accountId, String(at));
    const since = Number(await this.store.hget(ownershipKeys.materialOwners(materialId), accountId)) || at;
    await this.store.zadd(ownershipKeys.accountOwned(accountId, 'materials'), since, materialId);
  }

  async ownsMaterial(materialId: string, accountId: string): Promise<boolean> {
    return (await this.store.hget(ownershipKeys.materialOwners(materialId), accountId)) !== null;
  }

  /** Removes one owner; answers how many owners are left (0: the material may be deleted). */
  async removeMaterialOwner(materialId: string, accountId: string): Promise<number> {
    await this.store.hdel(ownershipKeys.materialOwners(materialId), accountId);
    await this.store.zrem(ownershipKeys.accountOwned(accountId, 'materials'), materialId);
    return this.store.hlen(ownershipKeys.materialOwners(materialId));
  }

  /** Forgets every owner of a material that is being deleted. */
  async forgetMaterial(materialId: string): Promise<void> {
    const owners = Object.keys(await this.store.hgetall(ownershipKeys.materialOwners(materialId)));
    for (const owner of owners) await this.store.zrem(ownershipKeys.accountOwned(owner, 'materials'), materialId);
    await this.store.del(ownershipKeys.materialOwners(materialId));
  }

  async addQuizRoom(quizId: string, roomId: string, createdAt: number): Promise<void> {
    await this.store.zadd(ownershipKeys.quizRooms(quizId), createdAt, roomId);
  }

  quizRoomsPage(quizId: string, page: PageRequest): Promise<{ members: string[]; nextCursor: string | null }> {
    return pageOfIndex(this.store, ownershipKeys.quizRooms(quizId), page, { reverse: true });
  }

  async forgetRoom(roomId: string, quizId: string | undefined): Promise<void> {
    if (quizId !== undefined) await this.store.zrem(ownershipKeys.quizRooms(quizId), roomId);
    await this.forget('room', roomId);
  }

  async forgetQuiz(quizId: string): Promise<void> {
    await this.store.del(ownershipKeys.quizRooms(quizId));
    await this.forget('quiz', quizId);
  }
}
