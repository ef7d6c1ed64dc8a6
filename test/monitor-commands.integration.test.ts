/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - MN1 — Transcript. `student:transcript` answers the student's questions, answers, verdicts with feedback, replies
 *   and raise-hand dialogue …
 * - MN2 — Other classes. Another class's instructor gets `FORBIDDEN` on `student:transcript` and `hand:reply` for
 *   this class's student and for an unknown id …
 * - MN3 — Direct reply. `hand:reply` (text trimmed, 1–1000) reaches the student as a numbered `hand:instructor-reply
 *   {seq, text, sentAt}` (no seq gap), every instructor tab gets `hand:answered` …
 * - MN4 — Reply while away. A reply sent after the student's socket left arrives, in seq order, when the student
 *   resumes.
 * - MN5 — Close. `class:close` → `410 CLASS_CLOSED` (Korean message) on `POST /api/classes/:code/join` and `POST
 *   /api/sessions` with `classCode`; students get `class:closed {at}` …
 * - MN6 — New code. `class:rotate-code` and `POST /api/classes/:id/code` give a new code of the alphabet; the old one
 *   is `404 CLASS_NOT_FOUND` at once, the new one admits students …
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Material } from '../src/materials/index.js';
import type { TranscriptItem } from '../src/protocol/wire/tutor.js';
import { connectInstructor, countNotices, createClass, getJson, joinClass, postJson, storeReady, waitForNotice } from './support/classroom-client.js';
import { askHand, lowerHand, raiseHand, SPECIFIC_QUESTION } from './support/hand-client.js';
import { LectureClient, loadSample, offlineStudent, samplePdfBytes, connectedOrThrow } from './support/lecture-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * MN1–MN6 (test/SPEC.md): the instructor's `/monitor` commands — a student's transcript, a direct reply
 * to a raised hand, closing the class and rotating its code — on a real server with real sockets, on the memory
 * store and on Redis.
 */

