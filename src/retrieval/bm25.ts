/**
 * BM25 over the analyzer's terms (see analyzer.ts), stored as one posting list per chunk: the chunk's distinct term
 * ids and their counts. Scoring walks the candidate chunks only, so a filter applied before scoring costs nothing;
 * document frequencies (and so IDF) are those of the whole material, whatever the filter.
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** The lexical half of an index: a term dictionary and per-chunk postings, flat so they serialise as typed arrays. */
export interface LexicalIndex {
  terms: string[];
  /** Chunk c's postings are pairs at `postings[2 * offsets[c] .. 2 * offsets[c + 1])`: term id, count. */
  offsets: Uint32Array;
  postings: Uint32Array;
}

/** Builds a lexical index one chunk at a time (so a caller can yield between chunks). */
export class LexicalIndexBuilder {
  private readonly ids = new Map<string, number>();
  private readonly terms: string[] = [];
  private readonly offsets: number[] = [0];
  // Counts per term id of the chunk being added, and the ids it touched (reset after each chunk).
  private readonly counts: number[] = [];
  private readonly touched: number[] = [];
  private postings = new Uint32Array(1024);
  private length = 0;

  add(chunkTerms: readonly string[]): void {
    for (const term of chunkTerms) {
      let id = this.ids.get(term);
      if (id === undefined) {
        id = this.terms.length;
        this.ids.set(term, id);
        this.terms.push(term);
        this.counts.push(0);
      }
      if (this.counts[id] === 0) this.touched.push(id);
      this.counts[id] = (this.counts[id] ?? 0) + 1;
    }
    if (this.length + 2 * this.touched.length > this.postings.length) {
      const grown = new Uint32Array(Math.max(this.postings.length * 2, this.length + 2 * this.touched.length));
      grown.set(this.postings);
      this.postings = grown;
    }
    for (const id of this.touched) {
      this.postings[this.length++] = id;
      this.postings[this.length++] = this.counts[id] ?? 0;
      this.counts[id] = 0;
    }
    this.touched.length = 0;
    this.offsets.push(this.length / 2);
  }

  finish(): LexicalIndex {
    return { terms: this.terms, offsets: Uint32Array.from(this.offsets), postings: this.postings.slice(0, this.length) };
  }
}

/** Builds the lexical index of chunks already analysed into terms. */
export function buildLexicalIndex(chunkTerms: readonly (readonly string[])[]): LexicalIndex {
  const builder = new LexicalIndexBuilder();
  for (const terms of chunkTerms) builder.add(terms);
  return builder.finish();
}

/** What scoring needs, derived once per loaded index. */
export interface Bm25Stats {
  termIds: Map<string, number>;
  /** Chunks containing each term. */
  documentFrequency: Uint32Array;
  /** Term count of each chunk. */
  lengths: Float64Array;
  averageLength: number;
  /** Per term: the chunks containing it and how often, for scoring by postings. */
  chunksOf: Uint32Array[];
  countsOf: Uint32Array[];
}

export function bm25Stats(index: LexicalIndex): Bm25Stats {
  const chunkCount = index.offsets.length - 1;
  const documentFrequency = new Uint32Array(index.terms.length);
  const lengths = new Float64Array(chunkCount);
  for (let chunk = 0; chunk < chunkCount; chunk++) {
    for (let at = index.offsets[chunk] ?? 0; at < (index.offsets[chunk + 1] ?? 0); at++) {
      const term = index.postings[2 * at] ?? 0;
      documentFrequency[term] = (documentFrequency[term] ?? 0) + 1;
      lengths[chunk] = (lengths[chunk] ?? 0) + (index.postings[2 * at + 1] ?? 0);
    }
  }
  const chunksOf = Array.from(documentFrequency, (frequency) => new Uint32Array(frequency));
  const countsOf = Array.from(documentFrequency, (frequency) => new Uint32Array(frequency));
  const filled = new Uint32Array(index.terms.length);
  for (let chunk = 0; chunk < chunkCount; chunk++) {
    for (let at = index.offsets[chunk] ?? 0; at < (index.offsets[chunk + 1] ?? 0); at++) {
      const term = index.postings[2 * at] ?? 0;
      const slot = filled[term] ?? 0;
      (chunksOf[term] as Uint32Array)[slot] = chunk;
      (countsOf[term] as Uint32Array)[slot] = index.postings[2 * at + 1] ?? 0;
      filled[term] = slot + 1;
    }
  }
  const total = lengths.reduce((sum, length) => sum + length, 0);
  return {
    termIds: new Map(index.terms.map((term, id) => [term, id])),
    documentFrequency,
    lengths,
    averageLength: chunkCount === 0 ? 0 : total / chunkCount,
    chunksOf,
    countsOf,
  };
}

/** IDF as in Lucene's BM25 (never negative). */
export function idf(documentFrequency: number, chunkCount: number): number {
  return Math.log(1 + (chunkCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * BM25 scores of the query terms for the chunks where `candidate[c]` is 1; chunks without any query term stay 0.
 * A term repeated in the query counts once per occurrence, as in the classic formula's query-frequency factor.
 */
export function bm25Scores(stats: Bm25Stats, queryTerms: readonly string[], candidate: Uint8Array): Float64Array {
  const chunkCount = stats.lengths.length;
  const scores = new Float64Array(chunkCount);
  const queryCounts = new Map<number, number>();
  for (const term of queryTerms) {
    const id = stats.termIds.get(term);
    if (id !== undefined) queryCounts.set(id, (queryCounts.get(id) ?? 0) + 1);
  }
  const average = stats.averageLength || 1;
  for (const [term, queryCount] of queryCounts) {
    const weight = idf(stats.documentFrequency[term] ?? 0, chunkCount) * queryCount;
    const chunks = stats.chunksOf[term] ?? new Uint32Array(0);
    const counts = stats.countsOf[term] ?? new Uint32Array(0);
    for (let at = 0; at < chunks.length; at++) {
      const chunk = chunks[at] ?? 0;
      if (candidate[chunk] !== 1) continue;
      const count = counts[at] ?? 0;
      const norm = BM25_K1 * (1 - BM25_B + (BM25_B * (stats.lengths[chunk] ?? 0)) / average);
      scores[chunk] = (scores[chunk] ?? 0) + (weight * (count * (BM25_K1 + 1))) / (count + norm);
    }
  }
  return scores;
}
