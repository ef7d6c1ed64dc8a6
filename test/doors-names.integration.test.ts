/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR15 — Invisible look-alikes. (`test/doors-names.integration.test.ts`, memory and Redis).
 */
import { describe, expect, it, type TestContext } from 'vitest';
import type { ClassInfo } from '../src/protocol/classroom.js';
import { Nickname } from '../src/protocol/display-name.js';
import { createClass, getJson, postJson } from './support/classroom-client.js';
import { loadSample } from './support/lecture-client.js';
import { createQuiz, createRoom, QuizClient } from './support/quiz-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** DR15 (test/SPEC.md): the invisible look-alikes the adversarial run got accepted, refused everywhere, on both stores. */

const redis = suiteRedis();
const INVISIBLE = '보이지 않는 문자나 글자 방향을 바꾸는 문자를 쓸 수 없습니다';

/** "민지" and, one per character the run used, a name that looks the same. */
const LOOKALIKES: [string, string][] = [
  ['U+2800 Braille blank', '민지\u2800'],
  ['U+E0020 tag space', '민지\u{e0020}'],
  ['U+E0041 tag letter', '민\u{e0041}지'],
  ['U+E007F cancel tag', '민지\u{e007f}'],
  ['U+FE00 variation selector 1', '민\ufe00지'],
  ['U+FE0E text presentation', '민지\ufe0e'],
  ['U+FE0F emoji presentation after a letter', '민지\ufe0f'],
  ['U+180B Mongolian free variation selector', '민지\u180b'],
  ['U+180F Mongolian free variation selector 4', '\u180f민지'],
  ['a lone high surrogate', '민지\ud800'],
  ['a lone low surrogate', '\udc00민지'],
  ['U+FFFC object replacement', '민지\ufffc'],
  ['U+E0100 variation selector 17', '민지\u{e0100}'],
];

describe('the look-alikes, one by one', () => {
  for (const [what, name] of LOOKALIKES) {
    it(`DR15 ${what} is refused in a nickname with the Korean message`, () => {
      const result = Nickname.safeParse(name);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toContain(INVISIBLE);
    });
  }

  it('DR15 emoji that need the presentation selector or tags still pass (❤️, 1️⃣, 🏳️‍🌈, the flag of Scotland)', () => {
    for (const name of ['❤️', '1️⃣등', '🏳️‍🌈', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 팬', '❤️‍🔥불꽃', '민지😀']) expect(Nickname.parse(name)).toBe(name);
    // The selector where it changes nothing is a look-alike: after an emoji that is one anyway.
    expect(Nickname.safeParse('민지😀\ufe0f').success).toBe(false);
  });
});

async function boot(store: 'memory' | 'redis', context: TestContext): Promise<TestApp> {
  const app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url, TOKEN_SECRET: 'dr15-secret' } : {});
  context.onTestFinished(() => app.stop());
  return app;
}

describe.each(['memory', 'redis'] as const)('every name a user types (%s store)', (store) => {
  it('DR15 class joins, sessions, roster names and quiz-room nicknames refuse every look-alike of "민지"; the roster holds one 민지', async (context) => {
    const app = await boot(store, context);
    const material = await loadSample(app);
    const created = await createClass(app, { name: '이름 지키는 반', materialId: material.id });
    expect((await postJson(`${app.url}/api/classes/${created.code}/join`, { nickname: '민지' })).status).toBe(201);
    for (const [what, nickname] of LOOKALIKES) {
      for (const answer of [
        await postJson(`${app.url}/api/classes/${created.code}/join`, { nickname }),
        await postJson(`${app.url}/api/sessions`, { classCode: created.code, nickname }),
        await postJson(`${app.url}/api/sessions`, { materialId: material.id, nickname }),
      ]) {
        expect(answer.status, what).toBe(400);
        expect(answer.body.error).toMatchObject({ code: 'INVALID_PAYLOAD', message: expect.stringContaining(INVISIBLE) });
      }
    }
    const info = await getJson<ClassInfo>(`${app.url}/api/classes/${created.classId}`, { authorization: `Bearer ${created.instructorToken}` });
    expect(info.body.students?.map((student) => student.nickname)).toEqual(['민지']);

    const roster = await fetch(`${app.url}/api/classes/${created.classId}/roster`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${created.instructorToken}` },
      body: JSON.stringify({ names: ['김민지', '김민지\u2800'] }),
    });
    expect(roster.status).toBe(400);
    expect(((await roster.json()) as { error: { message: string } }).error.message).toContain(INVISIBLE);

    const setup = await createQuiz(app);
    const room = await createRoom(app, setup);
    const guest = await QuizClient.open(app.url).ready();
    context.onTestFinished(() => guest.close());
    expect(await guest.emit('room:join', { code: room.code, nickname: '민지' })).toMatchObject({ ok: true });
    for (const [what, nickname] of LOOKALIKES) {
      const other = await QuizClient.open(app.url).ready();
      const answer = await other.emit('room:join', { code: room.code, nickname });
      other.close();
      expect(answer, what).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD', message: expect.stringContaining(INVISIBLE) } });
    }
  });
});
