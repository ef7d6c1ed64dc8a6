/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - TM6 — Short text judged at the close. On both stores, a short-text answer is recorded as typed (one write, its
 *   ack carries only the cleaned text) and judged when the question closes: the model answer or an accepted answer
 *   (case, width and final punctuation aside) is right, a math answer equal to the model answer is right, other
 *   answers go to the judges' assessor. No frame before the reveal carries the model answer, `solution` or `accept`.
 * - TM7 — The host reviews unsure answers. An answer the judge is unsure of scores 0 with `unsure: true` and is listed
 *   (text, how many gave it) only in the host's reveal; `room:review` (host only, only during that question's reveal)
 *   marks it right or wrong: everyone who gave it is rescored, every player (also on another node) is sent the reveal
 *   again, the host sees the mark (also after a reload), and the results and CSV follow (검토 중 until marked).
 * - TM8 — Word cloud. A word-cloud answer is typed text with no credit and no points; the reveal carries the words by
 *   count (counted case- and width-blind, invisible characters removed, text kept as typed for the page to escape).
 * - TM21 — A review reaches every node. The host's mark, made from any node, rescores the answer's players on every
 *   node, also on the node that closed the question and kept the table it computed then.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RevealPayload, RoomItem } from '../src/protocol/quiz.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { resultsCsv } from '../src/quiz/results-csv.js';
import { warmShortJudge } from '../src/quiz/short-answer-judge.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { createQuiz, createRoom, fetchResults, joinRoom, openHost, type JoinedPlayer, type QuizClient } from './support/quiz-client.js';

const redis = suiteRedis();

// The judge's first use loads the LaTeX reader and the analyzer synchronously: seconds on a busy machine. The room warms
// it in the background when it is created, but a loaded CI run can still be inside that load when the first question
// closes, and the reveal waits below are bounded. Loading it once here keeps the cold start out of every timed wait.
beforeAll(() => warmShortJudge());

const apps: TestApp[] = [];
const clients: QuizClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const app of apps.splice(0)) await app.stop();
});

const base = { explanation: '가운데 값입니다.', difficulty: 'easy' as const };
const ITEMS: RoomItem[] = [
  { ...base, type: 'short', question: '1. 자료의 가운데 값으로, 이상값에 덜 민감한 대푯값은?', answer: '중앙값', accept: ['median'] },
  { ...base, type: 'short', question: '2. 2x = 6 의 해는?', answer: 'x = 3' },
  { ...base, type: 'cloud', question: '3. 오늘 배운 것을 한 단어로?', explanation: '' },
];
const UNSURE = '정렬했을 때 가운데 오는 값';

async function hosted(store: 'memory' | 'redis') {
  const env = store === 'redis' ? { REDIS_URL: redis.url } : {};
  const server = await startTestApp(env);
  apps.push(server);
  // On Redis the third player is on a second node: the host's review reaches it through the room's event stream.
  const other = store === 'redis' ? await startTestApp(env) : server;
  if (other !== server) apps.push(other);
  const setup = await createQuiz(server, ITEMS as never);
  const room = await createRoom(server, setup, { questionSeconds: 30, previewSeconds: 0, speedBonus: false, streakBonus: false });
  const host = await openHost(server.url, room.hostToken);
  clients.push(host);
  const players: JoinedPlayer[] = [];
  for (const [index, nickname] of ['가람', '나래', '다솜'].entries()) {
    const player = await joinRoom(index === 2 ? other.url : server.url, room.code, nickname);
    clients.push(player.client);
    players.push(player);
  }
  await host.latest<{ playerCount: number }>('room:players', (update) => update.playerCount === 3);
  return { server, other, setup, room, host, players };
}

async function open(host: QuizClient, players: JoinedPlayer[], q: number, command: string): Promise<void> {
  const opened = players.map((player) => player.client.next('room:question', (payload: { phase: string; question: { index: number } }) => payload.phase === 'open' && payload.question.index === q));
  expect((await host.emit(command)).ok).toBe(true);
  await Promise.all(opened);
}

