/**
 * Retrieval benchmark and evaluation, offline model (hashed-bigram vectors, 768 dimensions) on the memory store.
 * Prints one JSON object:
 *
 * - `build`: a generated 300-page Korean PDF ingested through the real material service (worker extraction, chapter
 *   plan, slices) with the retriever wired as in the app: chunks, index bytes, ingest total and the index build time
 *   (`indexMs`, which runs while the worker slices), the longest event-loop stall during the ingest.
 * - `query`: latency of `retrieve` (k = 10, query embedding included, no query cache) on that material, p50/p99/max
 *   over every labelled query repeated `--rounds` times, with and without a filter.
 * - `recall`: the labelled set of scripts/retrieval-queries.ts on the "library" (the sample 기초 통계, the Korean
 *   trade handbook and the English safety handbook as chapters of one material: real PDFs, real extraction, real
 *   chapter plans) and on the "haystack" (the library appended to the 300-page material, so every answer hides
 *   among hundreds of passages on related statistics): recall@10 (share of the answering passages in the top 10),
 *   hit@3 and MRR@10, overall and per query kind, for the offline default (`lexical-first`), reciprocal rank fusion
 *   of the same two rankings (`rrf`, what a model with semantic embeddings uses), and each ranking alone; and
 *   (`analyzers`) BM25 alone on the library with our terms against whitespace words and Intl.Segmenter words.
 *
 * Usage: tsx scripts/bench-retrieval.ts [--pages 300] [--chapters 10] [--rounds 5]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { createLogger } from '../src/kernel/logger.js';
import { planFromDocument, planByPages } from '../src/materials/chapter-plan.js';
import { createMaterialService } from '../src/materials/material-service.js';
import { readPdf } from '../src/materials/pdf-reader.js';
import type { Chapter } from '../src/materials/types.js';
import { bm25Scores, bm25Stats, buildLexicalIndex } from '../src/retrieval/bm25.js';
import { rankByScore } from '../src/retrieval/fusion.js';
import { analyze, RetrievalService, type ChunkSource, type Passage } from '../src/retrieval/index.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { numberArg } from './bench-support.js';
import { buildSamplePdf } from './pdf-fixtures.js';
import { fixturePdf, handbookPdf, SAFETY_HANDBOOK, TRADE_HANDBOOK } from './retrieval-fixtures.js';
import { LABELLED_QUERIES, type LabelledQuery } from './retrieval-queries.js';
import { retrievalKeys } from '../src/retrieval/retrieval-keys.js';

const pages = numberArg('pages', 300);
const chapterCount = numberArg('chapters', 10);
const rounds = numberArg('rounds', 5);
const K = 10;

const round = (value: number) => Math.round(value * 100) / 100;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const logger = createLogger('warn');
const model = createOfflineModel({});

// 1. Build: the 300-page material through the real ingest.
const dataDir = await mkdtemp(path.join(tmpdir(), 'lectern-bench-retrieval-'));
const store = new MemoryStore();
const retrieval = new RetrievalService({ store, model, logger, queryCacheSize: 0 });
const materials = createMaterialService({
  config: { dataDir, limits: { maxPdfBytes: 200 * 1024 * 1024, maxPdfPages: 10_000, pdfTimeoutMs: 120_000 } },
  store,
  model,
  retrieval,
  logger,
});
const bytes = await handbookPdf(pages, chapterCount);
const histogram = monitorEventLoopDelay({ resolution: 10 });
histogram.enable();
const started = performance.now();
const ingested = await materials.ingest({ bytes, filename: 'bench.pdf' });
const ingestMs = performance.now() - started;
histogram.disable();
const large = ingested.material;
const largeStatus = await retrieval.status(large.id);
const indexBytes = (await store.getBytes(retrievalKeys.retrievalIndex(large.id)))?.byteLength ?? 0;

// 2. Query latency on it.
const timings: number[] = [];
const filtered: number[] = [];
for (let turn = 0; turn < rounds; turn++) {
  for (const [index, labelled] of LABELLED_QUERIES.entries()) {
    // A distinct text per round, so nothing is answered from a cache.
    const query = `${labelled.query}${' '.repeat(turn)}?`;
    let at = performance.now();
    await retrieval.retrieve({ materialId: large.id, query, k: K });
    timings.push(performance.now() - at);
    at = performance.now();
    await retrieval.retrieve({ materialId: large.id, query, k: K, filters: { level: ['beginner', 'working'][index % 2] as 'beginner' } });
    filtered.push(performance.now() - at);
  }
}
const latency = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { n: sorted.length, p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)), maxMs: round(sorted.at(-1) ?? 0) };
};

// 3. Recall on the labelled set.
interface Part {
  name: LabelledQuery['material'];
  pageTexts: string[];
  chapters: Chapter[];
}

async function part(name: Part['name'], pdf: Uint8Array): Promise<Part> {
  const extracted = await readPdf(pdf, { maxPages: 10_000 });
  const pageTexts = extracted.pages.map((page) => page.text);
  const chapters = planFromDocument(extracted)?.chapters ?? planByPages(extracted.pageCount, pageTexts);
  return { name, pageTexts, chapters };
}

/** Parts after one another as one material: pages and chapter indexes shifted. */
function combine(parts: readonly Part[]): ChunkSource {
  const pageTexts: string[] = [];
  const chapters: Chapter[] = [];
  for (const { pageTexts: texts, chapters: own } of parts) {
    for (const chapter of own) {
      chapters.push({ ...chapter, index: chapters.length, startPage: chapter.startPage + pageTexts.length, endPage: chapter.endPage + pageTexts.length });
    }
    pageTexts.push(...texts);
  }
  return { chapters, pageTexts };
}

