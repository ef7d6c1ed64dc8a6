import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Material } from '../src/materials/index.js';
import { episodes, generatedChapter, joinLecture, loadSample, offlineStudent, samplePdfBytes, type LectureClient } from './support/lecture-client.js';
import { expectedOfflineLecture } from './support/lecture-oracle.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A whole lecture of the sample material on the offline model, over real socket.io, on the memory store and on a
 * real Redis (a throwaway redis-server, so cached lectures of other runs cannot leak in). Rule ids: test/SPEC.md.
 */

const redis = suiteRedis();
beforeAll(samplePdfBytes);

async function boot(store: 'memory' | 'redis', context: TestContext): Promise<{ app: TestApp; material: Material }> {
  const app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url } : {});
  context.onTestFinished(() => app.stop());
  return { app, material: await loadSample(app) };
}

/** Checks L1–L6 on a finished lecture. */
async function expectWholeLecture(app: TestApp, material: Material, client: LectureClient): Promise<void> {
  expect(client.seqErrors).toEqual([]);
  expect(client.answerErrors).toEqual([]);
  const seqs = client.events.flatMap((event) => ('seq' in event.payload ? [event.payload.seq] : []));
  expect(seqs).toEqual(seqs.map((_, index) => index + 1));

  // L5: chapters in order, each framed by start/end, then lecture:end last.
  const frame = client.events
    .filter((event) => ['lecture:chapter-start', 'lecture:chapter-end', 'lecture:end'].includes(event.event))
    .map((event) => ('chapter' in event.payload ? `${event.event}:${event.payload.chapter}` : event.event));
  expect(frame).toEqual([...material.chapters.flatMap((chapter) => [`lecture:chapter-start:${chapter.index}`, `lecture:chapter-end:${chapter.index}`]), 'lecture:end']);
  expect(client.events.at(-1)?.event).toBe('lecture:end');

  for (const chapter of material.chapters) {
    // The oracle is the offline model's own lecture of the chapter, cut by the test (not by the product's parser).
    const expected = await expectedOfflineLecture(app, material, chapter.index);
    // The generator stored exactly what the model wrote.
    expect((await generatedChapter(app, material.id, chapter.index)).raw).toBe(expected.raw);
    // L1: no gap, no duplicate, no marker, no question text in the lecture stream.
    expect(client.text.get(chapter.index)).toBe(expected.text);
    expect(expected.questions.length).toBeGreaterThan(0);
    // L2: every question of the chapter is asked, in order, with its markers removed.
    expect(client.all('lecture:question').filter((question) => question.chapter === chapter.index).map((question) => question.text)).toEqual(
      expected.questions,
    );
  }
  expect([...client.text.values()].join('')).not.toMatch(/\[\/?\\?질문\]/);
}

// The two stores run side by side: the lecture's pace (200 tokens/s) leaves the CPU mostly idle.
describe.concurrent.each(['memory', 'redis'] as const)('a whole lecture on the offline model (%s store)', (store) => {
  it('L1 L2 L3 L4 L5 L6: streams every chapter, pauses at each question, takes the good and the bad path, ends', async (context) => {
    const { app, material } = await boot(store, context);
    // Odd questions are answered wrongly (bad path); even ones well (good path). Subquestion 2 is answered well,
    // the others wrongly, so both a remedial reply and a plain next subquestion occur.
    const { client } = await joinLecture(app, material.id, {
      policy: offlineStudent(app, material.id, (asked, ordinal) => (asked.parentQuestionId ? ordinal === 2 : ordinal % 2 === 0)),
    });
    expect(await client.ok('lecture:speed', { tokensPerSecond: 200 })).toEqual({ ok: true, speed: 200 });
    expect(await client.ok('lecture:start', {})).toMatchObject({ ok: true, state: 'streaming' });
    await client.waitForEvent('lecture:end');

    await expectWholeLecture(app, material, client);

    const asked = episodes(client.events);
    expect(asked.length).toBeGreaterThanOrEqual(material.chapters.length);
    for (const [index, episode] of asked.entries()) {
      const good = (index + 1) % 2 === 0;
      if (good) {
        // L3: verdict good -> supplement -> lecture continues; nothing streams between the question and the answer.
        expect(episode.shape, episode.questionId).toBe('answer verdict:good reply:supplement');
      } else {
        // L4: verdict bad -> subquestions 1..total in order, each answered; wrong ones get a remedial reply;
        // then the parent question again; then the supplement; then the lecture continues.
        const total = episode.subquestions.length;
        expect(total, episode.questionId).toBeGreaterThanOrEqual(2);
        expect(total).toBeLessThanOrEqual(3);
        const subs = episode.subquestions.map((sub, at) => {
          expect(sub).toMatchObject({ index: at + 1, total, parentQuestionId: episode.questionId, questionId: `${episode.questionId}.s${at + 1}` });
          expect(sub.text.length).toBeGreaterThan(0);
          expect(sub.concept.length).toBeGreaterThan(0);
          return at + 1 === 2 ? `sub${at + 1}/${total} answer verdict:good` : `sub${at + 1}/${total} answer verdict:bad reply:remedial`;
        });
        // SD13: the parent question is asked again before the supplement (this student misses it again).
        expect(episode.shape, episode.questionId).toBe(['answer verdict:bad', ...subs, 'reask answer verdict:bad', 'reply:supplement'].join(' '));
      }
      expect(episode.replies.every((reply) => reply.text.length > 0)).toBe(true);
      // The lecture goes on after the tutoring, never before it is over.
      expect(['lecture:delta', 'lecture:chapter-end']).toContain(episode.next);
    }
  });
});
