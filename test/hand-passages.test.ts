import { beforeAll, describe, expect, it } from 'vitest';
import { handOfflineTasks } from '../src/lecture/hand/assistant-offline.js';
import { chapterFirstPassages, MAX_PASSAGES, sourcesOf } from '../src/lecture/hand/assistant-passages.js';
import { StudentAssistant } from '../src/lecture/hand/student-assistant.js';
import { createOfflineModel } from '../src/llm/offline-model.js';
import type { TextStream } from '../src/llm/model.js';
import type { Passage, RetrievalService, RetrieveRequest, Retriever } from '../src/retrieval/index.js';
import { SAMPLE_MATERIAL_ID, sampleMaterials, sampleRetriever } from './support/hand-material.js';

/** H12 H14 (test/SPEC.md): which passages the raise-hand assistant asks the Retriever for and what it does with them. */

function passage(chapter: number, ordinal: number, lexical: number | null, pages: [number, number] = [chapter * 10 + 1, chapter * 10 + 2]): Passage {
  return {
    chunkId: `${chapter}.${ordinal}`,
    text: `${chapter}장 ${ordinal}번째 발췌입니다.`,
    chapter,
    chapterTitle: `장 ${chapter}`,
    startPage: pages[0],
    endPage: pages[1],
    documentType: 'explanation',
    level: 'working',
    score: 0,
    lexical,
    dense: null,
  };
}

/** A Retriever over fixed passages: the chapter filter applied, best BM25 first, `k` honoured; every request kept. */
class RecordingRetriever implements Retriever {
  readonly requests: RetrieveRequest[] = [];
  constructor(private readonly all: Passage[]) {}

  async retrieve(request: RetrieveRequest): Promise<Passage[]> {
    this.requests.push(request);
    const chapter = request.filters?.chapter;
    return this.all
      .filter((entry) => chapter === undefined || entry.chapter === chapter)
      .sort((left, right) => (right.lexical ?? -1) - (left.lexical ?? -1))
      .slice(0, request.k ?? 10);
  }

  async passages(): Promise<Passage[]> {
    return this.all;
  }
}

const ids = (passages: readonly Passage[]) => passages.map((entry) => entry.chunkId);
const query = { materialId: 'm', chapter: 1, query: '기댓값' };

describe('H12 passages: the chapter first, the whole material when the chapter gives too little', () => {
  it('H12 asks the Retriever with the chapter filter and without it', async () => {
    const retriever = new RecordingRetriever([passage(1, 0, 2)]);
    await chapterFirstPassages(retriever, query);
    expect(retriever.requests.map((request) => request.filters)).toEqual([{ chapter: 1 }, undefined]);
    expect(retriever.requests.every((request) => request.materialId === 'm' && request.query === '기댓값')).toBe(true);
  });

  it('H12 a chapter with enough passages about the question is all the agents get', async () => {
    const retriever = new RecordingRetriever([
      passage(0, 0, 9),
      passage(1, 0, 6),
      passage(1, 1, 5),
      passage(1, 2, 8),
      passage(1, 3, 4.6),
      passage(2, 0, 7),
    ]);
    expect(ids(await chapterFirstPassages(retriever, query))).toEqual(['1.2', '1.0', '1.1', '1.3']);
  });

  it('H12 widens to other chapters to fill what the chapter lacks, the chapter’s passages first', async () => {
    const retriever = new RecordingRetriever([passage(0, 0, 2), passage(1, 0, 3), passage(1, 1, 0.5), passage(2, 0, 5), passage(2, 1, 4)]);
    // 1.1 and 0.0 score below half of the best (5): about something else.
    expect(ids(await chapterFirstPassages(retriever, query))).toEqual(['1.0', '2.0', '2.1']);
  });

  it('H12 a question the chapter only mentions in passing is answered from where the material explains it', async () => {
    const retriever = new RecordingRetriever([passage(1, 0, 1), passage(2, 0, 6), passage(2, 1, 5), passage(3, 0, 0.2)]);
    expect(ids(await chapterFirstPassages(retriever, query))).toEqual(['2.0', '2.1']);
  });

  it('H12 with no passage sharing a term, the chapter’s own passages as the Retriever ordered them', async () => {
    const retriever = new RecordingRetriever([passage(0, 0, null), passage(1, 0, null), passage(1, 1, null)]);
    expect(ids(await chapterFirstPassages(retriever, query))).toEqual(['1.0', '1.1']);
  });

  it('H12 at most MAX_PASSAGES passages', async () => {
    const retriever = new RecordingRetriever(Array.from({ length: 8 }, (_, at) => passage(2, at, 5)));
    expect(await chapterFirstPassages(retriever, query)).toHaveLength(MAX_PASSAGES);
  });

  it('H13 sources: one per chapter, its pages from the first to the last passage, chapters in order', () => {
    expect(sourcesOf([passage(2, 0, 1, [8, 9]), passage(1, 0, 1, [5, 6]), passage(2, 1, 1, [9, 10])])).toEqual([
      { chapter: 1, chapterTitle: '장 1', startPage: 5, endPage: 6 },
      { chapter: 2, chapterTitle: '장 2', startPage: 8, endPage: 10 },
    ]);
  });
});

