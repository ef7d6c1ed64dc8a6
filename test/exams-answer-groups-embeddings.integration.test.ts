/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - AG11 — Grouped by the model's embeddings. On a model whose embeddings carry meaning (here the real Gemini
 *   adapter and SDK against the fake Gemini), `GET …/items/:questionId/groups` groups the answers by the cosine of
 *   the vectors the provider returns (`method: 'embeddings'`): two paraphrases that share no word are one group
 *   because their vectors are close, and two answers that share most words are apart because theirs are not.
 * - AG12 — A failed embedding call falls back to term vectors. When the provider's embeddings endpoint fails (500),
 *   the groups route still answers 200, grouped by term vectors (`method: 'terms'`).
 * - AG13 — Grouped by an OpenAI-compatible server's embeddings. On an app whose model is an OpenAI-compatible server
 *   (Ollama, vLLM: the real `openai` adapter and SDK against the fake), the groups follow the vectors its
 *   `/v1/embeddings` returns for the answers, as AG11 on Gemini; the answers go there in one batch, to the configured
 *   embedding model.
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { ExamAnswerGroupsReply } from '../src/protocol/exams.js';
import { bootExamClass, draft, end, gradedResults, join, makeExam, publish, submit, type Booted } from './support/exam-class.js';
import { embedEntries, fakeEmbedding, FakeGemini, type RecordedRequest } from './support/fake-gemini.js';
import { FakeOpenAI, type EmbeddingsBody, type RecordedRequest as OpenAIRequest } from './support/fake-openai.js';
import { call } from './support/http-call.js';
import { samplePdfBytes } from './support/lecture-client.js';

/**
 * AG11–AG12 (test/SPEC.md, "Exams: the teacher grades groups of answers"): four students answer item 2 (표본 평균이
 * 불편추정량인 이유) on an app whose model is Gemini, served by the fake; the fake answers the embedding of the
 * answers with vectors chosen here and grades the descriptive item with a fixed verdict.
 */

beforeAll(samplePdfBytes);

/** Two paraphrases with no word and no Hangul bigram in common: term vectors cannot join them. */
const SAME_MEANING = ['표본 평균의 기댓값이 모평균과 같기 때문이다', '치우침 없이 참값을 겨냥하니까'];
/** Two answers sharing most of their words, which term vectors join. */
const SHARED_WORDS = ['표본을 많이 뽑으면 분산이 작아진다', '표본이 많으면 분산이 작아지기 때문'];
const ANSWERS = [...SAME_MEANING, ...SHARED_WORDS];

/** Unit vectors chosen per answer: the paraphrases 0.95 apart in cosine, the shared-words pair orthogonal. */
function chosenVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const entries: [number, number][] =
    text === SAME_MEANING[0] ? [[0, 1]] : text === SAME_MEANING[1] ? [[0, 0.95], [1, Math.sqrt(1 - 0.95 * 0.95)]] : text === SHARED_WORDS[0] ? [[2, 1]] : [[3, 1]];
  for (const [index, value] of entries) vector[index] = value;
  return vector;
}

/** A batch of the students' answers (the grouping's call), not the material's passages. */
const isAnswerBatch = (request: RecordedRequest) => {
  const entries = embedEntries(request.body);
  return entries.length > 0 && entries.every((entry) => ANSWERS.includes(entry.text));
};

async function bootOnGemini(context: TestContext, embeddings: 'chosen' | 'failing') {
  const fake = await FakeGemini.start({
    respond: (request) => {
      if (request.action === 'batchEmbedContents') {
        if (!isAnswerBatch(request)) return { embeddings: embedEntries(request.body).map((entry) => fakeEmbedding(entry.text, entry.outputDimensionality)) };
        if (embeddings === 'failing') return { status: 500, message: 'embeddings down' };
        return { embeddings: embedEntries(request.body).map((entry) => chosenVector(entry.text, entry.outputDimensionality ?? 3072)) };
      }
      if (JSON.stringify(request.body).includes('학생_답변')) {
        return { json: { result_status: 'Partial_Correct', related_topic: '불편추정량', feedback_message: '근거를 한 줄 더 쓰세요.' } };
      }
      return { status: 400, message: 'groups fake: no reply for this request' };
    },
  });
  context.onTestFinished(() => fake.close());
  const booted = await bootExamClass(context, 'memory', () => '', { GEMINI_API_KEY: 'test', GEMINI_BASE_URL: fake.baseUrl, GEMINI_MAX_ATTEMPTS: '1' });
  return { fake, booted };
}

/** The texts of an OpenAI embeddings request (`input` is one string or a list). */
function inputsOf(request: OpenAIRequest): string[] {
  const input = (request.body as EmbeddingsBody | undefined)?.input ?? [];
  return typeof input === 'string' ? [input] : input;
}

