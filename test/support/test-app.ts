import { PROTOCOL_VERSION } from '../../src/protocol/wire/ack.js';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io as connect, type Socket } from 'socket.io-client';
import { startApp, type App, type AppOverrides } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';

export interface TestApp extends App {
  url: string;
  port: number;
  /**
   * A socket.io-client on a namespace of this server (websocket only, no auto-reconnect unless asked); `auth` gets
   * this build's `protocolVersion` unless it names one.
   */
  socket(namespace: string, auth: Record<string, unknown>, options?: { reconnection?: boolean }): Socket;
  /** Closes the app, every socket made by `socket()` and the temp data dir. */
  stop(): Promise<void>;
}

/**
 * Boots the real product on port 0: same composition as main.ts, with an environment the test chooses (memory
 * store and offline model unless REDIS_URL / GEMINI_* are given, no quality sampling unless QUALITY_SAMPLE_RATE is)
 * and a fresh DATA_DIR.
 */
export async function startTestApp(env: Record<string, string> = {}, overrides: AppOverrides = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lectern-test-'));
  // The quality console samples nothing unless a test asks (QUALITY_SAMPLE_RATE): a random 5 % of every test's model
  // calls writing to the store in the background would make other tests' store and log checks depend on chance.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir, PRELOAD_SAMPLE: 'false', QUALITY_SAMPLE_RATE: '0', ...env });
  const app = await startApp(config, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), overrides);
  await new Promise<void>((resolve) => app.server.httpServer.listen(0, '127.0.0.1', resolve));
  const port = (app.server.httpServer.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const sockets = new Set<Socket>();
  return {
    ...app,
    url,
    port,
    socket(namespace, auth, options = {}) {
      const socket = connect(`${url}${namespace}`, {
        // Every client sends the protocol version; a test of the version check overrides it.
        auth: { protocolVersion: PROTOCOL_VERSION, ...auth },
        transports: ['websocket'],
        reconnection: options.reconnection ?? false,
        forceNew: true,
      });
      sockets.add(socket);
      return socket;
    },
    async stop() {
      for (const socket of sockets) socket.disconnect();
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first `event` payload the socket receives (rejects after `timeoutMs`). */
export function once<T = unknown>(socket: Socket, event: string, timeoutMs = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), timeoutMs);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Resolves once the socket is connected, or rejects with the connect_error. */
export function connected(socket: Socket, timeoutMs = 10_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (socket.connected) return resolve();
    const timer = setTimeout(() => reject(new Error('timed out connecting')), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
