import { readdirSync } from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { Redis } from 'ioredis';
import type { RoomOptions } from '../../src/protocol/quiz.js';
import { MemoryStore } from '../../src/store/index.js';
import { defaultInstructor, type SignedUpAccount } from './accounts.js';
import { connectInstructor, createClass, joinClass, postJson, type CreatedClass } from './classroom-client.js';
import { askHand, raiseHand, SPECIFIC_QUESTION } from './hand-client.js';
import { offlineStudent, samplePdfBytes } from './lecture-client.js';
import { joinRoom, openHost, sampleItems } from './quiz-client.js';
import type { TestApp } from './test-app.js';
import { classKeys } from '../../src/classroom/class-keys.js';
import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * A class's whole life for the deletion and retention tests (DL*): materials uploaded over HTTP, a class whose
 * student follows the lecture (questions answered, a hand raised and asked), a quiz played in a room to the end.
 * Every client is closed (and the roster shows it) before it returns, so nothing writes behind a deletion.
 */

export interface MaterialUpload {
  id: string;
}

/** Uploads PDF bytes through `POST /api/materials`. */
export async function uploadPdf(app: Parameters<typeof defaultInstructor>[0], bytes: Uint8Array, filename: string, account?: SignedUpAccount): Promise<MaterialUpload> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), filename);
  const { bearer } = account ?? (await defaultInstructor(app));
  const response = await fetch(`${app.url}/api/materials`, { method: 'POST', body: form, headers: bearer });
  const body = (await response.json()) as { id?: string };
  if (!response.ok || !body.id) throw new Error(`upload: ${response.status} ${JSON.stringify(body)}`);
  return { id: body.id };
}

/** The sample PDF made again with another title: other bytes, so another material (ids are content hashes). */
export async function madePdf(title: string): Promise<Uint8Array> {
  const document = await PDFDocument.load(await samplePdfBytes());
  document.setTitle(title);
  return document.save();
}