const isOpenAIAnswerBatch = (request: OpenAIRequest) =>
  request.endpoint === 'embeddings' && inputsOf(request).length > 0 && inputsOf(request).every((text) => ANSWERS.includes(text));

async function bootOnOpenAI(context: TestContext) {
  const fake = await FakeOpenAI.start({
    respond: (request) => {
      if (request.endpoint === 'embeddings') {
        const dimensions = (request.body as EmbeddingsBody).dimensions ?? 768;
        const chosen = isOpenAIAnswerBatch(request);
        return { embeddings: inputsOf(request).map((text) => (chosen ? chosenVector(text, dimensions) : fakeEmbedding(text, dimensions))) };
      }
      if (JSON.stringify(request.body).includes('학생_답변')) {
        return { json: { result_status: 'Partial_Correct', related_topic: '불편추정량', feedback_message: '근거를 한 줄 더 쓰세요.' } };
      }
      return { status: 400, message: 'groups fake: no reply for this request' };
    },
  });
  context.onTestFinished(() => fake.close());
  const booted = await bootExamClass(context, 'memory', () => '', {
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_MODEL: 'local-chat',
    OPENAI_EMBEDDING_MODEL: 'local-embed',
    OPENAI_MAX_ATTEMPTS: '1',
  });
  return { fake, booted };
}

async function fourStudents(booted: Booted) {
  const exam = await makeExam(booted);
  await publish(booted, exam.examId);
  for (const [index, text] of ANSWERS.entries()) {
    const student = await join(booted, `학생${index + 1}`);
    await draft(booted, exam.examId, student.headers, { 1: '분산', 2: text, 3: '표준편차' });
    await submit(booted, exam.examId, student.headers);
  }
  await end(booted, exam.examId);
  await gradedResults(booted, exam.examId, ANSWERS.length);
  return `${booted.app.url}/api/exams/${exam.examId}/items/2/groups`;
}

async function groupsOf(booted: Booted, url: string): Promise<ExamAnswerGroupsReply> {
  const reply = await call(url, 'GET', { headers: booted.teacher.bearer });
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body as ExamAnswerGroupsReply;
}

const textsOf = (reply: ExamAnswerGroupsReply) => reply.groups.map((group) => group.answers.map((answer) => answer.text).sort()).sort();

/** The groups follow the chosen vectors; returns the texts of the first answer batch the provider received. */
async function groupedByVectors(booted: Booted, batches: () => string[][]): Promise<string[]> {
  const reply = await groupsOf(booted, await fourStudents(booted));
  expect(reply.method).toBe('embeddings');
  expect(textsOf(reply)).toEqual([[...SAME_MEANING].sort(), [SHARED_WORDS[0]], [SHARED_WORDS[1]]].sort());
  // The vectors came from the provider over its wire: a batch of exactly the four answers.
  expect(batches().length).toBeGreaterThanOrEqual(1);
  return [...(batches()[0] ?? [])].sort();
}

describe('answer groups on a model with embeddings (fake Gemini and fake OpenAI-compatible server, real SDKs)', () => {
  it('AG11 the groups follow the provider\'s vectors: paraphrases with no shared word together, a shared-words pair apart', async (context) => {
    const { fake, booted } = await bootOnGemini(context, 'chosen');
    const batch = await groupedByVectors(booted, () => fake.requests.filter(isAnswerBatch).map((request) => embedEntries(request.body).map((entry) => entry.text)));
    expect(batch).toEqual([...ANSWERS].sort());
  });

  it('AG13 on an OpenAI-compatible server the groups follow the vectors of its /v1/embeddings, as on Gemini', async (context) => {
    const { fake, booted } = await bootOnOpenAI(context);
    const batch = await groupedByVectors(booted, () => fake.requests.filter(isOpenAIAnswerBatch).map(inputsOf));
    expect(batch).toEqual([...ANSWERS].sort());
    // Asked of the configured embedding model, not the chat model.
    expect(fake.requests.filter(isOpenAIAnswerBatch).map((request) => request.model)).toContain('local-embed');
    expect(fake.requests.filter(isOpenAIAnswerBatch).every((request) => request.model === 'local-embed')).toBe(true);
  });

  it('AG12 an embeddings failure (500) falls back to term vectors: the request answers 200, grouped by shared words', async (context) => {
    const { fake, booted } = await bootOnGemini(context, 'failing');
    const url = await fourStudents(booted);
    const reply = await groupsOf(booted, url);
    expect(reply.method).toBe('terms');
    expect(textsOf(reply)).toEqual([[SAME_MEANING[0]], [SAME_MEANING[1]], [...SHARED_WORDS].sort()].sort());
    expect(fake.requests.filter(isAnswerBatch).length).toBeGreaterThanOrEqual(1);
  });
});
