import type { Passage, RetrievalFilters, Retriever } from '../retrieval/index.js';

/**
 * The passages a quiz is written from (seed 001: 10 search results). The retriever ranks the passages the filters
 * allow for the query; when that gives fewer than wanted, the allowed passages the query did not reach are added in
 * document order (a lexical-only ranking leaves out passages without a query word). When the filters themselves
 * allow fewer, they are relaxed one at a time, in {@link RELAX_ORDER}: the level first (a difficulty is also asked
 * of the model, so a passage of another level still serves), then the document type (the topic). A chapter the
 * instructor picked is never relaxed: a quiz on chapter 2 is about chapter 2 even when it has few passages. Every
 * relaxing is recorded, so a caller (and later a judge) can see the quiz is not all on-topic.
 */

export const QUIZ_PASSAGE_COUNT = 10;
export const RELAX_ORDER = ['level', 'documentType'] as const;
export type RelaxedFilter = (typeof RELAX_ORDER)[number];

export interface QuizRetrieval {
  query: string;
  /** The filters asked for. */
  filters: RetrievalFilters;
  /** The filters left when the last passage was found (equal to `filters` when nothing was relaxed). */
  applied: RetrievalFilters;
  /** Filters dropped because they allowed fewer than the wanted passages, in the order they were dropped. */
  relaxed: RelaxedFilter[];
  /**
   * For each relaxed filter, how many passages the filters still matched just before it was dropped: 0 means the
   * material has no passage the filter allows (with the filters dropped before it), so it was in effect ignored.
   */
  matchedBeforeRelaxing?: Partial<Record<RelaxedFilter, number>>;
  passages: Passage[];
}

export interface RetrieveQuizPassagesOptions {
  retriever: Retriever;
  materialId: string;
  query: string;
  filters: RetrievalFilters;
  k?: number;
  signal?: AbortSignal | undefined;
}

export async function retrieveQuizPassages(options: RetrieveQuizPassagesOptions): Promise<QuizRetrieval> {
  const { retriever, materialId, query, signal } = options;
  const k = options.k ?? QUIZ_PASSAGE_COUNT;
  const found = new Map<string, Passage>();
  const add = (passages: readonly Passage[]) => {
    for (const passage of passages) if (found.size < k && !found.has(passage.chunkId)) found.set(passage.chunkId, passage);
  };
  let applied: RetrievalFilters = { ...options.filters };
  const relaxed: RelaxedFilter[] = [];
  const matchedBeforeRelaxing: Partial<Record<RelaxedFilter, number>> = {};
  const fill = async () => {
    add(await retriever.retrieve({ materialId, query, k, filters: applied, ...(signal ? { signal } : {}) }));
    if (found.size < k) add(await retriever.passages(materialId, applied));
  };
  await fill();
  for (const name of RELAX_ORDER) {
    if (found.size >= k) break;
    if (applied[name] === undefined) continue;
    const { [name]: _dropped, ...rest } = applied;
    applied = rest;
    relaxed.push(name);
    matchedBeforeRelaxing[name] = found.size;
    await fill();
  }
  return { query, filters: options.filters, applied, relaxed, matchedBeforeRelaxing, passages: [...found.values()] };
}
