/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - OA7 — Flows. The scripted lecture (L1–L6, L12), raise-hand dialogue (H1–H4, H10), QuizAgent and quiz generation
 *   over HTTP pass on the fake OpenAI-compatible server as on the fake Gemini …
 */
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { chatBody, FakeOpenAI, type FakeOpenAIOptions } from './support/fake-openai.js';
import { joinLecture, loadSample, samplePdfBytes } from './support/lecture-client.js';
import { chapterOf, chunk, isLectureContinue, isLectureWrite, lectureGemini, rawLecture, SCRIPTED_CHAPTERS, type LectureGeminiOptions } from './support/lecture-gemini.js';
import { expectScriptedLecture, expectScriptedTutoring, mixedStudent } from './support/lecture-scenario.js';
import { geminiShaped, openaiScript } from './support/openai-scripts.js';
import { startTestApp } from './support/test-app.js';

/**
 * The lecture on an OpenAI-compatible server through the real `openai` SDK, against the fake server speaking the
 * real wire format: the same scripted lecture as lecture-gemini.integration (SSE chunks with markers cut across
 * them, the body cut through UTF-8 sequences; tutor replies as JSON for the requested schema), the same student and
 * the same expectations. Rule ids: test/SPEC.md.
 */

beforeAll(async () => {
  await samplePdfBytes();
});

async function boot(context: TestContext, options: { server?: FakeOpenAIOptions; script?: LectureGeminiOptions; env?: Record<string, string> } = {}) {
  const fake = await FakeOpenAI.start({ ...options.server, respond: openaiScript(lectureGemini(options.script)) });
  context.onTestFinished(() => fake.close());
  const app = await startTestApp({
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_MODEL: 'local-chat',
    OPENAI_EMBEDDING_MODEL: 'local-embed',
    ...options.env,
  });
  context.onTestFinished(() => app.stop());
  const material = await loadSample(app);
  return { fake, app, material };
}

describe.concurrent.each([
  ['json_schema', 'supported'],
  ['json_object fallback', 'rejected'],
] as const)('a whole lecture on an OpenAI-compatible server (%s)', (_name, jsonSchema) => {
  it('OA7 L1 L2 L3 L4 L5 L6: streams SSE lectures with split markers from the text path, tutors both paths, ends', async (context) => {
    const { fake, app, material } = await boot(context, { server: { jsonSchema } });
    const { client } = await joinLecture(app, material.id, { policy: mixedStudent() });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForEvent('lecture:end');

    await expectScriptedLecture(app, material, client);
    expectScriptedTutoring(client);

    // One writer call per chapter, text only: the chapter's extracted text is in the prompt, no file is attached.
    const writes = fake.chats.filter((request) => isLectureWrite(geminiShaped(request)));
    expect(writes).toHaveLength(material.chapters.length);
    for (const request of writes) {
      const body = chatBody(request);
      expect(body.model).toBe('local-chat');
      expect(body.stream).toBe(true);
      expect(body.messages?.every((message) => typeof message.content === 'string')).toBe(true);
      expect(chapterOf(geminiShaped(request))).toBeGreaterThanOrEqual(0);
    }
    const structured = fake.chats.filter((request) => !request.stream).map((request) => chatBody(request).response_format?.type);
    expect(structured.length).toBeGreaterThan(0);
    // With a server that refuses json_schema only the first structured call asks for it; JSON mode from then on.
    expect(structured.filter((type) => type === 'json_schema')).toHaveLength(jsonSchema === 'supported' ? structured.length : 1);
  });
});

describe('a model failure mid-stream on an OpenAI-compatible server', () => {
  it('OA7 L12: the student gets MODEL_UNAVAILABLE, and lecture:resume continues from the text already written', async (context) => {
    let failures = 0;
    const { fake, app, material } = await boot(context, {
      env: { OPENAI_MAX_ATTEMPTS: '1' },
      script: {
        writer: (chapter, raw) => {
          if (chapter !== 0 || failures > 0) return { stream: chunk(raw), splitBytes: true };
          failures += 1;
          return { stream: chunk(raw), streamError: { afterChunks: 10, code: 503 } };
        },
      },
    });
    const { client } = await joinLecture(app, material.id, { policy: () => '모든 값을 더한 다음 값의 개수로 나누면 됩니다.' });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');

    const error = await client.waitForEvent('session:error');
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    const shownBeforeFailure = client.text.get(0) ?? '';
    expect(shownBeforeFailure).toBe(chunk(rawLecture(SCRIPTED_CHAPTERS[0]!)).slice(0, 10).join(''));

    expect(await client.ok('lecture:resume')).toMatchObject({ state: 'streaming' });
    await client.waitForEvent('lecture:end');
    await expectScriptedLecture(app, material, client);
    expect(fake.chats.filter((request) => isLectureContinue(geminiShaped(request)))).toHaveLength(1);
  });
});
