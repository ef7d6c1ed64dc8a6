/**
 * Lecture materials: PDF ingest, chapter plan, per-chapter slices, blob storage and the sample material.
 * - upload-reader.ts streams the upload (busboy), hashing as it arrives; not a PDF or over the size cap is refused at
 *   once. A material's id is its content hash: one ingest per hash across nodes (a lock in the store).
 * - Parsing runs in a worker pool (pdf-worker-pool.ts: a time limit per job, one queue per uploading account, served
 *   in turn); pdf-budget.ts first counts what each stream inflates to (PDF_TOO_COMPLEX past the budget), then pdf-lib
 *   checks encryption and pages and unpdf extracts text, outline and heading candidates (CMaps for CJK fonts).
 * - chapter-plan.ts cuts chapters from the outline, page headings or slide topics (front matter is never a chapter);
 *   pdf-lib slices one PDF per chapter; blobs go to DATA_DIR on the memory store and into Redis otherwise. A single
 *   page is cut on demand (`pagePdf`: a quiz item's picture) and kept as a blob with the material's others.
 * - The retrieval index is built during the ingest (retrieval/).
 * - sample-pdf.ts builds the Korean sample lecture (in a PDF worker); sample-bytes.ts keeps one copy per process.
 */
export {
  createMaterialService,
  hasTextLayer,
  materialIdFromHash,
  MATERIAL_ID,
  type IngestInput,
  type IngestResult,
  type IngestTimings,
  type MaterialService,
  type MaterialServiceDeps,
} from './material-service.js';
export { createBlobStore, createDiskBlobStore, createStoreBlobStore, type BlobStore } from './blob-store.js';
export { createPdfWorkerPool, PdfJobError, type ObservablePdfWorkerPool, type PdfWorkerPool, type PdfWorkerPoolOptions } from './pdf-worker-pool.js';
export { checkPdfBudget, DEFAULT_PDF_BUDGET, type PdfBudget, type PdfCost } from './pdf-budget.js';
export { chapterProblems, planByPages, planFromDocument, planFromHeadings, planFromOutline, MAX_CHAPTERS } from './chapter-plan.js';
export { analyseChapters, ANALYST_TASK, AnalystReplySchema } from './analyst.js';
export { materialErrors } from './material-errors.js';
export { readPdfUpload, type PdfUpload } from './upload-reader.js';
export { buildSamplePdf, SAMPLE_CHAPTERS, SAMPLE_FILENAME, SAMPLE_TITLE } from './sample-pdf.js';
export type { Chapter, ChapterSource, ExtractedPdf, Material, MaterialRecord } from './types.js';
export { deleteMaterialLock, materialKeys } from './material-keys.js';
