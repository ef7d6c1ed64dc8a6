/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - GD19 — Math problems. A math problem whose explanation is a placeholder or restates its question is refused
 *   (`check: 'guard'`) before any judge call; a sound one goes on to the judge.
 * - GD15 — On every model. On the fake Gemini and the fake OpenAI-compatible server, a quiz reply with bad items (a
 *   question about the medium, an adverb blank) has them refused, reported …
 * - GD16 — Counted. Refusals are counted per agent and rule in the AI 품질 console's summary (`refusals`), for everyone
 *   and for the account billed.
 * - GD17 — Front matter is never a passage. The retrieval index leaves out a cover, an agenda and a closing line;
 *   passages keep their page numbers.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGuardReport, type GuardRefusal } from '../src/guard/index.js';
import { QualityRepository } from '../src/quality/index.js';
import { generateQuiz } from '../src/quiz/quiz-agent.js';
import { chunkMaterial } from '../src/retrieval/chunker.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { startScriptedProvider, type ScriptedProvider } from './support/openai-scripts.js';
import { QUIZ_MATERIAL, quizMaterials, quizRetriever } from './support/quiz-material.js';

/**
 * GD15–GD17 (test/SPEC.md "Item guard"): the guard on a network model's path — a model that returns bad items gets
 * them refused, reported and written again with the refusal as feedback — the refusals counted in the AI 품질
 * console, and front matter never indexed for any generator to read.
 */

describe.each(['gemini', 'openai'] as const)('GD15 the item guard on %s', (provider) => {
  let fake: ScriptedProvider;
  beforeEach(async () => {
    fake = await startScriptedProvider(provider);
  });
  afterEach(async () => {
    await fake.close();
  });

  let counter = 0;
  const good = (difficulty: string) => {
    counter += 1;
    return {
      question: `${counter}번: 기댓값을 구하는 방법으로 옳은 것은?`,
      choices: ['값에 확률을 곱해 모두 더한다', '가장 큰 값을 고른다', '가운데 값을 고른다', '값을 모두 곱한다'],
      answer: 0,
      explanation: '기댓값은 X가 가질 수 있는 값에 그 확률을 곱해 모두 더한 값입니다.',
      difficulty,
      sources: [1],
    };
  };

  it('refuses a question about the medium and an adverb blank, reports them, and asks again for those slots with the reasons', async () => {
    const medium = { ...good('easy'), question: '강의에 대해 옳은 설명은?' };
    const adverb = {
      question: '다음 빈칸에 들어갈 말로 알맞은 것은? 「복권을 많이 살수록 한 장에 ____ 600원씩 잃게 됩니다.」',
      choices: ['평균', '분산', '중앙값', '최빈값'],
      answer: 0,
      explanation: '자료의 원문은 「복권을 많이 살수록 한 장에 평균 600원씩 잃게 됩니다.」입니다.',
      difficulty: 'easy',
      sources: [1],
    };
    fake.enqueue({ json: { items: [medium, adverb, good('medium'), good('medium'), good('hard')] } });
    const rewritten = [good('easy'), good('easy')];
    fake.enqueue({ json: { items: rewritten } });
    const refused: GuardRefusal[] = [];
    const guard = createGuardReport({ count: async (entries) => void refused.push(...entries) });
    const { items } = await generateQuiz({ model: fake.model({ maxAttempts: 1 }), materials: quizMaterials(), retriever: quizRetriever(), materialId: QUIZ_MATERIAL.id, guard });

    expect(items).toHaveLength(5);
    const questions = items.map((item) => item.question);
    expect(questions).not.toContain(medium.question);
    expect(questions).not.toContain(adverb.question);
    expect(questions).toEqual(expect.arrayContaining(rewritten.map((item) => item.question)));
    expect(refused.map((entry) => [entry.agent, entry.rule])).toEqual([
      ['quiz.generate', 'medium-question'],
      ['quiz.generate', 'cloze-blank-word'],
    ]);
    // The second round asks only for the two refused slots, telling the model why.
    const requests = fake.requests();
    expect(requests).toHaveLength(2);
    const body = requests[1]?.body as { contents: { parts: { text?: string }[] }[] } | undefined;
    const prompt = body?.contents[0]?.parts.at(-1)?.text ?? '';
    expect(prompt).toContain('[검사]');
    expect(prompt).toContain('부사 자리');
  });
});

