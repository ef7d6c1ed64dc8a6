/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - EP5 — Autosave rules. (`client/net/exam-drafts.ts`, fake clock).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEBOUNCE_MS, DraftSaver, type DraftState } from '../client/net/exam-drafts.js';

/**
 * EP5 (test/SPEC.md): the classroom's exam autosave (client/net/exam-drafts.ts) with a fake clock and an in-memory
 * sessionStorage: changed answers go together once typing rests, a failed save is retried until it goes through,
 * text typed while a save is out is sent after it, what the server never confirmed is sent again by the next page
 * (a reload), and a final refusal (EXAM_CLOSED) stops the saving without losing the local copy.
 */

class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
}

const KEY = 'lectern.exam.drafts.s1.e1';
let storage: MemoryStorage;

beforeEach(() => {
  vi.useFakeTimers();
  storage = new MemoryStorage();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A refused request as client/net/http.ts's ApiError carries it: the Korean message and the server's code. */
const refusal = (message: string, code?: string) => Object.assign(new Error(message), { code });

/** A saver whose server answers with `replies` in turn (an Error is a failed request). */
function saver(replies: (Error | 'ok')[]) {
  const sent: Record<string, string>[] = [];
  const states: DraftState[] = [];
  const instance = new DraftSaver({
    storage,
    storageKey: KEY,
    save: (answers) => {
      sent.push(answers);
      const reply = replies.shift() ?? 'ok';
      return reply === 'ok' ? Promise.resolve({ savedAt: 1000 * sent.length, serverNow: 5000 }) : Promise.reject(reply);
    },
    state: (state) => states.push(state),
  });
  return { instance, sent, states };
}

describe('exam drafts', () => {
  it('EP5 sends the changed answers together after typing rests, once', async () => {
    const { instance, sent, states } = saver([]);
    instance.restore({}, {});
    instance.set(1, '분');
    instance.set(1, '분산');
    instance.set(2, '평균');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS - 1);
    expect(sent).toEqual([]);
    // Every keystroke is already in the tab's copy.
    expect(JSON.parse(storage.getItem(KEY) ?? '{}')).toEqual({ answers: { '1': '분산', '2': '평균' }, unsent: ['1', '2'] });
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ '1': '분산', '2': '평균' }]);
    expect(states.at(-1)).toEqual({ kind: 'saved', savedAt: 1000, serverNow: 5000 });
    expect(JSON.parse(storage.getItem(KEY) ?? '{}').unsent).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
  });

  it('EP5 retries a failed save until it goes through, and sends what was typed meanwhile', async () => {
    const { instance, sent, states } = saver([refusal('서버에 연결할 수 없습니다.'), refusal('잠시 후 다시', 'STORE_UNAVAILABLE')]);
    instance.restore({}, {});
    instance.set(3, '표준편차');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    expect(states.at(-1)).toMatchObject({ kind: 'retrying', message: '서버에 연결할 수 없습니다.' });
    instance.set(4, '중앙값');
    await vi.runAllTimersAsync();
    expect(sent.at(-1)).toEqual({ '3': '표준편차', '4': '중앙값' });
    expect(sent).toHaveLength(3);
    expect(states.at(-1)?.kind).toBe('saved');
    expect(instance.hasUnsent).toBe(false);
  });

  it('EP5 a reload sends what the server never confirmed, over the server drafts, but not submitted items', async () => {
    const before = saver([]);
    before.instance.restore({}, {});
    before.instance.set(1, '서버에 간 답');
    await vi.advanceTimersByTimeAsync(DEBOUNCE_MS);
    before.instance.set(2, '새로 고침 직전에 쓴 답');
    before.instance.set(5, '제출된 문항');
    before.instance.stop();

    const after = saver([]);
    const shown = after.instance.restore({ '1': '서버에 간 답', '2': '예전 답', '5': '제출한 답' }, { '5': true });
    expect(shown).toEqual({ '1': '서버에 간 답', '2': '새로 고침 직전에 쓴 답', '5': '제출한 답' });
    await vi.runAllTimersAsync();
    expect(after.sent).toEqual([{ '2': '새로 고침 직전에 쓴 답' }]);
  });

  it('EP5 a final refusal stops saving and keeps the local copy', async () => {
    const { instance, sent, states } = saver([refusal('시험이 마감되었습니다.', 'EXAM_CLOSED')]);
    instance.restore({}, {});
    instance.set(1, '늦은 답');
    await vi.runAllTimersAsync();
    expect(states.at(-1)).toEqual({ kind: 'refused', code: 'EXAM_CLOSED', message: '시험이 마감되었습니다.' });
    instance.set(1, '더 늦은 답');
    await vi.runAllTimersAsync();
    expect(sent).toHaveLength(1);
    expect(JSON.parse(storage.getItem(KEY) ?? '{}').answers).toEqual({ '1': '늦은 답' });
  });

  it('EP5 flush sends at once and says whether everything is on the server', async () => {
    const { instance, sent } = saver([refusal('서버에 연결할 수 없습니다.')]);
    instance.restore({}, {});
    instance.set(1, '답');
    expect(await instance.flush()).toBe(false);
    expect(await instance.flush()).toBe(true);
    expect(sent).toEqual([{ '1': '답' }, { '1': '답' }]);
  });
});