const collapse = (text: string) => text.replace(/\s+/gu, ' ').trim();
const answers = (passage: Pick<Passage, 'text'>, labelled: LabelledQuery) => labelled.answers.some((answer) => collapse(passage.text).includes(collapse(answer)));

interface Scores {
  recall: number;
  hit3: number;
  mrr: number;
}

async function evaluate(source: ChunkSource, materialId: string) {
  const evalStore = new MemoryStore();
  const build = new RetrievalService({ store: evalStore, model, logger });
  await build.buildIndex(materialId, source);
  const all = await build.passages(materialId);
  const missing = LABELLED_QUERIES.filter((labelled) => !all.some((passage) => answers(passage, labelled))).map((labelled) => labelled.query);
  if (missing.length > 0) throw new Error(`labels found in no passage: ${missing.join(' | ')}`);
  const result: Record<string, { overall: Scores; byKind: Record<string, Scores & { n: number }> }> = {};
  for (const [mode, options] of [
    ['default', {}],
    ['rrf', { fusion: 'rrf' }],
    ['lexical', { rankers: ['lexical'] }],
    ['dense', { rankers: ['dense'] }],
  ] as const) {
    const retriever = new RetrievalService({ store: evalStore, model, logger, ...options });
    const perQuery: (Scores & { kind: string })[] = [];
    for (const labelled of LABELLED_QUERIES) {
      const relevant = all.filter((passage) => answers(passage, labelled)).map((passage) => passage.chunkId);
      const top = await retriever.retrieve({ materialId, query: labelled.query, k: K });
      const found = top.filter((passage) => relevant.includes(passage.chunkId)).length;
      const first = top.findIndex((passage) => relevant.includes(passage.chunkId));
      perQuery.push({ kind: labelled.kind, recall: found / relevant.length, hit3: first >= 0 && first < 3 ? 1 : 0, mrr: first >= 0 ? 1 / (first + 1) : 0 });
    }
    const mean = (rows: typeof perQuery): Scores => ({
      recall: round(rows.reduce((sum, row) => sum + row.recall, 0) / rows.length),
      hit3: round(rows.reduce((sum, row) => sum + row.hit3, 0) / rows.length),
      mrr: round(rows.reduce((sum, row) => sum + row.mrr, 0) / rows.length),
    });
    const kinds = [...new Set(perQuery.map((row) => row.kind))];
    result[mode] = {
      overall: mean(perQuery),
      byKind: Object.fromEntries(kinds.map((kind) => { const rows = perQuery.filter((row) => row.kind === kind); return [kind, { n: rows.length, ...mean(rows) }]; })),
    };
  }
  await evalStore.close();
  return { chunks: all.length, queries: LABELLED_QUERIES.length, ...result };
}

