import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionPayload } from '../src/protocol/quiz.js';
import { compileMain, startMain, type MainProcess } from './support/main-process.js';
import { createQuiz, createRoom, openHost } from './support/quiz-client.js';
import { startRedisServer, type RedisServer } from './support/redis-server.js';
import { TEST_TIMEOUT_MS } from './support/waits.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/**
 * O7 (test/SPEC.md): SIGTERM at any moment after a node started, on a Redis holding a room with a question running
 * (so the node takes the room's driver lease at once), exits 0, and the lease is given back on the way out.
 * The nodes run src/main.ts as deployed (Redis store, streams adapter), transpiled once (compileMain) and with
 * PRELOAD_SAMPLE=false. The suite runs 10 cycles; the 50-cycle soak runs with SOAK=1
 * (`SOAK=1 npx vitest run test/shutdown.integration.test.ts`), about a minute of two cores.
 */

const CYCLES = process.env.SOAK === '1' ? 50 : 10;
/** Cycles run a few at a time: the machine has two cores, and each start is mostly CPU (loading modules). */
const LANES = 3;
/** A lane's starts follow one another; on a loaded machine each may take a test's worth of time. */
const O7_BUDGET_MS = TEST_TIMEOUT_MS * Math.ceil(CYCLES / LANES);
const MAX_DELAY_MS = 1_500;

let redisServer: RedisServer;
let redis: Redis;
/** A room whose question is open but paused: it stays in the active set, and driven, however long the file runs. */
let pausedRoom: string;
/** A room whose question is open for two minutes: its driver also polls the answer count (more commands in flight). */
let runningRoom: string;
let compiled: Awaited<ReturnType<typeof compileMain>>;
const env = (nodeId: string) => ({ NODE_ID: nodeId, PRELOAD_SAMPLE: 'false', LOG_LEVEL: 'info' });

beforeAll(async () => {
  compiled = await compileMain();
  redisServer = await startRedisServer();
  redis = new Redis(redisServer.url, { maxRetriesPerRequest: 3 });
  const setup = await node('setup');
  try {
    const quiz = await createQuiz(setup);
    const open = async (pause: boolean) => {
      const room = await createRoom(setup, quiz, { questionSeconds: 120, previewSeconds: 0 });
      const host = await openHost(setup.url, room.hostToken);
      const opened = host.next<QuestionPayload>('room:question', (question) => question.phase === 'open');
      expect((await host.emit('room:start')).ok).toBe(true);
      await opened;
      if (pause) expect((await host.emit('room:pause')).ok).toBe(true);
      host.close();
      return room.roomId;
    };
    pausedRoom = await open(true);
    runningRoom = await open(false);
  } finally {
    expect((await setup.stop()).code).toBe(0);
  }
});

afterAll(async () => {
  await redis?.quit();
  await redisServer?.stop();
  compiled?.remove();
});

const lease = (roomId = pausedRoom) => redis.get(quizKeys.roomDriver(roomId));
/** The log line of a node starting to drive the paused room. */
const drivingPaused = () => new RegExp(`"roomId":"${pausedRoom}".*"msg":"driving room"`);

async function node(nodeId: string): Promise<MainProcess> {
  return startMain({ ...env(nodeId), REDIS_URL: redisServer.url }, { entry: compiled.entry });
}

describe('shutdown', () => {
  it('O7 a node that drives a room gives the lease back when it stops: the other node drives the room at once', async () => {
    // Nobody drives the rooms now (the setup node gave the leases back): A takes both at its first scan.
    const a = await node('driver-a');
    try {
      await a.waitForOutput(drivingPaused());
      expect(await lease()).toBe('driver-a');
      const b = await node('driver-b');
      try {
        expect((await a.stop()).code).toBe(0);
        // Right after A's exit the lease is free or already B's: never A's, which would hold the room for its TTL.
        expect(await lease()).not.toBe('driver-a');
        await b.waitForOutput(drivingPaused());
        expect(await lease()).toBe('driver-b');
        expect((await b.stop()).code).toBe(0);
        expect(await lease()).toBeNull();
      } finally {
        await b.stop('SIGKILL');
      }
    } finally {
      await a.stop('SIGKILL');
    }
  });

  it(`O7 ${CYCLES} start/SIGTERM cycles at delays from 0 to ${MAX_DELAY_MS} ms all exit 0 and never leave the lease behind`, async () => {
    const outcomes: { cycle: number; delayMs: number; code: number | null; signal: string | null; leasesAfter: (string | null)[]; drove: boolean; unhandled: boolean; crash: string }[] = [];
    let next = 0;
    const lane = async () => {
      for (let cycle = next++; cycle < CYCLES; cycle = next++) {
        const nodeId = `cycle-${cycle}`;
        // Spread evenly over the range, in an order that mixes short and long delays across lanes.
        const delayMs = Math.round((((cycle * 17) % CYCLES) / (CYCLES - 1)) * MAX_DELAY_MS);
        const started = await node(nodeId);
        try {
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          const { code, signal } = await started.stop();
          const output = started.output();
          outcomes.push({
            cycle,
            delayMs,
            code,
            signal,
            leasesAfter: [await lease(pausedRoom), await lease(runningRoom)],
            drove: output.includes('"driving room"'),
            unhandled: output.includes('unhandled promise rejection'),
            crash: code === 0 ? '' : output.slice(-1_500),
          });
        } finally {
          await started.stop('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));

    expect(outcomes).toHaveLength(CYCLES);
    expect(outcomes.filter((outcome) => outcome.code !== 0)).toEqual([]);
    // Not even a logged one: the adapter's commands were answered (or caught) before its connections closed.
    expect(outcomes.filter((outcome) => outcome.unhandled)).toEqual([]);
    expect(outcomes.filter((outcome) => outcome.leasesAfter.includes(`cycle-${outcome.cycle}`))).toEqual([]);
    // The cycles did exercise a driving node (each start takes the free lease at its first scan).
    expect(outcomes.some((outcome) => outcome.drove)).toBe(true);
    // The paused room was in the active set for every cycle (so every start could take its lease).
    expect(JSON.parse((await redis.hget(quizKeys.room(pausedRoom), 'phase')) ?? '{}')).toMatchObject({ phase: 'open', paused: {} });
  }, O7_BUDGET_MS);
});
