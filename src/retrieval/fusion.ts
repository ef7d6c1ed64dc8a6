/**
 * Reciprocal rank fusion (Cormack et al., 2009): each ranking contributes 1 / (K + rank) for every chunk it ranks,
 * rank counted from 1. Ranks, not scores, are fused, so BM25's unbounded scores and cosine similarities need no
 * calibration against each other. K = 60 is the paper's value; it keeps one ranking's top hit from deciding alone.
 */

export const RRF_K = 60;

export interface RankedList {
  /** Chunk indexes, best first. */
  order: readonly number[];
}

export interface FusedHit {
  chunk: number;
  score: number;
  /** 1-based rank in each input list, undefined where the list did not rank the chunk. */
  ranks: (number | undefined)[];
}

/** Fuses rankings; ties are broken by document order (lower chunk index first), so results are deterministic. */
export function reciprocalRankFusion(lists: readonly RankedList[], k = RRF_K): FusedHit[] {
  const hits = new Map<number, FusedHit>();
  for (const [listIndex, list] of lists.entries()) {
    for (const [position, chunk] of list.order.entries()) {
      let hit = hits.get(chunk);
      if (hit === undefined) {
        hit = { chunk, score: 0, ranks: lists.map(() => undefined) };
        hits.set(chunk, hit);
      }
      hit.score += 1 / (k + position + 1);
      hit.ranks[listIndex] = position + 1;
    }
  }
  return [...hits.values()].sort((left, right) => right.score - left.score || left.chunk - right.chunk);
}

/** Candidate chunks ordered by score, best first; NaN and (unless `keepZero`) zero scores are left out. */
export function rankByScore(scores: Float64Array, keepZero: boolean): number[] {
  const order: number[] = [];
  for (let chunk = 0; chunk < scores.length; chunk++) {
    const score = scores[chunk] ?? Number.NaN;
    if (Number.isNaN(score) || (!keepZero && score <= 0)) continue;
    order.push(chunk);
  }
  return order.sort((left, right) => (scores[right] ?? 0) - (scores[left] ?? 0) || left - right);
}

/**
 * The lexical ranking with the dense one below it: chunks with a query term first, by BM25 (equal scores by
 * similarity), then the rest by similarity. For embeddings that are themselves lexical (the offline model's hashed
 * bigrams), whose ranking adds noise rather than meaning to BM25's (see `bench:retrieval`), so they only break ties
 * and order the passages BM25 cannot. Scores are 1 / (K + rank), like a fusion of one list.
 */
export function lexicalFirst(lexical: Float64Array, dense: Float64Array | null, k = RRF_K): FusedHit[] {
  const similarity = (chunk: number) => {
    const value = dense?.[chunk] ?? Number.NaN;
    return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
  };
  const chunks: number[] = [];
  for (let chunk = 0; chunk < lexical.length; chunk++) {
    if ((lexical[chunk] ?? 0) > 0 || !Number.isNaN(dense?.[chunk] ?? Number.NaN)) chunks.push(chunk);
  }
  chunks.sort((left, right) => (lexical[right] ?? 0) - (lexical[left] ?? 0) || similarity(right) - similarity(left) || left - right);
  return chunks.map((chunk, position) => ({
    chunk,
    score: 1 / (k + position + 1),
    ranks: [(lexical[chunk] ?? 0) > 0 ? position + 1 : undefined, Number.isNaN(dense?.[chunk] ?? Number.NaN) ? undefined : position + 1],
  }));
}