/**
 * BM25 alone over the library's passages with three ways of cutting text into terms: ours (Korean bigrams, English
 * stems), whitespace words, and Intl.Segmenter words (particles stay attached to both kinds of word).
 */
async function analyzers(source: ChunkSource) {
  const evalStore = new MemoryStore();
  const build = new RetrievalService({ store: evalStore, model, logger });
  await build.buildIndex('analyzers', source);
  const passages = await build.passages('analyzers');
  await evalStore.close();
  const segmenter = new Intl.Segmenter('ko', { granularity: 'word' });
  const fold = (text: string) => text.normalize('NFKC').toLowerCase();
  const cutters: Record<string, (text: string) => string[]> = {
    bigrams: analyze,
    whitespace: (text) => fold(text).split(/[^\p{L}\p{N}]+/u).filter(Boolean),
    segmenter: (text) => [...segmenter.segment(fold(text))].filter((segment) => segment.isWordLike).map((segment) => segment.segment),
  };
  const result: Record<string, Scores> = {};
  for (const [name, cut] of Object.entries(cutters)) {
    const stats = bm25Stats(buildLexicalIndex(passages.map((passage) => cut(`${passage.chapterTitle}\n${passage.text}`))));
    const all = new Uint8Array(passages.length).fill(1);
    let recall = 0;
    let hit3 = 0;
    let mrr = 0;
    for (const labelled of LABELLED_QUERIES) {
      const relevant = passages.flatMap((passage, at) => (answers(passage, labelled) ? [at] : []));
      const top = rankByScore(bm25Scores(stats, cut(labelled.query), all), false).slice(0, K);
      const first = top.findIndex((at) => relevant.includes(at));
      recall += top.filter((at) => relevant.includes(at)).length / relevant.length;
      hit3 += first >= 0 && first < 3 ? 1 : 0;
      mrr += first >= 0 ? 1 / (first + 1) : 0;
    }
    const n = LABELLED_QUERIES.length;
    result[name] = { recall: round(recall / n), hit3: round(hit3 / n), mrr: round(mrr / n) };
  }
  return result;
}

const library = [
  await part('sample', await buildSamplePdf()),
  await part('trade', await fixturePdf(TRADE_HANDBOOK)),
  await part('safety', await fixturePdf(SAFETY_HANDBOOK)),
];
const largeSource: Part = { name: 'sample', pageTexts: await materials.pageTexts(large.id), chapters: large.chapters };
const recall = {
  k: K,
  library: await evaluate(combine(library), 'library'),
  analyzers: await analyzers(combine(library)),
  haystack: await evaluate(combine([largeSource, ...library]), 'haystack'),
};

process.stdout.write(
  `${JSON.stringify({
    build: {
      pages: large.pageCount,
      chapters: large.chapters.length,
      chunks: largeStatus?.chunks ?? 0,
      dimensions: largeStatus?.embedding?.dimensions ?? null,
      indexBytes,
      ingestMs: round(ingestMs),
      indexMs: round(ingested.timings?.indexMs ?? 0),
      maxEventLoopLagMs: round(histogram.max / 1e6 - 10),
    },
    query: { k: K, unfiltered: latency(timings), levelFilter: latency(filtered) },
    recall,
  })}\n`,
);

await materials.close();
await store.close();
await rm(dataDir, { recursive: true, force: true });
