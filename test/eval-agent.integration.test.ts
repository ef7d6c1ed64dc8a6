/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EV3 — Faithful items pass offline. An item built straight from a passage of an ingested PDF, and a faithful
 *   hand-written one, get grounding 10 and pass …
 * - EV4 — Unfaithful items fail offline. A keyed answer the material contradicts or never states, a wrong number, or
 *   an explanation that negates the material gives grounding below 10 and a fail …
 * - EV6 — Model call. One `generateObject` on the judge model at temperature 0.3 with the item and the five passages
 *   its question retrieves (k = 5, no filter); the reply schema is seed 001's five fields.
 * - EV7 — No verdict is never a pass. A reply that does not validate after the repair turn, a model error or the
 *   agent's time limit is `{judged: false, is_passed: false, reason}`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageModel } from '../src/llm/model.js';
import type { Material } from '../src/materials/types.js';
import type { QuizItem } from '../src/protocol/quiz.js';
import { EVAL_CONCURRENCY, EVAL_TEMPERATURE, EvalAgent, type EvalVerdict } from '../src/quiz/eval-agent.js';
import { buildClozeItems } from '../src/quiz/quiz-offline.js';
import { fixturePdf, TRADE_HANDBOOK } from '../scripts/retrieval-fixtures.js';
import { storeReady } from './support/classroom-client.js';
import { embedEntries, fakeEmbedding, FakeGemini, type FakeReply, type RecordedRequest } from './support/fake-gemini.js';
import { promptOf } from './support/lecture-gemini.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * EV3–EV7 (test/SPEC.md): the EvalAgent on the real server's retriever, over the memory store and a throwaway Redis,
 * with the material ingested from a PDF (the Korean trade handbook) — offline, and with Gemini through the fake
 * server and the real @google/genai SDK.
 */

const redis = suiteRedis();
let pdf: Uint8Array;

beforeAll(async () => {
  pdf = await fixturePdf(TRADE_HANDBOOK);
});

/**
 * One app per describe, booted and given the handbook once (in beforeAll): the judge reads the store and the
 * retriever only, so the tests of a describe can share them. Returns the app for the running test.
 */
function sharedApp(store: 'memory' | 'redis', env: () => Record<string, string> = () => ({})): () => { app: TestApp; material: Material } {
  let shared: { app: TestApp; material: Material } | undefined;
  beforeAll(async () => {
    const app = await startTestApp({ ...(store === 'redis' ? { REDIS_URL: redis.url, TOKEN_SECRET: 'eval-agent-secret' } : {}), ...env() });
    await storeReady(app);
    const { material } = await app.materials.ingest({ bytes: pdf, filename: 'trade-handbook.pdf' });
    shared = { app, material };
  });
  afterAll(() => shared?.app.stop());
  return () => {
    if (!shared) throw new Error('the shared app is not booted yet');
    return shared;
  };
}

/** A faithful item: the handbook's FOB page says the buyer pays sea freight and cargo insurance. */
const FOB: QuizItem = {
  question: 'FOB 조건에서 해상 운임과 적하 보험료를 부담하는 사람은?',
  choices: ['매도인', '매수인', '포워더', '선사'],
  answer: 1,
  explanation: '자료에 따르면 FOB 조건에서 해상 운임과 적하 보험료는 매수인, 즉 수입자가 부담하므로 정답은 매수인입니다.',
  difficulty: 'easy',
};
/** Faithful, with a number: documents go to the bank within 21 days of shipment. */
const DEADLINE: QuizItem = {
  question: '선적 서류는 선적일로부터 며칠 이내에 은행에 제시해야 하나요?',
  choices: ['7일', '14일', '21일', '30일'],
  answer: 2,
  explanation: '서류 제시 기한은 선적일로부터 21일 이내이고 신용장 유효기간 안이어야 하므로 정답은 21일입니다. 실무에서는 기한을 넘기지 않도록 주의해야 합니다.',
  difficulty: 'medium',
};