export interface ClassRun {
  created: CreatedClass;
  classId: string;
  sessionIds: string[];
  quizId: string;
  roomId: string;
  roomCode: string;
  /** The self-study items (seed 001's `quiz_id`) the student was served, one of them answered. */
  selfQuizIds: string[];
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * A class on `materialId`: one student follows the whole lecture (every question answered, the first wrongly) with a
 * raised hand on the way, then a quiz of two questions is played by two players to the podium and ended.
 */
export async function runClass(app: TestApp, materialId: string, name: string, options: { wholeLecture?: boolean } = {}): Promise<ClassRun> {
  const created = await createClass(app, { name, materialId });
  const { monitor } = await connectInstructor(app, created.instructorToken);
  const { client, sessionId, token } = await joinClass(app, created.code, '민지', { policy: offlineStudent(app, materialId, (_asked, ordinal) => ordinal > 1) });
  await client.ok('lecture:speed', { tokensPerSecond: 30 });
  await client.ok('lecture:start');
  await client.waitForText(0, 20);
  await raiseHand(client);
  await client.waitForEvent('assistant:prompt');
  await askHand(client, SPECIFIC_QUESTION);
  await monitor.waitFor('hand:raised', (hand) => hand.sessionId === sessionId && hand.question !== undefined);
  if (options.wholeLecture !== false) {
    await client.waitForEvent('hand:closed');
    await client.ok('lecture:speed', { tokensPerSecond: 200 });
    await client.waitForEvent('lecture:end');
  }

  const played = await playQuizRoom(app, created, name);

  // A self-study quiz on the first chapter (seed 001's API, the student's session token), one item answered.
  const selfQuiz = await postJson<{ response: { quiz_id: string }[] }>(`${app.url}/api/quiz/start`, { topic: 'general', materialId, chapter: 0 }, bearer(token));
  if (selfQuiz.status !== 200) throw new Error(`self-study start: ${selfQuiz.status} ${JSON.stringify(selfQuiz.body)}`);
  const selfQuizIds = (selfQuiz.body.response ?? []).map((item) => item.quiz_id);
  await postJson(`${app.url}/api/quiz/answer`, { quiz_id: selfQuizIds[0], answer: 0 }, bearer(token));

  // The student leaves; the roster must show it before anything is deleted (the socket count is a roster write).
  client.socket.disconnect();
  await monitor.waitFor('student:left', (left) => left.sessionId === sessionId);
  await untilDisconnected(app, created.classId, sessionId);
  monitor.socket.disconnect();
  return { created, classId: created.classId, sessionIds: [sessionId], selfQuizIds, ...played };
}

export interface PlayedRoom {
  quizId: string;
  roomId: string;
  roomCode: string;
}

/** A quiz of two questions made in the class and played in a room by two players, to the podium and the end. */
export async function playQuizRoom(app: Pick<TestApp, 'url'>, created: CreatedClass, name: string): Promise<PlayedRoom> {
  const auth = bearer(created.instructorToken);
  const quiz = await postJson<{ quizId: string }>(`${app.url}/api/quizzes`, { title: `${name} 퀴즈`, items: sampleItems(2) }, auth);
  const roomOptions: Partial<RoomOptions> = { questionSeconds: 10, previewSeconds: 0 };
  const room = await postJson<{ roomId: string; code: string; hostToken: string }>(`${app.url}/api/rooms`, { quizId: quiz.body.quizId!, options: roomOptions }, auth);
  const host = await openHost(app.url, room.body.hostToken!);
  const players = [await joinRoom(app.url, room.body.code!, '하나'), await joinRoom(app.url, room.body.code!, '두리')];
  await host.next('room:players', (update: { playerCount: number }) => update.playerCount === 2);
  for (let q = 0; q < 2; q += 1) {
    const opened = players.map((player) => player.client.next('room:question', (payload: { phase: string; question: { index: number } }) => payload.phase === 'open' && payload.question.index === q));
    if (q > 0) await host.emit('room:next');
    await host.emit(q === 0 ? 'room:start' : 'room:next');
    await Promise.all(opened);
    const reveal = host.next('room:reveal');
    for (const player of players) await player.client.emit('answer:submit', { questionIndex: q, choice: q });
    await reveal;
  }
  await host.emit('room:next');
  const ended = players[0]!.client.next('room:ended');
  await host.emit('room:next');
  await host.emit('room:end');
  await ended;
  for (const quizClient of [host, ...players.map((player) => player.client)]) quizClient.close();
  return { quizId: quiz.body.quizId!, roomId: room.body.roomId!, roomCode: room.body.code! };
}

async function untilDisconnected(app: TestApp, classId: string, sessionId: string): Promise<void> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const entry = await app.store.hgetall(classKeys.classStudent(classId, sessionId));
    const sockets = Object.entries(entry).filter(([field]) => field.startsWith('sockets@')).reduce((sum, [, value]) => sum + Number(value), 0);
    if (sockets === 0) return;
    if (Date.now() > deadline) throw new Error(`student ${sessionId} still counted as connected`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Every `lectern:` key of the app's store (SCAN on Redis, the memory store's own listing otherwise). */
export async function scanStore(app: TestApp, redisUrl?: string): Promise<string[]> {
  if (app.store instanceof MemoryStore) return app.store.keysWithPrefix('lectern:').sort();
  if (!redisUrl) throw new Error('scanStore: a Redis app needs its URL');
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', 'lectern:*', 'COUNT', 500);
      cursor = next;
      for (const key of batch) found.add(key);
    } while (cursor !== '0');
    return [...found].sort();
  } finally {
    client.disconnect();
  }
}

/** Files under DATA_DIR/blobs (the memory store's blobs). */
export function blobFiles(app: TestApp): string[] {
  try {
    return readdirSync(path.join(app.config.dataDir, 'blobs')).sort();
  } catch {
    return [];
  }
}
