/**
 * `GET /api/materials/:id/key-terms` (browser-safe types only): per chapter, its title and the key terms it teaches,
 * found without a model (the raise-hand assistant's concept list). The host's quiz topics and the classroom's
 * question example come from it, so they are the material's own words in every course.
 */
export interface MaterialKeyTerms {
  materialId: string;
  chapters: Array<{ index: number; title: string; terms: string[] }>;
}
