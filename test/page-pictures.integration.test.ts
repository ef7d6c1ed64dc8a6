/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM22 — A page of a material as an item's picture. An item's `image` may be `{kind: 'page', materialId, page}`:
 *   saved only for a material the quiz's owner account owns or the built-in sample (another account's material, or
 *   with that account's class token, is 404 MATERIAL_NOT_FOUND like an unknown one), and a page the material has (a
 *   page past its last is 400 PAGE_OUT_OF_RANGE saying how many it has; page 0 is INVALID_PAYLOAD). Players get
 *   `question.image {url, alt: '자료 N쪽' unless the item gives one, kind: 'page'}`; `GET /api/rooms/:id/pictures/:index`
 *   answers the room's player or host token with a PDF of exactly that one page, only once its question is on screen
 *   (403 PICTURE_NOT_SHOWN for a later question, and in the lobby), 404 for another room's player or a stranger.
 *   `GET /api/materials/:id/pages/:page.pdf` serves the same one-page PDF to the material's readers. On both stores.
 * - TM23 — A material its quizzes show. An owner cannot delete (give up) a material while one of its quizzes shows one
 *   of its pages: 409 MATERIAL_IN_USE; once the quiz is deleted the material can be deleted (204), and its cut pages
 *   go with it. Another owner of the same bytes, whose quizzes show none of its pages, gives it up freely.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import type { QuestionPayload, QuizItem } from '../src/protocol/quiz.js';
import { signUp, type SignedUpAccount } from './support/accounts.js';
import { call } from './support/http-call.js';
import { blobFiles, madePdf, scanStore, uploadPdf } from './support/data-flow.js';
import { loadSample } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { joinRoom, openHost, sampleItems, type QuizClient } from './support/quiz-client.js';

const redis = suiteRedis();
let app: TestApp | undefined;
const clients: QuizClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await app?.stop();
  app = undefined;
});

async function fetchPdf(url: string, token?: string) {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type'), bytes, text: () => Buffer.from(bytes).toString('utf8') };
}

async function classOf(account: SignedUpAccount): Promise<{ classId: string; instructorToken: string }> {
  const reply = await call(`${app!.url}/api/classes`, 'POST', { headers: account.bearer, body: { name: '그림 반' } });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body as { classId: string; instructorToken: string };
}

const quizWith = (headers: Record<string, string>, items: QuizItem[], classId?: string) =>
  call(`${app!.url}/api/quizzes`, 'POST', { headers, body: { title: '쪽 그림', items, ...(classId ? { classId } : {}) } });

const withPage = (item: QuizItem, materialId: string, page: number, imageAlt?: string): QuizItem => ({ ...item, image: { kind: 'page', materialId, page }, ...(imageAlt ? { imageAlt } : {}) });

