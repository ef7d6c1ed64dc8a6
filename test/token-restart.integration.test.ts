import { PROTOCOL_VERSION } from '../src/protocol/wire/ack.js';
import { Redis } from 'ioredis';
import { io as connect } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionPayload } from '../src/protocol/quiz.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { getJson, postJson, type CreatedClass } from './support/classroom-client.js';
import { signUp } from './support/accounts.js';
import { connectedOrThrow, LectureClient, samplePdfBytes } from './support/lecture-client.js';
import { compileMain, startMain, type MainProcess } from './support/main-process.js';
import { joinRoom, openHost, sampleItems, type QuizClient } from './support/quiz-client.js';
import { startRedisServer } from './support/redis-server.js';
import { authKeys } from '../src/auth/auth-keys.js';

/**
 * O1 (test/SPEC.md): two real server processes on a throwaway redis-server with no TOKEN_SECRET share one generated
 * secret, and keep it across a restart of both: the tokens issued before (student, instructor) still work after.
 * The nodes run src/main.ts transpiled once (compileMain): through tsx, each of the four starts compiles the server
 * again, which took the test from 10 s to about 40 s on an idle machine and far longer beside another suite.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});
let compiled: Awaited<ReturnType<typeof compileMain>> | undefined;
beforeAll(async () => {
  await samplePdfBytes();
  compiled = await compileMain();
});
afterAll(() => compiled?.remove());

async function node(redisUrl: string, nodeId: string): Promise<MainProcess> {
  const started = await startMain({ REDIS_URL: redisUrl, NODE_ID: nodeId, PRELOAD_SAMPLE: 'false' }, { entry: compiled!.entry });
  cleanups.push(() => started.stop('SIGKILL'));
  return started;
}

function studentSocket(url: string, token: string) {
  return connect(`${url}/tutor`, { auth: { protocolVersion: PROTOCOL_VERSION, token }, transports: ['websocket'], reconnection: false, forceNew: true });
}

describe('tokens across a restart with no TOKEN_SECRET', () => {
  it('O1 two nodes share a generated secret; after both restart the student resumes the same text and the instructor reads the class and results', async () => {
    const redisServer = await startRedisServer();
    cleanups.push(() => redisServer.stop());
    const redis = new Redis(redisServer.url, { maxRetriesPerRequest: 3 });
    cleanups.push(() => redis.quit());

    let [a, b] = await Promise.all([node(redisServer.url, 'node-a'), node(redisServer.url, 'node-b')]);
    const secret = await redis.get(authKeys.tokenSecret());
    expect(secret).toEqual(expect.any(String));
    expect(await redis.pttl(authKeys.tokenSecret())).toBe(-1);
    for (const started of [a, b]) expect(started.output()).toContain('TOKEN_SECRET is not set');

    // ---- before the restart: material and class on A, the student on B (B checks A's tokens).
    const upload = new FormData();
    upload.append('file', new Blob([Buffer.from(await samplePdfBytes())], { type: 'application/pdf' }), 'sample.pdf');
    const owner = await signUp(a);
    const material = (await (await fetch(`${a.url}/api/materials`, { method: 'POST', body: upload, headers: owner.bearer })).json()) as { id: string };
    const made = await postJson<CreatedClass>(`${a.url}/api/classes`, { name: '재시작 반', materialId: material.id }, owner.bearer);
    expect(made.status).toBe(201);
    const created = made.body as CreatedClass;
    const bearer = { authorization: `Bearer ${created.instructorToken}` };
    const joined = await postJson<{ sessionId: string; token: string }>(`${b.url}/api/classes/${created.code}/join`, { nickname: '철수' });
    expect(joined.status).toBe(201);
    const { sessionId, token } = joined.body as { sessionId: string; token: string };

    const socket = studentSocket(b.url, token);
    const student = new LectureClient(socket);
    student.sessionId = sessionId;
    cleanups.push(async () => student.socket.disconnect());
    await connectedOrThrow(socket);
    await student.ok('session:resume', { lastSeq: 0 });
    await student.ok('lecture:start');
    await student.waitForText(0, 40);
    await student.ok('lecture:pause');
    const seenBefore = student.text.get(0) ?? '';

    // A quiz of the class, played to the end: host on B (room made on A), one player on A.
    const quiz = await postJson<{ quizId: string }>(`${a.url}/api/quizzes`, { title: '복습', items: sampleItems(1) }, bearer);
    expect(quiz.status).toBe(201);
    const room = await postJson<{ roomId: string; code: string; hostToken: string }>(
      `${a.url}/api/rooms`,
      { quizId: quiz.body.quizId, options: { questionSeconds: 60, previewSeconds: 0 } },
      bearer,
    );
    expect(room.status).toBe(201);
    const { roomId, code, hostToken } = room.body as { roomId: string; code: string; hostToken: string };
    const host = await openHost(b.url, hostToken);
    const player = await joinRoom(a.url, code, '영희');
    const clients: QuizClient[] = [host, player.client];
    cleanups.push(async () => clients.forEach((client) => client.close()));
    const opened = player.client.next<QuestionPayload>('room:question', (question) => question.phase === 'open');
    expect((await host.emit('room:start')).ok).toBe(true);
    await opened;
    expect((await player.client.emit('answer:submit', { questionIndex: 0, choice: sampleItems(1)[0]!.answer })).ok).toBe(true);
    await player.client.latest('room:reveal');
    for (const step of ['leaderboard', 'podium', 'ended']) expect((await host.emit('room:next')).ok, step).toBe(true);
    clients.forEach((client) => client.close());

    // ---- restart both nodes: still no TOKEN_SECRET anywhere.
    student.socket.disconnect();
    for (const stopped of await Promise.all([a.stop(), b.stop()])) expect(stopped.code).toBe(0);
    [a, b] = await Promise.all([node(redisServer.url, 'node-a'), node(redisServer.url, 'node-b')]);
    expect(await redis.get(authKeys.tokenSecret())).toBe(secret);

    // The student comes back (to the other node this time) with the same token and the same text.
    const again = studentSocket(a.url, token);
    student.use(again);
    await connectedOrThrow(again);
    const resumed = await student.ok('session:resume', { lastSeq: student.lastSeq });
    expect(resumed).toMatchObject({ ok: true });
    await student.ok('lecture:resume');
    await student.waitForText(0, seenBefore.length + 40);
    expect(student.text.get(0)!.startsWith(seenBefore)).toBe(true);
    expect(student.seqErrors).toEqual([]);
    // Rejoining is not needed, and would be refused: the nickname is still the student's.
    expect((await postJson(`${b.url}/api/classes/${created.code}/join`, { nickname: '철수' })).status).toBe(409);

    // The instructor token reads the class and the finished room's results on either node.
    const classView = await getJson<{ classId: string }>(`${b.url}/api/classes/${created.classId}`, bearer);
    expect(classView.status).toBe(200);
    expect(JSON.stringify(classView.body)).toContain('철수');
    const results = await getJson<RoomResults>(`${a.url}/api/rooms/${roomId}/results`, bearer);
    expect(results.status).toBe(200);
    expect(results.body).toMatchObject({ roomId, phase: 'ended', players: [{ nickname: '영희', rank: 1, correctCount: 1 }] });
  });
});
