import type { LanguageModel } from '../../src/llm/model.js';
import { embedEntries, fakeEmbedding, fakeGeminiModel, FakeGemini, type FakeReply, type RecordedRequest } from './fake-gemini.js';
import { fakeOpenAIModel, FakeOpenAI } from './fake-openai.js';
import { geminiShaped, openaiScript } from './openai-scripts.js';
import { promptOf } from './lecture-gemini.js';

/**
 * A fake Gemini for exam generation (seed 000), through the real SDK: each agent is told apart by its prompt (the
 * seed's role line), and a test scripts each agent's n-th reply (1-based) from its prompt. Embeddings by hash;
 * anything else (the ingest's passage analyst) is refused, so passages get heuristic labels. `hold(agent, n)` may
 * hold a reply back until the returned promise settles (or forever).
 */

export type ExamAgent = 'plan' | 'write' | 'validate';

const MARKERS: Record<ExamAgent, string> = {
  plan: 'You are the **Agent_ShortAnswerPlanner**',
  write: 'You are the **Agent_ShortAnswerWriter**',
  validate: 'You are the **Agent_ShortAnswerValidator**',
};

export const agentOf = (request: RecordedRequest): ExamAgent | undefined =>
  request.action === 'generateContent' ? (Object.keys(MARKERS) as ExamAgent[]).find((agent) => promptOf(request).includes(MARKERS[agent])) : undefined;

/** The text inside `<tag>…</tag>` of a prompt. */
export function fenced(prompt: string, tag: string): string {
  return new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`, 'u').exec(prompt)?.[1] ?? '';
}

export interface ExamScript {
  plan?: (n: number, prompt: string) => unknown;
  write: (n: number, prompt: string) => unknown;
  validate: (n: number, prompt: string) => unknown;
  hold?: (agent: ExamAgent, n: number) => Promise<unknown> | undefined;
}

export interface ExamGemini {
  fake: FakeGemini;
  calls(agent: ExamAgent): string[];
}

export const PLAN = {
  planning_strategy: '용어 인출 단답형 2문항과 인과 설명 서술형 1문항으로 구성함.',
  planned_items: [
    { id: 1, target_topic: '기댓값', question_type: 'Short_Keyword', intent_type: 'Definition', complexity_level: 'Basic', source_reference_hint: '[1] 기댓값의 정의' },
    { id: 2, target_topic: '대수의 법칙', question_type: 'Descriptive', intent_type: 'Causal_Explanation', complexity_level: 'Intermediate', source_reference_hint: '[1] 표본평균이 기댓값에 가까워지는 이유' },
    { id: 3, target_topic: '표본평균', question_type: 'Short_Keyword', intent_type: 'Recall', complexity_level: 'Basic', source_reference_hint: '[1] 표본의 평균' },
  ],
};

export const ITEM = {
  1: { id: 1, type: 'Short_Keyword', question_content: '값에 그 확률을 곱해 모두 더한 값을 무엇이라 하는가?', model_answer: '기댓값', key_keywords: ['기댓값/Expected value'], intent_diagnosis: '기댓값의 정의를 인출하는지 확인합니다.' },
  2: { id: 2, type: 'Descriptive', question_content: '대수의 법칙을 설명하시오.', model_answer: '표본평균은 기댓값에 가까워진다.', key_keywords: ['표본평균'], intent_diagnosis: '대수의 법칙을 이해하는지 평가합니다.' },
  '2b': {
    id: 2,
    type: 'Descriptive',
    question_content: '표본의 크기 n이 커질 때 표본평균이 어떻게 되는지 대수의 법칙으로 설명하시오.',
    model_answer: 'n이 커질수록 표본평균은 기댓값 μ에 가까워진다. 이는 많은 반복의 평균에 대한 약속이다.',
    key_keywords: ['표본평균', '기댓값', 'n이 커질수록'],
    intent_diagnosis: '대수의 법칙의 조건과 결론을 서술할 수 있는지 평가합니다.',
  },
  3: { id: 3, type: 'Short_Keyword', question_content: '모집단에서 뽑은 표본의 평균을 무엇이라 하는가?', model_answer: '표본평균', key_keywords: ['표본평균'], intent_diagnosis: '표본평균 용어를 인출하는지 확인합니다.' },
} as const;

export const set = (...items: unknown[]) => ({ short_answer_problems: items });

/** Answers an exam request (Gemini-shaped) from the script, counting each agent's calls. */
function examResponder(script: ExamScript): (request: RecordedRequest) => FakeReply | { gate: Promise<unknown>; reply: FakeReply } {
  const counts: Record<ExamAgent, number> = { plan: 0, write: 0, validate: 0 };
  return (request) => {
    if (request.action === 'batchEmbedContents') {
      return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
    }
    const agent = agentOf(request);
    if (agent === undefined) return { status: 400, message: 'exam fake: not an exam request' };
    counts[agent] += 1;
    const n = counts[agent];
    const prompt = promptOf(request);
    const json = agent === 'plan' ? (script.plan ?? (() => PLAN))(n, prompt) : agent === 'write' ? script.write(n, prompt) : script.validate(n, prompt);
    const reply: FakeReply = { json };
    const gate = script.hold?.(agent, n);
    return gate ? { gate, reply } : reply;
  };
}

export async function startExamGemini(script: ExamScript): Promise<ExamGemini> {
  const fake = await FakeGemini.start({ respond: examResponder(script) });
  return { fake, calls: (agent) => fake.requests.filter((request) => agentOf(request) === agent).map(promptOf) };
}

/** The exam agents' fake on either provider, through its real SDK (`hold` is Gemini's only). */
export interface ExamProvider {
  readonly name: 'gemini' | 'openai';
  model(): LanguageModel;
  calls(agent: ExamAgent): string[];
  close(): Promise<void>;
}

export async function startExamProvider(name: 'gemini' | 'openai', script: ExamScript): Promise<ExamProvider> {
  if (name === 'gemini') {
    const gemini = await startExamGemini(script);
    return { name, model: () => fakeGeminiModel(gemini.fake), calls: gemini.calls, close: () => gemini.fake.close() };
  }
  const { hold: _hold, ...withoutHold } = script;
  const respond = examResponder(withoutHold);
  const fake = await FakeOpenAI.start({ respond: openaiScript((request) => respond(request) as FakeReply) });
  const shaped = () => fake.chats.map(geminiShaped);
  return {
    name,
    model: () => fakeOpenAIModel(fake),
    calls: (agent) => shaped().filter((request) => agentOf(request) === agent).map(promptOf),
    close: () => fake.close(),
  };
}
