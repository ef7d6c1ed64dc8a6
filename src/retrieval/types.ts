import type { DocumentType, Level } from './metadata.js';

/**
 * The one way agents find source text: a query, filters and k in; passages with their chapter, pages, metadata and
 * scores out. The quiz agent, the EvalAgent, the tutor's model answer and the raise-hand assistant all take a
 * `Retriever`, never the index behind it.
 */

/** Each filter is a predicate applied before scoring; a list means "any of these". */
export interface RetrievalFilters {
  /** 0-based chapter index (as in Material.chapters). */
  chapter?: number | readonly number[];
  documentType?: DocumentType | readonly DocumentType[];
  level?: Level | readonly Level[];
}

export interface RetrieveRequest {
  materialId: string;
  /** What the passages should answer; an empty query lists the allowed passages in document order. */
  query: string;
  /** How many passages at most (default 10, at most 50). */
  k?: number;
  filters?: RetrievalFilters;
  signal?: AbortSignal;
}

export interface Passage {
  /** `{chapter}.{ordinal}`, unique within the material. */
  chunkId: string;
  text: string;
  chapter: number;
  chapterTitle: string;
  /** 1-based, inclusive. */
  startPage: number;
  endPage: number;
  documentType: DocumentType;
  level: Level;
  /** Reciprocal-rank-fusion score (higher is better); 0 for passages listed without a query. */
  score: number;
  /** BM25 score, or null when the lexical ranking did not rank it (no query term in it). */
  lexical: number | null;
  /** Cosine similarity with the query, or null without vectors (embedding unavailable). */
  dense: number | null;
}

export interface Retriever {
  /** The k best passages for the query among those the filters allow, best first. MATERIAL_NOT_FOUND for an unknown material. */
  retrieve(request: RetrieveRequest): Promise<Passage[]>;
  /** Every passage the filters allow, in document order (for agents that need a whole chapter's context). */
  passages(materialId: string, filters?: RetrievalFilters): Promise<Passage[]>;
}
