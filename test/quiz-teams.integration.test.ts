/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - QT2 — Team rooms across nodes. On the memory store and on Redis, with two nodes on one store: a room created with
 *   `teams` (2–10; 11 is INVALID_PAYLOAD) puts joining players in teams by join order on either node; each player's
 *   `room:state` and the host's player list show the team; `team:pick` (allowed by `teamPick`, lobby only; a team
 *   past the room's count is INVALID_PAYLOAD, after the start ROOM_STARTED) moves a player; a player reconnecting on
 *   the other node keeps the team; leaderboard and podium carry every team with the mean of its members' scores
 *   (unequal teams); the room survives the death of the node that held the host and half the players; results and
 *   CSV carry each player's team and the team table.
 * - QT3 — Team picking is the room's choice. Without `teamPick`, `team:pick` is FORBIDDEN and the team stays; a host
 *   socket cannot pick.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { LeaderboardPayload, PlayerSummary, PodiumPayload, RevealPayload, RoomStatePayload } from '../src/protocol/quiz.js';
import type { RoomResults } from '../src/quiz/room-results.js';
import { resultsCsv } from '../src/quiz/results-csv.js';
import { MemoryStore } from '../src/store/index.js';
import { postJson } from './support/classroom-client.js';
import { suiteRedis } from './support/redis-server.js';
import { startTestApp, type TestApp } from './support/test-app.js';
import { createQuiz, createRoom, fetchResults, joinRoom, openHost, rejoin, sampleItems, type JoinedPlayer, type QuizClient } from './support/quiz-client.js';

const redis = suiteRedis();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** Two nodes on one store (one token secret), as a deployment runs them. */
async function twoNodes(store: 'memory' | 'redis'): Promise<[TestApp, TestApp]> {
  const shared = store === 'memory' ? new MemoryStore() : undefined;
  if (shared) cleanups.push(() => shared.close());
  const env = { TOKEN_SECRET: 'teams-secret-0123456789abcdef', ...(store === 'redis' ? { REDIS_URL: redis.url } : {}) };
  const nodes: TestApp[] = [];
  for (const nodeId of ['teams-a', 'teams-b']) {
    const node = await startTestApp(env, { ...(shared ? { store: shared } : {}), nodeId });
    nodes.push(node);
    cleanups.push(() => node.stop());
  }
  return nodes as [TestApp, TestApp];
}

const track = (client: QuizClient) => {
  cleanups.push(async () => client.close());
  return client;
};

const teamOfState = (state: RoomStatePayload) => state.me?.team;

