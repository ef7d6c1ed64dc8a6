import { describe, expect, it } from 'vitest';
import { ClassMonitor } from '../src/classroom/class-monitor.js';
import { ClassRepository } from '../src/classroom/class-repository.js';
import { createLogger } from '../src/kernel/logger.js';
import { keys } from '../src/store/keys.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { NodeHeartbeat } from '../src/store/node-liveness.js';
import { classKeys } from '../src/classroom/class-keys.js';

/** Presence written by a node that died must not keep anyone "connected". */

const logger = createLogger('silent');

describe('node liveness', () => {
  it('a node is alive while its heartbeat is in the store, and dead once it stopped', async () => {
    const store = new MemoryStore();
    let now = 1_000;
    const a = new NodeHeartbeat(store, 'node-a', logger);
    const b = new NodeHeartbeat(store, 'node-b', logger, () => now);
    expect(await b.isAlive('node-a')).toBe(false);
    a.start();
    await expect.poll(() => store.exists(keys.nodeHeartbeat('node-a'))).toBe(true);
    now += 1_001; // past b's cache of the previous answer
    expect(await b.isAlive('node-a')).toBe(true);
    expect(await b.isAlive('node-b')).toBe(true);
    expect(await store.pttl(keys.nodeHeartbeat('node-a'))).toBeLessThanOrEqual(5_000);
    await a.close();
    now += 1_001;
    expect(await b.isAlive('node-a')).toBe(false);
  });

  it('a class roster ignores the socket count of a dead node', async () => {
    const store = new MemoryStore();
    const alive = new Set(['node-a', 'node-b']);
    const liveness = (nodeId: string) => ({ nodeId, isAlive: async (id: string) => alive.has(id) });
    const onA = new ClassRepository(store, liveness('node-a'));
    const onB = new ClassRepository(store, liveness('node-b'));
    await onA.addStudent('c1', { sessionId: 's1', nickname: '민지', joinedAt: 1 });
    await onA.addSockets('c1', 's1', 1);
    expect((await onB.student('c1', 's1'))?.connected).toBe(true);
    alive.delete('node-a'); // node A crashed with the socket still counted
    expect((await onB.student('c1', 's1'))?.connected).toBe(false);
    await onB.addSockets('c1', 's1', 1); // the student reconnected to node B
    expect((await onB.roster('c1')).map((entry) => entry.connected)).toEqual([true]);
    await onB.addSockets('c1', 's1', -1);
    expect((await onB.student('c1', 's1'))?.connected).toBe(false);
  });
});

describe('class presence over two nodes', () => {
  it('closing the socket on one node does not report a student gone who is still on the other', async () => {
    const store = new MemoryStore();
    const alive = new Set(['node-a', 'node-b']);
    const sent: string[] = [];
    const monitorOn = (nodeId: string) => {
      const repository = new ClassRepository(store, { nodeId, isAlive: async (id) => alive.has(id) });
      const monitor = new ClassMonitor({ repository, materials: { get: async () => null }, logger });
      const record = (_id: string, event: string) => void sent.push(`${nodeId} ${event}`);
      monitor.attach({ toInstructors: record, toStudents: record, toSession: record });
      return { repository, monitor };
    };
    const a = monitorOn('node-a');
    const b = monitorOn('node-b');
    await a.repository.addStudent('c1', { sessionId: 's1', nickname: '민지', joinedAt: 1 });
    const student = { id: 's1', classId: 'c1' };
    a.monitor.studentConnected(student);
    b.monitor.studentConnected(student);
    await expect.poll(() => sent.length).toBe(2);
    a.monitor.studentDisconnected(student);
    // A barrier, not a sleep: close() waits for every update node A's monitor has queued, this disconnect's
    // included, so a student:left it sends is in `sent` once close() resolves.
    await a.monitor.close();
    expect(await store.hget(classKeys.classStudent('c1', 's1'), 'sockets@node-a')).toBe('0');
    expect(sent).toEqual(['node-a student:joined', 'node-b student:joined']);
    b.monitor.studentDisconnected(student);
    await expect.poll(() => sent.at(-1)).toBe('node-b student:left');
  });
});
