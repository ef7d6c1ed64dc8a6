/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - UX3 — Field names. A zod path reads as Korean (`['items', 2, 'choices', 1]` → "3번 문항의 2번 보기").
 * - UX4 — HTTP errors. A table of 24 bad requests (bodies, params, queries, broken JSON, missing/forged/wrong
 *   credentials) on the class, session, quiz, room, list, QR and material routes …
 * - UX5 — Socket errors. The same over 13 bad command payloads on `/quiz`, `/monitor` and `/tutor` (INVALID_PAYLOAD
 *   acks).
 * - UX6 — Handshakes. Refused handshakes (no, forged, wrong-kind credential) carry a Korean `data.message` without
 *   "토큰".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { koreanFieldName } from '../src/boundary/zod-korean.js';
import { defaultInstructor } from './support/accounts.js';
import { createClass, handshakeOutcome, type CreatedClass } from './support/classroom-client.js';
import { joinLecture, loadSample } from './support/lecture-client.js';
import { createQuiz, createRoom, sampleItems, type CreatedRoom, type QuizSetup } from './support/quiz-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Every error a person can see is a Korean sentence: over a table of bad requests on the HTTP routes and bad payloads
 * on the socket commands (real server, real socket.io clients), no message carries a regex, a zod path or English
 * phrase, parser text, a code-style field name or the word 토큰.
 */

/** What must never reach a person. */
const UNFIT: [string, RegExp][] = [
  ['regex', /\/\^|\$\/|must match|pattern/i],
  ['zod English', /Invalid|Too (small|big)|expected|received|Unrecognized|Required/i],
  ['zod path', /\b[a-z]+\.\d+(\.[a-z]+)?\b/i],
  ['parser text', /JSON\.parse|Unexpected token|at position|SyntaxError/],
  ['code-style name', /\b[a-z]+[A-Z][a-zA-Z]*\b/],
  ['token', /토큰|token/i],
];

function expectForPeople(message: unknown, where: string): void {
  expect(typeof message, where).toBe('string');
  const text = message as string;
  expect(text, where).toMatch(/[\uac00-\ud7a3]/u);
  for (const [name, pattern] of UNFIT) expect(text, `${where}: ${name} in "${text}"`).not.toMatch(pattern);
}

let app: TestApp;
let klass: CreatedClass;
let quiz: QuizSetup;
let room: CreatedRoom;

beforeAll(async () => {
  app = await startTestApp();
  klass = await createClass(app, { name: '오류 문구 반' });
  quiz = await createQuiz(app, sampleItems(2));
  room = await createRoom(app, quiz, { previewSeconds: 0 });
});

afterAll(async () => {
  await app?.stop();
});

