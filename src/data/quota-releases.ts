/**
 * QUOTA's side of deletion: what accounts and classes hold is counted (src/quota/), and deleting a material, a quiz
 * or a class counts it back down. A port, so data/ does not depend on the quota folder; Quotas.releases satisfies it.
 */
export interface QuotaReleases {
  materialDeleted(materialId: string): Promise<void>;
  quizDeleted(classId: string): Promise<void>;
  classDeleted(classId: string): Promise<void>;
}
