/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - L1 — Exact text. For every chapter, the concatenation of the `lecture:delta` texts a student receives equals the
 *   chapter's generated lecture with every `[질문] … [\질문]` (or `[/질문]`) question removed …
 * - L2 — Questions pause. At a question the stream stops and `lecture:question {questionId, chapter, text}` is sent
 *   with the markers removed and the text trimmed …
 * - L3 — Good path. A good answer gets `tutor:verdict {verdict:"good"}`, then a streamed reply of kind `supplement`
 *   (`tutor:reply-start/delta/end`), then the lecture continues right after the question.
 * - L4 — Bad path. A bad answer gets `tutor:verdict {verdict:"bad"}`, then 2–3 `tutor:subquestion`s, one at a time,
 *   with `index` 1..`total` in order, each waiting for its `answer:submit` …
 * - L5 — Framing. Chapters stream in order, each between `lecture:chapter-start` and `lecture:chapter-end`;
 *   `lecture:end` comes once, last.
 * - L6 — Seq. Every server event of a session carries `seq`, and a client that receives everything sees 1, 2, 3, …
 *   with no gap and no repeat.
 * - L11 — Gemini writer. With Gemini, the lecture writer's request carries the chapter's PDF slice (`inlineData`,
 *   `application/pdf`, the chapter's pages) before the prompt …
 * - L12 — Model failure. When the model fails mid-stream and retries are exhausted, the student gets the text
 *   generated so far, then `session:error {code:"MODEL_UNAVAILABLE"}`, and the session pauses.
 */
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { FakeGemini } from './support/fake-gemini.js';
import { joinLecture, loadSample, samplePdfBytes } from './support/lecture-client.js';
import {
  bodyOf,
  chapterOf,
  chunk,
  cutsAMarker,
  isLectureContinue,
  isLectureWrite,
  lectureGemini,
  promptOf,
  rawLecture,
  SCRIPTED_CHAPTERS,
  type LectureGeminiOptions,
} from './support/lecture-gemini.js';
import { expectScriptedLecture, expectScriptedTutoring, mixedStudent } from './support/lecture-scenario.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { startTestApp } from './support/test-app.js';

/**
 * The lecture on Gemini through the real SDK, against a fake Gemini HTTP server speaking the real wire format:
 * lectures streamed as SSE with markers cut across chunks and the body cut through UTF-8 sequences; tutor replies
 * as JSON for the requested schema. Rule ids: test/SPEC.md.
 */

beforeAll(async () => {
  await samplePdfBytes();
});

async function boot(
  context: TestContext,
  options: { store: 'memory' | 'redis'; gemini?: LectureGeminiOptions; env?: Record<string, string> },
) {
  // Cleanups run in reverse order: the app first, then Redis and the fake it talks to.
  const fake = await FakeGemini.start({ respond: lectureGemini(options.gemini) });
  context.onTestFinished(() => fake.close());
  let redis: RedisServer | undefined;
  if (options.store === 'redis') {
    // A fresh Redis: Gemini lectures are cached by (material, chapter, prompt, model name), and every test scripts
    // a different lecture under the same model name.
    redis = await startRedisServer();
    context.onTestFinished(() => redis?.stop());
  }
  const app = await startTestApp({
    GEMINI_API_KEY: 'test',
    GEMINI_BASE_URL: fake.baseUrl,
    ...(redis ? { REDIS_URL: redis.url } : {}),
    ...options.env,
  });
  context.onTestFinished(() => app.stop());
  const material = await loadSample(app);
  expect(material.chapters.map((chapter) => chapter.title)).toEqual(SCRIPTED_CHAPTERS.map((chapter) => chapter.title));
  return { fake, app, material };
}

describe.concurrent.each(['memory', 'redis'] as const)('a whole lecture on the fake Gemini (%s store)', (store) => {
  it('L1 L2 L3 L4 L5 L6 L11: streams SSE lectures with split markers, tutors both paths, ends', async (context) => {
    for (const script of SCRIPTED_CHAPTERS) expect(cutsAMarker(chunk(rawLecture(script)))).toBe(true);
    const { fake, app, material } = await boot(context, { store });
    const { client } = await joinLecture(app, material.id, { policy: mixedStudent() });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForEvent('lecture:end');

    await expectScriptedLecture(app, material, client);
    expectScriptedTutoring(client);

    // TJ5: every model answer is written from the passages the Retriever found in the material, not from nothing.
    const modelAnswers = fake.requests.filter((request) => 'keyPoints' in (bodyOf(request).generationConfig?.responseJsonSchema?.properties ?? {}));
    expect(modelAnswers.length).toBeGreaterThan(0);
    for (const request of modelAnswers) {
      const excerpt = /<자료_발췌>\n([\s\S]*?)\n<\/자료_발췌>/u.exec(promptOf(request))?.[1] ?? '';
      expect(excerpt.length).toBeGreaterThan(100);
      expect(excerpt).not.toContain('관련된 발췌가 없습니다');
    }

    // L11: one writer call per chapter, each carrying that chapter's PDF slice before the prompt.
    const writes = fake.requests.filter(isLectureWrite);
    expect(writes).toHaveLength(material.chapters.length);
    expect(fake.requests.filter(isLectureContinue)).toHaveLength(0);
    for (const chapter of material.chapters) {
      const request = writes.find((candidate) => chapterOf(candidate) === chapter.index);
      const parts = bodyOf(request ?? fake.requests[0]!).contents?.[0]?.parts ?? [];
      const file = parts[0]?.inlineData;
      expect(file?.mimeType).toBe('application/pdf');
      const pdf = await PDFDocument.load(Buffer.from(file?.data ?? '', 'base64'));
      expect(pdf.getPageCount()).toBe(chapter.endPage - chapter.startPage + 1);
      expect(parts.at(-1)?.text).toContain('강의를 작성하세요');
    }
  });
});

describe('a model failure mid-stream', () => {
  it('L12: the student gets MODEL_UNAVAILABLE, and lecture:resume continues the lecture from the text already written', async (context) => {
    let failures = 0;
    const { fake, app, material } = await boot(context, {
      store: 'memory',
      env: { GEMINI_MAX_ATTEMPTS: '1' },
      gemini: {
        writer: (chapter, raw) => {
          if (chapter !== 0 || failures > 0) return { stream: chunk(raw), splitBytes: true };
          failures += 1;
          // About 75 characters arrive, then the stream breaks (no retry: GEMINI_MAX_ATTEMPTS=1, and text was sent).
          return { stream: chunk(raw), streamError: { afterChunks: 10, code: 503 } };
        },
      },
    });
    const { client } = await joinLecture(app, material.id, { policy: () => '모든 값을 더한 다음 값의 개수로 나누면 됩니다.' });
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');

    const error = await client.waitForEvent('session:error');
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toMatch(/[가-힣]/);
    const shownBeforeFailure = client.text.get(0) ?? '';
    expect(shownBeforeFailure).toBe(chunk(rawLecture(SCRIPTED_CHAPTERS[0]!)).slice(0, 10).join(''));
    expect(await app.lectures.repository.load(client.sessionId)).toMatchObject({ state: { kind: 'paused', reason: 'error' } });

    expect(await client.ok('lecture:resume')).toMatchObject({ state: 'streaming' });
    await client.waitForEvent('lecture:end');

    expect(client.all('session:error')).toHaveLength(1);
    await expectScriptedLecture(app, material, client);
    // The second attempt continued after the text already written instead of starting over.
    const continued = fake.requests.filter(isLectureContinue);
    expect(continued).toHaveLength(1);
    expect(JSON.stringify(continued[0]?.body)).toContain(JSON.stringify(shownBeforeFailure).slice(1, -1));
    expect(fake.requests.filter(isLectureWrite)).toHaveLength(material.chapters.length);
  });
});
