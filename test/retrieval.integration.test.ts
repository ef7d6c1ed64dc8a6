/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - R4 — Filters. `chapter`, `documentType` and `level` (a value or a list) are predicates applied before scoring …
 * - R8 — Model change. An index made with another embedding model or dimension is re-embedded on its first use, once
 *   across nodes (a store lease; the other nodes wait for the result) …
 * - R9 — No index yet. A material without an index is indexed on first use from its chapters and pages; an unknown
 *   material is `MATERIAL_NOT_FOUND`.
 * - R10 — Embedding failures. When passages cannot be embedded the index is stored without vectors and retrieval is
 *   lexical; the vectors are added on a later use once the model embeds again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelError } from '../src/llm/model-error.js';
import type { EmbedOptions, LanguageModel } from '../src/llm/model.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { planFromDocument } from '../src/materials/chapter-plan.js';
import { readPdf } from '../src/materials/pdf-reader.js';
import { ErrorCode } from '../src/protocol/wire/error-codes.js';
import { RetrievalService, type ChunkSource, type Passage, type RetrievalFilters } from '../src/retrieval/index.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/store.js';
import { fixturePdf, TRADE_HANDBOOK } from '../scripts/retrieval-fixtures.js';
import { suiteRedis, testRedisStore } from './support/redis-server.js';
import { retrievalKeys } from '../src/retrieval/retrieval-keys.js';

/**
 * R4, R6–R10 (test/SPEC.md): the retriever over the memory store and over a (throwaway) Redis — filters, the stored
 * index, lazy loading and the node cache, re-embedding after a model change across two nodes, indexing a material
 * that has none, and embedding failures. The material is the Korean trade handbook, extracted from its PDF.
 */

const redis = suiteRedis();
let source: ChunkSource;

beforeAll(async () => {
  const extracted = await readPdf(await fixturePdf(TRADE_HANDBOOK), { maxPages: 100 });
  const plan = planFromDocument(extracted);
  if (plan === null) throw new Error('the trade handbook has an outline');
  source = { chapters: plan.chapters, pageTexts: extracted.pages.map((page) => page.text) };
});

interface EmbedCall {
  taskType: EmbedOptions['taskType'];
  texts: number;
}

/** The offline model under another embedding model's name, counting (and optionally failing) embed calls. */
function embedder(name: string, fail: (options: EmbedOptions | undefined) => boolean = () => false) {
  const offline = createOfflineModel({});
  const calls: EmbedCall[] = [];
  const model: LanguageModel = {
    kind: 'offline',
    capabilities: offline.capabilities,
    modelName: (role) => (role === 'embedding' ? name : offline.modelName(role)),
    generateObject: (request) => offline.generateObject(request),
    streamText: (request) => offline.streamText(request),
    embed: async (texts, options) => {
      calls.push({ taskType: options?.taskType, texts: texts.length });
      if (fail(options)) throw new ModelError(ErrorCode.MODEL_UNAVAILABLE, 'embedding is down', { retryable: true });
      return offline.embed(texts, options);
    },
  };
  const documents = () => calls.filter((call) => call.taskType === 'RETRIEVAL_DOCUMENT').reduce((sum, call) => sum + call.texts, 0);
  return { model, calls, documents };
}

/** A store that counts getBytes calls (what a lazy load costs). */
function counting(store: Store): { store: Store; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property === 'getBytes') {
        return (key: string) => {
          reads += 1;
          return target.getBytes(key);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: proxy, reads: () => reads };
}

const stores: [string, () => Store][] = [
  ['memory', () => new MemoryStore()],
  ['redis', () => testRedisStore(redis.url)],
];

