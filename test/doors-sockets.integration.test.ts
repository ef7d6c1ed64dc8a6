/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - DR4 — A burst refuses only the excess. (`test/doors-sockets.integration.test.ts`).
 * - DR5 — The default namespace. `/` is refused (`NOT_FOUND`, Korean message); the connections that asked only for it
 *   count toward 2×cap (the next handshake is refused) and are all closed after …
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Manager, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '../src/protocol/wire/ack.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** DR4–DR5 (test/SPEC.md): the per-address socket cap under a burst, and socket.io's default namespace. */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
});

async function boot(env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp(env);
  cleanups.push(() => app.stop());
  return app;
}

/** An engine.io connection from `address` (behind the loopback proxy) with no namespace yet. */
function openManager(url: string, address: string): Promise<Manager> {
  const manager = new Manager(url, { transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false, extraHeaders: { 'x-forwarded-for': address } });
  cleanups.push(() => manager.engine?.close());
  return new Promise((resolve, reject) => manager.open((error) => (error ? reject(error) : resolve(manager))));
}

type Outcome = { connected: true } | { connected: false; code: string | undefined; message: string | undefined };

/** Asks `manager` for a namespace and resolves with what the server answered. */
function askNamespace(manager: Manager, namespace: string): Promise<{ socket: Socket; outcome: Outcome }> {
  const socket = manager.socket(namespace, { auth: { protocolVersion: PROTOCOL_VERSION } });
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket, outcome: { connected: true } }));
    socket.once('connect_error', (error: Error & { data?: { code?: string; message?: string } }) =>
      resolve({ socket, outcome: { connected: false, code: error.data?.code, message: error.data?.message } }),
    );
    socket.connect();
  });
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('socket cap under a burst', () => {
  it('DR4 450 connections of one address opened at once, then all asking for /quiz together, against the cap of 400: exactly 400 connect, the 50 excess get TOO_MANY_SOCKETS', async () => {
    const app = await boot({ MAX_SOCKETS_PER_ADDRESS: '400' });
    const managers = await Promise.all(Array.from({ length: 450 }, () => openManager(app.url, '10.22.6.1')));
    const answers = await Promise.all(managers.map((manager) => askNamespace(manager, '/quiz')));
    const outcomes = answers.map((answer) => answer.outcome);
    expect(outcomes.filter((outcome) => outcome.connected)).toHaveLength(400);
    const refused = outcomes.filter((outcome): outcome is Extract<Outcome, { connected: false }> => !outcome.connected);
    expect(refused).toHaveLength(50);
    expect(new Set(refused.map((outcome) => outcome.code))).toEqual(new Set(['TOO_MANY_SOCKETS']));
    // The refused connections are closed; the admitted ones stay, and a second namespace on one of them passes.
    await until(() => app.server.io.engine.clientsCount === 400);
    const admitted = managers[answers.findIndex((answer) => answer.outcome.connected)]!;
    expect((await askNamespace(admitted, '/jobs')).outcome).toMatchObject({ connected: false, code: 'UNAUTHORIZED' });
    // Another address is not affected.
    const other = await openManager(app.url, '10.22.6.2');
    expect((await askNamespace(other, '/quiz')).outcome).toEqual({ connected: true });
    // When admitted connections close, as many new ones are admitted.
    for (const { socket } of answers.filter((answer) => answer.outcome.connected).slice(0, 10)) socket.io.engine.close();
    await until(() => app.server.io.engine.clientsCount === 401);
    const later = await Promise.all(Array.from({ length: 12 }, () => openManager(app.url, '10.22.6.1')));
    const laterOutcomes = (await Promise.all(later.map((manager) => askNamespace(manager, '/quiz')))).map((answer) => answer.outcome.connected);
    expect(laterOutcomes.filter(Boolean)).toHaveLength(10);
  });
});

describe("socket.io's default namespace", () => {
  it('DR5 `/` is refused with NOT_FOUND (Korean message) and the connection is closed after SOCKET_AUTH_TIMEOUT_MS, like any connection without a namespace', async () => {
    // The flood must be over before the first connection's auth timeout closes it and frees a slot: 300 ms was not
    // on a loaded machine (20 upgraded, not 10). The test waits for the closes anyway, so a longer timeout costs no
    // more than its own length.
    const app = await boot({ MAX_SOCKETS_PER_ADDRESS: '5', SOCKET_AUTH_TIMEOUT_MS: '3000' });
    const managers = await Promise.all(Array.from({ length: 10 }, () => openManager(app.url, '10.22.6.3')));
    const outcomes = (await Promise.all(managers.map((manager) => askNamespace(manager, '/')))).map((answer) => answer.outcome);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ connected: false, code: 'NOT_FOUND' });
      expect((outcome as { message?: string }).message).toMatch(/[가-힣]/);
    }
    // At 2×cap open connections, the next handshake of that address is refused before a connection exists.
    await expect(openManager(app.url, '10.22.6.3')).rejects.toThrow();
    // None of them stays: the connections that joined no namespace are closed, and the address connects again.
    await until(() => app.server.io.engine.clientsCount === 0);
    const again = await openManager(app.url, '10.22.6.3');
    expect((await askNamespace(again, '/quiz')).outcome).toEqual({ connected: true });
  });
});
