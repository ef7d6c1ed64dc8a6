/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - J1 — One policy. Every JSON record a repository reads back goes through `readJsonRecord` with its zod schema: a
 *   valid record is parsed (unknown fields dropped); an absent one is null …
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../src/kernel/logger.js';
import { QuizRepository } from '../src/quiz/quiz-repository.js';
import { RoomRepository } from '../src/quiz/room-repository.js';
import { readJsonRecord } from '../src/store/json-record.js';
import { MemoryStore } from '../src/store/memory-store.js';
import { quizKeys } from '../src/quiz/quiz-keys.js';

/** The one policy for JSON records read back from the store (rule J1 of test/SPEC.md). */

function recordingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('warn', destination), lines };
}

const Point = z.object({ x: z.number(), y: z.number() });

describe('JSON records', () => {
  it('J1: a valid record is parsed with its schema; an absent one is null and logs nothing', () => {
    const { logger, lines } = recordingLogger();
    expect(readJsonRecord('{"x":1,"y":2,"extra":3}', Point, { key: 'k', logger })).toEqual({ x: 1, y: 2 });
    expect(readJsonRecord(null, Point, { key: 'k', logger })).toBeNull();
    expect(readJsonRecord(undefined, Point, { key: 'k', logger })).toBeNull();
    expect(lines).toEqual([]);
  });

  it('J1: a record that is not JSON, or does not match its schema, is logged with its key and treated as missing', () => {
    const { logger, lines } = recordingLogger();
    expect(readJsonRecord('{"x":1,', Point, { key: 'lectern:broken', logger })).toBeNull();
    expect(readJsonRecord('{"x":"1","y":2}', Point, { key: 'lectern:mismatch', logger })).toBeNull();
    expect(lines.map((line) => [line.level, line.key])).toEqual([
      [40, 'lectern:broken'],
      [40, 'lectern:mismatch'],
    ]);
    // The record itself is never logged: it may hold solutions or students' text.
    expect(JSON.stringify(lines)).not.toContain('"x":"1"');
  });

  it('J1: repositories read through it: a corrupt quiz, room phase or room results is missing, not a crash or a cast', async () => {
    const store = new MemoryStore();
    const { logger, lines } = recordingLogger();
    const quizId = 'a'.repeat(32);
    await store.set(quizKeys.quiz(quizId), '{"title": 1}');
    expect(await new QuizRepository(store, Date.now, logger).get(quizId)).toBeNull();
    const rooms = new RoomRepository(store, logger);
    await store.hset(quizKeys.room('r1'), { phase: '{"phase":"open","v":1}' });
    await store.set(quizKeys.roomResults('r1'), 'not json');
    expect(await rooms.phase('r1')).toBeNull();
    expect(await rooms.results('r1')).toBeNull();
    expect(lines.map((line) => line.key)).toEqual([quizKeys.quiz(quizId), `${quizKeys.room('r1')} phase`, quizKeys.roomResults('r1')]);
    await store.close();
  });
});
