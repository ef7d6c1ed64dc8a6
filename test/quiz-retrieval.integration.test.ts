/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QZ1 — Topic. `topic` filters the passages by document type (the seed's map: mistakes → common_mistake,
 *   negotiation → negotiation_strategy, country → country_guideline, documents → error_checklist …
 * - QZ2 — Difficulty. `difficulty` filters by level (easy → beginner, medium → working, hard → manager) and all five
 *   items have it.
 * - QZ3 — Mix. Without a difficulty there is no level filter and the plan is easy 2 + medium 2 + hard 1; the call is
 *   at temperature 0.7.
 * - QZ4 — Relaxing. When the filters allow fewer than 10 passages, `level` is dropped first, then `documentType`,
 *   each recorded in the result (`relaxed`, `applied`) …
 * - QZ5 — Citations and ids. Every item cites passages that were retrieved for it (chunk id, chapter, title, pages
 *   equal to the index's); offline, the cited passage holds the cloze's sentence.
 * - QZ6 — Prompt. Gemini gets the ten passages as reference data inside `<참고_자료>`, `- [n] 내용 (n장 「제목」, pages,
 *   documentType, level)`, at temperature 0.7 …
 * - QZ7 — Slots with feedback. `generateQuizItems` writes only the slots it is given, with each slot's feedback in
 *   `<수정_요청>` and the questions to avoid in `<이미_낸_문제>` (the hook for a judge gate).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GenerateObjectRequest, LanguageModel } from '../src/llm/model.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import { planFromDocument } from '../src/materials/chapter-plan.js';
import { readPdf } from '../src/materials/pdf-reader.js';
import type { Material } from '../src/materials/types.js';
import { offlineTasks } from '../src/offline-tasks.js';
import { QuizItem, type Difficulty } from '../src/protocol/quiz.js';
import { generateQuiz, generateQuizItems, loadQuizSource, QUIZ_TEMPERATURE, type QuizGenerateInput, type QuizSource } from '../src/quiz/quiz-agent.js';
import { retrieveQuizPassages } from '../src/quiz/quiz-passages.js';
import { RetrievalService, type ChunkSource, type Passage } from '../src/retrieval/index.js';
import { MemoryStore } from '../src/store/memory-store.js';
import type { Store } from '../src/store/store.js';
import { fixturePdf, TRADE_HANDBOOK } from '../scripts/retrieval-fixtures.js';
import { FakeGemini, fakeGeminiModel, type RecordedRequest } from './support/fake-gemini.js';
import { suiteRedis, testRedisStore } from './support/redis-server.js';

/**
 * QZ rules (test/SPEC.md): the QuizAgent over the retrieval index, on the memory store and on a throwaway Redis. The
 * material is the Korean trade handbook (its PDF extracted and indexed with the offline model's labels). Filters are
 * read off what the model was given: the reference data lines of the prompt (`- [n] 내용 (…, documentType, level)`).
 */

const redis = suiteRedis();
let source: ChunkSource;
let handbook: Omit<Material, 'id'>;

beforeAll(async () => {
  const extracted = await readPdf(await fixturePdf(TRADE_HANDBOOK), { maxPages: 100 });
  const plan = planFromDocument(extracted);
  if (plan === null) throw new Error('the trade handbook has an outline');
  source = { chapters: plan.chapters, pageTexts: extracted.pages.map((page) => page.text) };
  handbook = { title: TRADE_HANDBOOK.title, pageCount: extracted.pages.length, hasTextLayer: true, chapterSource: 'outline', chapters: plan.chapters };
});

/** The offline model, recording what every generation round was given (input and prompt). */
function recording(): { model: LanguageModel; rounds: { input: QuizGenerateInput; prompt: string; temperature: number | undefined }[] } {
  const offline = createOfflineModel(offlineTasks);
  const rounds: { input: QuizGenerateInput; prompt: string; temperature: number | undefined }[] = [];
  const model: LanguageModel = {
    ...offline,
    generateObject: <T>(request: GenerateObjectRequest<T>) => {
      rounds.push({ input: request.input as QuizGenerateInput, prompt: request.prompt ?? '', temperature: request.temperature });
      return offline.generateObject(request);
    },
  };
  return { model, rounds };
}

/** The reference data lines of a prompt: number, text, document type and level. */
function referenceLines(prompt: string): { number: number; text: string; documentType: string; level: string }[] {
  const block = /<참고_자료>\n([\s\S]*?)\n<\/참고_자료>/u.exec(prompt)?.[1] ?? '';
  return block.split('\n').map((line) => {
    const match = /^- \[(\d+)\] (.*) \(\d+장 「.*」, [\d–]+쪽, ([a-z_]+), ([a-z]+)\)$/u.exec(line);
    if (!match) throw new Error(`not a reference line: ${line}`);
    return { number: Number(match[1]), text: match[2] ?? '', documentType: match[3] ?? '', level: match[4] ?? '' };
  });
}

const flat = (text: string) => text.replace(/\s+/gu, ' ').trim();

/** Every item cites passages that were retrieved for it, with their chapter and pages. */
function expectCitations(items: QuizItem[], passages: readonly Passage[]): void {
  for (const item of items) {
    expect(item.sources?.length).toBeGreaterThan(0);
    for (const cited of item.sources ?? []) {
      const passage = passages.find((entry) => entry.chunkId === cited.chunkId);
      expect(passage, cited.chunkId).toBeDefined();
      expect(cited).toEqual({ chunkId: passage?.chunkId, chapter: passage?.chapter, chapterTitle: passage?.chapterTitle, startPage: passage?.startPage, endPage: passage?.endPage });
    }
  }
}

const stores: [string, () => Store][] = [
  ['memory', () => new MemoryStore()],
  ['redis', () => testRedisStore(redis.url)],
];

describe.each(stores)('QuizAgent over retrieval on the %s store', (kind, makeStore) => {
  let store: Store;
  let counter = 0;
  const ids = () => `${kind}q${(counter += 1)}`.padEnd(32, '0');

  beforeAll(() => {
    store = makeStore();
  });
  afterAll(async () => {
    await store.close();
  });

  /** A fresh material id indexed from the handbook, with its materials port and retriever. */
  async function indexed() {
    const materialId = ids();
    const retriever = new RetrievalService({ store, model: createOfflineModel({}) });
    await retriever.buildIndex(materialId, source);
    const material: Material = { id: materialId, ...handbook };
    const materials = { get: async (id: string) => (id === materialId ? material : null) };
    return { materialId, retriever, materials };
  }

  it('QZ1 a topic filters the passages by document type (the map and a type by name); general filters nothing', async () => {
    const { materialId, retriever, materials } = await indexed();
    for (const [topic, documentType] of [['mistakes', 'common_mistake'], ['documents', 'error_checklist'], ['definition', 'definition']] as const) {
      const { model, rounds } = recording();
      const { source: quizSource, items } = await generateQuiz({ model, materials, retriever, materialId, topic, seed: '1'.repeat(32) });
      expect(items).toHaveLength(5);
      const allowed = await retriever.passages(materialId, { documentType });
      expect(allowed.length).toBeGreaterThan(0);
      const lines = referenceLines(rounds[0]?.prompt ?? '');
      expect(lines).toHaveLength(10);
      // Every passage of the type comes first; the handbook has fewer than ten, so the type was relaxed after them.
      expect(lines.slice(0, allowed.length).map((line) => line.documentType)).toEqual(allowed.map(() => documentType));
      expect(new Set(lines.slice(0, allowed.length).map((line) => line.text))).toEqual(new Set(allowed.map((passage) => flat(passage.text))));
      expect(quizSource.retrieval.filters).toEqual({ documentType });
      expect(quizSource.retrieval.relaxed).toEqual(['documentType']);
      expect(quizSource.retrieval.applied).toEqual({});
      expect(rounds[0]?.prompt).toContain(`(${documentType})`);
    }
    const { model, rounds } = recording();
    const general = await generateQuiz({ model, materials, retriever, materialId, topic: 'general' });
    expect(general.source.retrieval.filters).toEqual({});
    expect(general.source.retrieval.relaxed).toEqual([]);
    expect(general.source.retrieval.query).toBe(TRADE_HANDBOOK.title);
    expect(referenceLines(rounds[0]?.prompt ?? '')).toHaveLength(10);
  });

  it('QZ1 a filter that allows enough passages is not relaxed: every passage has the type', async () => {
    const { materialId, retriever } = await indexed();
    const found = await retrieveQuizPassages({ retriever, materialId, query: '정의', filters: { documentType: 'definition' }, k: 2 });
    expect(found.passages).toHaveLength(2);
    expect(found.passages.every((passage) => passage.documentType === 'definition')).toBe(true);
    expect(found.relaxed).toEqual([]);
    expect(found.applied).toEqual({ documentType: 'definition' });
  });

  it('QZ2 a difficulty filters the passages by level (easy → beginner, medium → working, hard → manager) and all five items have it', async () => {
    const { materialId, retriever, materials } = await indexed();
    for (const [difficulty, level] of [['easy', 'beginner'], ['medium', 'working'], ['hard', 'manager']] as const) {
      const { model, rounds } = recording();
      const { source: quizSource, items } = await generateQuiz({ model, materials, retriever, materialId, difficulty });
      expect(items.map((item) => item.difficulty)).toEqual([difficulty, difficulty, difficulty, difficulty, difficulty]);
      const allowed = await retriever.passages(materialId, { level });
      const lines = referenceLines(rounds[0]?.prompt ?? '');
      expect(lines.slice(0, allowed.length).every((line) => line.level === level)).toBe(true);
      expect(quizSource.retrieval.filters).toEqual({ level });
      expect(quizSource.retrieval.relaxed).toEqual(allowed.length < 10 ? ['level'] : []);
      expect(rounds[0]?.input.difficulties).toEqual([difficulty, difficulty, difficulty, difficulty, difficulty]);
    }
  });

  it('QZ3 without a difficulty there is no level filter and the mix is easy 2 + medium 2 + hard 1', async () => {
    const { materialId, retriever, materials } = await indexed();
    const { model, rounds } = recording();
    const { source: quizSource, items } = await generateQuiz({ model, materials, retriever, materialId, topic: 'negotiation' });
    expect(items.map((item) => item.difficulty)).toEqual(['easy', 'easy', 'medium', 'medium', 'hard']);
    expect(quizSource.retrieval.filters).toEqual({ documentType: 'negotiation_strategy' });
    expect(rounds[0]?.input.difficulties).toEqual(['easy', 'easy', 'medium', 'medium', 'hard']);
    expect(rounds[0]?.prompt).toContain('난이도 구성: easy 2문항, medium 2문항, hard 1문항 (이 순서로)');
    expect(rounds[0]?.temperature).toBe(QUIZ_TEMPERATURE);
  });

  it('QZ4 filters that allow too few are relaxed level first, then document type, and recorded; a chapter is never relaxed', async () => {
    const { materialId, retriever, materials } = await indexed();
    const { model, rounds } = recording();
    const both = await generateQuiz({ model, materials, retriever, materialId, topic: 'country', difficulty: 'easy' });
    expect(both.source.retrieval.filters).toEqual({ documentType: 'country_guideline', level: 'beginner' });
    expect(both.source.retrieval.relaxed).toEqual(['level', 'documentType']);
    expect(both.source.retrieval.applied).toEqual({});
    expect(both.items).toHaveLength(5);
    const strict = await retriever.passages(materialId, { documentType: 'country_guideline', level: 'beginner' });
    const typed = await retriever.passages(materialId, { documentType: 'country_guideline' });
    const lines = referenceLines(rounds[0]?.prompt ?? '');
    // Passages of both first, then those of the type at any level, then the rest.
    expect(lines.slice(0, strict.length).every((line) => line.documentType === 'country_guideline' && line.level === 'beginner')).toBe(true);
    expect(lines.slice(0, typed.length).every((line) => line.documentType === 'country_guideline')).toBe(true);
    expect(lines).toHaveLength(10);

    const chapter = await generateQuiz({ model, materials, retriever, materialId, chapter: 1, difficulty: 'hard' });
    const inChapter = await retriever.passages(materialId, { chapter: 1 });
    expect(chapter.source.retrieval.passages.map((passage) => passage.chunkId).sort()).toEqual(inChapter.map((passage) => passage.chunkId).sort());
    expect(chapter.source.retrieval.applied).toEqual({ chapter: 1 });
    expect(chapter.source.retrieval.relaxed).toEqual(['level']);
    expect(chapter.items).toHaveLength(5);
    expect(chapter.items.every((item) => item.sources?.every((cited) => cited.chapter === 1))).toBe(true);
  });

  it('QZ5 every item cites retrieved passages (offline: the passage its sentence comes from) and has a unique 8-hex quizId', async () => {
    const { materialId, retriever, materials } = await indexed();
    const { model } = recording();
    for (const seed of ['2'.repeat(32), '3'.repeat(32)]) {
      const { items, source: quizSource } = await generateQuiz({ model, materials, retriever, materialId, seed });
      expectCitations(items, quizSource.retrieval.passages);
      for (const item of items) {
        expect(QuizItem.safeParse(item).success).toBe(true);
        expect(item.quizId).toMatch(/^[0-9a-f]{8}$/);
        // The cloze's original sentence is in the cited passage.
        const sentence = /자료의 원문은 「(.*)」입니다/u.exec(item.explanation)?.[1] ?? '';
        const cited = quizSource.retrieval.passages.find((passage) => passage.chunkId === item.sources?.[0]?.chunkId);
        expect(flat(cited?.text ?? '')).toContain(flat(sentence));
      }
      expect(new Set(items.map((item) => item.quizId)).size).toBe(5);
    }
  });
});

describe.each(stores)('QuizAgent over retrieval with Gemini on the %s store', (kind, makeStore) => {
  let fake: FakeGemini;
  let store: Store;
  beforeEach(async () => {
    fake = await FakeGemini.start();
    store = makeStore();
  });
  afterEach(async () => {
    await fake.close();
    await store.close();
  });

  type Body = { contents: { parts: { text?: string }[] }[]; generationConfig?: { temperature?: number } };
  const promptOf = (request: RecordedRequest | undefined) => (request?.body as Body).contents[0]?.parts.at(-1)?.text ?? '';

  let counter = 0;
  function item(difficulty: Difficulty, sources: unknown): Record<string, unknown> {
    counter += 1;
    return {
      question: `${counter}번: 신용장 거래에서 서류 심사의 기준은?`,
      choices: ['서류의 문면', '물품의 실제 상태', '매수인의 의견', '운송인의 판단'],
      answer: 0,
      explanation: '은행은 서류만으로 심사합니다.',
      difficulty,
      sources,
    };
  }

  async function setup() {
    const materialId = `${kind}g${(counter += 1)}`.padEnd(32, '0');
    // Retrieval embeds with the offline model, so every request the fake sees is a generation round.
    const retriever = new RetrievalService({ store, model: createOfflineModel({}) });
    await retriever.buildIndex(materialId, source);
    const material: Material = { id: materialId, ...handbook };
    return { materialId, retriever, materials: { get: async (id: string) => (id === materialId ? material : null) } };
  }

  it('QZ6 the prompt carries the ten passages as reference data, at temperature 0.7; citations map to passages and unknown ones are sent back', async () => {
    const { materialId, retriever, materials } = await setup();
    const first = [item('easy', [2, 3]), item('easy', [11]), item('medium', [1]), item('medium', []), item('hard', [10, 10, 4])];
    const second = [item('easy', [5]), item('medium', [6])];
    fake.enqueue({ json: { items: first } }, { json: { items: second } });
    const model = fakeGeminiModel(fake, { maxAttempts: 1 });
    const { items, source: quizSource } = await generateQuiz({ model, materials, retriever, materialId, topic: 'mistakes' });

    const requests = fake.requests;
    expect(requests).toHaveLength(2);
    for (const request of requests) expect((request.body as Body).generationConfig?.temperature).toBe(0.7);
    const prompt = promptOf(requests[0]);
    const passages = quizSource.retrieval.passages;
    expect(passages).toHaveLength(10);
    const lines = passages.map(
      (passage, index) =>
        `- [${index + 1}] ${flat(passage.text)} (${passage.chapter + 1}장 「${passage.chapterTitle}」, ${passage.startPage === passage.endPage ? `${passage.startPage}쪽` : `${passage.startPage}–${passage.endPage}쪽`}, ${passage.documentType}, ${passage.level})`,
    );
    expect(prompt).toContain(`<참고_자료>\n${lines.join('\n')}\n</참고_자료>`);
    expect(prompt).toContain('주제 mistakes (common_mistake)');
    // The two items citing nothing or passage 11 of 10 were asked for again.
    expect(promptOf(requests[1])).toContain('난이도 구성: easy 1문항, medium 1문항 (이 순서로)');

    const source = (number: number) => {
      const passage = passages[number - 1] as Passage;
      return { chunkId: passage.chunkId, chapter: passage.chapter, chapterTitle: passage.chapterTitle, startPage: passage.startPage, endPage: passage.endPage };
    };
    expect(items.map((entry) => entry.sources)).toEqual([[source(2), source(3)], [source(5)], [source(1)], [source(6)], [source(4), source(10)]]);
    expect(items.map((entry) => entry.question)).toEqual([first[0], second[0], first[2], second[1], first[4]].map((entry) => entry?.question));
  });

  it('QZ7 a judge gate can write only some slots again, with feedback for each, keeping the passages', async () => {
    const { materialId, retriever, materials } = await setup();
    fake.enqueue({ json: { items: [item('hard', [1])] } }, { json: { items: [item('easy', [2]), item('hard', [3])] } });
    const model = fakeGeminiModel(fake, { maxAttempts: 1 });
    const quizSource: QuizSource = await loadQuizSource(materials, retriever, materialId, {});
    const one = await generateQuizItems({ model, source: quizSource, slots: [{ difficulty: 'hard', feedback: '정답이 두 개로 읽힙니다.' }], avoid: ['이미 통과한 문제?'] });
    expect(one).toHaveLength(1);
    expect(one[0]?.difficulty).toBe('hard');
    const prompt = promptOf(fake.requests[0]);
    expect(prompt).toContain('<수정_요청>\n- 1번째 문항(hard): 정답이 두 개로 읽힙니다.\n</수정_요청>');
    expect(prompt).toContain('<이미_낸_문제>\n- 이미 통과한 문제?\n</이미_낸_문제>');
    expect(prompt).toContain('난이도 구성: 1문항 모두 hard');

    const two = await generateQuizItems({ model, source: quizSource, slots: [{ difficulty: 'easy' }, { difficulty: 'hard', feedback: '보기가 너무 쉽습니다.' }] });
    expect(two.map((entry) => entry.difficulty)).toEqual(['easy', 'hard']);
    expect(promptOf(fake.requests[1])).toContain('<수정_요청>\n- 2번째 문항(hard): 보기가 너무 쉽습니다.\n</수정_요청>');
  });
});
