/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - PJ1 — A payload serialised once is the frame `emit` would send. `jsonWith(payloadJson(base), key, value)` is
 *   `JSON.stringify({ ...base, [key]: value })` (a reveal is its shared part plus the player's `you`), and a socket sent
 *   a payload's JSON (`emitJsonLocal`) receives the very frame `emitLocal` of the object gives it, byte for byte, on a
 *   namespace as on the default one; a socket that is not connected is sent nothing.
 * - PJ2 — Standings and results written from cached results parse as the whole value serialised. A reveal's
 *   standings table and results reuse each answer result's JSON (src/quiz/standings-json.ts); their text parses to what
 *   `JSON.stringify` of the table and of buildResults parses to, after every question, extended or recomputed, with
 *   teams, a late joiner and a player who answers nothing.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { RoomOptions, type RoomItem } from '../src/protocol/quiz.js';
import { jsonWith, payloadJson } from '../src/quiz/payload-json.js';
import type { RoomMeta } from '../src/quiz/room-repository.js';
import { buildResults, encodeResults } from '../src/quiz/room-results.js';
import { computeStandings, extendStandings, type RecordedAnswer, type ScoringOptions, type Standings } from '../src/quiz/scoring.js';
import { standingsJson } from '../src/quiz/standings-json.js';
import { withTeams } from '../src/quiz/teams.js';
import { emitJsonLocal, emitLocal } from '../src/realtime/local-emit.js';

const reveal = {
  question: { index: 2, total: 5, type: 'order', question: '순서대로 놓으세요 "따옴표" \\ 와 \u2028', choices: ['가', '나', '다'], difficulty: 'easy' },
  correctChoice: -1,
  solution: { type: 'order', order: [2, 0, 1] },
  explanation: '설명 $x^2$',
  distribution: [3, 0, 7],
  answered: 10,
  words: [{ text: '광합성', count: 2 }],
};
const you = { choice: null, correct: false, credit: 0.5, responseMs: 1234, points: 500, streakBonus: 0, response: { order: [0, 2, 1] }, score: 1500, rank: 3 };

type Events = { 'room:reveal': typeof reveal & { you?: typeof you } };

describe('payloads serialised once (src/quiz/payload-json.ts)', () => {
  it('PJ1 jsonWith gives the JSON of the spread object, key last', () => {
    expect(jsonWith(payloadJson(reveal), 'you', you)).toBe(JSON.stringify({ ...reveal, you }));
    expect(jsonWith(payloadJson({ a: 1 }), 'b', 'x"y')).toBe(JSON.stringify({ a: 1, b: 'x"y' }));
    expect(JSON.parse(jsonWith(payloadJson(reveal), 'you', you))).toEqual({ ...reveal, you });
  });

  it('PJ1 a socket sent a payload as JSON receives the frame emitLocal sends, byte for byte', async () => {
    const httpServer = createServer();
    const server = new Server(httpServer);
    httpServer.listen(0, '127.0.0.1');
    await once(httpServer, 'listening');
    const { port } = httpServer.address() as AddressInfo;
    try {
      for (const namespace of ['/quiz', '/']) {
        const connected = once(server.of(namespace), 'connection') as Promise<[Socket]>;
        const client = connect(`http://127.0.0.1:${port}${namespace}`, { transports: ['websocket'], forceNew: true });
        const [socket] = await connected;
        const raw: string[] = [];
        client.io.engine.on('packet', (packet) => {
          if (packet.type === 'message' && String(packet.data).includes('room:reveal')) raw.push(String(packet.data));
        });
        const received = new Promise<void>((resolve) => {
          let count = 0;
          client.on('room:reveal', () => (count += 1) === 2 && resolve());
        });
        emitLocal<Events, 'room:reveal'>(socket, 'room:reveal', { ...reveal, you });
        emitJsonLocal<Events, 'room:reveal'>(socket, 'room:reveal', jsonWith(payloadJson(reveal), 'you', you));
        await received;
        expect(raw).toHaveLength(2);
        expect(raw[1]).toBe(raw[0]);
        client.disconnect();
        if (socket.connected) await once(socket, 'disconnect');
        // Not connected any more: nothing is written (and nothing throws).
        emitJsonLocal<Events, 'room:reveal'>(socket, 'room:reveal', payloadJson(reveal));
      }
    } finally {
      await new Promise<void>((resolve) => void server.close(() => resolve()));
    }
  });
});

const base = { explanation: '설명', difficulty: 'easy' as const };
const items: RoomItem[] = [
  { ...base, question: '평균은?', choices: ['가', '나', '다', '라'], answer: 1 },
  { ...base, type: 'multi', question: '대푯값을 모두 고르세요.', choices: ['평균', '중앙값', '분산', '최빈값'], answers: [0, 1, 3] },
  { ...base, type: 'ordering', question: '순서대로 늘어놓으세요.', steps: ['가설', '유의수준', '검정통계량', '결론'] },
  { ...base, type: 'numeric', question: '거리는 약 몇 km?', answer: 325, tolerance: 25, range: 125, unit: 'km' },
  { ...base, type: 'poll', question: '오늘 수업은?', explanation: '', choices: ['쉬웠다', '적당했다', '어려웠다'] },
];
const meta: RoomMeta = { roomId: 'room-pj', classId: 'class-pj', quizId: 'quiz-pj', code: '123456', title: '캐시', options: RoomOptions.parse({ teams: 2 }), items, createdAt: 1 };
const options: ScoringOptions = { questionMs: 20_000, streakBonus: true, speedBonus: true, roomId: meta.roomId };

function answerOf(q: number, p: number): RecordedAnswer {
  const pick = (p * 7 + q * 3) % 4;
  const responseMs = 300 + p * 911 + q * 37;
  switch (items[q]!.type) {
    case 'multi':
      return { choices: [...new Set([pick, (pick + 1) % 4])].sort(), responseMs };
    case 'ordering':
      return { order: [pick, (pick + 1) % 4, (pick + 2) % 4, (pick + 3) % 4], responseMs };
    case 'numeric':
      return { value: 250 + pick * 30, responseMs };
    case 'poll':
      return { choice: pick % 3, responseMs };
    default:
      return { choice: pick, responseMs };
  }
}

const parsed = (json: string): unknown => JSON.parse(json);

describe('standings and results serialised from cached results (src/quiz/standings-json.ts)', () => {
  it('PJ2 after every question, extended or recomputed, the text parses as the whole value serialised', () => {
    const everyone = Array.from({ length: 6 }, (_, p) => ({ playerId: `p${p}`, nickname: `학생 "${p}"`, joinedAt: p }));
    const teamOf = new Map(everyone.map((player, p) => [player.playerId, p % 2]));
    const answers: Map<string, RecordedAnswer>[] = [];
    let previous: Standings = { afterQuestion: -1, rows: [], questions: [] };
    for (let q = 0; q < items.length; q += 1) {
      // p5 joins late (before question 2); p4 never answers.
      const players = everyone.filter((player) => player.playerId !== 'p5' || q >= 2);
      answers.push(new Map(players.filter((player) => player.playerId !== 'p4').map((player, p) => [player.playerId, answerOf(q, p)])));
      const extended = withTeams(extendStandings(items, players, previous, answers[q], q, options)!, teamOf, 2);
      const recomputed = withTeams(computeStandings(items, players, answers, q, options), teamOf, 2);
      for (const standings of [extended, recomputed]) {
        expect(parsed(standingsJson(standings))).toEqual(parsed(JSON.stringify(standings)));
        const record = q === items.length - 1 ? ({ phase: 'ended', v: 9, endedAt: 5 } as const) : ({ phase: 'reveal', v: q + 2, q } as const);
        const encoded = encodeResults(meta, record, standings);
        expect(parsed(encoded.json)).toEqual(parsed(JSON.stringify(buildResults(meta, record, standings))));
        expect(encoded.players).toBe(players.length);
      }
      previous = extended;
    }
  });
});
