/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QT1 — Materials per account. With `MAX_MATERIALS_PER_ACCOUNT=2`: two uploads pass, the same bytes again answer
 *   200 and cost nothing …
 * - QT2 — PDF bytes per account. A second upload that would pass `MAX_PDF_BYTES_PER_ACCOUNT` is refused (`pdf-bytes`,
 *   the limit in the message as people read sizes) and its bytes are rolled back.
 * - QT3 — Quizzes per class. With `MAX_QUIZZES_PER_CLASS=2`, both `POST /api/quizzes` and `POST
 *   /api/materials/:id/quiz` are refused at the limit; another class is not …
 * - QT4 — Open rooms. With `MAX_OPEN_ROOMS_PER_ACCOUNT=2` the third room is refused; after the host's `room:end` a
 *   room can be made again; a room whose keys are gone (what a TTL leaves) stops counting too.
 * - QT5 — The last slot under parallel requests. 6 parallel quizzes for 1 slot: one 201, five 429 (counter exactly at
 *   the limit); 5 parallel rooms for 1 slot: one 201 …
 * - QT6 — Model budget over HTTP. With `MODEL_DAILY_TOKENS=1`: the first quiz generation of an account passes and
 *   records `usage:account:{id}:{day}` with a TTL of ~2 days …
 * - QT7 — Model budget in a lecture. A session billed to an account that spent its budget: `lecture:start` ends in
 *   `session:error` `MODEL_BUDGET_EXCEEDED` with the message that the class's budget for today …
 * - QT8 — `MODEL_DAILY_TOKENS=0`. is unlimited.
 * - QT12 — Who pays for a lecture. A student who joins a class gets a session billed to the class's instructor (kept
 *   when the session is loaded again, as another node or a restart does) …
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountUsageId } from '../src/llm/index.js';
import { formatBytes } from '../src/quota/index.js';
import { RETENTION } from '../src/store/index.js';
import { isDurableKey } from '../src/store/retention.js';
import { defaultInstructor, signUp, type SignedUpAccount } from './support/accounts.js';
import { createClass, type CreatedClass } from './support/classroom-client.js';
import { madePdf, scanStore, uploadPdf } from './support/data-flow.js';
import { call, type CallReply } from './support/http-call.js';
import { LectureClient, samplePdfBytes } from './support/lecture-client.js';
import { createQuiz, createRoom, openHost, sampleItems, type QuizSetup } from './support/quiz-client.js';
import { suiteRedis } from './support/redis-server.js';
import { connected, startTestApp, type TestApp } from './support/test-app.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';
import { usageKeys } from '../src/llm/usage-keys.js';
import { quotaKeys } from '../src/quota/quota-keys.js';

/**
 * QT1–QT8, QT12 (test/SPEC.md): quotas per account (materials, PDF bytes, open rooms) and per class (quizzes), refused with
 * 429 QUOTA_EXCEEDED and counted back down on deletion; the daily model budget per account (MODEL_DAILY_TOKENS)
 * refusing uploads, quiz generation and a class's lecture once spent. Every case on the memory store and on a
 * throwaway Redis (the app's keys all start with `lectern:`, so the Redis is this file's own).
 */

const redis = suiteRedis();
let app: TestApp | undefined;
beforeAll(samplePdfBytes);
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A PDF nobody else in this run uploads (ids are content hashes, and the Redis is shared by the file's tests). */
const uniquePdf = () => madePdf(`자료 ${randomUUID()}`);

async function upload(current: TestApp, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<CallReply> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), 'material.pdf');
  const response = await fetch(`${current.url}/api/materials`, { method: 'POST', body: form, headers });
  return { status: response.status, body: await response.json(), headers: response.headers };
}

function expectQuota(reply: CallReply, quota: string, limit: number, words: string): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(429);
  expect(reply.body.error).toMatchObject({ code: 'QUOTA_EXCEEDED', quota, limit });
  expect(reply.body.error.message).toContain(words);
  expect(reply.headers.get('retry-after')).toBeNull();
}

const postQuiz = (current: TestApp, created: { instructorToken: string }, title = '퀴즈') =>
  call(`${current.url}/api/quizzes`, 'POST', { body: { title, items: sampleItems(2) }, headers: bearer(created.instructorToken) });

const postRoom = (current: TestApp, setup: QuizSetup) =>
  call(`${current.url}/api/rooms`, 'POST', { body: { quizId: setup.quizId, options: {} }, headers: bearer(setup.instructorToken) });

