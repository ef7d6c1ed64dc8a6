import { describe, expect, it } from 'vitest';
import { SeqCursor } from '../client/net/seq-cursor.js';
import { readTutorFrame } from '../client/net/tutor-protocol.js';

/** The pages' `/tutor` sequencing (client/net), which the browser tests and LectureClient rely on. */
describe('SeqCursor', () => {
  it('applies the next seq, drops stale ones and reports a gap without moving', () => {
    const cursor = new SeqCursor();
    expect(cursor.accept(1)).toBe('next');
    expect(cursor.accept(2)).toBe('next');
    expect(cursor.accept(2)).toBe('stale');
    expect(cursor.accept(1)).toBe('stale');
    expect(cursor.accept(5)).toBe('gap');
    expect(cursor.lastSeq).toBe(2);
    expect(cursor.highestSeen).toBe(5);
    expect(cursor.accept(3)).toBe('next');
  });

  it('takes a snapshot seq as it is, even below lastSeq, and treats seq 0 as a notice', () => {
    const cursor = new SeqCursor(7);
    expect(cursor.accept(0)).toBe('notice');
    expect(cursor.lastSeq).toBe(7);
    expect(cursor.accept(4, true)).toBe('snapshot');
    expect(cursor.lastSeq).toBe(4);
    expect(cursor.highestSeen).toBe(7);
    expect(cursor.accept(5)).toBe('next');
  });
});

describe('readTutorFrame', () => {
  it('sorts frames into snapshot, class notice and numbered session event', () => {
    const state = { sessionId: 's', nickname: 'n' };
    expect(readTutorFrame('session:state', { seq: 3, state })).toEqual({ kind: 'snapshot', payload: { seq: 3, state } });
    expect(readTutorFrame('class:announcement', { text: '안녕', at: 1 })).toEqual({ kind: 'class', notice: { name: 'class:announcement', payload: { text: '안녕', at: 1 } } });
    expect(readTutorFrame('hand:acknowledged', { at: 2 })).toMatchObject({ kind: 'class' });
    expect(readTutorFrame('lecture:delta', { seq: 4, chapter: 0, text: '가' })).toEqual({
      kind: 'session',
      event: { name: 'lecture:delta', payload: { seq: 4, chapter: 0, text: '가' } },
    });
  });

  it('ignores frames a page cannot use: no payload object, no seq, a snapshot without its state', () => {
    expect(readTutorFrame('lecture:delta', 'text')).toBeUndefined();
    expect(readTutorFrame('lecture:delta', null)).toBeUndefined();
    expect(readTutorFrame('lecture:delta', { chapter: 0, text: '가' })).toBeUndefined();
    expect(readTutorFrame('session:state', { seq: 1 })).toBeUndefined();
  });
});