describe.each(['memory', 'redis'] as const)('pages of a material as pictures (%s store)', (store) => {
  it('TM22 a page picture is saved only for a usable material and page, and served to the room only once its question is on screen', async () => {
    app = await startTestApp({ SIGNUP: 'open', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
    const a = await signUp(app);
    const b = await signUp(app);
    const aClass = await classOf(a);
    const bClass = await classOf(b);
    const sample = await loadSample(app);
    const own = (await uploadPdf(app, await madePdf('A의 자료'), 'a.pdf', a)).id;
    const pageCount = ((await call(`${app.url}/api/materials/${own}`, 'GET', { headers: a.bearer })).body as { pageCount: number }).pageCount;
    expect(pageCount).toBeGreaterThan(1);
    const [first, second, third] = sampleItems(3) as [QuizItem, QuizItem, QuizItem];

    // Refused: another account's material (its bearer or its class token), a page it does not have, page 0.
    for (const headers of [b.bearer, { authorization: `Bearer ${bClass.instructorToken}` }]) {
      const refused = await quizWith(headers, [withPage(first, own, 1)]);
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('MATERIAL_NOT_FOUND');
    }
    const past = await quizWith(a.bearer, [first, withPage(second, own, pageCount + 1)]);
    expect(past.status).toBe(400);
    expect(past.body.error.code).toBe('PAGE_OUT_OF_RANGE');
    expect(past.body.error.message).toContain(`${pageCount}쪽까지`);
    expect((await quizWith(a.bearer, [withPage(first, own, 0)])).body.error.code).toBe('INVALID_PAYLOAD');
    expect((await quizWith(a.bearer, [withPage(first, 'x'.repeat(32), 1)])).status).toBe(400);

    // Saved: no picture first, page 2 of the sample, then the owner's own page 1 with its own alt text.
    const saved = await quizWith({ authorization: `Bearer ${aClass.instructorToken}` }, [first, withPage(second, sample.id, 2), withPage(third, own, 1, '표 1')], aClass.classId);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const room = await call(`${app.url}/api/rooms`, 'POST', { headers: a.bearer, body: { quizId: saved.body.quizId, options: { previewSeconds: 0 } } });
    expect(room.status).toBe(201);
    const { roomId, code, hostToken } = room.body as { roomId: string; code: string; hostToken: string };
    const host = await openHost(app.url, hostToken);
    clients.push(host);
    const player = await joinRoom(app.url, code, '하늘');
    clients.push(player.client);
    const picture = (index: number, token?: string) => fetchPdf(`${app!.url}/api/rooms/${roomId}/pictures/${index}`, token);

    // The lobby: nothing is on screen.
    expect((await picture(1, player.playerToken)).status).toBe(403);
    const opened = (index: number) => player.client.next<QuestionPayload>('room:question', (payload) => payload.phase === 'open' && payload.question.index === index);
    let next = opened(0);
    expect((await host.emit('room:start')).ok).toBe(true);
    expect((await next).question.image).toBeUndefined();
    // Question 0 is on screen: question 1's page is not served to anyone in the room (nor its host).
    const early = await picture(1, player.playerToken);
    expect(early.status).toBe(403);
    expect(JSON.parse(early.text()).error.code).toBe('PICTURE_NOT_SHOWN');
    expect((await picture(1, hostToken)).status).toBe(403);
    expect((await picture(0, player.playerToken)).status).toBe(404);

    // The player answers (everyone did: the question closes), then leaderboard, then question 1.
    const advance = async (from: number) => {
      const revealed = host.next('room:reveal');
      expect((await player.client.emit('answer:submit', { questionIndex: from, choice: 0 })).ok).toBe(true);
      await revealed;
      expect((await host.emit('room:next')).ok).toBe(true);
      expect((await host.emit('room:next')).ok).toBe(true);
    };
    next = opened(1);
    await advance(0);
    const question = (await next).question;
    expect(question.image).toEqual({ url: `/api/rooms/${roomId}/pictures/1`, alt: '자료 2쪽', kind: 'page' });
    expect(JSON.stringify(question)).not.toContain(sample.id);

    // Now served: a PDF of exactly one page, the sample's page 2, to the player and the host, not to strangers.
    const served = await picture(1, player.playerToken);
    expect(served.status).toBe(200);
    expect(served.type).toBe('application/pdf');
    const document = await PDFDocument.load(served.bytes);
    expect(document.getPageCount()).toBe(1);
    // The same bytes as the material's page 2 (one cut, kept with the material's blobs).
    expect(Buffer.from(served.bytes).equals(Buffer.from((await fetchPdf(`${app.url}/api/materials/${sample.id}/pages/2.pdf`)).bytes))).toBe(true);
    expect((await picture(1, hostToken)).status).toBe(200);
    expect((await picture(1)).status).toBe(401);
    expect((await picture(1, b.bearer.authorization.replace(/^Bearer /u, ''))).status).toBe(404);
    // Question 2 is still ahead.
    expect((await picture(2, player.playerToken)).status).toBe(403);
    // A player of another room (B's room of B's quiz) is not a member of this one.
    const bQuiz = await quizWith({ authorization: `Bearer ${bClass.instructorToken}` }, [first], bClass.classId);
    const bRoom = await call(`${app.url}/api/rooms`, 'POST', { headers: b.bearer, body: { quizId: bQuiz.body.quizId } });
    const stranger = await joinRoom(app.url, bRoom.body.code as string, '바람');
    clients.push(stranger.client);
    expect((await picture(1, stranger.playerToken)).status).toBe(404);

    // The editor's preview: the same page to the material's readers (the sample: anyone), not to another account.
    const preview = await fetchPdf(`${app.url}/api/materials/${own}/pages/1.pdf`, a.bearer.authorization.replace(/^Bearer /u, ''));
    expect(preview.status).toBe(200);
    expect((await PDFDocument.load(preview.bytes)).getPageCount()).toBe(1);
    expect((await fetchPdf(`${app.url}/api/materials/${own}/pages/1.pdf`, b.bearer.authorization.replace(/^Bearer /u, ''))).status).toBe(404);
    expect((await fetchPdf(`${app.url}/api/materials/${sample.id}/pages/2.pdf`)).status).toBe(200);
    const beyond = await fetchPdf(`${app.url}/api/materials/${own}/pages/${pageCount + 1}.pdf`, a.bearer.authorization.replace(/^Bearer /u, ''));
    expect(beyond.status).toBe(400);

    // Question 2: its page with the item's own alt text.
    next = opened(2);
    await advance(1);
    expect((await next).question.image).toMatchObject({ alt: '표 1', kind: 'page' });
    expect((await picture(2, player.playerToken)).status).toBe(200);
    // A past question's page is still served while the game goes on.
    expect((await picture(1, player.playerToken)).status).toBe(200);
  });

  it('TM23 an owner cannot give up a material its quizzes show a page of; the quiz goes first', async () => {
    app = await startTestApp({ SIGNUP: 'open', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) });
    const a = await signUp(app);
    const b = await signUp(app);
    const bytes = await madePdf('함께 쓰는 자료');
    const shared = (await uploadPdf(app, bytes, 'shared.pdf', a)).id;
    expect((await uploadPdf(app, bytes, 'shared.pdf', b)).id).toBe(shared);
    const [item] = sampleItems(1) as [QuizItem];
    const quiz = await quizWith(a.bearer, [withPage(item, shared, 2)]);
    expect(quiz.status, JSON.stringify(quiz.body)).toBe(201);
    // Cut once: the page is kept as a blob after it is served.
    expect((await fetch(`${app.url}/api/materials/${shared}/pages/2.pdf`, { headers: a.bearer })).status).toBe(200);
    const kept = async () =>
      store === 'redis' ? (await scanStore(app!, redis.url)).filter((key) => key.includes(shared)) : [...blobFiles(app!), ...(await scanStore(app!))].filter((name) => name.includes(shared));
    expect((await kept()).filter((name) => name.includes('page-2.pdf'))).toHaveLength(1);
    expect((await kept()).filter((name) => name.includes('picture-quizzes'))).toHaveLength(1);

    const refused = await call(`${app.url}/api/materials/${shared}`, 'DELETE', { headers: a.bearer });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('MATERIAL_IN_USE');
    expect((await call(`${app.url}/api/materials/${shared}`, 'GET', { headers: a.bearer })).status).toBe(200);
    // B's quizzes show none of its pages: B gives it up; A still has it.
    expect((await call(`${app.url}/api/materials/${shared}`, 'DELETE', { headers: b.bearer })).status).toBe(204);
    expect((await call(`${app.url}/api/materials/${shared}`, 'GET', { headers: a.bearer })).status).toBe(200);
    // The quiz goes, then the material can go (the last owner: the material itself and its cut page with it).
    expect((await call(`${app.url}/api/quizzes/${quiz.body.quizId}`, 'DELETE', { headers: a.bearer })).status).toBe(204);
    expect((await call(`${app.url}/api/materials/${shared}`, 'DELETE', { headers: a.bearer })).status).toBe(204);
    expect(await app.materials.get(shared)).toBeNull();
    expect(await kept()).toEqual([]);
  });
});
