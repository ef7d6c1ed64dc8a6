/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - PJ1 — A payload serialised once is the frame `emit` would send. `jsonWith(payloadJson(base), key, value)` is
 *   `JSON.stringify({ ...base, [key]: value })` (a reveal is its shared part plus the player's `you`), and a socket sent
 *   a payload's JSON (`emitJsonLocal`) receives the very frame `emitLocal` of the object gives it, byte for byte, on a
 *   namespace as on the default one; a socket that is not connected is sent nothing.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server, type Socket } from 'socket.io';
import { io as connect } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { jsonWith, payloadJson } from '../src/quiz/payload-json.js';
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
