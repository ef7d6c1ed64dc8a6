import { z } from 'zod';
import { OwnershipRepository } from '../ownership/index.js';
import { keys, type Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';
import type { ExamParts } from './owner-parts.js';
import { deleteQualitySamples, drainIndex } from './deletion-batches.js';
import { safeJson } from './room-deletion.js';

/** What deletion needs of the materials and retrieval folders (their services satisfy it). */
export interface MaterialParts {
  /** Record, index entry and blobs (PDF, chapter slices, page texts); false when there was no such material. */
  remove(materialId: string): Promise<boolean>;
}
export interface RetrievalParts {
  deleteIndex(materialId: string): Promise<void>;
}

/** What deletion reads of a math problem set: whose it is (its account's list and summary go with it). */
const MathSetOwner = z.object({ accountId: z.string() });

/**
 * Deletion of a material: record, index entry and blobs (through the materials service, which knows the blob
 * names, on disk or in the store), every generated chapter lecture (text stream, status, generation lease) found
 * through the material's lecture index (keys.materialLectures, written before a chapter's first key: no SCAN), the
 * retrieval index (store and this node's cache), self-study items served from it, leases and usage, and the math
 * problem sets made from it (found through keys.materialMathSets; each account's list and judgement summary of the
 * material with them). Sessions and classes that used the material are
 * not deleted: they belong to their classes (they can no longer start the lecture).
 */
export class MaterialDeletion {
  constructor(
    private readonly store: Store,
    private readonly materials: MaterialParts,
    private readonly retrieval: RetrievalParts,
    private readonly quotas?: QuotaReleases,
    private readonly exams?: ExamParts,
  ) {}

  async delete(materialId: string): Promise<boolean> {
    const { store } = this;
    const existed = await this.materials.remove(materialId);
    // Credited even when a previous, interrupted deletion already removed the record.
    await this.quotas?.materialDeleted(materialId);
    const lectures = await store.zcard(keys.materialLectures(materialId));
    const mathSets = await store.zcard(keys.materialMathSets(materialId));
    const exams = await store.zcard(keys.materialExams(materialId));
    if (!existed && lectures === 0 && mathSets === 0 && exams === 0) return false;
    // The exams made from it, with every student's drafts, submissions, grades and reports.
    await this.exams?.deleteForMaterial(materialId);
    await drainIndex(store, keys.materialMathSets(materialId), async (setIds) => {
      const records = await store.mget(setIds.map((setId) => keys.mathSet(setId)));
      const accounts = new Set(records.flatMap((raw) => {
        const parsed = raw === null ? undefined : MathSetOwner.safeParse(safeJson(raw));
        return parsed?.success ? [parsed.data.accountId] : [];
      }));
      await store.del(
        ...setIds.flatMap((setId) => [keys.mathSet(setId), keys.mathSetSummary(setId)]),
        ...[...accounts].flatMap((accountId) => [keys.accountMathSets(accountId, materialId), keys.accountMathSummary(accountId, materialId)]),
      );
    });
    await drainIndex(store, keys.materialLectures(materialId), async (cacheKeys) => {
      await store.del(...cacheKeys.flatMap((cacheKey) => [keys.lectureText(cacheKey), keys.lectureStatus(cacheKey), keys.lectureLock(cacheKey)]));
    });
    await drainIndex(store, keys.selfQuizIndex('material', materialId), async (quizIds) => {
      await store.del(...quizIds.map((quizId) => keys.selfQuizItem(quizId)));
    });
    await deleteQualitySamples(store, 'material', materialId);
    await this.retrieval.deleteIndex(materialId);
    await store.del(keys.retrievalLock(materialId), keys.materialLock(materialId), keys.usage('material', materialId));
    await new OwnershipRepository(store).forgetMaterial(materialId);
    return true;
  }
}
