/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - RL7 — IdentityBuckets. One budget per identity, refilled on the injected clock; idle identities are dropped.
 * - RL8 — Per identity, not per socket. Three sockets of one quiz player share `SOCKET_COMMAND_BURST=4`: after 4
 *   commands in all, every further one from any tab is `RATE_LIMITED` …
 * - RL9 — Room-code guessing over `/quiz`. Two wrong codes (`ROOM_NOT_FOUND`) exhaust 10 points: the right code is
 *   then `RATE_LIMITED` with `retryAfterSeconds`; a player from another address joins.
 * - RL10 — Socket cap. With `MAX_SOCKETS_PER_ADDRESS=3`, the 4th connection of an address gets `connect_error`
 *   `TOO_MANY_SOCKETS` (`data.code`, Korean `data.message`); another address connects.
 * - RL11 — Idle raw websocket flood. 40 raw engine.io websocket upgrades with cap 5: exactly 10 (2×cap) are upgraded,
 *   30 refused; `/healthz` answers …
 */
import { request as httpRequest } from 'node:http';
import type { Socket as NetSocket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { IdentityBuckets } from '../src/realtime/command-limits.js';
import { createQuiz, createRoom, joinRoom, QuizClient, rejoin } from './support/quiz-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** RL7–RL11 (test/SPEC.md): socket command budgets per identity, room-code guessing, the per-address socket cap. */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
});

async function boot(env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp(env);
  cleanups.push(() => app.stop());
  return app;
}

const track = (client: QuizClient) => {
  cleanups.push(() => client.close());
  return client;
};

/** Resolves with the connect_error of a client that must be refused. */
function refusal(client: QuizClient): Promise<Error & { data?: { code: string; message: string } }> {
  return new Promise((resolve, reject) => {
    client.socket.once('connect', () => reject(new Error('connected, expected a refusal')));
    client.socket.once('connect_error', (error) => resolve(error as Error & { data?: { code: string; message: string } }));
  });
}