describe.each(['memory', 'redis'] as const)('the offline EvalAgent (%s store)', (store) => {
  const boot = sharedApp(store);

  it('EV3 an item built straight from a passage of the PDF passes, and so do faithful hand-written ones', async () => {
    const { app, material } = boot();
    const agent = new EvalAgent({ model: app.model, retriever: app.retrieval });
    const passages = await app.retrieval.passages(material.id);
    const built = passages.flatMap((passage) => buildClozeItems({ text: passage.text, difficulties: ['easy'], seed: `ev3-${passage.chunkId}` }));
    expect(built.length).toBeGreaterThanOrEqual(10);
    for (const item of [...built, FOB, DEADLINE]) {
      const verdict = await agent.judge(item, { materialId: material.id });
      expect(verdict, item.question).toMatchObject({ judged: true, grounding: 10, is_passed: true });
      expect(verdict.passages).toHaveLength(5);
      for (const source of verdict.passages) expect(passages.map((passage) => passage.chunkId)).toContain(source.chunkId);
    }
  });

  it('EV4 an item whose keyed answer contradicts the material or is absent from it fails', async () => {
    const { app, material } = boot();
    const agent = new EvalAgent({ model: app.model, retriever: app.retrieval });
    const wrong: QuizItem[] = [
      // The seller, not the buyer: stated, but not by the material.
      { ...FOB, answer: 0, explanation: 'FOB 조건에서는 해상 운임과 적하 보험료를 매도인이 부담합니다.' },
      // A party the material never names.
      { ...FOB, choices: ['매도인', '매수인', '선박 대리점', '선사'], answer: 2, explanation: 'FOB 조건에서 해상 운임과 적하 보험료는 선박 대리점이 부담합니다.' },
      // A wrong number.
      { ...DEADLINE, answer: 1, explanation: '서류 제시 기한은 선적일로부터 14일 이내이고 신용장 유효기간 안이어야 합니다.' },
      // The explanation negates what the material says.
      { ...FOB, explanation: 'FOB 조건에서 해상 운임과 적하 보험료는 매수인, 즉 수입자가 부담하지 않습니다.' },
    ];
    for (const item of wrong) {
      const verdict = await agent.judge(item, { materialId: material.id });
      expect(verdict, item.explanation).toMatchObject({ judged: true, is_passed: false });
      if (!verdict.judged) continue;
      expect(verdict.grounding, item.explanation).toBeLessThan(10);
      expect(verdict.feedback).toMatch(/자료/u);
    }
  });

  it('EV5 the same items get the same verdicts every time; judgeAll keeps their order and judges at most 3 at once', async () => {
    const { app, material } = boot();
    let inFlight = 0;
    let most = 0;
    // The real offline model, held a little on every call so that concurrent judgements overlap.
    const model: LanguageModel = {
      ...app.model,
      kind: app.model.kind,
      capabilities: app.model.capabilities,
      modelName: (role) => app.model.modelName(role),
      streamText: (request) => app.model.streamText(request),
      embed: (texts, options) => app.model.embed(texts, options),
      generateObject: async (request) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        try {
          await new Promise((resolve) => setTimeout(resolve, 30));
          return await app.model.generateObject(request);
        } finally {
          inFlight -= 1;
        }
      },
    };
    const agent = new EvalAgent({ model, retriever: app.retrieval });
    const items: QuizItem[] = [FOB, DEADLINE, { ...FOB, answer: 0 }, { ...DEADLINE, answer: 0 }, FOB, DEADLINE, { ...FOB, answer: 3 }];
    const one: EvalVerdict[] = [];
    for (const item of items) one.push(await agent.judge(item, { materialId: material.id }));
    most = 0;
    const all = await agent.judgeAll(items, { materialId: material.id });
    expect(most).toBe(EVAL_CONCURRENCY);
    expect(all).toEqual(one);
    expect(await agent.judgeAll(items, { materialId: material.id })).toEqual(all);
    expect(all.map((verdict) => verdict.is_passed)).toEqual([true, true, false, false, true, true, false]);
    await expect(agent.judge(FOB, { materialId: 'no-such-material' })).rejects.toMatchObject({ code: 'MATERIAL_NOT_FOUND' });
  });
});

/** Seed 001's reply; `scores` in the order grounding, educational, insight. */
const reply = (scores: [number, number, number], isPassed: boolean, feedback = '자료와 일치합니다.'): FakeReply => ({
  json: { grounding_score: scores[0], educational_score: scores[1], insight_score: scores[2], is_passed: isPassed, feedback },
});

const isJudgement = (request: RecordedRequest) => request.action === 'generateContent' && promptOf(request).includes('<퀴즈_문항>');