const redis = suiteRedis();
let app: TestApp | undefined;
afterEach(async () => {
  await app?.stop();
  app = undefined;
});
beforeAll(async () => {
  await samplePdfBytes();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const DIALOGUE_TYPES = ['question', 'subquestion', 'reask', 'answer', 'verdict', 'reply', 'assistant', 'student', 'hand-closed', 'instructor'];

describe.each(['memory', 'redis'] as const)('instructor commands (%s store)', (store) => {
  async function boot(): Promise<{ app: TestApp; material: Material }> {
    app = await startTestApp(store === 'redis' ? { REDIS_URL: redis.url } : {});
    await storeReady(app);
    return { app, material: await loadSample(app) };
  }

  /**
   * A student who answered the first question wrongly and has the hand up at the next question, which nobody answers:
   * once the hand closes the session waits there and its transcript holds still.
   */
  async function studentWithHand(current: TestApp, material: Material, code: string, nickname: string) {
    const joined = await joinClass(current, code, nickname, { policy: offlineStudent(current, material.id, () => false) });
    const { client } = joined;
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.ok('lecture:start');
    await client.waitForEvent('tutor:verdict');
    // Once the lecture streams again the tutoring is over; the hand goes up at the next question, not on the way to it
    // (raised after the student had answered it, the tutor would be judging: HAND_NOT_NOW).
    await client.waitForEvent('lecture:delta', { from: client.events.length });
    client.policy = undefined;
    await client.waitForEvent('lecture:question', { from: client.events.length });
    await raiseHand(client);
    await client.waitForEvent('assistant:prompt');
    return joined;
  }

  it('MN1: student:transcript pages through answers, verdicts with feedback, replies and the dialogue; never a model answer', async () => {
    const { app: current, material } = await boot();
    const created = await createClass(current, { name: '기록', materialId: material.id });
    const { monitor } = await connectInstructor(current, created.instructorToken);
    const { client, sessionId } = await studentWithHand(current, material, created.code, '민지');
    // The transcript must hold still while it is paged: once the hand closes the session waits at the question the
    // hand was raised at, which nobody answers.
    await askHand(client, SPECIFIC_QUESTION);
    await client.waitForEvent('hand:closed');

    const whole = await monitor.command('student:transcript', { sessionId, limit: 100 });
    if (!whole.ok) throw new Error(whole.error.code);
    expect(whole).toMatchObject({ sessionId, nickname: '민지', nextCursor: null });
    const types = whole.items.map((item) => item.type);
    expect(types).toEqual(expect.arrayContaining(['question', 'answer', 'verdict', 'reply', 'assistant', 'student', 'hand-closed']));
    for (const item of whole.items) expect(DIALOGUE_TYPES).toContain(item.type);
    const verdict = whole.items.find((item): item is Extract<TranscriptItem, { type: 'verdict' }> => item.type === 'verdict');
    expect(verdict?.feedback.length).toBeGreaterThan(0);
    expect(whole.items).toContainEqual(expect.objectContaining({ type: 'student', text: SPECIFIC_QUESTION }));
    // What the student was shown, no more: the snapshot's transcript is the same list (it never holds model answers).
    const resumed = await client.ok('session:resume', { lastSeq: 0 });
    expect(resumed.snapshot).toBe(true);
    const snapshot = await client.waitForEvent('session:state', { from: client.events.length - 1 });
    expect(whole.items).toEqual(snapshot.state.transcript);
    expect(JSON.stringify(whole.items)).not.toMatch(/modelAnswer|reference/);

    // Pages of 2 put together are the whole transcript, in order.
    const pages: TranscriptItem[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 100; guard += 1) {
      const page = await monitor.command('student:transcript', { sessionId, limit: 2, ...(cursor ? { cursor } : {}) });
      if (!page.ok) throw new Error(page.error.code);
      expect(page.items.length).toBeLessThanOrEqual(2);
      pages.push(...page.items);
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(pages).toEqual(whole.items);

    for (const bad of [{ sessionId, limit: 0 }, { sessionId, limit: 101 }, { sessionId, cursor: 'abc' }, { sessionId, extra: 1 }]) {
      expect(await monitor.unchecked('student:transcript', bad)).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    }
  });

  it("MN2: another class's instructor gets FORBIDDEN for every new command on this class's students, and closes or rotates only its own class", async () => {
    const { app: current, material } = await boot();
    const mine = await createClass(current, { name: '내 반', materialId: material.id });
    const other = await createClass(current, { name: '남의 반', materialId: material.id });
    const { sessionId } = await studentWithHand(current, material, mine.code, '서연');
    const { monitor: intruder } = await connectInstructor(current, other.instructorToken);

    for (const id of [sessionId, 'no-such-session']) {
      expect(await intruder.command('student:transcript', { sessionId: id })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      expect(await intruder.command('hand:reply', { sessionId: id, text: '제가 답할게요' })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    // The intruder's close and rotate act on its own class: mine keeps its code and stays open.
    expect(await intruder.command('class:rotate-code', {})).toMatchObject({ ok: true });
    expect(await intruder.command('class:close', {})).toMatchObject({ ok: true });
    const info = await current.classes.info(mine.classId);
    expect(info).toMatchObject({ code: mine.code, closedAt: null });
    expect(info.students[0]?.hand?.answered).toBe(false);
    expect((await postJson(`${current.url}/api/classes/${mine.code}/join`, { nickname: '다른 학생' })).status).toBe(201);

    // Over HTTP, another class's token finds no such class (404: no probing); no credential 401.
    for (const path of ['close', 'code']) {
      const refused = await postJson(`${current.url}/api/classes/${mine.classId}/${path}`, {}, bearer(other.instructorToken));
      expect(refused).toMatchObject({ status: 404, body: { error: { code: 'CLASS_NOT_FOUND' } } });
      expect((await postJson(`${current.url}/api/classes/${mine.classId}/${path}`, {})).status).toBe(401);
    }
    expect(await current.classes.info(mine.classId)).toMatchObject({ code: mine.code, closedAt: null });
  });

  it('MN3: hand:reply reaches the student as a numbered dialogue event, marks the hand answered, and survives a reconnect', async () => {
    const { app: current, material } = await boot();
    const created = await createClass(current, { name: '답장', materialId: material.id });
    const { monitor } = await connectInstructor(current, created.instructorToken);
    const { monitor: otherTab } = await connectInstructor(current, created.instructorToken);
    const bystander = await joinClass(current, created.code, '구경꾼');
    expect(await monitor.command('hand:reply', { sessionId: bystander.sessionId, text: '안녕' })).toMatchObject({
      ok: false,
      error: { code: 'HAND_NOT_RAISED' },
    });
    const { client, sessionId, token } = await studentWithHand(current, material, created.code, '지유');
    await monitor.waitFor('hand:raised', (hand) => hand.sessionId === sessionId);

    const text = '<b>좋은 질문</b>이에요. 표준편차는 분산의 제곱근입니다.';
    const before = client.events.length;
    const ack = await monitor.command('hand:reply', { sessionId, text: `  ${text}  ` });
    if (!ack.ok) throw new Error(ack.error.code);
    const delivered = await client.waitForEvent('hand:instructor-reply', { from: before });
    expect(delivered).toEqual({ seq: expect.any(Number), text, sentAt: ack.at });
    expect(await otherTab.waitFor('hand:answered')).toEqual({ sessionId, text, at: ack.at });
    expect((await current.classes.info(created.classId)).students.find((student) => student.sessionId === sessionId)?.hand).toMatchObject({
      answered: true,
    });
    expect(countNotices(bystander.client, 'hand:instructor-reply')).toBe(0);
    expect(client.seqErrors).toEqual([]);

    // The dialogue goes on as usual: the student lowers the hand.
    await lowerHand(client);
    await client.waitForEvent('hand:closed', { from: before });
    client.socket.disconnect();

    // A new socket: a replay from before the reply contains it with its seq, and a snapshot's transcript has it.
    const again = new LectureClient(current.socket('/tutor', { token }));
    await connectedOrThrow(again.socket);
    const replay = await again.ok('session:resume', { lastSeq: delivered.seq - 1 });
    expect(replay.snapshot).toBe(false);
    expect(await again.waitForEvent('hand:instructor-reply')).toEqual(delivered);
    await again.ok('session:resume', { lastSeq: 0 });
    const snapshot = await again.waitForEvent('session:state');
    expect(snapshot.state.transcript).toContainEqual({ type: 'instructor', chapter: expect.any(Number), at: expect.any(Number), text, sentAt: ack.at });
    const page = await monitor.command('student:transcript', { sessionId });
    expect(page.ok && page.items.filter((item) => item.type === 'instructor')).toHaveLength(1);

    for (const bad of [{ sessionId, text: '' }, { sessionId, text: '   ' }, { sessionId, text: 'x'.repeat(1001) }]) {
      expect(await monitor.unchecked('hand:reply', bad)).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    }
  });

  it('MN4: a reply sent while the student is away is delivered when the session is attached again', async () => {
    const { app: current, material } = await boot();
    const created = await createClass(current, { name: '부재', materialId: material.id });
    const { monitor } = await connectInstructor(current, created.instructorToken);
    const { client, sessionId, token } = await studentWithHand(current, material, created.code, '하준');
    client.socket.disconnect();
    await monitor.waitFor('student:left', (left) => left.sessionId === sessionId);

    const ack = await monitor.command('hand:reply', { sessionId, text: '돌아오면 보세요' });
    expect(ack.ok).toBe(true);
    // The same student on a new socket, resuming from the last event it had: the reply follows in seq order.
    const from = client.events.length;
    client.use(current.socket('/tutor', { token }));
    await connectedOrThrow(client.socket);
    await client.ok('session:resume', { lastSeq: client.lastSeq });
    expect(await client.waitForEvent('hand:instructor-reply', { from })).toMatchObject({ text: '돌아오면 보세요' });
    expect(client.seqErrors).toEqual([]);
  });

  it('MN5: class:close refuses the code with 410 CLASS_CLOSED, tells students and instructors, and the roster shows it', async () => {
    const { app: current, material } = await boot();
    const created = await createClass(current, { name: '종강', materialId: material.id });
    const { monitor } = await connectInstructor(current, created.instructorToken);
    const { client } = await joinClass(current, created.code, '도윤');
    const closed = await monitor.command('class:close', {});
    if (!closed.ok) throw new Error(closed.error.code);
    expect(await monitor.waitFor('class:closed')).toEqual({ closedAt: closed.closedAt });
    expect(await waitForNotice(client, 'class:closed')).toEqual({ at: closed.closedAt });

    const join = await postJson(`${current.url}/api/classes/${created.code}/join`, { nickname: '늦은 학생' });
    expect(join).toMatchObject({ status: 410, body: { error: { code: 'CLASS_CLOSED' } } });
    expect(String((join.body as { error: { message: string } }).error.message)).toMatch(/끝난 수업/);
    const session = await postJson(`${current.url}/api/sessions`, { nickname: '늦은 학생', classCode: created.code });
    expect(session).toMatchObject({ status: 410, body: { error: { code: 'CLASS_CLOSED' } } });

    // Closing again keeps the first time; the class can no longer get a new code.
    expect(await monitor.command('class:close', {})).toEqual({ ok: true, closedAt: closed.closedAt });
    expect(await monitor.command('class:rotate-code', {})).toMatchObject({ ok: false, error: { code: 'CLASS_CLOSED' } });
    const { roster } = await connectInstructor(current, created.instructorToken);
    expect(roster.closedAt).toBe(closed.closedAt);
    const info = await getJson(`${current.url}/api/classes/${created.classId}`, bearer(created.instructorToken));
    expect(info.body).toMatchObject({ closedAt: closed.closedAt });

    // Over HTTP too, for API clients.
    const other = await createClass(current, { name: 'HTTP 종강', materialId: material.id });
    const byHttp = await postJson(`${current.url}/api/classes/${other.classId}/close`, {}, bearer(other.instructorToken));
    expect(byHttp).toMatchObject({ status: 200, body: { closedAt: expect.any(Number) } });
    expect((await postJson(`${current.url}/api/classes/${other.code}/join`, { nickname: '학생' })).status).toBe(410);
  });

  it('MN6: class:rotate-code gives a new unique code; the old one stops working at once (socket and HTTP)', async () => {
    const { app: current, material } = await boot();
    const created = await createClass(current, { name: '코드', materialId: material.id });
    const { monitor } = await connectInstructor(current, created.instructorToken);
    const rotated = await monitor.command('class:rotate-code', {});
    if (!rotated.ok) throw new Error(rotated.error.code);
    expect(rotated.code).not.toBe(created.code);
    expect(rotated.code).toMatch(/^[ACDEFGHJKMNPQRTUVWXY34679]{6}$/);
    expect(await monitor.waitFor('class:code')).toEqual({ code: rotated.code });
    expect((await postJson(`${current.url}/api/classes/${created.code}/join`, { nickname: '옛 코드' })).body).toMatchObject({
      error: { code: 'CLASS_NOT_FOUND' },
    });
    expect((await postJson(`${current.url}/api/classes/${rotated.code}/join`, { nickname: '새 코드' })).status).toBe(201);

    const byHttp = await postJson<{ code: string }>(`${current.url}/api/classes/${created.classId}/code`, {}, bearer(created.instructorToken));
    expect(byHttp.status).toBe(200);
    const third = byHttp.body.code ?? '';
    expect(third).not.toBe(rotated.code);
    expect((await postJson(`${current.url}/api/classes/${rotated.code}/join`, { nickname: '두 번째' })).status).toBe(404);
    expect((await postJson(`${current.url}/api/classes/${third}/join`, { nickname: '세 번째' })).status).toBe(201);
    expect(await current.classes.info(created.classId)).toMatchObject({ code: third });
  });
});