async function drain(stream: TextStream): Promise<string> {
  let text = '';
  for await (const delta of stream) text += delta;
  return text;
}

describe('H12 H13 H14 the assistant on the sample material (a real RetrievalService)', () => {
  let retriever: RetrievalService;
  beforeAll(async () => {
    retriever = await sampleRetriever();
  });

  it('H12 H13 a question raised in chapter 1 about chapter 3 is answered from chapter 3, which its sources name', async () => {
    const assistant = new StudentAssistant({ model: createOfflineModel(handOfflineTasks), materials: sampleMaterials(), retriever });
    const stream = assistant.answer({ materialId: SAMPLE_MATERIAL_ID, chapter: 0, question: '대수의 법칙은 왜 성립하나요?', concept: '대수의 법칙' });
    const answer = await drain(stream);
    expect(answer).toContain('대수의 법칙: n이 커질수록 표본평균 X̄ₙ은 기댓값 μ에 가까워집니다.');
    // Chapter 1 names 대수의 법칙 only in the table of contents of its first page, which is never a passage (GD17).
    expect(await stream.sources).toEqual([{ chapter: 2, chapterTitle: '대수의 법칙', startPage: 8, endPage: 10 }]);
  });

  it('H12 H13 a question about the chapter is answered from the chapter first', async () => {
    const assistant = new StudentAssistant({ model: createOfflineModel(handOfflineTasks), materials: sampleMaterials(), retriever });
    const found = await assistant.retrieve({ materialId: SAMPLE_MATERIAL_ID, chapter: 0, query: '편차 합' });
    // The cover and contents (page 1) are no passage: chapter 1's passages start on page 2.
    expect(found.sources).toEqual([{ chapter: 0, chapterTitle: '평균의 의미', startPage: 2, endPage: 4 }]);
    expect(found.texts[0]).toContain('편차를 모두 더하면 항상 0이 됩니다.');
  });

  it('H14 a Retriever that fails leaves the assistant working from the chapter text, without sources', async () => {
    const failing: Retriever = {
      retrieve: () => Promise.reject(new Error('store down')),
      passages: () => Promise.reject(new Error('store down')),
    };
    const materials = sampleMaterials();
    const assistant = new StudentAssistant({ model: createOfflineModel(handOfflineTasks), materials, retriever: failing });
    const stream = assistant.answer({ materialId: SAMPLE_MATERIAL_ID, chapter: 1, question: '기댓값은 어떻게 구하나요?', concept: '기댓값' });
    expect(await drain(stream)).toContain('기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.');
    expect(await stream.sources).toEqual([]);
    expect(materials.calls.chapter).toBe(1);
  });
});
