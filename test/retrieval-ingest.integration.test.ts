/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - R11 — Ingest. An uploaded PDF (English or Korean) is indexed after its chapter plan; its passages carry the
 *   material's chapter indexes and pages within those chapters.
 * - R12 — Gemini embeddings. Passages are embedded through `batchEmbedContents` with `taskType` `RETRIEVAL_DOCUMENT`,
 *   queries with `RETRIEVAL_QUERY` …
 */
import { describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/types.js';
import { fixturePdf, SAFETY_HANDBOOK, TRADE_HANDBOOK, type FixtureMaterial } from '../scripts/retrieval-fixtures.js';
import { defaultInstructor } from './support/accounts.js';
import { embedEntries, fakeEmbedding, FakeGemini, type FakeReply, type RecordedRequest } from './support/fake-gemini.js';
import { storeReady } from './support/classroom-client.js';
import { promptOf } from './support/lecture-gemini.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { retrievalKeys } from '../src/retrieval/retrieval-keys.js';

/**
 * R11, R12, R5 (test/SPEC.md): PDFs uploaded over HTTP to the real server are indexed at ingest — an English one on
 * the memory store, a Korean one on Redis (read by a second node) — and, with Gemini through the fake, passages are
 * labelled by the analyst agent and embedded with the retrieval task types at 768 dimensions.
 */

const redis = suiteRedis();

async function upload(app: TestApp, material: FixtureMaterial): Promise<Material> {
  const form = new FormData();
  form.append('file', new Blob([await fixturePdf(material)], { type: 'application/pdf' }), `${material.title}.pdf`);
  const { bearer } = await defaultInstructor(app);
  const response = await fetch(`${app.url}/api/materials`, { method: 'POST', body: form, headers: bearer });
  const body = (await response.json()) as unknown;
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body as Material;
}

async function boot(context: TestContext, env: Record<string, string> = {}): Promise<TestApp> {
  const app = await startTestApp(env);
  context.onTestFinished(() => app.stop());
  // A Redis store connects after the app is built; calls before that fail at once.
  await storeReady(app);
  return app;
}

/** Every passage's chapter and pages agree with the material's chapter plan. */
function expectWithinChapters(material: Material, passages: { chapter: number; startPage: number; endPage: number }[]): void {
  for (const passage of passages) {
    const chapter = material.chapters[passage.chapter];
    expect(chapter).toBeDefined();
    expect(passage.startPage).toBeGreaterThanOrEqual(chapter?.startPage ?? Number.NaN);
    expect(passage.endPage).toBeLessThanOrEqual(chapter?.endPage ?? Number.NaN);
  }
}

describe('indexing at ingest', () => {
  it('R11 an English PDF is indexed when it is uploaded, and its passages answer English questions', async (context) => {
    const app = await boot(context);
    const material = await upload(app, SAFETY_HANDBOOK);
    expect(await app.retrieval.status(material.id)).toMatchObject({ current: true, embedding: { model: 'offline-v1', dimensions: 768 } });
    const passages = await app.retrieval.passages(material.id);
    expectWithinChapters(material, passages);
    expect(new Set(passages.map((passage) => passage.chapter))).toEqual(new Set(material.chapters.map((chapter) => chapter.index)));

    const [lifting] = await app.retrieval.retrieve({ materialId: material.id, query: 'common mistakes when lifting heavy loads' });
    expect(lifting?.text).toContain('A common mistake when lifting');
    expect(lifting?.documentType).toBe('common_mistake');
    const [extinguisher] = await app.retrieval.retrieve({ materialId: material.id, query: 'which extinguisher for an electrical fire', k: 3 });
    expect(extinguisher?.text).toContain('Carbon dioxide extinguishers are the choice for electrical fires');
    const checklists = await app.retrieval.retrieve({ materialId: material.id, query: 'forklift', filters: { documentType: 'error_checklist' } });
    expect(checklists.length).toBeGreaterThan(0);
    expect(checklists.every((passage) => passage.documentType === 'error_checklist')).toBe(true);
  });

  it('R11 a Korean PDF is indexed on Redis, durable, and another node reads it lazily', async (context) => {
    const env = { REDIS_URL: redis.url, TOKEN_SECRET: 'retrieval-ingest-secret' };
    const app = await boot(context, env);
    const material = await upload(app, TRADE_HANDBOOK);
    expect(await app.store.pttl(retrievalKeys.retrievalIndex(material.id))).toBe(-1);

    const other = await boot(context, env);
    expect(other.retrieval.cached.entries).toBe(0);
    const [fob] = await other.retrieval.retrieve({ materialId: material.id, query: '본선인도조건이란' });
    expect(fob?.text).toContain('본선인도조건(FOB, Free On Board)은');
    expect(other.retrieval.cached.entries).toBe(1);
    const [concession] = await other.retrieval.retrieve({ materialId: material.id, query: '양보는 어떻게', filters: { documentType: 'negotiation_strategy' } });
    expect(concession?.text).toContain('양보는 한 번에 크게 하지 말고');
    expectWithinChapters(material, await other.retrieval.passages(material.id));
    await app.retrieval.deleteIndex(material.id);
  });
});

/** The fake's answers: the analyst labels every passage (and one number that does not exist), embeddings by hash. */
function analystGemini(analyst: () => FakeReply | undefined) {
  return (request: RecordedRequest): FakeReply => {
    if (request.action === 'batchEmbedContents') {
      return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
    }
    if (request.action === 'generateContent' && promptOf(request).includes('<자료_발췌>')) {
      const scripted = analyst();
      if (scripted !== undefined) return scripted;
      const count = promptOf(request).match(/^발췌문 \d+:$/gmu)?.length ?? 0;
      const passages = Array.from({ length: count }, (_, at) => ({ number: at + 1, documentType: at === 0 ? 'definition' : 'case', level: 'manager' }));
      return { json: { passages: [...passages, { number: 99, documentType: 'example', level: 'beginner' }] } };
    }
    return { status: 400, message: `retrieval fake: unexpected ${request.action}` };
  };
}

describe('indexing with Gemini', () => {
  it('R12 R5 passages are labelled by the analyst agent and embedded as documents, queries as queries, at 768 dimensions', async (context) => {
    const fake = await FakeGemini.start({ respond: analystGemini(() => undefined) });
    context.onTestFinished(() => fake.close());
    const app = await boot(context, { GEMINI_API_KEY: 'test', GEMINI_BASE_URL: fake.baseUrl });
    const material = await upload(app, SAFETY_HANDBOOK);

    const status = await app.retrieval.status(material.id);
    expect(status).toMatchObject({ current: true, embedding: { model: 'gemini-embedding-001', dimensions: 768 } });
    const passages = await app.retrieval.passages(material.id);
    expect(status?.labels).toEqual({ by: 'analyst', labelled: passages.length });
    expect(passages.map((passage) => `${passage.documentType}/${passage.level}`)).toEqual(
      passages.map((_, at) => (at === 0 ? 'definition/manager' : 'case/manager')),
    );

    const analyst = fake.requests.filter((request) => request.action === 'generateContent');
    expect(analyst).toHaveLength(1);
    const body = analyst[0]?.body as { generationConfig?: { temperature?: number; responseJsonSchema?: unknown } };
    expect(body.generationConfig?.temperature).toBe(0);
    expect(body.generationConfig?.responseJsonSchema).toBeDefined();
    expect(promptOf(analyst[0] as RecordedRequest).match(/^<자료_발췌>$/gmu)).toHaveLength(passages.length);

    const documents = fake.requests.filter((request) => request.action === 'batchEmbedContents').flatMap((request) => embedEntries(request.body));
    expect(documents).toHaveLength(passages.length);
    expect(new Set(documents.map((entry) => `${entry.taskType}/${entry.outputDimensionality}`))).toEqual(new Set(['RETRIEVAL_DOCUMENT/768']));
    expect(fake.requests.filter((request) => request.action === 'batchEmbedContents').every((request) => request.model === 'gemini-embedding-001')).toBe(true);

    fake.requests.length = 0;
    const results = await app.retrieval.retrieve({ materialId: material.id, query: 'what is a hazard', k: 3 });
    expect(results[0]?.text).toContain('A hazard is defined as');
    expect(results[0]?.dense).not.toBeNull();
    expect(fake.requests.flatMap((request) => embedEntries(request.body))).toEqual([
      { text: 'what is a hazard', taskType: 'RETRIEVAL_QUERY', outputDimensionality: 768 },
    ]);
  });

  it('R5 when the analyst agent fails, the heuristic labels stand and the upload succeeds', async (context) => {
    const fake = await FakeGemini.start({ respond: analystGemini(() => ({ status: 503 })) });
    context.onTestFinished(() => fake.close());
    const app = await boot(context, { GEMINI_API_KEY: 'test', GEMINI_BASE_URL: fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
    const material = await upload(app, SAFETY_HANDBOOK);
    expect(await app.retrieval.status(material.id)).toMatchObject({ labels: { by: 'heuristic', labelled: 0 }, current: true });
    const [lifting] = await app.retrieval.retrieve({ materialId: material.id, query: 'common mistakes when lifting heavy loads' });
    expect(lifting?.documentType).toBe('common_mistake');
  });
});
