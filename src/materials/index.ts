/** Lecture materials: PDF ingest, chapter plan, per-chapter slices, blob storage and the sample material. */
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
