import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { Lifecycle } from '../src/kernel/lifecycle.js';
import { captureLogs } from './support/log-capture.js';

/** O7 (test/SPEC.md): the process's shutdown order and its policy for errors nobody caught, driven by fake events. */

function harness(timeoutMs = 10_000) {
  const events = new EventEmitter();
  const logs = captureLogs('debug');
  let resolveExit: (code: number) => void = () => undefined;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  const exits: number[] = [];
  const lifecycle = new Lifecycle(logs.logger, {
    events,
    timeoutMs,
    exit: (code) => {
      exits.push(code);
      resolveExit(code);
    },
  });
  return { events, logs, lifecycle, exited, exits };
}

describe('the process lifecycle', () => {
  it('O7 SIGTERM closes what was registered, newest first, once, and exits 0', async () => {
    const { events, lifecycle, exited, exits } = harness();
    const order: string[] = [];
    lifecycle.onStop('adapter', async () => void order.push('adapter'));
    lifecycle.onStop('app', async () => void order.push('app'));
    events.emit('SIGTERM', 'SIGTERM');
    events.emit('SIGINT', 'SIGINT');
    expect(lifecycle.isStopping).toBe(true);
    expect(await exited).toBe(0);
    expect(order).toEqual(['app', 'adapter']);
    expect(exits).toEqual([0]);
  });

  it('O7 an unhandled rejection is logged with context and never exits, not even during a shutdown', async () => {
    const { events, lifecycle, logs, exited } = harness();
    events.emit('unhandledRejection', new Error('Connection is closed.'));
    expect(lifecycle.isStopping).toBe(false);
    let release: () => void = () => undefined;
    lifecycle.onStop('app', () => new Promise<void>((resolve) => (release = resolve)));
    events.emit('SIGTERM', 'SIGTERM');
    events.emit('unhandledRejection', new Error('Connection is closed.'));
    release();
    expect(await exited).toBe(0);
    const logged = logs.lines().filter((line) => line.msg.includes('unhandled promise rejection'));
    expect(logged.map((line) => [line.level, line.stopping, (line.err as { message: string }).message])).toEqual([
      [50, false, 'Connection is closed.'],
      [40, true, 'Connection is closed.'],
    ]);
  });

  it('O7 an uncaught exception is logged at fatal and shuts down gracefully with exit 1', async () => {
    const { events, lifecycle, logs, exited } = harness();
    const closed: string[] = [];
    lifecycle.onStop('app', async () => void closed.push('app'));
    events.emit('uncaughtException', new Error('boom'), 'uncaughtException');
    expect(await exited).toBe(1);
    expect(closed).toEqual(['app']);
    expect(logs.lines().find((line) => line.level === 60)).toMatchObject({ msg: 'uncaught exception; shutting down', origin: 'uncaughtException' });
  });

  it('O7 a failing step is logged, the rest still close, and the exit is 1; a stuck step is cut by the timeout', async () => {
    const failing = harness();
    const closed: string[] = [];
    failing.lifecycle.onStop('store', async () => void closed.push('store'));
    failing.lifecycle.onStop('app', async () => {
      throw new Error('close failed');
    });
    failing.events.emit('SIGTERM', 'SIGTERM');
    expect(await failing.exited).toBe(1);
    expect(closed).toEqual(['store']);

    const stuck = harness(50);
    stuck.lifecycle.onStop('adapter', async () => undefined);
    stuck.lifecycle.onStop('stuck', () => new Promise<void>(() => undefined));
    stuck.events.emit('SIGTERM', 'SIGTERM');
    expect(await stuck.exited).toBe(1);
    expect(stuck.logs.lines().find((line) => line.msg === 'shutdown timed out; exiting')).toMatchObject({ step: 'stuck', pending: ['adapter'] });
  });
});