describe('GD16 the AI 품질 console counts refusals per agent and rule', () => {
  it('shows them in the summary of everyone and of the account billed', async () => {
    const store = new MemoryStore();
    const repository = new QualityRepository({ store, retentionMs: 86_400_000, queueMax: 10 });
    let counted: Promise<void> = Promise.resolve();
    const guard = createGuardReport({ count: (refusals) => (counted = repository.countRefusals(refusals)) });
    guard.refused([
      { agent: 'quiz.generate', rule: 'cloze-blank-word', reason: '…', item: 'q1', accountId: 'acct-1' },
      { agent: 'quiz.generate', rule: 'cloze-blank-word', reason: '…', item: 'q2' },
      { agent: 'exam.write', rule: 'placeholder', reason: '…', item: 'q3', accountId: 'acct-1' },
    ]);
    await counted;
    const all = await repository.summary({ kind: 'all' }, 7);
    expect(Object.fromEntries(all.map((agent) => [agent.agent, agent.refusals]))).toEqual({
      'quiz.generate': { 'cloze-blank-word': 2 },
      'exam.write': { placeholder: 1 },
    });
    const own = await repository.summary({ kind: 'account', accountId: 'acct-1' }, 7);
    expect(Object.fromEntries(own.map((agent) => [agent.agent, agent.refusals]))).toEqual({ 'quiz.generate': { 'cloze-blank-word': 1 }, 'exam.write': { placeholder: 1 } });
  });
});

describe('GD17 a cover, an agenda and a closing line are never a passage', () => {
  it('leaves them out of the retrieval index, pages keeping their numbers', () => {
    const chunks = chunkMaterial({
      pageTexts: [
        'CS 3600: Introduction to Artificial Intelligence\nLecture 3: Search and Optimization\nProf. Alan Reyes\nSchool of Computing, Spring 2025',
        'Outline\n• Search problems\n• Genetic algorithms',
        'A heuristic is a function that estimates the cost of the cheapest path from a state to a goal.\nNext lecture: adversarial search',
      ],
      chapters: [{ index: 0, title: 'Search', startPage: 1, endPage: 3 }],
    });
    const text = chunks.map((chunk) => chunk.text).join('\n');
    expect(text).toContain('A heuristic is a function');
    expect(text).not.toMatch(/Reyes|Outline|Spring 2025|Next lecture/u);
    expect(chunks[0]?.startPage).toBe(3);
  });
});

describe('GD19 math problems pass the item guard before the judge', () => {
  it('refuses a placeholder explanation and one that restates the question; a sound problem goes on to the judge', async () => {
    const { checkProblem } = await import('../src/math-problems/problem-checks.js');
    const base = { type: 'short_answer' as const, question: '$2x + 3 = 7$일 때 $x$의 값을 구하시오.', choices: [], correct_answer: '2', final_answer: '2', difficulty: 'easy' as const, sources: [1] };
    expect(checkProblem({ ...base, explanation: '핵심 개념' })).toMatchObject({ ok: false, check: 'guard' });
    expect(checkProblem({ ...base, explanation: '$2x + 3 = 7$일 때 $x$의 값을 구하시오.' })).toMatchObject({ ok: false, check: 'guard' });
    expect(checkProblem({ ...base, explanation: '양변에서 3을 빼면 $2x = 4$, 양변을 2로 나누면 $x = 2$입니다.' })).toMatchObject({ ok: true });
  });
});
