/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM12 — Pictures. `POST /api/quiz-images` (an account or class instructor token, checked before the body) takes
 *   PNG, JPEG, GIF or WebP by their first bytes, at most 2 MB; SVG, HTML and anything else is INVALID_PAYLOAD (400),
 *   a larger body 413, no credential 401. `GET /api/quiz-images/:id` serves its owner only (no credential 401, another
 *   account 404, as an unknown or malformed id), the type the bytes prove with `nosniff`, a CSP that runs nothing and
 *   `sandbox`, never kept by a cache. An item's `image` (with `imageAlt`) reaches players only as `{url, alt, kind:
 *   'image'}` in the question, the URL the room's (`/api/rooms/:id/pictures/:index`): served to the room's players and
 *   host, with the same headers, only once its question is on screen (403 PICTURE_NOT_SHOWN in the lobby), never to a
 *   caller outside the room; an `image` that is not an uploaded id's shape is refused with the quiz. On both stores.
 * - TM20 — Pictures belong to their uploader. A picture is the uploading account's (and its class's, for a class
 *   instructor token): `GET /api/quiz-images` lists only the caller's own; another account (or another class's token)
 *   naming it on a quiz item gets 404 NOT_FOUND, and cannot delete it (404). `DELETE /api/quiz-images/:id` answers
 *   409 IMAGE_IN_USE while a quiz shows the picture, 204 otherwise; deleting the last quiz that shows a picture (alone
 *   or with its class) deletes the picture (its URL then 404) and credits its bytes back. The account's pictures
 *   together hold at most MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT: the upload past it is 429 QUOTA_EXCEEDED with
 *   `quota: 'quiz-image-bytes'`, its limit, and a Korean sentence saying what to delete. On both stores.
 * - TM25 — Pictures no quiz shows are purged after the retention. A run of the retention purge (injected clock) deletes
 *   the pictures uploaded more than RETENTION_DAYS ago that no quiz shows (their URL then 404, gone from the owner's
 *   list, their bytes no longer counted against MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT) and keeps a picture a quiz shows and
 *   one uploaded within the retention; a run before the window deletes nothing, a second run nothing more. On both
 *   stores.
 * - TM26 — A purge never deletes a picture a quiz is being saved with. The two are interleaved at their race points
 *   (an injected step, no timing): a quiz saved naming the picture after the purge found it unused but before it
 *   deleted it keeps the picture (201, served by the room, still listed and counted); a purge running whole after a
 *   save checked the picture but before it claimed it deletes it, and that save is then refused (404 NOT_FOUND, no
 *   quiz), never a quiz whose picture is gone. On both stores.
 * - TM27 — Pictures uploaded before the purge's queue existed are purged too. A picture in its account's list but not
 *   in the retention queue (the layout before the queue) is queued by the next purge run at its upload time: once
 *   past RETENTION_DAYS and shown by no quiz it is deleted (404 to its owner, gone from the list, its bytes no longer
 *   counted); an old one a quiz shows stays; a further run changes nothing. On both stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { QuestionPayload } from '../src/protocol/quiz.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { signUp } from './support/accounts.js';
import { call } from './support/http-call.js';
import { createClass, postJson } from './support/classroom-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import type { QuizImageStep } from '../src/quiz/index.js';
import { createRoom, joinRoom, openHost, type QuizClient, type QuizSetup } from './support/quiz-client.js';

const redis = suiteRedis();
let app: TestApp | undefined;
const clients: QuizClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await app?.stop();
  app = undefined;
});

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

async function upload(url: string, body: Uint8Array, token?: string, type = 'image/png') {
  const response = await fetch(`${url}/api/quiz-images`, {
    method: 'POST',
    headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  return { status: response.status, body: (await response.json()) as { imageId?: string; url?: string; type?: string; error?: { code: string } } };
}

describe.each(['memory', 'redis'] as const)('quiz pictures (%s store)', (store) => {
  /**
   * An app whose retention purge runs on a clock the test moves (RETENTION_DAYS 30), `slots` pictures' bytes per
   * account, and a class that uploaded two pictures: `shown` by a quiz and `unused`.
   */
  async function retentionWorld(slots: number) {
    const clock: { at: number | null } = { at: null };
    app = await startTestApp(
      { RETENTION_DAYS: '30', MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT: String(PNG.length * slots), ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) },
      { retentionClock: () => clock.at ?? Date.now() },
    );
    const created = await createClass(app, { name: '보존 그림 반' });
    const bearer = { authorization: `Bearer ${created.instructorToken}` };
    const unused = (await upload(app.url, PNG, created.instructorToken)).body.imageId as string;
    const shown = (await upload(app.url, PNG, created.instructorToken)).body.imageId as string;
    const base = { question: '그래프의 꼭짓점은?', explanation: '.', difficulty: 'easy', type: 'short', answer: '원점' };
    expect((await postJson(`${app.url}/api/quizzes`, { title: '그림', items: [{ ...base, image: shown, imageAlt: '그래프' }] }, bearer)).status).toBe(201);
    return { started: app, clock, created, bearer, unused, shown };
  }

  it('TM12 an uploaded image is validated by its bytes, served to its owner and, through the room once on screen, to players', async () => {
    app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url } : {});
    const created = await createClass(app, { name: '그림 반' });
    const token = created.instructorToken;

    expect((await upload(app.url, PNG)).status).toBe(401);
    const svg = await upload(app.url, SVG, token, 'image/svg+xml');
    expect(svg.status).toBe(400);
    expect(svg.body.error?.code).toBe('INVALID_PAYLOAD');
    // A declared image type does not make HTML an image.
    expect((await upload(app.url, Buffer.from('<html><script>alert(1)</script></html>'), token)).status).toBe(400);
    expect((await upload(app.url, Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), token)).status).toBe(413);
    const saved = await upload(app.url, PNG, token, 'application/octet-stream');
    expect(saved.status).toBe(201);
    expect(saved.body.imageId).toMatch(/^[0-9a-f]{32}$/);
    expect(saved.body).toMatchObject({ url: `/api/quiz-images/${saved.body.imageId}`, type: 'image/png' });

    const bearer = { authorization: `Bearer ${token}` };
    const expectServedSafely = async (served: Response) => {
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
      expect(served.headers.get('cache-control')).toBe('private, no-store');
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    };
    // The id alone opens nothing: only its owner gets the bytes from its own route.
    expect((await fetch(`${app.url}${saved.body.url}`)).status).toBe(401);
    await expectServedSafely(await fetch(`${app.url}${saved.body.url}`, { headers: bearer }));
    const other = await createClass(app, { name: '다른 반' });
    expect((await fetch(`${app.url}${saved.body.url}`, { headers: { authorization: `Bearer ${other.instructorToken}` } })).status).toBe(404);
    expect((await fetch(`${app.url}/api/quiz-images/${'0'.repeat(32)}`, { headers: bearer })).status).toBe(404);
    expect((await fetch(`${app.url}/api/quiz-images/..%2F..%2Fetc`, { headers: bearer })).status).toBe(404);

    const base = { question: '그래프에서 가장 큰 값은 $x^2$의 어디?', explanation: '.', difficulty: 'easy' };
    const refused = await postJson(`${app.url}/api/quizzes`, { title: '그림', items: [{ ...base, type: 'short', answer: '꼭짓점', image: '../secret' }] }, { authorization: `Bearer ${token}` });
    expect(refused.status).toBe(400);
    const quiz = await postJson<{ quizId: string }>(
      `${app.url}/api/quizzes`,
      { title: '그림', items: [{ ...base, type: 'short', answer: '꼭짓점', image: saved.body.imageId, imageAlt: '포물선 그래프' }] },
      { authorization: `Bearer ${token}` },
    );
    expect(quiz.status).toBe(201);
    const setup: QuizSetup = { classId: created.classId, instructorToken: token, quizId: quiz.body.quizId!, items: [] };
    const room = await createRoom(app, setup, { previewSeconds: 0 });
    const host = await openHost(app.url, room.hostToken);
    clients.push(host);
    const player = await joinRoom(app.url, room.code, '보라');
    clients.push(player.client);
    const roomPicture = `${app.url}/api/rooms/${room.roomId}/pictures/0`;
    const as = (credential: string) => ({ headers: { authorization: `Bearer ${credential}` } });
    // The lobby: the question is not on screen, its picture not served.
    const early = await fetch(roomPicture, as(player.playerToken));
    expect(early.status).toBe(403);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe('PICTURE_NOT_SHOWN');
    const opened = player.client.next<QuestionPayload>('room:question', (payload) => payload.phase === 'open');
    expect((await host.emit('room:start')).ok).toBe(true);
    const question = (await opened).question;
    expect(question.image).toEqual({ url: `/api/rooms/${room.roomId}/pictures/0`, alt: '포물선 그래프', kind: 'image' });
    expect(JSON.stringify(question)).not.toContain('꼭짓점');
    expect(JSON.stringify(question)).not.toContain(saved.body.imageId);
    // On screen: the room serves it to its player and its host, not to a caller outside the room.
    await expectServedSafely(await fetch(roomPicture, as(player.playerToken)));
    await expectServedSafely(await fetch(roomPicture, as(room.hostToken)));
    expect((await fetch(roomPicture)).status).toBe(401);
    expect((await fetch(roomPicture, as(other.instructorToken))).status).toBe(404);
  });

  it('TM20 only the uploader lists, attaches and deletes a picture; it goes with its last quiz; the quota holds', async () => {
    app = await startTestApp({ SIGNUP: 'open', MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT: String(PNG.length * 3), ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
    const a = await signUp(app);
    const b = await signUp(app);
    const token = (account: typeof a) => account.bearer.authorization.replace(/^Bearer /u, '');
    const aClass = (await call(`${app.url}/api/classes`, 'POST', { headers: a.bearer, body: { name: 'A반' } })).body as { classId: string; instructorToken: string };
    const bClass = (await call(`${app.url}/api/classes`, 'POST', { headers: b.bearer, body: { name: 'B반' } })).body as { classId: string; instructorToken: string };
    const first = (await upload(app.url, PNG, token(a))).body.imageId as string;
    const second = (await upload(app.url, PNG, aClass.instructorToken)).body.imageId as string;
    const base = { question: '그래프의 꼭짓점은?', explanation: '.', difficulty: 'easy', type: 'short', answer: '원점' };
    const quizWith = (headers: Record<string, string>, image: string, classId?: string) =>
      call(`${app!.url}/api/quizzes`, 'POST', { headers, body: { title: '그림', items: [{ ...base, image, imageAlt: '그래프' }], ...(classId ? { classId } : {}) } });

    // Lists: each owner sees only its own (a class token only the class's).
    const listed = async (headers: Record<string, string>) => ((await call(`${app!.url}/api/quiz-images`, 'GET', { headers })).body.images as { imageId: string }[]).map((image) => image.imageId);
    expect(await listed(a.bearer)).toEqual([second, first]);
    expect(await listed({ authorization: `Bearer ${aClass.instructorToken}` })).toEqual([second]);
    expect(await listed(b.bearer)).toEqual([]);
    // Another account, or another class's token, cannot put A's picture on an item, nor delete it.
    expect((await quizWith(b.bearer, first)).status).toBe(404);
    expect((await quizWith({ authorization: `Bearer ${bClass.instructorToken}` }, second)).status).toBe(404);
    expect((await quizWith({ authorization: `Bearer ${aClass.instructorToken}` }, first)).status).toBe(404);
    expect((await call(`${app.url}/api/quiz-images/${first}`, 'DELETE', { headers: b.bearer })).status).toBe(404);

    // The quota: three pictures' bytes; the fourth upload is refused and says what to do.
    const third = (await upload(app.url, PNG, token(a))).body.imageId as string;
    const over = await fetch(`${app.url}/api/quiz-images`, { method: 'POST', headers: a.bearer, body: PNG });
    const refusal = (await over.json()) as { error: { code: string; quota: string; limit: number; message: string } };
    expect(over.status).toBe(429);
    expect(refusal.error).toMatchObject({ code: 'QUOTA_EXCEEDED', quota: 'quiz-image-bytes', limit: PNG.length * 3 });
    expect(refusal.error.message).toContain('퀴즈 그림');
    // A picture no quiz shows is deleted by its owner, which frees its bytes.
    expect((await call(`${app.url}/api/quiz-images/${third}`, 'DELETE', { headers: a.bearer })).status).toBe(204);
    expect((await fetch(`${app.url}/api/quiz-images/${third}`, { headers: a.bearer })).status).toBe(404);

    // A picture shown by two quizzes stays until the second is deleted; while shown it cannot be deleted.
    const one = await quizWith(a.bearer, first);
    const two = await quizWith(a.bearer, first, aClass.classId);
    expect([one.status, two.status]).toEqual([201, 201]);
    const inUse = await call(`${app.url}/api/quiz-images/${first}`, 'DELETE', { headers: a.bearer });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error.code).toBe('IMAGE_IN_USE');
    expect((await call(`${app.url}/api/quizzes/${one.body.quizId}`, 'DELETE', { headers: a.bearer })).status).toBeLessThan(300);
    expect((await fetch(`${app.url}/api/quiz-images/${first}`, { headers: a.bearer })).status).toBe(200);
    // Deleting the class deletes its quiz, and the picture with it, and the picture its token uploaded.
    expect((await call(`${app.url}/api/classes/${aClass.classId}`, 'DELETE', { headers: a.bearer })).status).toBeLessThan(300);
    expect((await fetch(`${app.url}/api/quiz-images/${first}`, { headers: a.bearer })).status).toBe(404);
    expect((await fetch(`${app.url}/api/quiz-images/${second}`, { headers: a.bearer })).status).toBe(404);
    expect(await listed(a.bearer)).toEqual([]);
    // Their bytes are credited back: three pictures fit again.
    for (let index = 0; index < 3; index += 1) expect((await upload(app.url, PNG, token(a))).status).toBe(201);
  });

  it('TM25 the retention purge deletes old pictures no quiz shows and credits their bytes; shown and fresh ones stay', async () => {
    const { started, clock, created, bearer, unused, shown } = await retentionWorld(3);
    app = started;
    const uploadedAt = async (imageId: string) => (await app!.store.zscore(quizKeys.retentionImages(), imageId))!;
    const oldAt = Math.max(await uploadedAt(unused), await uploadedAt(shown));
    // Upload times are in ms: the fresh picture is strictly later than the old ones.
    while (Date.now() <= oldAt) await new Promise((resolve) => setTimeout(resolve, 2));
    const fresh = (await upload(app.url, PNG, created.instructorToken)).body.imageId as string;
    const freshAt = await uploadedAt(fresh);
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(429);
    const status = async (imageId: string) => (await fetch(`${app!.url}/api/quiz-images/${imageId}`, { headers: bearer })).status;

    // Today: nothing is old enough.
    await app.data.purge.runOnce();
    expect([await status(unused), await status(shown), await status(fresh)]).toEqual([200, 200, 200]);

    // The retention has passed for the first two uploads, not for the third.
    clock.at = freshAt - 1 + 30 * 24 * 60 * 60_000;
    await app.data.purge.runOnce();
    expect([await status(unused), await status(shown), await status(fresh)]).toEqual([404, 200, 200]);
    const listed = (await call(`${app.url}/api/quiz-images`, 'GET', { headers: bearer })).body.images as { imageId: string }[];
    expect(listed.map((image) => image.imageId)).toEqual([fresh, shown]);
    // Its bytes no longer count: one more picture fits, and only one.
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(201);
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(429);
    await app.data.purge.runOnce();
    expect([await status(shown), await status(fresh)]).toEqual([200, 200]);
  });

  it('TM26 a quiz saved while the purge runs keeps its picture; a save overtaken by the purge is refused', async () => {
    const clock: { at: number | null } = { at: null };
    // The other side of the race, run once at the named step.
    const pending: { step: 'claim' | 'purge'; run: () => Promise<void> }[] = [];
    const step: QuizImageStep = async (name) => {
      const index = pending.findIndex((entry) => entry.step === name);
      if (index >= 0) await pending.splice(index, 1)[0]!.run();
    };
    app = await startTestApp(
      { RETENTION_DAYS: '30', MAX_QUIZ_IMAGE_BYTES_PER_ACCOUNT: String(PNG.length * 2), ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) },
      { retentionClock: () => clock.at ?? Date.now(), quizImageStep: step },
    );
    const created = await createClass(app, { name: '경합 반' });
    const bearer = { authorization: `Bearer ${created.instructorToken}` };
    const base = { question: '그래프의 꼭짓점은?', explanation: '.', difficulty: 'easy', type: 'short', answer: '원점' };
    const saveWith = (image: string) => postJson<{ quizId: string; error?: { code: string } }>(`${app!.url}/api/quizzes`, { title: '그림', items: [{ ...base, image, imageAlt: '그래프' }] }, bearer);
    const status = async (imageId: string) => (await fetch(`${app!.url}/api/quiz-images/${imageId}`, { headers: bearer })).status;
    const listed = async () => ((await call(`${app!.url}/api/quiz-images`, 'GET', { headers: bearer })).body.images as { imageId: string; quizzes: number }[]);
    const kept = (await upload(app.url, PNG, created.instructorToken)).body.imageId as string;
    const overtaken = (await upload(app.url, PNG, created.instructorToken)).body.imageId as string;
    clock.at = Date.now() + 31 * 24 * 60 * 60_000;

    // 1. The purge found `kept` unused; before it deletes it, a quiz is saved with it.
    let saved: Awaited<ReturnType<typeof saveWith>> | undefined;
    pending.push({ step: 'purge', run: async () => void (saved = await saveWith(kept)) });
    // 2. A save checked `overtaken` is the owner's; before it claims it, the purge runs whole.
    pending.push({ step: 'claim', run: async () => void (await app!.data.purge.runOnce()) });
    const refused = await saveWith(overtaken);
    expect(pending).toEqual([]);

    expect(refused.status).toBe(404);
    expect(refused.body.error?.code).toBe('NOT_FOUND');
    expect(await status(overtaken)).toBe(404);
    expect(saved?.status).toBe(201);
    expect(await status(kept)).toBe(200);
    expect(await listed()).toEqual([expect.objectContaining({ imageId: kept, quizzes: 1 })]);
    // Only the saved quiz exists (the refused save left none), and the kept picture is still counted against the quota.
    const quizzes = (await call(`${app.url}/api/quizzes`, 'GET', { headers: bearer })).body.quizzes as { quizId: string }[];
    expect(quizzes.map((quiz) => quiz.quizId)).toEqual([saved!.body.quizId]);
    // A later purge still keeps it: a quiz shows it.
    await app.data.purge.runOnce();
    expect(await status(kept)).toBe(200);
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(201);
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(429);
  });

  it('TM27 a picture uploaded before the purge queue existed is queued by the purge, then purged and no longer counted', async () => {
    const { started, clock, created, bearer, unused, shown } = await retentionWorld(2);
    app = started;
    // The layout before the queue: the pictures are in their account's list only (no queue, no backfill yet).
    await app.store.del(quizKeys.retentionImages(), quizKeys.retentionImagesBackfilled());
    const status = async (imageId: string) => (await fetch(`${app!.url}/api/quiz-images/${imageId}`, { headers: bearer })).status;
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(429);

    clock.at = Date.now() + 31 * 24 * 60 * 60_000;
    await app.data.purge.runOnce();
    expect([await status(unused), await status(shown)]).toEqual([404, 200]);
    const listed = (await call(`${app.url}/api/quiz-images`, 'GET', { headers: bearer })).body.images as { imageId: string }[];
    expect(listed.map((image) => image.imageId)).toEqual([shown]);
    // Its bytes no longer count: one more picture fits, and only one.
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(201);
    expect((await upload(app.url, PNG, created.instructorToken)).status).toBe(429);
    await app.data.purge.runOnce();
    expect(await status(shown)).toBe(200);
    await app.store.del(quizKeys.retentionImages(), quizKeys.retentionImagesBackfilled());
  });
});
