/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - A2 — Every feature alike. A token of the wrong kind gets 403 `FORBIDDEN` on classroom and quiz HTTP routes, and
 *   on `/tutor`, `/monitor` and `/quiz` the same `connect_error` (message `UNAUTHORIZED` …
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClass, getJson, handshakeOutcome, postJson, type CreatedClass } from './support/classroom-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Every feature refuses tokens the same way (rule A2 of test/SPEC.md): the classroom, the lecture and the quiz,
 * over HTTP and on every socket namespace. Before the auth module the quiz namespace had a copy of its own.
 */

let app: TestApp;
let owner: CreatedClass;

beforeAll(async () => {
  app = await startTestApp({ TOKEN_SECRET: 'auth-refusal-test-secret' });
  owner = await createClass(app, { name: '통계 1반' });
});
afterAll(async () => {
  await app?.stop();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sessionToken = () => app.signer.sign({ kind: 'session', sub: 'some-session', scope: owner.classId }, 60_000);

describe('token refusals across features', () => {
  it('A2: a token of the wrong kind gets 403 FORBIDDEN on classroom and quiz HTTP routes alike', async () => {
    const student = bearer(sessionToken());
    const replies = {
      class: await getJson(`${app.url}/api/classes/${owner.classId}`, student),
      quizzes: await postJson(`${app.url}/api/quizzes`, { title: '퀴즈', items: [] }, student),
      rooms: await postJson(`${app.url}/api/rooms`, { quizId: 'q1' }, student),
    };
    for (const [route, reply] of Object.entries(replies)) {
      expect({ status: reply.status, code: reply.body.error?.code }, route).toEqual({ status: 403, code: 'FORBIDDEN' });
      expect(reply.headers.get('www-authenticate'), route).toBeNull();
    }
  });

  it('A2: a token of the wrong kind is refused the same way on /tutor, /monitor and /quiz', async () => {
    const attempts = {
      tutor: handshakeOutcome(app.socket('/tutor', { token: owner.instructorToken })),
      monitor: handshakeOutcome(app.socket('/monitor', { token: sessionToken() })),
      quiz: handshakeOutcome(app.socket('/quiz', { token: sessionToken() })),
      'quiz (instructor)': handshakeOutcome(app.socket('/quiz', { token: owner.instructorToken })),
    };
    for (const [namespace, attempt] of Object.entries(attempts)) {
      expect(await attempt, namespace).toEqual({
        message: 'UNAUTHORIZED',
        data: { code: 'FORBIDDEN', reason: 'kind', message: expect.stringMatching(/접속 권한이 아닙니다/u) },
      });
    }
  });

  it('A2: an expired token is 401 UNAUTHORIZED over HTTP and on every namespace', async () => {
    const expired = (kind: 'session' | 'instructor' | 'host') => app.signer.sign({ kind, sub: owner.classId }, -1);
    const http = await postJson(`${app.url}/api/rooms`, { quizId: 'q1' }, bearer(expired('instructor')));
    expect({ status: http.status, code: http.body.error?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
    expect(http.headers.get('www-authenticate')).toBe('Bearer');
    for (const [namespace, kind] of [['/tutor', 'session'], ['/monitor', 'instructor'], ['/quiz', 'host']] as const) {
      expect(await handshakeOutcome(app.socket(namespace, { token: expired(kind) })), namespace).toEqual({
        message: 'UNAUTHORIZED',
        data: { code: 'UNAUTHORIZED', reason: 'expired', message: '접속 권한이 만료되었습니다. 처음 화면에서 다시 들어와 주세요.' },
      });
    }
  });
});
