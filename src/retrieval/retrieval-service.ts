import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import type { LanguageModel } from '../llm/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { type Store } from '../store/index.js';
import { ANALYZER_VERSION, analyze } from './analyzer.js';
import { bm25Scores, bm25Stats, type Bm25Stats } from './bm25.js';
import { ByteLru } from './byte-lru.js';
import type { ChunkSource } from './chunker.js';
import { denseScores, normalise } from './dense.js';
import { lexicalFirst, rankByScore, reciprocalRankFusion } from './fusion.js';
import { buildRetrievalIndex, embedChunks, indexTerms } from './index-builder.js';
import { decodeIndex, encodeIndex, type ChunkRecord, type RetrievalIndex } from './index-codec.js';
import type { Passage, RetrievalFilters, RetrieveRequest, Retriever } from './types.js';
import { retrievalKeys } from './retrieval-keys.js';

/**
 * The Retriever over per-material indexes in the store. An index is built at ingest (`buildIndex`), kept as bytes
 * under `material:{id}:retrieval` (durable), loaded lazily and cached per node in an LRU bounded by bytes. An index
 * made with another embedding model (or dimension, or analyzer version) is refreshed on first use: one node does it
 * under a store lease while the others wait for the result, so every node ends up using the same vectors. A material
 * without an index (ingested before retrieval existed, or whose build failed) is indexed the same way from its
 * source. When the model cannot embed (now), retrieval goes on lexically with BM25 and tries again later.
 */

/** Where lazy builds read a material: its chapters and page texts, or null when it does not exist. */
export interface RetrievalSource {
  load(materialId: string): Promise<ChunkSource | null>;
}

export interface RetrievalServiceOptions {
  store: Store;
  model: LanguageModel;
  logger?: Logger | undefined;
  source?: RetrievalSource | undefined;
  /** Embedding dimensions (Gemini's outputDimensionality); default 768. */
  dimensions?: number;
  /** Bytes of decoded indexes kept per node; default 64 MiB. */
  cacheBytes?: number;
  /** Lease of a build or refresh, renewed while it runs. */
  lockTtlMs?: number;
  /** How long a node waits for another node's build before serving what is stored. */
  waitMs?: number;
  /** After an embedding failure, retrieval is lexical only for this long before embedding is tried again. */
  retryAfterMs?: number;
  /** Query vectors remembered per node (default 256; 0 in benchmarks that time the embedding too). */
  queryCacheSize?: number;
  /** Which rankings are used (default both); one alone is for evaluations (`bench:retrieval`). */
  rankers?: readonly ('lexical' | 'dense')[];
  /**
   * How the two rankings combine: reciprocal rank fusion, or BM25 first with the vectors breaking ties and ordering
   * what BM25 cannot rank. Default: `rrf` for a model with semantic embeddings, `lexical-first` for the offline
   * model, whose hashed-bigram vectors measured worse fused than BM25 alone (`npm run bench:retrieval`).
   */
  fusion?: 'rrf' | 'lexical-first';
}

export interface IndexStatus {
  chunks: number;
  embedding: { model: string; dimensions: number } | null;
  labels: RetrievalIndex['labels'];
  /** Vectors from the current embedding model (and analyzer): nothing to refresh. */
  current: boolean;
}

interface Loaded {
  index: RetrievalIndex;
  stats: Bm25Stats;
}

export const DEFAULT_EMBEDDING_DIMENSIONS = 768;
export const DEFAULT_K = 10;
export const MAX_K = 50;
const POLL_MS = 200;

const notFound = () => new AppError(ErrorCode.MATERIAL_NOT_FOUND, '자료를 찾을 수 없습니다.');

function allowed<T>(filter: T | readonly T[] | undefined): ((value: T) => boolean) | undefined {
  if (filter === undefined) return undefined;
  const set = new Set<T>(Array.isArray(filter) ? (filter as readonly T[]) : [filter as T]);
  return (value) => set.has(value);
}

/** 1 for every chunk the filters allow. */
function candidates(chunks: readonly ChunkRecord[], filters: RetrievalFilters | undefined): Uint8Array {
  const chapter = allowed(filters?.chapter);
  const documentType = allowed(filters?.documentType);
  const level = allowed(filters?.level);
  return Uint8Array.from(
    chunks,
    (chunk) => Number((chapter?.(chunk.chapter) ?? true) && (documentType?.(chunk.documentType) ?? true) && (level?.(chunk.level) ?? true)),
  );
}

