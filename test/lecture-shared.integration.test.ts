/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - L10 — Shared generation. However many students (on however many nodes) follow the same material, each chapter's
 *   lecture is generated once (`lecture.write` once per chapter) and every student gets the …
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../src/llm/offline-model.js';
import type { LanguageModel } from '../src/llm/model.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { chapterGenerated, generatedChapter, joinLecture, loadSample, type LectureClient } from './support/lecture-client.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * L10 (test/SPEC.md): the lecture of a material is written once per chapter and shared by every student, on one
 * node (memory store) and across two nodes on one Redis.
 */

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The offline model, counting streamText calls per task. */
function countingModel(): { model: LanguageModel; calls: Map<string, number> } {
  const inner = createOfflineModel(offlineTasks);
  const calls = new Map<string, number>();
  const model: LanguageModel = {
    kind: inner.kind,
    capabilities: inner.capabilities,
    modelName: (role) => inner.modelName(role),
    generateObject: (request) => inner.generateObject(request),
    streamText: (request) => {
      calls.set(request.task, (calls.get(request.task) ?? 0) + 1);
      return inner.streamText(request);
    },
    embed: (texts, options) => inner.embed(texts, options),
  };
  return { model, calls };
}

describe.each([
  { store: 'memory', nodes: 1 },
  { store: 'redis', nodes: 2 },
] as const)('ten students on the same material ($store store, $nodes node(s))', ({ store, nodes }) => {
  it('L10: one generation per chapter, not ten; every student gets the same lecture', async () => {
    let redis: RedisServer | undefined;
    if (store === 'redis') {
      // A fresh Redis, so no lecture is cached from another test or run.
      redis = await startRedisServer();
      cleanups.push(() => redis?.stop() ?? Promise.resolve());
    }
    const servers: { app: TestApp; calls: Map<string, number> }[] = [];
    for (let index = 0; index < nodes; index += 1) {
      const { model, calls } = countingModel();
      const app = await startTestApp(redis ? { REDIS_URL: redis.url } : {}, { model });
      cleanups.push(() => app.stop());
      servers.push({ app, calls });
    }
    const material = await loadSample(servers[0]!.app);
    // Every node knows the material (the same bytes give the same id; on Redis the second ingest is free).
    for (const { app } of servers.slice(1)) expect((await loadSample(app)).id).toBe(material.id);

    // Ten students join at once, spread over the nodes, and start together.
    const students: LectureClient[] = (
      await Promise.all(
        Array.from({ length: 10 }, (_, index) => joinLecture(servers[index % nodes]!.app, material.id, { nickname: `학생${index + 1}` })),
      )
    ).map(({ client }) => client);
    await Promise.all(students.map((client) => client.ok('lecture:speed', { tokensPerSecond: 200 })));
    await Promise.all(students.map((client) => client.ok('lecture:start')));

    // Everyone streams chapter 0 up to its first question.
    const questions = await Promise.all(students.map((client) => client.waitForEvent('lecture:question')));
    for (const { app } of servers) {
      for (const chapter of material.chapters) await chapterGenerated(app, material.id, chapter.index);
    }

    const writes = servers.reduce((sum, { calls }) => sum + (calls.get('lecture.write') ?? 0), 0);
    const continues = servers.reduce((sum, { calls }) => sum + (calls.get('lecture.continue') ?? 0), 0);
    expect(writes).toBe(material.chapters.length);
    expect(continues).toBe(0);

    const generated = await generatedChapter(servers[0]!.app, material.id, 0);
    const beforeFirstQuestion = generated.raw.slice(0, generated.raw.indexOf('[질문]'));
    for (const [index, client] of students.entries()) {
      expect(questions[index]).toMatchObject({ questionId: 'c0q1', chapter: 0, text: generated.questions[0] });
      expect(client.text.get(0)).toBe(beforeFirstQuestion);
      expect(client.seqErrors).toEqual([]);
    }
  });
});
