import { embedEntries, fakeEmbedding, FakeGemini, type FakeReply, type RecordedRequest } from './fake-gemini.js';
import { promptOf } from './lecture-gemini.js';

/**
 * A fake Gemini for math problem jobs (seed 002), through the real SDK: the writer answers every writing request with
 * one fresh problem per slot of the plan it is asked for ("객관식(multiple_choice) easy 2문제, …"), numbered
 * "문제 N호"; the judge scores each problem by `judge(question)` (one batch reply, or one reply per problem);
 * embeddings by hash; anything else (the ingest's passage analyst) is refused, so passages get heuristic labels.
 * `hold(write)` may hold a writing reply back (a gate), e.g. to stall an attempt until a node is stopped.
 */

export const isMathWrite = (request: RecordedRequest) => request.action === 'generateContent' && promptOf(request).includes('<이미_낸_문제>');
export const isMathJudgement = (request: RecordedRequest) => request.action === 'generateContent' && promptOf(request).includes('<수학_문제>');

/** The slots a writing request asks for, in order. */
export function plannedSlots(request: RecordedRequest): { type: string; difficulty: string }[] {
  const plan = /문제 구성 \(이 순서로\): ([^\n]*)/u.exec(promptOf(request))?.[1] ?? '';
  return [...plan.matchAll(/\((multiple_choice|short_answer)\) (easy|medium|hard) (\d+)문제/gu)].flatMap((match) =>
    Array.from({ length: Number(match[3]) }, () => ({ type: match[1] as string, difficulty: match[2] as string })),
  );
}

export const PASSING_SCORES = { mathematical_accuracy: 5, consistency: 5, completeness: 4, logic_flow: 4 };
export const FAILING_SCORES = { mathematical_accuracy: 4, consistency: 2, completeness: 4, logic_flow: 4 };

export interface MathGeminiOptions {
  /** Whether the judge passes a problem (by its question); all pass by default. */
  passes?: (question: string) => boolean;
  /** The question of the n-th problem written (1-based); `문제 n호: …` by default. */
  question?: (n: number, type: string) => string;
  /** Holds the n-th writing request's reply (1-based) back until the returned promise settles. */
  hold?: (write: number) => Promise<unknown> | undefined;
}

export interface MathGemini {
  fake: FakeGemini;
  writes(): RecordedRequest[];
  judgements(): RecordedRequest[];
}

export async function startMathGemini(options: MathGeminiOptions = {}): Promise<MathGemini> {
  let written = 0;
  let writes = 0;
  const passes = options.passes ?? (() => true);
  const question = options.question ?? ((n: number, type: string) => `문제 ${n}호: $X$가 1, 2, 3을 같은 확률로 가질 때 $E[X]$는? (${type})`);
  const write = (request: RecordedRequest): FakeReply => {
    const problems = plannedSlots(request).map(({ type, difficulty }) => {
      written += 1;
      const text = question(written, type);
      return type === 'multiple_choice'
        ? { type, question: text, choices: ['1', '2', '3', '\\frac{5}{2}'], correct_answer: 'B', explanation: '$E[X] = \\frac{1+2+3}{3}$\n$= 2$', final_answer: '2', difficulty, sources: [1] }
        : { type, question: text, choices: [], correct_answer: '\\frac{7}{2}', explanation: '$E[X] = \\frac{1+2+3+4+5+6}{6}$\n$= 3.5$', final_answer: '3.5', difficulty, sources: [1] };
    });
    return { json: { problems } };
  };
  const judge = (request: RecordedRequest): FakeReply => {
    const questions = [...promptOf(request).matchAll(/<수학_문제>\n[^\n]*\nquestion: ([^\n]*)/gu)].map((match) => match[1] ?? '');
    const verdicts = questions.map((text) => ({
      ...(passes(text) ? PASSING_SCORES : FAILING_SCORES),
      feedback: passes(text) ? '풀이와 정답이 일치합니다.' : '풀이의 답과 정답이 다릅니다.',
    }));
    if (questions.length === 1) return { json: verdicts[0] };
    return { json: { results: verdicts.map((verdict, index) => ({ index: index + 1, ...verdict })) } };
  };
  const fake = await FakeGemini.start({
    respond: (request) => {
      if (request.action === 'batchEmbedContents') {
        return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
      }
      if (isMathJudgement(request)) return judge(request);
      if (isMathWrite(request)) {
        writes += 1;
        const reply = write(request);
        const gate = options.hold?.(writes);
        return gate ? { gate, reply } : reply;
      }
      return { status: 400, message: 'math fake: not a math request' };
    },
  });
  return { fake, writes: () => fake.requests.filter(isMathWrite), judgements: () => fake.requests.filter(isMathJudgement) };
}
