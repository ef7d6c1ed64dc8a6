import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Config } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { LanguageModel } from '../llm/index.js';
import type { Page, PageRequest } from '../protocol/page.js';
import type { RetrievalService } from '../retrieval/index.js';
import { type Store } from '../store/index.js';
import { analyseChapters } from './analyst.js';
import { createBlobStore, type BlobStore } from './blob-store.js';
import { chapterProblems, planByPages, planFromDocument } from './chapter-plan.js';
import { fromPdfJobError, materialErrors } from './material-errors.js';
import { MaterialRepository, blobNames, toMaterial } from './material-repository.js';
import { materialTitle } from './material-title.js';
import { DEFAULT_PDF_BUDGET } from './pdf-budget.js';
import { PdfJobError, createPdfWorkerPool, type PdfWorkerPool } from './pdf-worker-pool.js';
import { sampleBytesOnce } from './sample-bytes.js';
import { SAMPLE_FILENAME } from './sample-names.js';
import type { Chapter, ChapterSource, ExtractedPdf, Material, MaterialRecord } from './types.js';
import { materialKeys } from './material-keys.js';

export interface MaterialServiceDeps {
  /** `limits.pdfBudget`: DEFAULT_PDF_BUDGET unless given (PDF_MAX_INFLATED_MB, PDF_MAX_OBJECTS). */
  config: { dataDir: Config['dataDir']; limits: Omit<Config['limits'], 'pdfBudget'> & Partial<Pick<Config['limits'], 'pdfBudget'>> };
  store: Store;
  model: LanguageModel;
  logger: Logger;
  /** Defaults to the store's own blob store (Redis) or DATA_DIR/blobs (memory). */
  blobs?: BlobStore;
  /** Defaults to a pool sized for the machine with the configured time limit. */
  pool?: PdfWorkerPool;
  /** Builds each new material's retrieval index at ingest; without it indexes are built on first retrieval. */
  retrieval?: Pick<RetrievalService, 'buildIndex'>;
}

export interface IngestInput {
  bytes: Uint8Array;
  filename?: string | null;
  /** Hex sha256 of bytes when already computed while streaming. */
  sha256?: string;
  /** The uploading account: its PDF jobs wait in its own queue, one running at a time (pdf-worker-pool.ts). */
  owner?: string;
}

export interface IngestTimings {
  extractMs: number;
  planMs: number;
  sliceMs: number;
  /** Retrieval index (chunks, labels, vectors); runs while the worker slices. */
  indexMs: number;
  storeMs: number;
}

export interface IngestResult {
  material: Material;
  /** False when these bytes were already a material (or another upload of them finished first). */
  created: boolean;
  timings?: IngestTimings;
}

export interface MaterialService {
  readonly limits: { maxPdfBytes: number; maxPdfPages: number };
  ingest(input: IngestInput): Promise<IngestResult>;
  get(id: string): Promise<Material | null>;
  /** One page of the materials, newest first. */
  list(page: PageRequest): Promise<Page<Material>>;
  /** Text of one chapter's pages (throws NOT_FOUND). */
  chapterText(id: string, index: number): Promise<string>;
  /** The chapter's slice: a PDF of exactly its pages (throws NOT_FOUND). */
  chapterPdf(id: string, index: number): Promise<Uint8Array>;
  /**
   * One page (1-based) as a PDF of that page alone, cut from the original with pdf-lib in the worker and kept as a
   * blob, so each page is cut once across nodes (throws NOT_FOUND for no material, PAGE_OUT_OF_RANGE for no page).
   */
  pagePdf(id: string, page: number): Promise<Uint8Array>;
  /** Text of every page, pages separated by a blank line (throws NOT_FOUND). */
  materialText(id: string): Promise<string>;
  pageTexts(id: string): Promise<string[]>;
  /** The original upload (throws NOT_FOUND). */
  materialPdf(id: string): Promise<Uint8Array>;
  /**
   * Deletes the material's record, index entry and blobs (PDF, chapter slices, page texts); false when there was no
   * such material. Lectures, retrieval data and usage are the data folder's material deletion (data/).
   */
  remove(id: string): Promise<boolean>;
  /** Ingests the built-in sample "기초 통계" (free when it is already there). */
  preloadSample(): Promise<Material>;
  /**
   * The built-in sample's id (its bytes are built the same way on every node, so the id is too), computed once:
   * ownership lets everyone read it and never deletes it.
   */
  sampleId(): Promise<string>;
  close(): Promise<void>;
}

/** Material ids are the first 128 bits of the content hash: same bytes, same id, on every node. */
export const materialIdFromHash = (sha256: string) => sha256.slice(0, 32);
export const MATERIAL_ID = /^[0-9a-f]{32}$/;

const LOCK_TTL_MS = 30_000;
const LOCK_POLL_MS = 100;
const MIN_TEXT_CHARS_PER_PAGE = 8;

/** A page counts as text when it has a few visible characters; the document needs them on a tenth of its pages. */
export function hasTextLayer(pages: readonly string[]): boolean {
  const textPages = pages.filter((text) => text.replace(/\s+/g, '').length >= MIN_TEXT_CHARS_PER_PAGE).length;
  return textPages >= Math.max(1, Math.ceil(pages.length * 0.1));
}