function toPassage(chunk: ChunkRecord, score: number, lexical: number | null, dense: number | null): Passage {
  const { id, text, chapter, chapterTitle, startPage, endPage, documentType, level } = chunk;
  return { chunkId: id, text, chapter, chapterTitle, startPage, endPage, documentType, level, score, lexical, dense };
}

/**
 * About what a loaded index holds in memory: its texts (UTF-16), vectors, postings twice (as stored, and per term
 * for scoring) and the term dictionary.
 */
function residentBytes(index: RetrievalIndex): number {
  const text = index.chunks.reduce((sum, chunk) => sum + 2 * (chunk.text.length + chunk.chapterTitle.length) + 200, 0);
  return text + index.vectors.byteLength + 2 * index.lexical.postings.byteLength + 48 * index.lexical.terms.length;
}

export class RetrievalService implements Retriever {
  readonly dimensions: number;
  private readonly store: Store;
  private readonly model: LanguageModel;
  private readonly logger: Logger | undefined;
  private readonly source: RetrievalSource | undefined;
  private readonly cache: ByteLru<Loaded>;
  private readonly loading = new Map<string, Promise<Loaded | null>>();
  private readonly embedFailedAt = new Map<string, number>();
  private readonly queryVectors = new Map<string, Float32Array>();
  private readonly lockTtlMs: number;
  private readonly waitMs: number;
  private readonly retryAfterMs: number;
  private readonly queryCacheSize: number;
  private readonly rankers: ReadonlySet<'lexical' | 'dense'>;
  readonly fusion: 'rrf' | 'lexical-first';

  constructor(options: RetrievalServiceOptions) {
    this.store = options.store;
    this.model = options.model;
    this.logger = options.logger?.child({ component: 'retrieval' });
    this.source = options.source;
    this.dimensions = options.dimensions ?? DEFAULT_EMBEDDING_DIMENSIONS;
    this.cache = new ByteLru(options.cacheBytes ?? 64 * 1024 * 1024);
    this.lockTtlMs = options.lockTtlMs ?? 30_000;
    this.waitMs = options.waitMs ?? 120_000;
    this.retryAfterMs = options.retryAfterMs ?? 60_000;
    this.queryCacheSize = options.queryCacheSize ?? 256;
    this.rankers = new Set(options.rankers ?? ['lexical', 'dense']);
    this.fusion = options.fusion ?? (options.model.capabilities.semanticEmbeddings ? 'rrf' : 'lexical-first');
  }

  /** Builds and stores a material's index (the ingest path; the caller holds the material's ingest lock). */
  async buildIndex(materialId: string, source: ChunkSource, options: { signal?: AbortSignal } = {}): Promise<IndexStatus> {
    const index = await buildRetrievalIndex({ materialId, source, model: this.model, dimensions: this.dimensions, logger: this.logger, signal: options.signal });
    if (index.embedding === null && index.chunks.length > 0) this.embedFailedAt.set(materialId, Date.now());
    await this.save(index);
    return this.statusOf(index);
  }

  async retrieve(request: RetrieveRequest): Promise<Passage[]> {
    const k = Math.min(MAX_K, Math.max(1, Math.floor(request.k ?? DEFAULT_K)));
    const loaded = await this.require(request.materialId);
    const { index, stats } = loaded;
    const candidate = candidates(index.chunks, request.filters);
    const query = request.query.trim();
    if (query === '') return this.listed(index, candidate).slice(0, k);

    const lexical = this.rankers.has('lexical') ? bm25Scores(stats, analyze(query), candidate) : new Float64Array(index.chunks.length);
    let dense: Float64Array | null = null;
    if (this.rankers.has('dense') && this.usableVectors(index) && candidate.includes(1)) {
      const vector = await this.queryVector(query, request.materialId, request.signal);
      if (vector !== null && index.embedding !== null) dense = denseScores(index.vectors, index.embedding.dimensions, vector, candidate);
    }
    const hits =
      this.fusion === 'rrf'
        ? reciprocalRankFusion([{ order: rankByScore(lexical, false) }, ...(dense === null ? [] : [{ order: rankByScore(dense, true) }])])
        : lexicalFirst(lexical, dense);
    return hits
      .slice(0, k)
      .map((hit) => {
        const chunk = index.chunks[hit.chunk] as ChunkRecord;
        const lexicalScore = hit.ranks[0] === undefined ? null : (lexical[hit.chunk] ?? null);
        return toPassage(chunk, hit.score, lexicalScore, dense === null ? null : (dense[hit.chunk] ?? null));
      });
  }

