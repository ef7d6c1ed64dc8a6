import { lectureLifecycle } from '../lecture/index.js';
import { deleteUsage } from '../llm/index.js';
import { deleteMaterialLock } from '../materials/index.js';
import { mathLifecycle } from '../math-problems/index.js';
import { OwnershipRepository } from '../ownership/index.js';
import { qualityLifecycle } from '../quality/index.js';
import { quizLifecycle } from '../quiz/index.js';
import { deleteRetrievalLock } from '../retrieval/index.js';
import type { Store } from '../store/index.js';
import type { QuotaReleases } from './quota-releases.js';
import type { ExamParts } from './owner-parts.js';

/** What deletion needs of the materials and retrieval folders (their services satisfy it). */
export interface MaterialParts {
  /** Record, index entry and blobs (PDF, chapter slices, page texts); false when there was no such material. */
  remove(materialId: string): Promise<boolean>;
}
export interface RetrievalParts {
  deleteIndex(materialId: string): Promise<void>;
}

/**
 * Deletion of a material: record, index entry and blobs (through the materials service, which knows the blob
 * names, on disk or in the store), every generated chapter lecture (found through the material's lecture index: no
 * SCAN), the retrieval index (store and this node's cache), self-study items served from it, leases and usage, the
 * exams and the math problem sets made from it (each account's list and judgement summary of the material with
 * them), and its list of quizzes showing its pages (an owner whose quiz shows one cannot delete it: `shownBy`). Each owner deletes its own keys; this file orders the steps. Sessions and classes that used the material
 * are not deleted: they belong to their classes (they can no longer start the lecture).
 */
export class MaterialDeletion {
  constructor(
    private readonly store: Store,
    private readonly materials: MaterialParts,
    private readonly retrieval: RetrievalParts,
    private readonly quotas?: QuotaReleases,
    private readonly exams?: ExamParts,
  ) {}

  /**
   * Whether a quiz of the account shows a page of the material as an item's picture: the account may not give the
   * material up then (MATERIAL_IN_USE), as an uploaded picture a quiz shows cannot be deleted (IMAGE_IN_USE).
   */
  async shownBy(materialId: string, accountId: string): Promise<boolean> {
    const ownership = new OwnershipRepository(this.store);
    for (const quizId of await quizLifecycle.pictureQuizzes(this.store, materialId)) {
      if ((await ownership.ownerOf('quiz', quizId)) === accountId) return true;
    }
    return false;
  }

  async delete(materialId: string): Promise<boolean> {
    const { store } = this;
    const existed = await this.materials.remove(materialId);
    // Credited even when a previous, interrupted deletion already removed the record.
    await this.quotas?.materialDeleted(materialId);
    const lectures = await lectureLifecycle.countByMaterial(store, materialId);
    const mathSets = await mathLifecycle.countByMaterial(store, materialId);
    const exams = (await this.exams?.countForMaterial(materialId)) ?? 0;
    if (!existed && lectures === 0 && mathSets === 0 && exams === 0) return false;
    // The exams made from it, with every student's drafts, submissions, grades and reports.
    await this.exams?.deleteForMaterial(materialId);
    await mathLifecycle.deleteByMaterial(store, materialId);
    await lectureLifecycle.deleteByMaterial(store, materialId);
    await quizLifecycle.deleteByMaterial(store, materialId);
    await qualityLifecycle.deleteByMaterial(store, materialId);
    await this.retrieval.deleteIndex(materialId);
    await deleteRetrievalLock(store, materialId);
    await deleteMaterialLock(store, materialId);
    await deleteUsage(store, 'material', [materialId]);
    await new OwnershipRepository(store).forgetMaterial(materialId);
    return true;
  }
}