describe.each(['memory', 'redis'] as const)('the EvalAgent with Gemini (%s store)', (store) => {
  /**
   * Judgement replies in order (the running test's script); embeddings by hash; the passage analyst is refused
   * (heuristic labels). One fake and one app serve the describe; each test starts from an empty request log.
   */
  let script: FakeReply[] = [];
  let fake: FakeGemini | undefined;
  beforeAll(async () => {
    fake = await FakeGemini.start({
      respond: (request) => {
        if (request.action === 'batchEmbedContents') {
          return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
        }
        if (isJudgement(request)) return script.shift() ?? { status: 400, message: 'eval fake: no reply left' };
        return { status: 400, message: `eval fake: not a judgement (${request.action})` };
      },
    });
  });
  const boot = sharedApp(store, () => ({ GEMINI_API_KEY: 'test', GEMINI_BASE_URL: fake?.baseUrl ?? '', GEMINI_MAX_ATTEMPTS: '1' }));
  afterAll(() => fake?.close());
  function gemini(testScript: FakeReply[]) {
    if (!fake) throw new Error('the fake Gemini is not started yet');
    const current = fake;
    script = testScript;
    current.requests.splice(0);
    return { fake: current, ...boot(), judgements: () => current.requests.filter(isJudgement) };
  }

  it('EV6 asks the judge model once at temperature 0.3 with the item and the five passages of its question; the server decides the pass', async () => {
    const { app, material, judgements } = gemini([reply([10, 8, 6], false, '  원본과 일치합니다.  ')]);
    const agent = new EvalAgent({ model: app.model, retriever: app.retrieval });
    const verdict = await agent.judge(DEADLINE, { materialId: material.id, topic: 'documents' });
    const expected = await app.retrieval.retrieve({ materialId: material.id, query: DEADLINE.question, k: 5 });
    expect(expected).toHaveLength(5);
    // 24 of 30 with a full grounding passes, whatever the model said.
    expect(verdict).toEqual({
      judged: true,
      grounding: 10,
      educational: 8,
      insight: 6,
      is_passed: true,
      feedback: '원본과 일치합니다.',
      passages: expected.map(({ chunkId, chapter, startPage, endPage }) => ({ chunkId, chapter, startPage, endPage })),
    });
    expect(judgements()).toHaveLength(1);
    const body = judgements()[0]?.body as { generationConfig?: { temperature?: number; responseJsonSchema?: { properties?: Record<string, unknown> } } };
    expect(body.generationConfig?.temperature).toBe(EVAL_TEMPERATURE);
    expect(EVAL_TEMPERATURE).toBe(0.3);
    expect(Object.keys(body.generationConfig?.responseJsonSchema?.properties ?? {})).toEqual([
      'grounding_score',
      'educational_score',
      'insight_score',
      'is_passed',
      'feedback',
    ]);
    const prompt = promptOf(judgements()[0] as RecordedRequest);
    expect(prompt).toContain('원본 자료 발췌문 5개와 대조해');
    for (const [index, passage] of expected.entries()) {
      expect(prompt).toContain(`발췌문 ${index + 1}:\n<자료_발췌>\n${passage.text}\n(${passage.chapter + 1}장 「${passage.chapterTitle}」`);
    }
    expect(prompt.match(/^<자료_발췌>$/gmu)).toHaveLength(5);
    expect(prompt).toContain(`<퀴즈_문항>\n${JSON.stringify(DEADLINE, null, 2)}\n</퀴즈_문항>`);
    expect(prompt).toContain('<출처>\ndocuments\n</출처>');
  });

  it('EV1 EV6 ignores the model\'s is_passed and clamps its scores', async () => {
    const { app, material } = gemini([reply([9, 10, 10], true), reply([12, -3, 30], true), reply([10, 10, 4], false), reply([10, 7, 6], true), reply([10, 12, 2], false)]);
    const agent = new EvalAgent({ model: app.model, retriever: app.retrieval });
    const verdicts = [];
    for (let round = 0; round < 5; round += 1) verdicts.push(await agent.judge(FOB, { materialId: material.id }));
    expect(verdicts.map((verdict) => verdict.judged && [verdict.grounding, verdict.educational, verdict.insight, verdict.is_passed])).toEqual([
      [9, 10, 10, false], // 29 of 30, grounding not full
      [10, 0, 10, false], // clamped: 20 of 30
      [10, 10, 4, true], // 24 of 30 exactly
      [10, 7, 6, false], // 23 of 30
      [10, 10, 2, false], // clamped 12 → 10: 22 of 30
    ]);
  });

  it('EV7 a reply that does not validate after the repair turn, a model error or the time limit is judged:false, never a pass', async () => {
    const { app, material, judgements } = gemini([
      { malformed: true },
      { malformed: true },
      { json: { grounding_score: '10', feedback: 3 } },
      { json: { grounding_score: '10', feedback: 3 } },
      { status: 500, message: 'internal' },
      { stallMs: 5_000 },
    ]);
    const agent = new EvalAgent({ model: app.model, retriever: app.retrieval, timeoutMs: 1_000 });
    const verdicts: EvalVerdict[] = [];
    for (let round = 0; round < 4; round += 1) verdicts.push(await agent.judge(FOB, { materialId: material.id }));
    expect(verdicts.map((verdict) => [verdict.judged, verdict.is_passed])).toEqual(Array.from({ length: 4 }, () => [false, false]));
    const reasons = verdicts.map((verdict) => (verdict.judged ? '' : verdict.reason));
    expect(reasons[0]).toMatch(/^MODEL_OUTPUT_INVALID/u);
    expect(reasons[1]).toMatch(/^MODEL_OUTPUT_INVALID/u);
    expect(reasons[2]).toMatch(/^MODEL_UNAVAILABLE/u);
    expect(reasons[3]).toBe('timed out after 1000 ms');
    // Reply and repair turn twice, then one call each.
    expect(judgements()).toHaveLength(6);
    for (const verdict of verdicts) expect(verdict.passages).toHaveLength(5);
  });
});