describe.each(stores)('retrieval on the %s store', (kind, makeStore) => {
  const opened: Store[] = [];
  const open = () => {
    const store = kind === 'memory' && opened[0] ? opened[0] : makeStore();
    opened.push(store);
    return store;
  };
  let counter = 0;
  const materialId = () => `${kind}${(counter += 1)}`.padEnd(32, '0');

  afterAll(async () => {
    for (const store of new Set(opened)) await store.close();
  });

  it('R4 every filter is a predicate before scoring: the top k of the allowed passages, nothing else', async () => {
    const id = materialId();
    const retriever = new RetrievalService({ store: open(), model: createOfflineModel({}) });
    await retriever.buildIndex(id, source);
    const all = await retriever.passages(id);
    expect(all.length).toBeGreaterThan(10);
    const types = [...new Set(all.map((passage) => passage.documentType))];
    const levels = [...new Set(all.map((passage) => passage.level))];
    expect(levels.sort()).toEqual(['beginner', 'manager', 'working']);
    const filterSets: RetrievalFilters[] = [
      { chapter: 1 },
      { chapter: [0, 3] },
      ...types.map((documentType) => ({ documentType })),
      { documentType: types.slice(0, 2) },
      ...levels.map((level) => ({ level })),
      { level: 'working', chapter: [0, 1, 2] },
    ];
    const allows = (filters: RetrievalFilters, passage: Passage) =>
      ([filters.chapter ?? []].flat().length === 0 || [filters.chapter].flat().includes(passage.chapter)) &&
      ([filters.documentType ?? []].flat().length === 0 || [filters.documentType].flat().includes(passage.documentType)) &&
      ([filters.level ?? []].flat().length === 0 || [filters.level].flat().includes(passage.level));
    for (const query of ['신용장 서류 불일치', '선하증권의 역할', '협상에서 양보하는 방법']) {
      const everything = await retriever.retrieve({ materialId: id, query, k: 50 });
      for (const filters of filterSets) {
        const filtered = await retriever.retrieve({ materialId: id, query, k: 3, filters });
        const label = `${query} ${JSON.stringify(filters)}`;
        expect(filtered.every((passage) => allows(filters, passage)), label).toBe(true);
        expect(filtered.map((passage) => passage.chunkId), label).toEqual(
          everything.filter((passage) => allows(filters, passage)).slice(0, 3).map((passage) => passage.chunkId),
        );
        expect((await retriever.passages(id, filters)).map((passage) => passage.chunkId), label).toEqual(
          all.filter((passage) => allows(filters, passage)).map((passage) => passage.chunkId),
        );
      }
    }
    // An empty query lists the allowed passages in document order.
    const listed = await retriever.retrieve({ materialId: id, query: '  ', k: 4, filters: { chapter: 2 } });
    expect(listed.map((passage) => passage.chunkId)).toEqual(all.filter((passage) => passage.chapter === 2).slice(0, 4).map((passage) => passage.chunkId));
    expect(listed.every((passage) => passage.score === 0)).toBe(true);
    // A filter that allows nothing gives nothing; a chapter's passages cover it in order.
    expect(await retriever.retrieve({ materialId: id, query: '신용장', filters: { chapter: 99 } })).toEqual([]);
    const chapterOne = await retriever.passages(id, { chapter: 1 });
    expect(chapterOne.map((passage) => passage.chunkId)).toEqual(chapterOne.map((_, at) => `1.${at}`));
    expect(chapterOne[0]?.startPage).toBe(source.chapters[1]?.startPage);
    expect(chapterOne.at(-1)?.endPage).toBe(source.chapters[1]?.endPage);
  });

  it('R6 the index is stored durable under its key with the model name, and deleteIndex removes it', async () => {
    const id = materialId();
    const store = open();
    const retriever = new RetrievalService({ store, model: embedder('embed-a').model });
    const status = await retriever.buildIndex(id, source);
    expect(status).toMatchObject({ embedding: { model: 'embed-a', dimensions: 768 }, labels: { by: 'heuristic' }, current: true });
    expect(await store.pttl(retrievalKeys.retrievalIndex(id))).toBe(-1);
    const [hit] = await retriever.retrieve({ materialId: id, query: 'BATNA가 뭔가요' });
    expect(hit?.text).toContain('BATNA(Best Alternative');
    expect(hit).toMatchObject({ chapter: expect.any(Number), startPage: expect.any(Number), endPage: expect.any(Number) });
    expect(hit?.lexical).toBeGreaterThan(0);
    expect(hit?.dense).toBeGreaterThan(0);

    await retriever.deleteIndex(id);
    expect(await store.getBytes(retrievalKeys.retrievalIndex(id))).toBeNull();
    expect(await retriever.status(id)).toBeNull();
    expect(retriever.cached.entries).toBe(0);
    await expect(retriever.retrieve({ materialId: id, query: '신용장' })).rejects.toMatchObject({ code: 'MATERIAL_NOT_FOUND' });
  });

  it('R7 another node loads the index on first use and then answers from its cache, bounded by bytes', async () => {
    const id = materialId();
    await new RetrievalService({ store: open(), model: createOfflineModel({}) }).buildIndex(id, source);
    const node = counting(open());
    const retriever = new RetrievalService({ store: node.store, model: createOfflineModel({}) });
    expect(retriever.cached.entries).toBe(0);
    expect(node.reads()).toBe(0);
    await Promise.all([
      retriever.retrieve({ materialId: id, query: '신용장이란' }),
      retriever.retrieve({ materialId: id, query: '선하증권' }),
    ]);
    for (const query of ['환율 위험', '중재', '포워더']) await retriever.retrieve({ materialId: id, query });
    expect(node.reads()).toBe(1);
    expect(retriever.cached.entries).toBe(1);
    expect(retriever.cached.bytes).toBeGreaterThan(0);

    const tiny = counting(open());
    const uncached = new RetrievalService({ store: tiny.store, model: createOfflineModel({}), cacheBytes: 1_000 });
    for (const query of ['신용장이란', '선하증권']) await uncached.retrieve({ materialId: id, query });
    expect(tiny.reads()).toBe(2);
    expect(uncached.cached.entries).toBe(0);
  });

  it('R8 another embedding model re-embeds once across two nodes, keeping passages and labels', async () => {
    const id = materialId();
    const first = embedder('embed-a');
    await new RetrievalService({ store: open(), model: first.model }).buildIndex(id, source);
    const before = await new RetrievalService({ store: open(), model: first.model }).passages(id);

    const [nodeA, nodeB] = [embedder('embed-b'), embedder('embed-b')];
    const retrievers = [nodeA, nodeB].map(({ model }) => new RetrievalService({ store: open(), model, lockTtlMs: 5_000 }));
    const results = await Promise.all(retrievers.map((retriever) => retriever.retrieve({ materialId: id, query: '보세구역이란 무엇인가', k: 3 })));
    expect(nodeA.documents() + nodeB.documents()).toBe(before.length);
    for (const result of results) expect(result[0]?.text).toContain('보세구역은 관세를 내지 않은');
    const status = await retrievers[0]?.status(id);
    expect(status).toMatchObject({ embedding: { model: 'embed-b', dimensions: 768 }, current: true });
    expect(await retrievers[1]?.passages(id)).toEqual(before);
    expect(await new RetrievalService({ store: open(), model: first.model }).status(id)).toMatchObject({ current: false });
    // The lease is given back.
    expect(await open().leaseOwner(retrievalKeys.retrievalLock(id))).toBeNull();
  });

  it('R9 a material without an index is indexed on first use from its source; an unknown one is MATERIAL_NOT_FOUND', async () => {
    const id = materialId();
    const loads: string[] = [];
    const retriever = new RetrievalService({
      store: open(),
      model: createOfflineModel({}),
      source: {
        load: async (materialId) => {
          loads.push(materialId);
          return materialId === id ? source : null;
        },
      },
    });
    const [hit] = await retriever.retrieve({ materialId: id, query: '베트남 원산지증명서 양식' });
    expect(hit?.text).toContain('Form AK');
    expect(await retriever.status(id)).toMatchObject({ current: true, embedding: { model: 'offline-v1' } });
    await expect(retriever.retrieve({ materialId: 'f'.repeat(32), query: '신용장' })).rejects.toMatchObject({ code: 'MATERIAL_NOT_FOUND' });
    expect(loads).toEqual([id, 'f'.repeat(32)]);
  });

  it('R10 without embeddings the index is lexical and gets its vectors on a later use once the model works', async () => {
    const id = materialId();
    let down = true;
    const flaky = embedder('embed-c', () => down);
    const store = open();
    const retriever = new RetrievalService({ store, model: flaky.model, retryAfterMs: 0 });
    expect(await retriever.buildIndex(id, source)).toMatchObject({ embedding: null, current: false });
    const [lexicalHit] = await retriever.retrieve({ materialId: id, query: '중국 강제인증' });
    expect(lexicalHit?.text).toContain('CCC 강제인증');
    expect(lexicalHit?.dense).toBeNull();

    down = false;
    const [hit] = await retriever.retrieve({ materialId: id, query: '중국 강제인증' });
    expect(hit?.text).toContain('CCC 강제인증');
    expect(hit?.dense).not.toBeNull();
    expect(await retriever.status(id)).toMatchObject({ embedding: { model: 'embed-c' }, current: true });

    // A query that cannot be embedded is ranked lexically.
    const queryDown = embedder('embed-c', (options) => options?.taskType === 'RETRIEVAL_QUERY');
    const [queryHit] = await new RetrievalService({ store, model: queryDown.model }).retrieve({ materialId: id, query: '중국 강제인증' });
    expect(queryHit?.text).toContain('CCC 강제인증');
    expect(queryHit?.dense).toBeNull();
  });
});