describe.each([['memory'], ['redis']] as const)('quotas on the %s store', (storeKind) => {
  const start = (env: Record<string, string>) =>
    startTestApp({ SIGNUP: 'open', ...(storeKind === 'redis' ? { REDIS_URL: redis.url } : {}), ...env });

  it('QT1: materials per account: a new material past the limit is refused, the same bytes again cost nothing, a deletion frees a slot', async () => {
    const [first, second, third, fourth] = await Promise.all([uniquePdf(), uniquePdf(), uniquePdf(), uniquePdf()]);
    app = await start({ MAX_MATERIALS_PER_ACCOUNT: '2' });
    const current = app;
    const teacher = await signUp(current);
    const one = await upload(current, first, teacher.bearer);
    expect(one.status).toBe(201);
    expect((await upload(current, first, teacher.bearer)).status).toBe(200);
    expect((await upload(current, second, teacher.bearer)).status).toBe(201);
    expectQuota(await upload(current, third, teacher.bearer), 'materials', 2, '계정당 2개');
    // Through the browser session too (cookie + CSRF), and refused before the body is read.
    expectQuota(await upload(current, third, teacher.browser), 'materials', 2, '2개');
    expect(await current.quotas.usage('account', teacher.accountId)).toEqual({ materials: 2, 'pdf-bytes': first.byteLength + second.byteLength });
    // Anonymous uploads are refused (ownership); another account has its own quota.
    expect((await upload(current, third)).status).toBe(401);
    expect((await upload(current, third, (await defaultInstructor(current)).bearer)).status).toBe(201);

    expect((await call(`${current.url}/api/materials/${one.body.id}`, 'DELETE', { headers: teacher.bearer })).status).toBe(204);
    expect(await current.quotas.usage('account', teacher.accountId)).toEqual({ materials: 1, 'pdf-bytes': second.byteLength });
    expect(await current.store.exists(quotaKeys.quotaMaterial(one.body.id))).toBe(false);
    expect((await upload(current, fourth, teacher.bearer)).status).toBe(201);
    expectQuota(await upload(current, first, teacher.bearer), 'materials', 2, '2개');

    // A material two accounts uploaded: the one who deletes it gets their slot back, the other keeps theirs (and it).
    const colleague = await signUp(current);
    const shared = await upload(current, second, colleague.bearer);
    expect(shared.status).toBe(200);
    expect(await current.quotas.usage('account', colleague.accountId)).toEqual({ materials: 1, 'pdf-bytes': second.byteLength });
    expect((await call(`${current.url}/api/materials/${shared.body.id}`, 'DELETE', { headers: teacher.bearer })).status).toBe(204);
    expect(await current.quotas.usage('account', teacher.accountId)).toEqual({ materials: 1, 'pdf-bytes': fourth.byteLength });
    expect(await current.quotas.usage('account', colleague.accountId)).toEqual({ materials: 1, 'pdf-bytes': second.byteLength });
    expect((await upload(current, first, teacher.bearer)).status).toBe(201);
  });

  it('QT2: PDF bytes per account: an upload that would pass the total is refused and its bytes are not kept', async () => {
    const [first, second] = await Promise.all([uniquePdf(), uniquePdf()]);
    const limit = first.byteLength + 1000;
    app = await start({ MAX_PDF_BYTES_PER_ACCOUNT: String(limit) });
    const current = app;
    const teacher = await signUp(current);
    expect((await upload(current, first, teacher.bearer)).status).toBe(201);
    expectQuota(await upload(current, second, teacher.bearer), 'pdf-bytes', limit, formatBytes(limit));
    expect(await current.quotas.usage('account', teacher.accountId)).toEqual({ materials: 1, 'pdf-bytes': first.byteLength });
    expect(formatBytes(2 * 1024 ** 3)).toBe('2GB');
  });

  it('QT3: quizzes per class: written and generated quizzes count, a deleted quiz frees its slot, a deleted class drops its counter', async () => {
    app = await start({ MAX_QUIZZES_PER_CLASS: '2' });
    const current = app;
    const material = await uploadPdf(current, await uniquePdf(), 'quiz.pdf');
    // The class uses the material, so its instructor token may generate from it (authorizeMaterialRead).
    const created = await createClass(current, { name: '퀴즈 반', materialId: material.id });
    const other = await createClass(current, { name: '다른 반' });
    const first = await postQuiz(current, created);
    expect(first.status).toBe(201);
    expect((await postQuiz(current, created)).status).toBe(201);
    expectQuota(await postQuiz(current, created), 'quizzes-per-class', 2, '수업당 2개');
    const generate = () => call(`${current.url}/api/materials/${material.id}/quiz`, 'POST', { body: {}, headers: bearer(created.instructorToken) });
    expectQuota(await generate(), 'quizzes-per-class', 2, '2개');
    expect((await postQuiz(current, other)).status).toBe(201);

    expect((await call(`${current.url}/api/quizzes/${first.body.quizId}`, 'DELETE', { headers: bearer(created.instructorToken) })).status).toBe(204);
    expect(await current.quotas.usage('class', created.classId)).toEqual({ quizzes: 1 });
    const generated = await generate();
    expect(generated.status, JSON.stringify(generated.body)).toBe(201);
    expectQuota(await postQuiz(current, created), 'quizzes-per-class', 2, '2개');

    expect((await call(`${current.url}/api/classes/${created.classId}`, 'DELETE', { headers: bearer(created.instructorToken) })).status).toBe(204);
    expect(await current.store.exists(quotaKeys.quota('class', created.classId))).toBe(false);
  });

  it('QT4: open rooms: a room stops counting when it ends or its keys expire', async () => {
    app = await start({ MAX_OPEN_ROOMS_PER_ACCOUNT: '2' });
    const current = app;
    const setup = await createQuiz(current);
    const first = await createRoom(current, setup);
    const second = await createRoom(current, setup);
    expectQuota(await postRoom(current, setup), 'open-rooms', 2, '2개까지');

    const host = await openHost(current.url, first.hostToken);
    expect((await host.emit('room:end')).ok).toBe(true);
    host.socket.disconnect();
    const third = await postRoom(current, setup);
    expect(third.status, JSON.stringify(third.body)).toBe(201);
    expectQuota(await postRoom(current, setup), 'open-rooms', 2, '2개까지');

    // What a TTL running out leaves: the room's keys gone, nothing told the quota.
    await current.store.del(quizKeys.room(second.roomId));
    expect((await postRoom(current, setup)).status).toBe(201);
    expectQuota(await postRoom(current, setup), 'open-rooms', 2, '2개까지');
    // Rooms count against their owner account (the quiz's owner) since ownership.
    const { accountId } = await defaultInstructor(current);
    expect(await current.quotas.usage('account', accountId)).toMatchObject({ 'open-rooms': 2 });
  });

  it('QT5: parallel requests for the last slot: exactly one passes (quizzes, rooms, materials)', async () => {
    const pdfs = await Promise.all([uniquePdf(), uniquePdf(), uniquePdf()]);
    app = await start({ MAX_QUIZZES_PER_CLASS: '3', MAX_OPEN_ROOMS_PER_ACCOUNT: '1', MAX_MATERIALS_PER_ACCOUNT: '1' });
    const current = app;
    const created: CreatedClass = await createClass(current, { name: '경쟁 반' });
    for (let index = 0; index < 2; index += 1) expect((await postQuiz(current, created)).status).toBe(201);
    const quizzes = await Promise.all(Array.from({ length: 6 }, (_, index) => postQuiz(current, created, `동시 ${index}`)));
    expect(quizzes.map((reply) => reply.status).sort()).toEqual([201, 429, 429, 429, 429, 429]);
    expect(await current.quotas.usage('class', created.classId)).toEqual({ quizzes: 3 });

    const setup = await createQuiz(current);
    const rooms = await Promise.all(Array.from({ length: 5 }, () => postRoom(current, setup)));
    expect(rooms.map((reply) => reply.status).sort()).toEqual([201, 429, 429, 429, 429]);

    const teacher = await signUp(current);
    const uploads = await Promise.all(pdfs.map((bytes) => upload(current, bytes, teacher.bearer)));
    expect(uploads.map((reply) => reply.status).sort()).toEqual([201, 429, 429]);
    expect((await current.quotas.usage('account', teacher.accountId)).materials).toBe(1);
  });

  it('QT6: the daily model budget: quiz generation and uploads are refused once the account spent it; usage expires', async () => {
    app = await start({ MODEL_DAILY_TOKENS: '1' });
    const current = app;
    const teacher = await signUp(current);
    const other = await signUp(current);
    // Both own the material (as if both had uploaded it; the upload itself is not what this test spends).
    const material = await uploadPdf(current, await uniquePdf(), 'budget.pdf');
    for (const account of [teacher, other]) await current.ownership.addMaterialOwner(material.id, account.accountId, Date.now());
    const made = await call(`${current.url}/api/classes`, 'POST', { body: { name: '예산 반' }, headers: teacher.bearer });
    const created = made.body as CreatedClass;
    // Generation is billed to the calling account (the class's owner for the teacher's class quiz).
    const generate = (account: SignedUpAccount) =>
      call(`${current.url}/api/materials/${material.id}/quiz`, 'POST', { body: account === teacher ? { classId: created.classId } : {}, headers: account.bearer });

    // The first call finds the budget unspent; it spends more than 1, so the next one is refused before it starts.
    expect((await generate(teacher)).status).toBe(201);
    const usageKey = usageKeys.usage('account', accountUsageId(teacher.accountId, Date.now()));
    expect(Number((await current.store.hget(usageKey, 'input')) ?? 0)).toBeGreaterThan(0);
    const ttl = await current.store.pttl(usageKey);
    expect(ttl).toBeGreaterThan(RETENTION.accountUsageMs - 60_000);
    expect(ttl).toBeLessThanOrEqual(RETENTION.accountUsageMs);

    const refused = await generate(teacher);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'MODEL_BUDGET_EXCEEDED', limit: 1 });
    expect(refused.body.error.message).toContain('AI 사용량');
    expect(refused.body.error.message).not.toContain('토큰');
    expect(await current.quotas.usage('class', created.classId)).toEqual({ quizzes: 1 });
    const uploadRefused = await upload(current, await uniquePdf(), teacher.bearer);
    expect(uploadRefused.status).toBe(429);
    expect(uploadRefused.body.error.code).toBe('MODEL_BUDGET_EXCEEDED');
    // Budgets are per account.
    expect((await generate(other)).status).toBe(201);

    // Every key this run left has a TTL or is one of the durable keys (the quota counters are).
    const found = await scanStore(current, storeKind === 'redis' ? redis.url : undefined);
    expect(found).toContain(quotaKeys.quota('class', created.classId));
    const untimed: string[] = [];
    for (const key of found) if ((await current.store.pttl(key)) === -1 && !isDurableKey(key)) untimed.push(key);
    expect(untimed).toEqual([]);
  });

  it("QT7: a lecture billed to an account whose budget is spent tells the student the class's budget is spent", async () => {
    app = await start({ MODEL_DAILY_TOKENS: '10' });
    const current = app;
    const teacher = await signUp(current);
    const material = await uploadPdf(current, await uniquePdf(), 'lecture.pdf');
    await current.store.hincrby(usageKeys.usage('account', accountUsageId(teacher.accountId, Date.now())), 'output', 10);
    const { token } = await current.lectures.createSession({ materialId: material.id, nickname: '학생', billTo: teacher.accountId });
    const client = new LectureClient(current.socket('/tutor', { token }));
    await connected(client.socket);
    await client.ok('lecture:start');
    const error = await client.waitForEvent('session:error');
    expect(error.code).toBe('MODEL_BUDGET_EXCEEDED');
    expect(error.message).toContain('이 수업이 오늘 쓸 수 있는 AI 사용량');
    expect(error.message).not.toContain('토큰');
    client.socket.disconnect();
  });

  it("QT12: a class student's lecture is billed to the class's instructor, across a reload; a preview to the instructor who opens it", async () => {
    app = await start({ MODEL_DAILY_TOKENS: '10' });
    const current = app;
    const material = await uploadPdf(current, await uniquePdf(), 'class.pdf');
    const created = await createClass(current, { name: '청구 수업', materialId: material.id });
    const owner = await defaultInstructor(current);
    const joined = await call(`${current.url}/api/classes/${created.code}/join`, 'POST', { body: { nickname: '학생' } });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    const sessionId = joined.body.sessionId as string;
    // The session names the class's owner, and a reload (another node, a restart) keeps it.
    expect((await current.lectures.repository.load(sessionId))?.profile.billTo).toBe(owner.accountId);

    // Once the owner's day is spent, the student's lecture says so instead of calling the model.
    await current.store.hincrby(usageKeys.usage('account', accountUsageId(owner.accountId, Date.now())), 'output', 10);
    const client = new LectureClient(current.socket('/tutor', { token: joined.body.token as string }));
    await connected(client.socket);
    await client.ok('lecture:start');
    expect((await client.waitForEvent('session:error')).code).toBe('MODEL_BUDGET_EXCEEDED');
    client.socket.disconnect();

    // An instructor previewing their own material pays for it; a student of nobody's class is not billed.
    const preview = await call(`${current.url}/api/sessions`, 'POST', { body: { materialId: material.id, nickname: '미리 보기' }, headers: owner.bearer });
    expect(preview.status, JSON.stringify(preview.body)).toBe(201);
    expect((await current.lectures.repository.load(preview.body.sessionId as string))?.profile.billTo).toBe(owner.accountId);
  });

  it('QT8: MODEL_DAILY_TOKENS=0 is unlimited', async () => {
    app = await start({ MODEL_DAILY_TOKENS: '0' });
    const current = app;
    const teacher = await signUp(current);
    await current.store.hincrby(usageKeys.usage('account', accountUsageId(teacher.accountId, Date.now())), 'output', 1e9);
    await expect(current.budget.assertAvailable(teacher.accountId)).resolves.toBeUndefined();
    expect((await upload(current, await uniquePdf(), teacher.bearer)).status).toBe(201);
  });
});
