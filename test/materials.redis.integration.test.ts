import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { createLogger } from '../src/kernel/logger.js';
import { createMaterialService, type MaterialService } from '../src/materials/material-service.js';
import { createPdfWorkerPool } from '../src/materials/pdf-worker-pool.js';
import type { RedisStore } from '../src/store/redis-store.js';
import { outlinePdf } from '../scripts/pdf-fixtures.js';
import { startRedisServer, type RedisServer, testRedisStore } from './support/redis-server.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';

/**
 * Two server nodes on one (throwaway) Redis, each with its own data dir: an upload of the same bytes on both is
 * ingested once, and either node serves every slice, because blobs live in Redis rather than on a node's disk.
 */

let redis: RedisServer;
const nodes: { service: MaterialService; store: RedisStore; dataDir: string }[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  for (let index = 0; index < 2; index += 1) {
    const store = testRedisStore(redis.url);
    const dataDir = await mkdtemp(path.join(tmpdir(), `lectern-node-${index}-`));
    const service = createMaterialService({
      config: { dataDir, limits: { maxPdfBytes: 20 * 1024 * 1024, maxPdfPages: 500, pdfTimeoutMs: 30_000 } },
      store,
      model: createOfflineModel({}),
      logger: createLogger('silent'),
      pool: createPdfWorkerPool({ timeoutMs: TEST_TIMEOUT_MS, size: 1 }),
    });
    nodes.push({ service, store, dataDir });
  }
});

afterAll(async () => {
  for (const node of nodes) {
    await node.service.close();
    await node.store.close();
    await rm(node.dataDir, { recursive: true, force: true });
  }
  await redis?.stop();
});

describe('materials on Redis', () => {
  it('IG1 IG2 ingests the same bytes once across two nodes and serves slices from either', async () => {
    const [a, b] = nodes;
    if (!a || !b) throw new Error('nodes not started');
    const bytes = await outlinePdf(4, 3);
    const [fromA, fromB] = await Promise.all([a.service.ingest({ bytes }), b.service.ingest({ bytes })]);
    expect([fromA.created, fromB.created].filter(Boolean)).toHaveLength(1);
    expect(fromA.material).toEqual(fromB.material);
    const id = fromA.material.id;

    for (const node of nodes) {
      expect((await node.service.list({ limit: 20 })).items).toEqual([fromA.material]);
      for (const chapter of fromA.material.chapters) {
        const slice = await node.service.chapterPdf(id, chapter.index);
        expect((await PDFDocument.load(slice)).getPageCount()).toBe(3);
      }
      expect(await node.service.chapterText(id, 0)).toContain('The sample mean');
      // Nothing of the material was written to a node-local disk.
      expect(await readdir(node.dataDir)).toEqual([]);
    }
  });
});
