/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - O7 — Shutdown never crashes. SIGTERM at any moment after a node listens, on a Redis holding a running room, exits
 *   0 and gives the driver lease back (10 start/stop cycles; 50 with `SOAK=1`).
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/kernel/logger.js';
import { AdapterConnections } from '../src/realtime/adapter-connections.js';
import { suiteRedis } from './support/redis-server.js';

/**
 * O7 (test/SPEC.md): the socket.io streams adapter sends SUBSCRIBE on a connection of its own without handling the
 * promise; closing socket.io before that connection is ready used to reject it unhandled ("Connection is closed."),
 * which made a node that was stopped right after its start exit 1. With AdapterConnections nothing escapes.
 */

const redis = suiteRedis();
const rejections: unknown[] = [];
const record = (reason: unknown) => rejections.push(reason);
beforeEach(() => {
  rejections.length = 0;
  process.on('unhandledRejection', record);
});
afterEach(() => {
  process.off('unhandledRejection', record);
});

describe('the socket.io adapter connections', () => {
  it('O7 closing socket.io at once after making the adapter leaves no unhandled rejection, and close() ends every connection', async () => {
    for (let round = 0; round < 5; round += 1) {
      const connections = new AdapterConnections(redis.url, createLogger('silent'));
      const io = new Server(createServer(), { adapter: connections.adapter() });
      io.of('/quiz');
      // As main.ts stops: settle what the adapter sent, close socket.io (the adapter disconnects its duplicates), then
      // the connections. Here without settling first, the worst case: nothing was answered yet.
      await new Promise<void>((resolve) => void io.close(() => resolve()));
      await connections.close();
      expect(connections.client.status).toBe('end');
    }
    // Rejections are reported after the microtasks of the turn that made them.
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejections).toEqual([]);
  });

  it('O7 settle() waits until the commands sent so far are answered', async () => {
    const connections = new AdapterConnections(redis.url, createLogger('silent'));
    const io = new Server(createServer(), { adapter: connections.adapter() });
    try {
      const pong = connections.client.ping();
      await connections.settle();
      // Answered within settle(): the promise is already resolved, so a race against a resolved marker picks it.
      expect(await Promise.race([pong, Promise.resolve('pending')])).toBe('PONG');
    } finally {
      await new Promise<void>((resolve) => void io.close(() => resolve()));
      await connections.close();
    }
  });
});
