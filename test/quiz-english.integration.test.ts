/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QZ8 — English offline. With no model key, `POST /api/materials/:id/quiz` on an English PDF answers 201 with five
 *   English cloze items (terms: key noun phrases read by the tagger, choices all English) …
 * - QZ9 — Body. `topic` outside general|mistakes|negotiation|country|documents|a document type is 400 INVALID_PAYLOAD
 *   with a Korean message naming `topic`; nothing is stored.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import { ErrorCode } from '../src/protocol/wire/error-codes.js';
import { QuizItem } from '../src/protocol/quiz.js';
import { BLANK } from '../src/quiz/quiz-offline.js';
import { fixturePdf, SAFETY_HANDBOOK } from '../scripts/retrieval-fixtures.js';
import { defaultInstructor } from './support/accounts.js';
import { getJson, postJson, storeReady } from './support/classroom-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * QZ8, QZ9 (test/SPEC.md): `POST /api/materials/:id/quiz` on the real server with the offline model (no
 * GEMINI_API_KEY) over an English PDF uploaded over HTTP (made by scripts/pdf-fixtures.ts buildPdf): before the
 * retrieval-backed builder read English, every such request ended in 502 "잠시 후 다시 시도해 주세요".
 */

const redis = suiteRedis();

type Generated = {
  quizId: string;
  title: string;
  items: QuizItem[];
  generation: {
    topic: string;
    query: string;
    filters: Record<string, unknown>;
    applied: Record<string, unknown>;
    relaxed: string[];
    passages: { chunkId: string; chapter: number; documentType: string; level: string }[];
  };
};

async function boot(context: TestContext, env: Record<string, string>): Promise<{ app: TestApp; material: Material; bearer: Record<string, string> }> {
  const app = await startTestApp(env);
  context.onTestFinished(() => app.stop());
  await storeReady(app);
  const { bearer } = await defaultInstructor(app);
  const form = new FormData();
  form.append('file', new Blob([await fixturePdf(SAFETY_HANDBOOK)], { type: 'application/pdf' }), 'safety.pdf');
  const response = await fetch(`${app.url}/api/materials`, { method: 'POST', body: form, headers: bearer });
  // 200 when the suite's Redis already holds the same PDF (materials are deduplicated by content).
  expect([200, 201]).toContain(response.status);
  return { app, material: (await response.json()) as Material, bearer };
}

describe.each(['memory', 'redis'] as const)('quiz generation from an English PDF (%s store)', (store) => {
  const env = () => (store === 'redis' ? { REDIS_URL: redis.url } : {});

  it('QZ8 the offline model writes five English cloze items from retrieved passages, each citing its passage', async (context) => {
    const { app, material, bearer } = await boot(context, env());
    const passages = await app.retrieval.passages(material.id);
    for (const body of [{}, { topic: 'mistakes', difficulty: 'hard' }, { chapter: 0, difficulty: 'easy' }, { topic: 'procedure' }]) {
      const reply = await postJson<Generated>(`${app.url}/api/materials/${material.id}/quiz`, body, bearer);
      expect(reply.status, JSON.stringify(reply.body)).toBe(201);
      const quiz = reply.body as Generated;
      expect(quiz.items).toHaveLength(5);
      for (const item of quiz.items) {
        expect(QuizItem.safeParse(item).success).toBe(true);
        expect(item.question).toContain(BLANK);
        // An English term (a noun phrase of the material) for an English blank, and English distractors beside it.
        for (const choice of item.choices) expect(choice).toMatch(/^[A-Za-z][A-Za-z*-]*(?: [A-Za-z][A-Za-z*-]*){0,3}$/u);
        expect(item.quizId).toMatch(/^[0-9a-f]{8}$/);
        for (const cited of item.sources ?? []) {
          const passage = passages.find((entry) => entry.chunkId === cited.chunkId);
          expect(passage).toBeDefined();
          expect({ chapter: cited.chapter, startPage: cited.startPage, endPage: cited.endPage }).toEqual({
            chapter: passage?.chapter,
            startPage: passage?.startPage,
            endPage: passage?.endPage,
          });
          expect(quiz.generation.passages.map((entry) => entry.chunkId)).toContain(cited.chunkId);
        }
        expect(item.sources?.length).toBe(1);
        // The blanked term really is in the cited passage.
        const text = passages.find((entry) => entry.chunkId === item.sources?.[0]?.chunkId)?.text.toLowerCase() ?? '';
        expect(text).toContain((item.choices[item.answer] ?? '').toLowerCase().slice(0, 4));
      }
      expect(new Set(quiz.items.map((item) => item.quizId)).size).toBe(5);
      expect(quiz.generation.passages.length).toBeGreaterThan(0);
      // Stored with the quiz: a room built from it has the same items.
      const read = await getJson<{ items: QuizItem[] }>(`${app.url}/api/quizzes/${quiz.quizId}`, bearer);
      expect(read.body.items).toEqual(quiz.items);
    }
  });

  it('QZ8 the result metadata says which filters were asked, which were relaxed and which passages were used', async (context) => {
    const { app, material, bearer } = await boot(context, env());
    const reply = await postJson<Generated>(`${app.url}/api/materials/${material.id}/quiz`, { topic: 'mistakes', difficulty: 'hard' }, bearer);
    const { generation } = reply.body as Generated;
    expect(generation.topic).toBe('mistakes');
    expect(generation.filters).toEqual({ documentType: 'common_mistake', level: 'manager' });
    expect(generation.relaxed).toEqual(['level', 'documentType']);
    expect(generation.passages).toHaveLength(10);
    expect(generation.passages[0]?.documentType).toBe('common_mistake');
    const general = (await postJson<Generated>(`${app.url}/api/materials/${material.id}/quiz`, {}, bearer)).body as Generated;
    expect(general.generation).toMatchObject({ topic: 'general', query: SAFETY_HANDBOOK.title, filters: {}, relaxed: [] });
  });

  it('QZ9 an unknown topic is 400 INVALID_PAYLOAD with a Korean message naming the topics, and nothing is stored', async (context) => {
    const { app, material, bearer } = await boot(context, env());
    for (const topic of ['tips', '', 3, 'COMMON_MISTAKE']) {
      const reply = await postJson(`${app.url}/api/materials/${material.id}/quiz`, { topic }, bearer);
      expect({ status: reply.status, code: reply.body.error?.code }).toEqual({ status: 400, code: ErrorCode.INVALID_PAYLOAD });
      expect(reply.body.error?.message).toContain('topic');
      expect(reply.body.error?.message).toMatch(/[가-힣]/u);
    }
    const list = await getJson<{ quizzes: unknown[] }>(`${app.url}/api/quizzes`, bearer);
    expect(list.body.quizzes).toEqual([]);
  });
});