  async passages(materialId: string, filters?: RetrievalFilters): Promise<Passage[]> {
    const { index } = await this.require(materialId);
    return this.listed(index, candidates(index.chunks, filters));
  }

  /** Removes a material's index from the store and from this node's cache (the coming material deletion calls it). */
  async deleteIndex(materialId: string): Promise<void> {
    await this.store.del(retrievalKeys.retrievalIndex(materialId));
    this.cache.delete(materialId);
    this.embedFailedAt.delete(materialId);
  }

  /** What is stored for a material, without loading or refreshing it; null when there is no index. */
  async status(materialId: string): Promise<IndexStatus | null> {
    const index = await this.read(materialId);
    return index === null ? null : this.statusOf(index);
  }

  /** Decoded indexes this node keeps (for tests and metrics). */
  get cached(): { entries: number; bytes: number } {
    return { entries: this.cache.size, bytes: this.cache.bytes };
  }

  private statusOf(index: RetrievalIndex): IndexStatus {
    return { chunks: index.chunks.length, embedding: index.embedding, labels: index.labels, current: this.isCurrent(index) };
  }

  private listed(index: RetrievalIndex, candidate: Uint8Array): Passage[] {
    return index.chunks.filter((_, at) => candidate[at] === 1).map((chunk) => toPassage(chunk, 0, null, null));
  }

  private usableVectors(index: RetrievalIndex): boolean {
    return index.embedding !== null && index.embedding.model === this.model.modelName('embedding') && index.embedding.dimensions === this.dimensions;
  }

  private isCurrent(index: RetrievalIndex): boolean {
    return index.analyzer === ANALYZER_VERSION && (index.chunks.length === 0 || this.usableVectors(index));
  }

  private recentlyFailed(materialId: string): boolean {
    const at = this.embedFailedAt.get(materialId);
    return at !== undefined && Date.now() - at < this.retryAfterMs;
  }

  private async require(materialId: string): Promise<Loaded> {
    const cached = this.cache.get(materialId);
    if (cached !== undefined && (this.isCurrent(cached.index) || this.recentlyFailed(materialId))) return cached;
    let pending = this.loading.get(materialId);
    if (pending === undefined) {
      pending = this.load(materialId).finally(() => this.loading.delete(materialId));
      this.loading.set(materialId, pending);
    }
    const loaded = await pending;
    if (loaded === null) throw notFound();
    return loaded;
  }

  /** The stored index, refreshed or built first when it must be; null when the material does not exist. */
  private async load(materialId: string): Promise<Loaded | null> {
    const stored = await this.read(materialId);
    if (stored !== null && (this.isCurrent(stored) || this.recentlyFailed(materialId))) return this.remember(stored);
    const index = await this.underLease(materialId, stored);
    return index === null ? null : this.remember(index);
  }

  /**
   * Builds or refreshes under the material's lease; a node that does not get the lease waits for the holder's
   * result (or for the lease to be free), and after `waitMs` serves what is stored.
   */
  private async underLease(materialId: string, stored: RetrievalIndex | null): Promise<RetrievalIndex | null> {
    const lockKey = retrievalKeys.retrievalLock(materialId);
    const owner = randomUUID();
    const deadline = Date.now() + this.waitMs;
    let latest = stored;
    while (!(await this.store.acquireLease(lockKey, owner, this.lockTtlMs))) {
      await sleep(POLL_MS);
      latest = await this.read(materialId);
      if (latest !== null && this.isCurrent(latest)) return latest;
      if (Date.now() > deadline) {
        this.logger?.warn({ materialId }, 'gave up waiting for another node to index the material');
        return latest;
      }
    }
    const renew = setInterval(() => void this.store.renewLease(lockKey, owner, this.lockTtlMs).catch(() => undefined), this.lockTtlMs / 3);
    try {
      // The previous holder may have finished between our read and our lease.
      latest = await this.read(materialId);
      if (latest !== null && this.isCurrent(latest)) return latest;
      if (latest === null) return await this.buildFromSource(materialId);
      return await this.refresh(latest);
    } finally {
      clearInterval(renew);
      await this.store.releaseLease(lockKey, owner).catch(() => undefined);
    }
  }