export function createMaterialService(deps: MaterialServiceDeps): MaterialService {
  const { config, store, model } = deps;
  const logger = deps.logger.child({ component: 'materials' });
  const { maxPdfBytes, maxPdfPages, pdfTimeoutMs } = config.limits;
  const budget = config.limits.pdfBudget ?? DEFAULT_PDF_BUDGET;
  const repository = new MaterialRepository(store, deps.blobs ?? createBlobStore(store, config.dataDir), deps.logger.child({ component: 'material-records' }));
  const pool = deps.pool ?? createPdfWorkerPool({ timeoutMs: pdfTimeoutMs, logger });
  // Uploads of the same bytes on this node share one promise; across nodes the store lease decides.
  const inflight = new Map<string, Promise<IngestResult>>();

  const runPdfJob = async <T>(job: () => Promise<T>): Promise<T> => {
    try {
      return await job();
    } catch (error) {
      if (error instanceof PdfJobError) throw fromPdfJobError(error, maxPdfPages);
      throw error;
    }
  };

  const plan = async (id: string, bytes: Uint8Array, extracted: ExtractedPdf) => {
    const pageTexts = extracted.pages.map((page) => page.text);
    let planned: { source: ChapterSource; chapters: Chapter[] } | null = planFromDocument(extracted);
    if (!planned) {
      const chapters = await analyseChapters({ model, bytes, pageCount: extracted.pageCount, pageTexts, materialId: id, logger });
      if (chapters) planned = { source: 'analyst', chapters };
    }
    const fallback = () => ({ source: 'pages' as const, chapters: planByPages(extracted.pageCount, pageTexts) });
    planned ??= fallback();
    const problems = chapterProblems(planned.chapters, extracted.pageCount);
    if (problems.length > 0) {
      // A planner bug must not produce a broken material; page windows always tile.
      logger.error({ materialId: id, source: planned.source, problems }, 'chapter plan broke its invariant');
      planned = fallback();
    }
    return planned;
  };

  const buildIndex = async (id: string, chapters: Chapter[], pageTexts: string[]): Promise<void> => {
    if (!deps.retrieval) return;
    try {
      await deps.retrieval.buildIndex(id, { chapters, pageTexts });
    } catch (error) {
      logger.error({ err: error, materialId: id }, 'could not build the retrieval index; it will be built on first use');
    }
  };

  const ingestNow = async (id: string, sha256: string, input: IngestInput): Promise<IngestResult> => {
    const { bytes } = input;
    let started = performance.now();
    const owner = input.owner === undefined ? {} : { owner: input.owner };
    const extracted = await runPdfJob(() => pool.extract(bytes, { maxPages: maxPdfPages, budget, key: sha256, ...owner }));
    const extractMs = performance.now() - started;
    const pageTexts = extracted.pages.map((page) => page.text);
    const textLayer = hasTextLayer(pageTexts);
    // A model that reads PDFs reads page images, so a scan is fine there; the offline model only has the text.
    if (!textLayer && !model.capabilities.pdfInput) throw materialErrors.noTextLayer();

    started = performance.now();
    const { source, chapters } = await plan(id, bytes, extracted);
    const planMs = performance.now() - started;

    started = performance.now();
    const ranges = chapters.map((chapter) => ({ start: chapter.startPage - 1, end: chapter.endPage - 1 }));
    const slicing = runPdfJob(() => pool.slice(bytes, ranges, { key: sha256, ...owner })).then((slices) => ({ slices, sliceMs: performance.now() - started }));
    // The index is built on this thread (and the model) while the worker slices; a failure costs only the index,
    // which the retriever builds on first use instead.
    const indexing = buildIndex(id, chapters, pageTexts).then(() => performance.now() - started);
    const [{ slices, sliceMs }, indexMs] = await Promise.all([slicing, indexing]);

    started = performance.now();
    await repository.saveBlobs(id, bytes, slices, pageTexts);
    const record: MaterialRecord = {
      id,
      title: materialTitle(extracted, input.filename),
      pageCount: extracted.pageCount,
      hasTextLayer: textLayer,
      chapterSource: source,
      chapters,
      sha256,
      bytes: bytes.byteLength,
      filename: input.filename ?? null,
      createdAt: new Date().toISOString(),
    };
    await repository.saveRecord(record);
    const timings = { extractMs, planMs, sliceMs, indexMs, storeMs: performance.now() - started };
    logger.info({ materialId: id, pages: record.pageCount, source, chapters: chapters.length, timings }, 'material ingested');
    return { material: toMaterial(record), created: true, timings };
  };

  /** One ingest per id across nodes: the lease holder works, everyone else waits for its record. */
  const ingestOnce = async (id: string, sha256: string, input: IngestInput): Promise<IngestResult> => {
    const lockKey = materialKeys.materialLock(id);
    const owner = randomUUID();
    const deadline = Date.now() + pdfTimeoutMs * 2 + 120_000;
    for (;;) {
      const existing = await repository.get(id);
      if (existing) return { material: toMaterial(existing), created: false };
      if (await store.acquireLease(lockKey, owner, LOCK_TTL_MS)) break;
      if (Date.now() > deadline) throw materialErrors.timeout();
      await sleep(LOCK_POLL_MS);
    }
    const renew = setInterval(() => void store.renewLease(lockKey, owner, LOCK_TTL_MS).catch(() => undefined), LOCK_TTL_MS / 3);
    try {
      // The previous holder may have finished between our check and our lease.
      const existing = await repository.get(id);
      if (existing) return { material: toMaterial(existing), created: false };
      return await ingestNow(id, sha256, input);
    } finally {
      clearInterval(renew);
      await store.releaseLease(lockKey, owner).catch(() => undefined);
    }
  };

  const requireRecord = async (id: string): Promise<MaterialRecord> => {
    const record = MATERIAL_ID.test(id) ? await repository.get(id) : null;
    if (!record) throw materialErrors.materialNotFound();
    return record;
  };

  const requireChapter = async (id: string, index: number) => {
    const record = await requireRecord(id);
    const chapter = record.chapters[index];
    if (!chapter || chapter.index !== index) throw materialErrors.chapterNotFound();
    return { record, chapter };
  };

  const pageTexts = async (id: string): Promise<string[]> => {
    await requireRecord(id);
    const pages = await repository.pages(id);
    if (!pages) throw materialErrors.materialNotFound();
    return pages;
  };

  const materialPdf = async (id: string): Promise<Uint8Array> => {
    await requireRecord(id);
    const bytes = await repository.blobs.get(blobNames.original(id));
    if (!bytes) throw materialErrors.materialNotFound();
    return bytes;
  };

  let sampleIdOnce: Promise<string> | undefined;
  const service: MaterialService = {
    limits: { maxPdfBytes, maxPdfPages },
    async ingest(input) {
      if (input.bytes.byteLength > maxPdfBytes) throw materialErrors.tooLarge(maxPdfBytes);
      const sha256 = input.sha256 ?? createHash('sha256').update(input.bytes).digest('hex');
      const id = materialIdFromHash(sha256);
      const running = inflight.get(id);
      if (running) return { material: (await running).material, created: false };
      const job = ingestOnce(id, sha256, input);
      inflight.set(id, job);
      try {
        return await job;
      } finally {
        inflight.delete(id);
      }
    },
    async get(id) {
      const record = MATERIAL_ID.test(id) ? await repository.get(id) : null;
      return record ? toMaterial(record) : null;
    },
    async list(page) {
      const { items, nextCursor } = await repository.list(page);
      return { items: items.map(toMaterial), nextCursor };
    },
    async chapterText(id, index) {
      const { chapter } = await requireChapter(id, index);
      const pages = await pageTexts(id);
      return pages.slice(chapter.startPage - 1, chapter.endPage).join('\n\n');
    },
    async chapterPdf(id, index) {
      await requireChapter(id, index);
      const cached = await repository.blobs.get(blobNames.chapter(id, index));
      if (cached) return cached;
      // The slice is derived data: re-cut it from the original if its blob was lost.
      const { chapter } = await requireChapter(id, index);
      const [slice] = await runPdfJob(async () => pool.slice(await materialPdf(id), [{ start: chapter.startPage - 1, end: chapter.endPage - 1 }]));
      if (!slice) throw materialErrors.chapterNotFound();
      await repository.blobs.put(blobNames.chapter(id, index), slice);
      return slice;
    },
    async pagePdf(id, page) {
      const record = await requireRecord(id);
      if (!Number.isInteger(page) || page < 1 || page > record.pageCount) throw materialErrors.pageOutOfRange(record.pageCount);
      const cached = await repository.blobs.get(blobNames.page(id, page));
      if (cached) return cached;
      const [slice] = await runPdfJob(async () => pool.slice(await materialPdf(id), [{ start: page - 1, end: page - 1 }]));
      if (!slice) throw materialErrors.pageOutOfRange(record.pageCount);
      await repository.blobs.put(blobNames.page(id, page), slice);
      // A deletion that ran while the page was cut must not leave its blob behind.
      if (!(await repository.get(id))) await repository.blobs.delete(blobNames.page(id, page));
      return slice;
    },
    async remove(id) {
      const record = await repository.get(id);
      if (!record) return false;
      await repository.remove(id, record.chapters.length, record.pageCount);
      return true;
    },
    async materialText(id) {
      return (await pageTexts(id)).join('\n\n');
    },
    pageTexts,
    materialPdf,
    sampleId() {
      sampleIdOnce ??= sampleBytesOnce(() => pool.sample()).then((bytes) => materialIdFromHash(createHash('sha256').update(bytes).digest('hex')));
      sampleIdOnce.catch(() => {
        sampleIdOnce = undefined; // a failed worker job is tried again next time
      });
      return sampleIdOnce;
    },
    async preloadSample() {
      const { material, created } = await service.ingest({ bytes: await sampleBytesOnce(() => pool.sample()), filename: SAMPLE_FILENAME });
      logger.info({ materialId: material.id, created }, 'sample material ready');
      return material;
    },
    close: () => pool.close(),
  };
  return service;
}