/** A raw websocket upgrade on engine.io (no socket.io library): what an attacker's idle connection looks like. */
function rawWebsocket(url: string, headers: Record<string, string> = {}): Promise<{ status: number; socket?: NetSocket }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/socket.io/?EIO=4&transport=websocket`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    request.once('upgrade', (response, socket) => resolve({ status: response.statusCode ?? 0, socket }));
    request.once('response', (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0 });
    });
    request.once('error', reject);
    request.end();
  });
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('socket command budgets', () => {
  it('RL7 IdentityBuckets: one budget per identity, refilled on the injected clock, idle ones forgotten', () => {
    let now = 0;
    const buckets = new IdentityBuckets({ capacity: 3, refillPerSecond: 1 }, () => now);
    expect([1, 2, 3, 4].map(() => buckets.take('session:a'))).toEqual([true, true, true, false]);
    expect(buckets.take('session:b')).toBe(true);
    now += 1_000;
    expect([buckets.take('session:a'), buckets.take('session:a')]).toEqual([true, false]);
    now += 60_000;
    buckets.take('session:c');
    expect(buckets.size).toBe(1);
  });

  it('RL8 the sockets of one quiz player share its command budget (a new tab gets no fresh budget)', async () => {
    const app = await boot({ SOCKET_COMMAND_BURST: '4', SOCKET_COMMANDS_PER_SECOND: '1' });
    const setup = await createQuiz(app);
    const room = await createRoom(app, setup, { previewSeconds: 0 });
    const player = await joinRoom(app.url, room.code, '탭부자');
    track(player.client);
    const tabs = [player.client, track(await rejoin(app.url, player.playerToken)), track(await rejoin(app.url, player.playerToken))];
    // The question is not open: each answer is refused (NOT_STARTED or alike) but still spends a command.
    const codes: string[] = [];
    for (const tab of tabs) {
      for (let index = 0; index < 3; index += 1) {
        const ack = await tab.emit('answer:submit', { questionIndex: 0, choice: 0 });
        codes.push(ack.ok ? 'ok' : ack.error.code);
      }
    }
    // join took one command on the first tab's guest budget, not the player's: 4 pass, then the shared budget is dry.
    expect(codes.slice(0, 4).every((code) => code !== 'RATE_LIMITED')).toBe(true);
    expect(codes.slice(5)).toEqual(['RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED', 'RATE_LIMITED']);
    // Another player's budget is untouched.
    const other = await joinRoom(app.url, room.code, '다른이');
    track(other.client);
    const ack = await other.client.emit('answer:submit', { questionIndex: 0, choice: 0 });
    expect(ack.ok ? 'ok' : ack.error.code).not.toBe('RATE_LIMITED');
  });

  it('RL9 room-code guessing over /quiz: wrong codes cost more; RATE_LIMITED carries retryAfterSeconds', async () => {
    const app = await boot({ JOIN_ATTEMPT_POINTS: '10', JOIN_FAILURE_COST: '5' });
    const setup = await createQuiz(app);
    const room = await createRoom(app, setup, {});
    const guesser = track(await QuizClient.open(app.url, {}, { headers: { 'x-forwarded-for': '10.9.0.1' } }).ready());
    const codes: string[] = [];
    const wrong = ['000000', '999999'].map((code) => (code === room.code ? '123456' : code));
    for (const code of [...wrong, room.code]) {
      const ack = await guesser.emit('room:join', { code, nickname: '추측왕' });
      codes.push(ack.ok ? 'ok' : ack.error.code);
      if (!ack.ok && ack.error.code === 'RATE_LIMITED') expect((ack.error as { retryAfterSeconds?: number }).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    }
    expect(codes).toEqual(['ROOM_NOT_FOUND', 'ROOM_NOT_FOUND', 'RATE_LIMITED']);
    // Another address joins that room at once.
    const student = track(await QuizClient.open(app.url, {}, { headers: { 'x-forwarded-for': '10.9.0.2' } }).ready());
    expect((await student.emit('room:join', { code: room.code, nickname: '학생' })).ok).toBe(true);
  });
});

describe('socket caps', () => {
  it('RL10 over MAX_SOCKETS_PER_ADDRESS a namespace is refused with connect_error TOO_MANY_SOCKETS; other addresses connect', async () => {
    const app = await boot({ MAX_SOCKETS_PER_ADDRESS: '3' });
    const headers = { 'x-forwarded-for': '10.10.0.1' };
    for (let index = 0; index < 3; index += 1) track(await QuizClient.open(app.url, {}, { headers }).ready());
    const error = await refusal(track(QuizClient.open(app.url, {}, { headers })));
    expect(error.message).toBe('TOO_MANY_SOCKETS');
    expect(error.data?.code).toBe('TOO_MANY_SOCKETS');
    expect(error.data?.message).toMatch(/[가-힣]/);
    track(await QuizClient.open(app.url, {}, { headers: { 'x-forwarded-for': '10.10.0.2' } }).ready());
  });

  it('RL11 a flood of idle raw engine.io websockets holds at most 2×cap connections, /healthz answers, idle ones are closed', async () => {
    // The flood must be over before the first connection's auth timeout closes it and frees a slot: 300 ms was not
    // on a loaded machine (20 upgraded, not 10). The test waits for the closes anyway, so a longer timeout costs no
    // more than its own length.
    const app = await boot({ MAX_SOCKETS_PER_ADDRESS: '5', SOCKET_AUTH_TIMEOUT_MS: '3000' });
    const opened = await Promise.all(Array.from({ length: 40 }, () => rawWebsocket(app.url)));
    for (const { socket } of opened) if (socket) cleanups.push(() => socket.destroy());
    const accepted = opened.filter((entry) => entry.status === 101).length;
    // The first 2×cap are upgraded; every later handshake is refused before a connection exists (engine.io: 400).
    expect(accepted).toBe(10);
    expect(opened.filter((entry) => entry.status === 400)).toHaveLength(30);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    // Nobody asked for a namespace: SOCKET_AUTH_TIMEOUT_MS closes every one, and a real client gets in again.
    await until(() => app.server.io.engine.clientsCount === 0);
    track(await QuizClient.open(app.url).ready());
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});
