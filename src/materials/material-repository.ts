import { z } from 'zod';
import type { Page, PageRequest } from '../protocol/page.js';
import type { Logger } from '../kernel/index.js';
import { pageOfIndex, readJsonRecord, type Store } from '../store/index.js';
import type { BlobStore } from './blob-store.js';
import type { Material, MaterialRecord } from './types.js';
import { materialKeys } from './material-keys.js';

/**
 * Material records (in the store) and their blobs (original bytes, per-chapter slices, page texts). The record is
 * written last, so a record that exists always has its blobs; readers never see half an ingest.
 */

const ChapterSchema = z.object({
  index: z.number().int().min(0),
  title: z.string(),
  startPage: z.number().int().min(1),
  endPage: z.number().int().min(1),
});

const RecordSchema = z.object({
  id: z.string(),
  title: z.string(),
  pageCount: z.number().int().min(1),
  hasTextLayer: z.boolean(),
  chapterSource: z.enum(['outline', 'headings', 'analyst', 'pages']),
  chapters: z.array(ChapterSchema).min(1),
  sha256: z.string(),
  bytes: z.number().int().min(0),
  filename: z.string().nullable(),
  createdAt: z.string(),
});

const PagesSchema = z.array(z.string());

export const blobNames = {
  original: (id: string) => `${id}.pdf`,
  chapter: (id: string, index: number) => `${id}.chapter-${index}.pdf`,
  /** One page (1-based) cut on demand as a quiz item's picture; derived data, re-cut when missing. */
  page: (id: string, page: number) => `${id}.page-${page}.pdf`,
  pages: (id: string) => `${id}.pages.json`,
};

/** The client view of a record (bookkeeping fields stay on the server). */
export function toMaterial(record: MaterialRecord): Material {
  const { id, title, pageCount, hasTextLayer, chapterSource, chapters } = record;
  return { id, title, pageCount, hasTextLayer, chapterSource, chapters };
}

/** Page texts are read for every chapter lecture and question; a few materials' worth stays in memory. */
const PAGE_CACHE_SIZE = 16;

export class MaterialRepository {
  private readonly pageCache = new Map<string, string[]>();

  constructor(
    private readonly store: Store,
    readonly blobs: BlobStore,
    private readonly logger?: Logger,
  ) {}

  /** A record we cannot read is as good as absent (readJsonRecord): a fresh upload of the same bytes rewrites it. */
  async get(id: string): Promise<MaterialRecord | null> {
    return readJsonRecord(await this.store.get(materialKeys.material(id)), RecordSchema, { key: materialKeys.material(id), logger: this.logger });
  }

  /**
   * One page, newest first. The record is the material's summary (title, page count, chapter titles: no text, no
   * bytes, a few KB), so a page is one MGET of at most 50 records.
   */
  async list(page: PageRequest): Promise<Page<MaterialRecord>> {
    const { members, nextCursor } = await pageOfIndex(this.store, materialKeys.materialIndex(), page, { reverse: true });
    const raw = await this.store.mget(members.map((id) => materialKeys.material(id)));
    const items = raw.flatMap((record, index) => readJsonRecord(record, RecordSchema, { key: materialKeys.material(members[index] ?? ''), logger: this.logger }) ?? []);
    return { items, nextCursor };
  }

  async saveBlobs(id: string, original: Uint8Array, slices: readonly Uint8Array[], pages: readonly string[]): Promise<void> {
    await Promise.all([
      this.blobs.put(blobNames.original(id), original),
      this.blobs.put(blobNames.pages(id), Buffer.from(JSON.stringify(pages))),
      ...slices.map((slice, index) => this.blobs.put(blobNames.chapter(id, index), slice)),
    ]);
  }

  async saveRecord(record: MaterialRecord): Promise<void> {
    await this.store.set(materialKeys.material(record.id), JSON.stringify(record));
    await this.store.zadd(materialKeys.materialIndex(), Date.parse(record.createdAt), record.id);
  }

  /**
   * Removes the material: its index entry and record first (nobody starts on it any more), then every blob the
   * record names (original, one slice per chapter, page texts). Idempotent; a missing record removes nothing else,
   * so the caller passes the chapter count it read before.
   */
  async remove(id: string, chapterCount: number, pageCount = 0): Promise<void> {
    await this.store.zrem(materialKeys.materialIndex(), id);
    await this.store.del(materialKeys.material(id));
    this.pageCache.delete(id);
    await Promise.all([
      this.blobs.delete(blobNames.original(id)),
      this.blobs.delete(blobNames.pages(id)),
      ...Array.from({ length: chapterCount }, (_, index) => this.blobs.delete(blobNames.chapter(id, index))),
      // Pages cut as pictures: any of them may exist (deleting an absent blob is fine).
      ...Array.from({ length: pageCount }, (_, index) => this.blobs.delete(blobNames.page(id, index + 1))),
    ]);
  }

  async pages(id: string): Promise<string[] | null> {
    const cached = this.pageCache.get(id);
    if (cached) return cached;
    const raw = await this.blobs.get(blobNames.pages(id));
    if (!raw) return null;
    const pages = readJsonRecord(raw.toString('utf8'), PagesSchema, { key: `blob ${blobNames.pages(id)}`, logger: this.logger });
    if (!pages) return null;
    this.pageCache.set(id, pages);
    if (this.pageCache.size > PAGE_CACHE_SIZE) {
      const oldest = this.pageCache.keys().next().value;
      if (oldest !== undefined) this.pageCache.delete(oldest);
    }
    return pages;
  }
}