async function answerAll(host: QuizClient, players: JoinedPlayer[], q: number, texts: string[]) {
  const reveals = players.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === q));
  const hostReveal = host.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === q);
  const acks = [];
  for (const [index, player] of players.entries()) {
    const ack = await player.client.emit<{ response: unknown }>('answer:submit', { questionIndex: q, text: texts[index] });
    expect(ack.ok, JSON.stringify(ack)).toBe(true);
    acks.push(ack);
  }
  return { acks, reveals: await Promise.all(reveals), hostReveal: await hostReveal };
}

describe.each(['memory', 'redis'] as const)('typed answers (%s store)', (store) => {
  it('TM6 TM7 TM8 short text is judged at the close, the host marks unsure answers during the reveal, the word cloud counts words', async () => {
    const { server, setup, room, host, players } = await hosted(store);
    const [first, , third] = players as [JoinedPlayer, JoinedPlayer, JoinedPlayer];

    await open(host, players, 0, 'room:start');
    const wrongShape = await first.client.emit('answer:submit', { questionIndex: 0, choice: 0 });
    expect(wrongShape.ok).toBe(false);
    const beforeReveal = third.client.frames.length;
    const { acks, reveals, hostReveal } = await answerAll(host, players, 0, ['  중앙값 ', 'MEDIAN.', UNSURE]);
    expect(acks[0]!.ok && acks[0]!.response).toEqual({ text: '중앙값' });
    // The model answer reached nobody before the reveal (the third player typed something else).
    const early = third.client.frames.slice(0, beforeReveal + 2).join('\n');
    expect(early).not.toContain('중앙값');
    for (const player of players) {
      const untilReveal = player.client.frames.slice(0, player.client.frames.findIndex((frame) => frame.includes('room:reveal')));
      expect(untilReveal.join('\n')).not.toMatch(/"solution"|"accept"|median"/);
    }
    expect(reveals[0]!.solution).toEqual({ type: 'short', answer: '중앙값', accept: ['median'] });
    expect(reveals[0]!.you).toMatchObject({ correct: true, credit: 1, points: 1000, response: { text: '중앙값' } });
    expect(reveals[1]!.you).toMatchObject({ correct: true, credit: 1, points: 1000 });
    expect(reveals[2]!.you).toMatchObject({ correct: false, credit: 0, points: 0, unsure: true });
    // Only the host's reveal lists the unsure answers.
    expect(reveals.some((reveal) => 'review' in reveal)).toBe(false);
    expect(hostReveal.review).toEqual([{ key: UNSURE, text: UNSURE, count: 1, verdict: null }]);

    // A player cannot review; the host marks it right: the third player is rescored and told, the host sees the mark.
    const refused = await third.client.emit('room:review', { questionIndex: 0, key: UNSURE, correct: true });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('FORBIDDEN');
    const told = third.client.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === 0 && reveal.you?.correct === true);
    const hostTold = host.next<RevealPayload>('room:reveal', (reveal) => reveal.review?.[0]?.verdict === 'right');
    const reviewed = await host.emit('room:review', { questionIndex: 0, key: UNSURE, correct: true });
    expect(reviewed.ok, JSON.stringify(reviewed)).toBe(true);
    expect((await told).you).toMatchObject({ correct: true, credit: 1, points: 1000, score: 1000 });
    expect((await hostTold).review).toEqual([{ key: UNSURE, text: UNSURE, count: 1, verdict: 'right' }]);
    const unknown = await host.emit('room:review', { questionIndex: 0, key: '없는 답', correct: true });
    expect(unknown.ok).toBe(false);
    // A host reload during the reveal gets the review list back with the mark; a player's reload gets its new result.
    const reloaded = await openHost(server.url, room.hostToken);
    clients.push(reloaded);
    const hostState = await reloaded.state();
    expect(hostState.phase === 'reveal' && hostState.reveal.review).toEqual([{ key: UNSURE, text: UNSURE, count: 1, verdict: 'right' }]);
    reloaded.close();

    // Math: "6/2" equals "x = 3"; "4" does not. Reviewing once the reveal is over is WRONG_PHASE.
    await host.emit('room:next');
    const late = await host.emit('room:review', { questionIndex: 0, key: UNSURE, correct: false });
    expect(late.ok).toBe(false);
    if (!late.ok) expect(late.error.code).toBe('WRONG_PHASE');
    await open(host, players, 1, 'room:next');
    const math = await answerAll(host, players, 1, ['6/2', 'x=3', '4']);
    expect(math.reveals.map((reveal) => reveal.you?.credit)).toEqual([1, 1, 0]);
    expect(math.hostReveal.review).toEqual([]);

    // Word cloud: no points; words by count, counted width- and case-blind; markup stays text.
    await host.emit('room:next');
    await open(host, players, 2, 'room:next');
    const cloud = await answerAll(host, players, 2, ['평균', 'ＡＢ', '<b>ab</b>']);
    expect(cloud.reveals[0]!.you).toMatchObject({ credit: null, points: 0 });
    expect(cloud.hostReveal.solution).toEqual({ type: 'cloud' });
    expect(cloud.hostReveal.words).toEqual([
      { text: '<b>ab</b>', count: 1 },
      { text: 'AB', count: 1 },
      { text: '평균', count: 1 },
    ]);

    await host.emit('room:next');
    await host.emit('room:next');
    const results = (await fetchResults(server, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    expect(results.questions.map((question) => question.type)).toEqual(['short', 'short', 'cloud']);
    expect(results.questions[2]!.words).toEqual(cloud.hostReveal.words);
    const byName = new Map(results.players.map((row) => [row.nickname, row]));
    expect(byName.get('다솜')!.score).toBe(1000);
    expect(byName.get('다솜')!.answers[0]).toMatchObject({ correct: true, response: { text: UNSURE } });
    const csv = resultsCsv(results);
    expect(csv).toContain(UNSURE);
    expect(csv).toContain('단답형');
    expect(csv).toContain('중앙값 / median');
  });

  it('TM7 an unsure answer the host has not marked stays 검토 중 in the CSV and scores 0', async () => {
    const { server, setup, room, host, players } = await hosted(store);
    await open(host, players, 0, 'room:start');
    await answerAll(host, players, 0, [UNSURE, UNSURE, '평균']);
    await host.emit('room:end');
    const results = (await fetchResults(server, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    const byName = new Map(results.players.map((row) => [row.nickname, row]));
    expect(byName.get('가람')!.answers[0]).toMatchObject({ unsure: true, points: 0 });
    expect(byName.get('다솜')!.answers[0]!.unsure).toBeUndefined();
    expect(resultsCsv(results)).toContain('검토 중');
  });
});

describe('typed answers across nodes (redis store)', () => {
  it('TM21 a review on either node rescores the players of every node, whichever node closed the question', async () => {
    // The node that closed the question keeps the standings it computed. Two reviews from two nodes make one of them
    // the node that did not compute the current table, whichever node drove the close: its players must still be
    // told the new verdict (a node kept its own stale table and re-sent the old reveal).
    const { other, room, host, players } = await hosted('redis');
    const hostOnOther = await openHost(other.url, room.hostToken);
    clients.push(hostOnOther);
    const unsure = [players[0]!, players[2]!];
    await open(host, players, 0, 'room:start');
    await answerAll(host, players, 0, [UNSURE, '평균', UNSURE]);

    const right = unsure.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.you?.correct === true));
    expect((await host.emit('room:review', { questionIndex: 0, key: UNSURE, correct: true })).ok).toBe(true);
    for (const reveal of await Promise.all(right)) expect(reveal.you).toMatchObject({ correct: true, points: 1000, score: 1000 });

    const wrong = unsure.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.you?.correct === false));
    expect((await hostOnOther.emit('room:review', { questionIndex: 0, key: UNSURE, correct: false })).ok).toBe(true);
    for (const reveal of await Promise.all(wrong)) {
      expect(reveal.you).toMatchObject({ correct: false, credit: 0, points: 0, score: 0 });
      expect(reveal.you?.unsure).toBeUndefined();
    }
  });
});
