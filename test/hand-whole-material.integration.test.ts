import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { chapterFirstPassages } from '../src/lecture/hand/assistant-passages.js';
import type { Passage, Retriever } from '../src/retrieval/index.js';
import { fakeEmbedding } from './support/fake-gemini.js';
import { FakeOpenAI, type EmbeddingsBody } from './support/fake-openai.js';
import { handGemini } from './support/hand-gemini.js';
import { loadSample, samplePdfBytes } from './support/lecture-client.js';
import { openaiScript } from './support/openai-scripts.js';
import { startTestApp } from './support/test-app.js';

/**
 * SD14 — The raise-hand assistant answers from the whole material on every model. The retrieval index covers the
 * whole material (no PDF needed): with semantic embeddings, a question put in other words than the material's,
 * asked in one chapter, reaches the passage of another chapter that answers it (rule 5 of assistant-passages.ts).
 * Here on an OpenAI-compatible server (the real `openai` SDK and the app's RetrievalService; the fake's embeddings
 * place texts about repeating an experiment many times near each other, whatever their words), and on a Retriever
 * whose dense scores say the same.
 */

beforeAll(samplePdfBytes);

/** One axis of meaning the fake's embedder knows: repeating many times, said in the material's or the student's words. */
const MANY_TIMES = /대수의 법칙|수없이 되풀이/u;
/** Shares no term with the 대수의 법칙 chapter (no 동전, 앞면, 평균, 기댓값, 반복). */
const PARAPHRASE = '같은 실험을 수없이 되풀이하면 그 결과는 결국 어디로 수렴하나요?';

function meaningEmbedding(text: string, dimensions: number): number[] {
  const noise = fakeEmbedding(text, dimensions).map((value) => value * 0.2);
  if (MANY_TIMES.test(text)) noise[0] = (noise[0] ?? 0) + 1;
  const norm = Math.hypot(...noise) || 1;
  return noise.map((value) => value / norm);
}

async function boot(context: TestContext) {
  const script = openaiScript(handGemini());
  const fake = await FakeOpenAI.start({
    respond: (request) => {
      if (request.endpoint !== 'embeddings') return script(request);
      const body = request.body as EmbeddingsBody;
      const inputs = typeof body.input === 'string' ? [body.input] : (body.input ?? []);
      return { embeddings: inputs.map((text) => meaningEmbedding(text, body.dimensions ?? 768)) };
    },
  });
  context.onTestFinished(() => fake.close());
  const app = await startTestApp({ OPENAI_BASE_URL: fake.baseUrl, OPENAI_MODEL: 'local-chat', OPENAI_EMBEDDING_MODEL: 'local-embed' });
  context.onTestFinished(() => app.stop());
  return { app, material: await loadSample(app) };
}

describe('SD14 the raise-hand assistant finds the answer in another chapter, asked in other words', () => {
  it('SD14 OpenAI-compatible: a paraphrase asked in the first chapter reaches the passage of the 대수의 법칙 chapter', async (context) => {
    const { app, material } = await boot(context);
    const lln = material.chapters.find((chapter) => chapter.title.includes('대수의 법칙'));
    expect(lln).toBeDefined();
    expect(lln?.index).not.toBe(0);
    const found = await app.lectures.assistant.retrieve({ materialId: material.id, chapter: 0, query: PARAPHRASE });
    expect(found.sources.map((source) => source.chapter)).toContain(lln?.index);
    expect(found.texts.some((text) => text.includes('대수의 법칙'))).toBe(true);
  });

  it('SD14 rule 5: other chapters closer in meaning than the whole chapter come in, closest first; never without semantic vectors', async () => {
    const passage = (chapter: number, ordinal: number, lexical: number | null, dense: number): Passage => ({
      chunkId: `${chapter}.${ordinal}`,
      text: `${chapter}장 ${ordinal}`,
      chapter,
      chapterTitle: `장 ${chapter}`,
      startPage: chapter + 1,
      endPage: chapter + 1,
      documentType: 'explanation',
      level: 'working',
      score: 0,
      lexical,
      dense,
    });
    const all = [passage(0, 0, 3, 0.2), passage(0, 1, 2, 0.1), passage(0, 2, null, 0.15), passage(0, 3, null, 0.05), passage(2, 0, null, 0.9), passage(3, 0, null, 0.6), passage(1, 0, null, 0.1)];
    const retriever: Retriever = {
      retrieve: async (request) =>
        all.filter((entry) => request.filters?.chapter === undefined || entry.chapter === request.filters.chapter).slice(0, request.k ?? 10),
      passages: async () => all,
    };
    const query = { materialId: 'm', chapter: 0, query: PARAPHRASE };
    const semantic = await chapterFirstPassages(retriever, { ...query, semantic: true });
    expect(semantic.map((entry) => entry.chunkId)).toEqual(['0.0', '0.1', '2.0', '3.0']);
    const lexicalOnly = await chapterFirstPassages(retriever, query);
    expect(lexicalOnly.map((entry) => entry.chapter)).toEqual([0, 0]);
  });
});