describe.each(['memory', 'redis'] as const)('team rooms (%s store)', (store) => {
  it(`QT2 teams by join order on two nodes, picked in the lobby, kept on reconnect and node death, scored by mean (${store})`, async () => {
    const [nodeA, nodeB] = await twoNodes(store);
    const items = sampleItems(2);
    const setup = await createQuiz(nodeA, items);
    const tooMany = await postJson(`${nodeA.url}/api/rooms`, { quizId: setup.quizId, options: { teams: 11 } }, { authorization: `Bearer ${setup.instructorToken}` });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: { code: 'INVALID_PAYLOAD' } });
    const room = await createRoom(nodeA, setup, { teams: 2, teamPick: true, questionSeconds: 60, previewSeconds: 0, speedBonus: false, streakBonus: false });
    let host = track(await openHost(nodeA.url, room.hostToken));

    // 가, 나, 다 on node A; 라, 마 on node B: teams by join order 0, 1, 0, 1, 0.
    const names = ['가람', '나래', '다온', '라온', '마루'];
    const players: JoinedPlayer[] = [];
    for (const [index, nickname] of names.entries()) {
      const joined = await joinRoom(index < 3 ? nodeA.url : nodeB.url, room.code, nickname);
      track(joined.client);
      players.push(joined);
    }
    const states = await Promise.all(players.map((player) => player.client.state()));
    expect(states.map(teamOfState)).toEqual([0, 1, 0, 1, 0]);

    // 마루 picks team 2 (index 1); a team past the room's count is refused.
    const wrong = await players[4]!.client.emit('team:pick', { team: 2 });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD' } });
    const listed = host.next<{ players: PlayerSummary[] }>('room:players', (update) => update.players.find((row) => row.nickname === '마루')?.team === 1);
    expect(await players[4]!.client.emit('team:pick', { team: 1 })).toMatchObject({ ok: true, team: 1 });
    expect((await listed).players.map((row) => row.team)).toEqual([0, 1, 0, 1, 1]);

    // 가람 reconnects on node B and 마루 on node A: same teams.
    players[0]!.client.close();
    players[0]!.client = track(await rejoin(nodeB.url, players[0]!.playerToken));
    players[4]!.client.close();
    players[4]!.client = track(await rejoin(nodeA.url, players[4]!.playerToken));
    expect(teamOfState(await players[0]!.client.state())).toBe(0);
    expect(teamOfState(await players[4]!.client.state())).toBe(1);

    // Question 1: 가람 right, 다온 wrong (team 1: mean 500); 나래, 라온 right, 마루 wrong (team 2: 2000 / 3 = 667).
    const opened = players.map((player) => player.client.next('room:question', (payload: { phase: string }) => payload.phase === 'open'));
    expect((await host.emit('room:start')).ok).toBe(true);
    await Promise.all(opened);
    expect(await players[1]!.client.emit('team:pick', { team: 0 })).toMatchObject({ ok: false, error: { code: 'ROOM_STARTED' } });
    const right = items[0]!.answer;
    const wrongChoice = (right + 1) % 4;
    let reveals = players.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === 0));
    for (const [index, player] of players.entries()) {
      expect((await player.client.emit('answer:submit', { questionIndex: 0, choice: index === 2 || index === 4 ? wrongChoice : right })).ok).toBe(true);
    }
    await Promise.all(reveals);
    const boards = players.map((player) => player.client.next<LeaderboardPayload>('room:leaderboard'));
    await host.emit('room:next');
    const board = await boards[0]!;
    expect(board.teams).toEqual([
      { team: 1, name: '2팀', score: 667, rank: 1, members: 3 },
      { team: 0, name: '1팀', score: 500, rank: 2, members: 2 },
    ]);
    expect(board.you).toMatchObject({ nickname: '가람', team: 0, score: 1000 });

    // Question 2: everyone right (+1000): team 1 mean (2000 + 1000) / 2 = 1500, team 2 (2000 + 2000 + 1000) / 3 = 1667.
    const secondOpen = players.map((player) => player.client.next('room:question', (payload: { phase: string; question: { index: number } }) => payload.phase === 'open' && payload.question.index === 1));
    await host.emit('room:next');
    await Promise.all(secondOpen);
    reveals = players.map((player) => player.client.next<RevealPayload>('room:reveal', (reveal) => reveal.question.index === 1));
    for (const player of players) expect((await player.client.emit('answer:submit', { questionIndex: 1, choice: items[1]!.answer })).ok).toBe(true);
    await Promise.all(reveals);

    // Node A dies (the host and 나래, 다온, 마루 were on it): everyone comes back on node B with their team.
    host.close();
    for (const index of [1, 2, 4]) players[index]!.client.close();
    await nodeA.stop();
    host = track(await openHost(nodeB.url, room.hostToken));
    for (const index of [1, 2, 4]) players[index]!.client = track(await rejoin(nodeB.url, players[index]!.playerToken));
    expect((await Promise.all(players.map((player) => player.client.state()))).map(teamOfState)).toEqual([0, 1, 0, 1, 1]);

    await host.emit('room:next'); // -> leaderboard
    const podiums = players.map((player) => player.client.next<PodiumPayload>('room:podium'));
    expect((await host.emit('room:next')).ok).toBe(true); // -> podium
    const podium = await podiums[3]!;
    expect(podium.teams).toEqual([
      { team: 1, name: '2팀', score: 1667, rank: 1, members: 3 },
      { team: 0, name: '1팀', score: 1500, rank: 2, members: 2 },
    ]);
    expect(podium.you).toMatchObject({ nickname: '라온', team: 1, score: 2000 });
    const ended = players[0]!.client.next('room:ended');
    await host.emit('room:end');
    await ended;

    const results = (await fetchResults(nodeB, room.roomId, setup.instructorToken)).body as unknown as RoomResults;
    expect(Object.fromEntries(results.players.map((player) => [player.nickname, player.team]))).toEqual({ 가람: 0, 나래: 1, 다온: 0, 라온: 1, 마루: 1 });
    expect(results.teams?.map((team) => [team.name, team.score])).toEqual([['2팀', 1667], ['1팀', 1500]]);
    const csv = resultsCsv(results).replace('\ufeff', '').split('\r\n');
    expect(csv[0]!.split(',').slice(0, 4)).toEqual(['순위', '닉네임', '팀', '총점']);
    expect(csv.find((line) => line.includes('다온'))).toContain(',1팀,');
    expect(csv).toContain('팀 순위,팀,팀 점수(평균),인원');
    expect(csv).toContain('1,2팀,1667,3');
  });

  it(`QT3 without teamPick a player cannot pick; a host cannot pick (${store})`, async () => {
    const [nodeA] = await twoNodes(store);
    const setup = await createQuiz(nodeA, sampleItems(1));
    const room = await createRoom(nodeA, setup, { teams: 3 });
    const host = track(await openHost(nodeA.url, room.hostToken));
    const player = await joinRoom(nodeA.url, room.code, '한결');
    track(player.client);
    expect(teamOfState(await player.client.state())).toBe(0);
    expect(await player.client.emit('team:pick', { team: 2 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await host.emit('team:pick', { team: 2 })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    const again = track(await rejoin(nodeA.url, player.playerToken));
    expect(teamOfState(await again.state())).toBe(0);
  });
});
