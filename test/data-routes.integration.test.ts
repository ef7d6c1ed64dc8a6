/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DL2 — Deletion routes. Quizzes and rooms: 401 without a token, 403 with another class's, 404 for unknown and
 *   already deleted ids, 400 for a malformed id …
 * - DL3 — Class export. JSON holds the class, the roster, each student's answers with good and bad verdicts, the hand
 *   dialogue (the student's question, the assistant's lines) and every room's results …
 * - DL4 — Retention purge. With the purge's clock past RETENTION_DAYS after one room's last results write but not
 *   another's, a run deletes the old room whole (results, list entry, class index …
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { csvCell } from '../src/data/index.js';
import { createClass, postJson } from './support/classroom-client.js';
import { defaultInstructor, signUp } from './support/accounts.js';
import { madePdf, playQuizRoom, runClass, uploadPdf } from './support/data-flow.js';
import { SPECIFIC_QUESTION } from './support/hand-client.js';
import { samplePdfBytes } from './support/lecture-client.js';
import { openHost, sampleItems } from './support/quiz-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { classKeys } from '../src/classroom/class-keys.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/** DL2–DL4 (test/SPEC.md): the deletion routes' answers, and the class export as JSON and CSV. */

let app: TestApp | undefined;
beforeAll(samplePdfBytes);
afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function call(method: string, url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method, headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  return { status: response.status, text, bytes, body: text && response.headers.get('content-type')?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : null, headers: response.headers };
}
const code = (reply: { body: Record<string, unknown> | null }) => (reply.body?.error as { code?: string } | undefined)?.code;

describe('DL2: deletion routes', () => {
  it('DL2 quizzes and rooms: 401 without a token, 403 with another class, 409 ROOM_LIVE while played, 204 then 404', async () => {
    app = await startTestApp();
    const mine = await createClass(app, { name: '내 반' });
    const other = await createClass(app, { name: '남의 반' });
    const played = await playQuizRoom(app, mine, '내 반');
    const quizUrl = `${app.url}/api/quizzes/${played.quizId}`;
    const roomUrl = `${app.url}/api/rooms/${played.roomId}`;

    expect((await call('DELETE', quizUrl)).status).toBe(401);
    // Another class's token: its quiz and room are not there for it (404, as a missing one: no probing).
    const foreign = await call('DELETE', quizUrl, bearer(other.instructorToken));
    expect([foreign.status, code(foreign)]).toEqual([404, 'QUIZ_NOT_FOUND']);
    expect((await call('DELETE', roomUrl, bearer(other.instructorToken))).status).toBe(404);
    expect((await call('DELETE', `${app.url}/api/quizzes/${'0'.repeat(32)}`, bearer(mine.instructorToken))).status).toBe(404);

    // A room still in its lobby is live: refused until the host ends it.
    const quiz = await postJson<{ quizId: string }>(`${app.url}/api/quizzes`, { title: '대기 퀴즈', items: sampleItems(1) }, bearer(mine.instructorToken));
    const lobby = await postJson<{ roomId: string; hostToken: string }>(`${app.url}/api/rooms`, { quizId: quiz.body.quizId }, bearer(mine.instructorToken));
    const refused = await call('DELETE', `${app.url}/api/rooms/${lobby.body.roomId!}`, bearer(mine.instructorToken));
    expect([refused.status, code(refused)]).toEqual([409, 'ROOM_LIVE']);
    expect((await call('DELETE', `${app.url}/api/classes/${mine.classId}`, bearer(mine.instructorToken))).status).toBe(409);
    expect(await app.store.exists(classKeys.classRecord(mine.classId))).toBe(true);
    const host = await openHost(app.url, lobby.body.hostToken!);
    expect((await host.emit('room:end')).ok).toBe(true);
    host.close();
    expect((await call('DELETE', `${app.url}/api/rooms/${lobby.body.roomId!}`, bearer(mine.instructorToken))).status).toBe(204);

    expect((await call('DELETE', roomUrl, bearer(mine.instructorToken))).status).toBe(204);
    expect((await call('GET', `${roomUrl}/results`, bearer(mine.instructorToken))).status).toBe(404);
    expect((await call('DELETE', roomUrl, bearer(mine.instructorToken))).status).toBe(404);
    expect((await call('DELETE', quizUrl, bearer(mine.instructorToken))).status).toBe(204);
    expect((await call('GET', quizUrl, bearer(mine.instructorToken))).status).toBe(404);
    expect((await call('DELETE', quizUrl, bearer(mine.instructorToken))).status).toBe(404);
    const lists = await Promise.all([app.store.zcard(quizKeys.classQuizzes(mine.classId)), app.store.zcard(quizKeys.classRooms(mine.classId))]);
    expect(lists).toEqual([1, 0]); // the lobby room's quiz is still there
    expect((await call('DELETE', `${app.url}/api/classes/${mine.classId}`, bearer(other.instructorToken))).status).toBe(404);
    expect((await call('DELETE', `${app.url}/api/classes/${mine.classId}`, bearer(mine.instructorToken))).status).toBe(204);
    expect((await call('DELETE', `${app.url}/api/classes/${mine.classId}`, bearer(mine.instructorToken))).status).toBe(404);
    expect(await app.store.exists(quizKeys.quiz(quiz.body.quizId!))).toBe(false);
    const malformed = await call('DELETE', `${app.url}/api/quizzes/${encodeURIComponent('a:b')}`, bearer(mine.instructorToken));
    expect([malformed.status, code(malformed)]).toEqual([400, 'INVALID_PAYLOAD']);
  });

  it('DL2 materials: only an owner account deletes (the material goes once nobody owns it); a class token is 403, another account 404', async () => {
    app = await startTestApp();
    const bytes = await madePdf('지울 자료');
    const material = await uploadPdf(app, bytes, 'delete-me.pdf');
    const owner = await defaultInstructor(app);
    const using = await createClass(app, { name: '쓰는 반', materialId: material.id });
    const stranger = await signUp(app);
    const url = `${app.url}/api/materials/${material.id}`;
    expect((await call('DELETE', url)).status).toBe(401);
    expect((await call('DELETE', url, { authorization: 'Bearer nonsense' })).status).toBe(401);
    expect((await call('DELETE', url, bearer(using.instructorToken))).status).toBe(403);
    expect((await call('DELETE', url, stranger.bearer)).status).toBe(404);
    expect((await call('DELETE', url, owner.bearer)).status).toBe(204);
    expect((await call('GET', url, owner.bearer)).status).toBe(404);
    expect((await call('DELETE', url, owner.bearer)).status).toBe(404);
    // Same bytes again: a fresh material with the same id, whole again.
    expect((await uploadPdf(app, bytes, 'again.pdf')).id).toBe(material.id);
    expect((await call('GET', `${url}/chapters/0.pdf`, owner.bearer)).status).toBe(200);
  });
});