  private async buildFromSource(materialId: string): Promise<RetrievalIndex | null> {
    const source = await this.source?.load(materialId);
    if (source === undefined || source === null) return null;
    this.logger?.info({ materialId }, 'indexing a material that has no retrieval index');
    const index = await buildRetrievalIndex({ materialId, source, model: this.model, dimensions: this.dimensions, logger: this.logger });
    if (index.embedding === null && index.chunks.length > 0) this.embedFailedAt.set(materialId, Date.now());
    await this.save(index);
    return index;
  }

  /** New vectors (and terms, after an analyzer change) for the same passages and labels. */
  private async refresh(index: RetrievalIndex): Promise<RetrievalIndex> {
    const { materialId } = index;
    this.logger?.info({ materialId, from: index.embedding, to: this.model.modelName('embedding') }, 're-embedding a retrieval index');
    const lexical = index.analyzer === ANALYZER_VERSION ? index.lexical : await indexTerms(index.chunks);
    const dense = this.usableVectors(index)
      ? { embedding: index.embedding, vectors: index.vectors }
      : await embedChunks({ materialId, model: this.model, dimensions: this.dimensions, logger: this.logger }, index.chunks);
    if (dense === null) {
      // Nothing better to store: the old vectors stay (a model switched back can use them again).
      this.embedFailedAt.set(materialId, Date.now());
      return { ...index, lexical, analyzer: ANALYZER_VERSION };
    }
    const refreshed: RetrievalIndex = { ...index, analyzer: ANALYZER_VERSION, lexical, embedding: dense.embedding, vectors: dense.vectors };
    await this.save(refreshed);
    this.embedFailedAt.delete(materialId);
    return refreshed;
  }

  private async read(materialId: string): Promise<RetrievalIndex | null> {
    const bytes = await this.store.getBytes(retrievalKeys.retrievalIndex(materialId));
    if (bytes === null) return null;
    const index = decodeIndex(bytes);
    if (index === null) this.logger?.warn({ materialId }, 'stored retrieval index does not decode; it will be rebuilt');
    return index;
  }

  private async save(index: RetrievalIndex): Promise<void> {
    await yieldToLoop();
    const bytes = encodeIndex(index);
    await this.store.setBytes(retrievalKeys.retrievalIndex(index.materialId), bytes);
    await yieldToLoop();
    this.cache.delete(index.materialId);
    this.remember(index);
  }

  private remember(index: RetrievalIndex): Loaded {
    const loaded: Loaded = { index, stats: bm25Stats(index.lexical) };
    this.cache.set(index.materialId, loaded, residentBytes(index));
    return loaded;
  }

  private async queryVector(query: string, materialId: string, signal: AbortSignal | undefined): Promise<Float32Array | null> {
    const key = `${this.model.modelName('embedding')}\u0000${this.dimensions}\u0000${query}`;
    const cached = this.queryVectors.get(key);
    if (cached !== undefined) return cached;
    try {
      const [vector] = await this.model.embed([query], {
        taskType: 'RETRIEVAL_QUERY',
        dimensions: this.dimensions,
        attribution: { materialId },
        ...(signal ? { signal } : {}),
      });
      if (vector === undefined || vector.length !== this.dimensions) throw new Error(`query embedding has ${vector?.length ?? 0} dimensions`);
      const normalised = normalise(vector);
      if (this.queryCacheSize > 0) this.queryVectors.set(key, normalised);
      if (this.queryVectors.size > this.queryCacheSize) {
        const oldest = this.queryVectors.keys().next().value;
        if (oldest !== undefined) this.queryVectors.delete(oldest);
      }
      return normalised;
    } catch (error) {
      this.logger?.warn({ err: error, materialId }, 'could not embed the query; ranking lexically');
      return null;
    }
  }
}