describe('Korean error messages', () => {
  it('UX3 field names read as Korean: ["items", 2, "choices", 1] is "3번 문항의 2번 보기"', () => {
    expect(koreanFieldName(['items', 2, 'choices', 1])).toBe('3번 문항의 2번 보기');
    expect(koreanFieldName(['options', 'questionSeconds'])).toBe('방 설정의 문제당 시간(초)');
    expect(koreanFieldName([])).toBe('');
  });

  it('UX4 every bad HTTP request answers a Korean message without regex, zod paths, parser text or 토큰', async () => {
    const instructor = { authorization: `Bearer ${quiz.instructorToken}` };
    const account = (await defaultInstructor(app)).bearer;
    const item = sampleItems(1)[0]!;
    const cases: { name: string; method?: string; path: string; body?: unknown; raw?: string; headers?: Record<string, string>; status: number; code?: string }[] = [
      { name: 'class without a body', path: '/api/classes', body: {}, headers: account, status: 400 },
      { name: 'class name not text', path: '/api/classes', body: { name: 5 }, headers: account, status: 400 },
      { name: 'class name empty', path: '/api/classes', body: { name: '' }, headers: account, status: 400 },
      { name: 'broken JSON', path: '/api/classes', raw: '{"name": 수업', headers: account, status: 400 },
      { name: 'join code of the wrong shape', path: '/api/classes/ab!/join', body: { nickname: '민준' }, status: 400 },
      { name: 'join without a nickname', path: `/api/classes/${klass.code}/join`, body: {}, status: 400 },
      { name: 'session with neither material nor code', path: '/api/sessions', body: { nickname: '민준' }, status: 400 },
      { name: 'session with a bad class code', path: '/api/sessions', body: { nickname: '민준', classCode: 'ab' }, status: 400 },
      { name: 'quiz without items', path: '/api/quizzes', body: { title: '퀴즈', items: [] }, headers: instructor, status: 400 },
      { name: 'quiz item with one choice', path: '/api/quizzes', body: { title: '퀴즈', items: [{ ...item, choices: ['하나'] }] }, headers: instructor, status: 400 },
      { name: 'quiz item answer out of range', path: '/api/quizzes', body: { title: '퀴즈', items: [item, { ...item, answer: 9 }] }, headers: instructor, status: 400 },
      { name: 'quiz item unknown difficulty', path: '/api/quizzes', body: { title: '퀴즈', items: [{ ...item, difficulty: 'extreme' }] }, headers: instructor, status: 400 },
      { name: 'quiz with an unknown field', path: '/api/quizzes', body: { title: '퀴즈', items: [item], colour: 'red' }, headers: instructor, status: 400 },
      { name: 'quiz choices repeated', path: '/api/quizzes', body: { title: '퀴즈', items: [{ ...item, choices: ['가', '가', '나', '다'] }] }, headers: instructor, status: 400 },
      { name: 'room without a quiz', path: '/api/rooms', body: { quizId: '' }, headers: instructor, status: 400 },
      { name: 'room with a fractional time', path: '/api/rooms', body: { quizId: quiz.quizId, options: { questionSeconds: 1.5 } }, headers: instructor, status: 400 },
      { name: 'room options with an unknown field', path: '/api/rooms', body: { quizId: quiz.quizId, options: { music: true } }, headers: instructor, status: 400 },
      { name: 'QR of a bad code', method: 'GET', path: '/api/rooms/join-qr.svg?code=abc', status: 400 },
      { name: 'list with a bad limit', method: 'GET', path: '/api/rooms?limit=abc', headers: instructor, status: 400 },
      { name: 'list with a bad cursor', method: 'GET', path: '/api/quizzes?cursor=%21%21', headers: instructor, status: 400 },
      { name: 'list with no credentials', method: 'GET', path: '/api/rooms', status: 401 },
      { name: 'list with a forged credential', method: 'GET', path: '/api/rooms', headers: { authorization: 'Bearer abc.def' }, status: 401 },
      { name: "results with another class's credential", method: 'GET', path: `/api/rooms/${room.roomId}/results`, headers: { authorization: `Bearer ${klass.instructorToken}` }, status: 404 },
      { name: 'a malformed material id', method: 'GET', path: '/api/materials/not-an-id', status: 400 },
    ];
    for (const testCase of cases) {
      const method = testCase.method ?? 'POST';
      const response = await fetch(`${app.url}${testCase.path}`, {
        method,
        headers: { ...(method === 'POST' ? { 'content-type': 'application/json' } : {}), ...testCase.headers },
        ...(method === 'POST' ? { body: testCase.raw ?? JSON.stringify(testCase.body) } : {}),
      });
      const body = (await response.json()) as { error?: { code: string; message: string } };
      expect(response.status, testCase.name).toBe(testCase.status);
      expectForPeople(body.error?.message, testCase.name);
    }
  });

  it('UX5 every bad socket command payload (/quiz, /monitor, /tutor) acks INVALID_PAYLOAD with a Korean message fit for people', async () => {
    const guest = app.socket('/quiz', {});
    const monitor = app.socket('/monitor', { token: klass.instructorToken });
    for (const [name, socket] of Object.entries({ guest, monitor })) expect(await handshakeOutcome(socket), name).toBe('connected');
    const tutor = (await joinLecture(app, (await loadSample(app)).id)).client.socket;

    const cases: [ReturnType<TestApp['socket']>, string, unknown][] = [
      [guest, 'room:join', { code: 'abc', nickname: '민준' }],
      [guest, 'room:join', { code: room.code }],
      [guest, 'room:join', { code: room.code, nickname: '' }],
      [guest, 'room:join', 'code'],
      [guest, 'room:join', { code: room.code, nickname: '민준', colour: 'red' }],
      [monitor, 'class:announce', { text: '' }],
      [monitor, 'class:announce', { text: 5 }],
      [monitor, 'class:announce', { text: 'x'.repeat(501) }],
      [monitor, 'hand:acknowledge', {}],
      [tutor, 'lecture:speed', { tokensPerSecond: 0 }],
      [tutor, 'lecture:speed', { tokensPerSecond: '200' }],
      [tutor, 'answer:submit', { questionId: 42, text: '평균' }],
      [tutor, 'session:resume', { lastSeq: -1 }],
    ];
    for (const [socket, event, payload] of cases) {
      const ack = (await socket.timeout(5_000).emitWithAck(event, payload)) as { ok: boolean; error?: { code: string; message: string } };
      const where = `${event} ${JSON.stringify(payload)}`;
      expect(ack, where).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
      expectForPeople(ack.error?.message, where);
    }
  });

  it('UX6 a refused socket handshake (no, forged or wrong-kind credential) says so in Korean without 토큰', async () => {
    const refusals = [
      app.socket('/monitor', {}),
      app.socket('/monitor', { token: 'abc.def' }),
      app.socket('/tutor', { token: klass.instructorToken }),
    ];
    for (const socket of refusals) {
      const outcome = await handshakeOutcome(socket);
      expect(outcome).not.toBe('connected');
      // The error's message is the code (for programs); people read data.message.
      if (outcome !== 'connected') expectForPeople((outcome.data as { message?: string } | undefined)?.message, `handshake ${outcome.message}`);
    }
  });
});