describe('DL3: class export', () => {
  it('DL3 JSON and CSV hold the roster, answers with verdicts, the hand dialogue and the quiz results', async () => {
    app = await startTestApp();
    const material = await uploadPdf(app, await samplePdfBytes(), 'sample.pdf');
    const run = await runClass(app, material.id, '내보낼 반');
    const auth = bearer(run.created.instructorToken);
    const base = `${app.url}/api/classes/${run.classId}`;
    expect((await call('GET', `${base}/export.json`)).status).toBe(401);
    const other = await createClass(app, { name: '남의 반' });
    expect((await call('GET', `${base}/export.csv`, bearer(other.instructorToken))).status).toBe(404);

    const json = await call('GET', `${base}/export.json`, auth);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toContain('attachment');
    const data = json.body as unknown as {
      class: { id: string; name: string };
      students: { nickname: string; answers: { question: string; verdict: string | null; answers: { text: string }[] }[]; hand: { speaker: string; text: string }[] }[];
      rooms: { closedQuestions: number; players: { nickname: string; score: number; answers: { questionIndex: number }[] }[] }[];
    };
    expect(data.class).toMatchObject({ id: run.classId, name: '내보낼 반' });
    expect(data.students.map((student) => student.nickname)).toEqual(['민지']);
    const [student] = data.students;
    const verdicts = student!.answers.map((answer) => answer.verdict);
    expect(verdicts).toContain('bad');
    expect(verdicts).toContain('good');
    expect(student!.answers.every((answer) => answer.question.length > 0 && answer.answers.length > 0)).toBe(true);
    expect(student!.hand.some((line) => line.speaker === 'student' && line.text === SPECIFIC_QUESTION)).toBe(true);
    expect(student!.hand.some((line) => line.speaker === 'assistant')).toBe(true);
    expect(data.rooms).toHaveLength(1);
    expect(data.rooms[0]!.players.map((player) => player.nickname).sort()).toEqual(['두리', '하나']);
    // Each player's answers are joined back from the results kept per question.
    const closed = data.rooms[0]!.closedQuestions;
    expect(closed).toBeGreaterThan(0);
    for (const player of data.rooms[0]!.players) expect(player.answers.map((answer) => answer.questionIndex)).toEqual(Array.from({ length: closed }, (_, index) => index));

    const csv = await call('GET', `${base}/export.csv`, auth);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect([...csv.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv.text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('"구분","학생","챕터","시각","질문","내용","판정","피드백","퀴즈","순위","점수","정답 수"');
    expect(lines.some((line) => line.startsWith('"답변","민지"') && line.includes('"틀림"'))).toBe(true);
    expect(lines.some((line) => line.startsWith('"손들기(학생)","민지"') && line.includes(SPECIFIC_QUESTION))).toBe(true);
    expect(lines.filter((line) => line.startsWith('"퀴즈"'))).toHaveLength(2);
  });

  it('DL3 CSV cells are quoted and never start a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(['+1', '-1', '@SUM(A1)', '\tx'].map(csvCell)).toEqual([`"'+1"`, `"'-1"`, `"'@SUM(A1)"`, `"'\tx"`]);
    expect(csvCell('민지, "반장"')).toBe('"민지, ""반장"""');
    expect(csvCell(null)).toBe('""');
    expect(csvCell(12)).toBe('"12"');
  });
});
