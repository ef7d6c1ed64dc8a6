/**
 * Retrieval: a per-material index of passages (chunks within chapters, with document type and level), searched by
 * BM25 over Korean-aware terms fused with dense vectors; one Retriever for every agent that needs source text.
 * retrieve({materialId, query, k, filters}) ranks passages; passages(materialId, filters) lists a chapter in document
 * order. Filters are predicates applied before scoring. On the offline model the ranking is lexical first (hashed
 * bigram vectors carry no meaning); with semantic embeddings reciprocal rank fusion of both. The index is built while
 * the material is ingested, stored, and cached per node in a byte-bounded LRU (`npm run bench:retrieval`).
 */
export type { Passage, RetrievalFilters, RetrieveRequest, Retriever } from './types.js';
export {
  RetrievalService,
  DEFAULT_EMBEDDING_DIMENSIONS,
  DEFAULT_K,
  MAX_K,
  type IndexStatus,
  type RetrievalServiceOptions,
  type RetrievalSource,
} from './retrieval-service.js';
export {
  DIFFICULTIES,
  DOCUMENT_TYPES,
  DOCUMENT_TYPE_MEANINGS,
  DocumentTypeSchema,
  LEVELS,
  LEVEL_OF_DIFFICULTY,
  LevelSchema,
  type Difficulty,
  type DocumentType,
  type Level,
} from './metadata.js';
export { chunkMaterial, CHUNK_MAX_CHARS, CHUNK_MIN_CHARS, type ChunkDraft, type ChunkSource } from './chunker.js';
export { analyze, ANALYZER_VERSION } from './analyzer.js';
export { heuristicDocumentType, heuristicLevels } from './heuristics.js';
export { reciprocalRankFusion, RRF_K } from './fusion.js';
export { PASSAGE_ANALYST_TASK, PassageLabelsSchema, renderPassagePrompt } from './passage-analyst.js';
export { decodeIndex, encodeIndex, type ChunkRecord, type RetrievalIndex } from './index-codec.js';
export { deleteRetrievalLock, retrievalKeys } from './retrieval-keys.js';
