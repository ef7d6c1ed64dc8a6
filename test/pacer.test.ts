import { describe, expect, it } from 'vitest';
import { MAX_SPEED, MIN_SPEED, createPacer } from '../src/lecture/pacer.js';
import type { Pacer, PacerEmitMeta, PacerOptions, PacerScheduler } from '../src/lecture/pacer.js';

interface Timer {
  at: number;
  /** How long the timer was set for. */
  delay: number;
  id: number;
  callback: () => void;
}

/**
 * A manual clock: timers run only when the test advances time, each at exactly its due time (ties in creation
 * order). A binary heap keeps thousands of timers cheap.
 */
function manualScheduler(earlyMs = 0): PacerScheduler & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let nextId = 0;
  const heap: Timer[] = [];
  const live = new Set<number>();
  const before = (left: Timer, right: Timer): boolean => left.at < right.at || (left.at === right.at && left.id < right.id);
  const swap = (left: number, right: number): void => {
    const held = heap[left] as Timer;
    heap[left] = heap[right] as Timer;
    heap[right] = held;
  };
  const pushTimer = (timer: Timer): void => {
    heap.push(timer);
    for (let index = heap.length - 1; index > 0; ) {
      const parent = (index - 1) >> 1;
      if (!before(heap[index] as Timer, heap[parent] as Timer)) break;
      swap(index, parent);
      index = parent;
    }
  };
  const popTimer = (): Timer | undefined => {
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined || heap.length === 0) return top;
    heap[0] = last;
    for (let index = 0; ; ) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && before(heap[left] as Timer, heap[smallest] as Timer)) smallest = left;
      if (right < heap.length && before(heap[right] as Timer, heap[smallest] as Timer)) smallest = right;
      if (smallest === index) break;
      swap(index, smallest);
      index = smallest;
    }
    return top;
  };
  return {
    now: () => now,
    schedule(callback, delayMs) {
      const id = nextId++;
      live.add(id);
      pushTimer({ at: now + Math.max(0, delayMs), delay: Math.max(0, delayMs), id, callback });
      return () => live.delete(id);
    },
    advance(ms) {
      const target = now + ms;
      for (let top = heap[0]; top !== undefined && top.at <= target; top = heap[0]) {
        popTimer();
        if (!live.delete(top.id)) continue;
        // Real timers round to whole milliseconds, so one may run a little before its due time on the monotonic
        // clock (never by more than its own delay).
        now = Math.max(now, top.at - Math.min(earlyMs, top.delay / 2));
        top.callback();
      }
      now = target;
    },
    pending: () => live.size,
  };
}

interface Emitted {
  text: string;
  meta: PacerEmitMeta;
}

function setup(options: Partial<PacerOptions> = {}): {
  clock: ReturnType<typeof manualScheduler>;
  pacer: Pacer;
  emitted: Emitted[];
  text: () => string;
} {
  const clock = manualScheduler();
  const emitted: Emitted[] = [];
  const pacer = createPacer({ scheduler: clock, emit: (text, meta) => emitted.push({ text, meta }), ...options });
  return { clock, pacer, emitted, text: () => emitted.map((entry) => entry.text).join('') };
}

const words = (count: number): string => Array.from({ length: count }, (_, index) => `단어${index} `).join('');
const tokensOut = (emitted: readonly Emitted[]): number => emitted.reduce((sum, entry) => sum + entry.meta.tokens, 0);

describe('pacer', () => {
  it('emits the first token at once, inside push', () => {
    const { pacer, emitted } = setup();
    pacer.push('안녕하세요 여러분, 오늘은 기댓값을 배웁니다.');
    expect(emitted).toEqual([{ text: '안녕하세요 ', meta: { scheduledAt: 0, emittedAt: 0, tokens: 1 } }]);
    expect(pacer.pendingTokens).toBe(4);
  });

  it('respects the rate: 25 tokens/s over 10 s gives about 250 tokens', () => {
    const { clock, pacer, emitted } = setup();
    pacer.push(words(1000));
    clock.advance(10_000);
    // Token k is due at 40k ms, so tokens 0..250 are due within [0, 10 000].
    expect(tokensOut(emitted)).toBe(251);
    expect(clock.pending()).toBe(1);
  });

  it('emits at most once per 50 ms window, merging what is due, and is never late on time', () => {
    const { clock, pacer, emitted } = setup({ speed: 200 });
    pacer.push(words(2000));
    clock.advance(5_000);
    for (let index = 1; index < emitted.length; index += 1) {
      const gap = (emitted[index]?.meta.emittedAt ?? 0) - (emitted[index - 1]?.meta.emittedAt ?? 0);
      expect(gap).toBeGreaterThanOrEqual(50);
    }
    expect(emitted.length).toBe(101);
    expect(tokensOut(emitted)).toBe(1001);
    expect(emitted[1]?.meta).toEqual({ scheduledAt: 5, emittedAt: 50, tokens: 10 });
  });

  it('reports lateness: a late timer releases everything due with its earliest scheduled time', () => {
    const clock = manualScheduler();
    const emitted: Emitted[] = [];
    // A scheduler whose timers fire 30 ms late, like a busy event loop.
    const late: PacerScheduler = { now: clock.now, schedule: (callback, delay) => clock.schedule(callback, delay + 30) };
    const pacer = createPacer({ scheduler: late, emit: (text, meta) => emitted.push({ text, meta }) });
    pacer.push(words(10));
    clock.advance(100);
    // Token 1 was due at 40 and token 2 at 80; the window put the timer at 50, the loop ran it at 80.
    expect(emitted[1]?.meta).toEqual({ scheduledAt: 40, emittedAt: 80, tokens: 2 });
  });

  it('concatenated emits equal the input exactly, however it was pushed', () => {
    const { clock, pacer, text } = setup({ speed: 37 });
    const lecture = '# 1장\n\n평균은 모든 값을 더해서 개수로 나눈 값이에요.  E[X] = Σ x·p(x) 😀👍🏽\n끝';
    for (let index = 0; index < lecture.length; index += 3) {
      pacer.push(lecture.slice(index, index + 3));
      clock.advance(7);
    }
    clock.advance(10_000);
    expect(text()).toBe(lecture);
    expect(pacer.emittedChars).toBe(lecture.length);
  });

  it('tokenises the same whatever the chunking, while the tail is unreleased', () => {
    const { clock, pacer, emitted } = setup();
    pacer.push('첫');
    pacer.push('번째 단');
    pacer.push('어와 두');
    pacer.push('번째');
    clock.advance(1_000);
    expect(emitted.map((entry) => entry.text)).toEqual(['첫', '번째 ', '단어와 ', '두번째']);
  });

  it('applies a speed change from the next token on', () => {
    const { clock, pacer, emitted } = setup({ speed: 10 });
    pacer.push(words(500));
    clock.advance(1_000);
    expect(tokensOut(emitted)).toBe(11);
    pacer.setSpeed(100);
    expect(pacer.speed).toBe(100);
    clock.advance(1_000);
    // Token 10 went at 1000 ms; the next ones come every 10 ms.
    expect(tokensOut(emitted)).toBe(111);
    pacer.setSpeed(1);
    clock.advance(2_000);
    expect(tokensOut(emitted)).toBe(113);
    expect(() => pacer.setSpeed(Number.NaN)).toThrow(RangeError);
    pacer.setSpeed(10_000);
    expect(pacer.speed).toBe(MAX_SPEED);
    pacer.setSpeed(0);
    expect(pacer.speed).toBe(MIN_SPEED);
  });

  it('pauses without releasing anything and resumes exactly where it stopped', () => {
    const { clock, pacer, emitted, text } = setup();
    const lecture = words(40);
    pacer.push(lecture);
    clock.advance(200);
    const before = text();
    pacer.pause();
    expect(pacer.paused).toBe(true);
    expect(clock.pending()).toBe(0);
    clock.advance(5_000);
    pacer.push('추가 문장.');
    expect(text()).toBe(before);
    const count = emitted.length;
    pacer.resume();
    // The next token was due 40 ms after the last one; the 5 s pause is cut out of the schedule.
    clock.advance(39);
    expect(emitted.length).toBe(count);
    clock.advance(1);
    expect(emitted.length).toBe(count + 1);
    expect(emitted[count]?.meta.emittedAt).toBe(5_240);
    clock.advance(10_000);
    expect(text()).toBe(lecture + '추가 문장.');
  });

  it('reports the drain with a mark and never batches text across it', () => {
    const { clock, pacer, emitted } = setup({ speed: 200 });
    const order: string[] = [];
    pacer.push('질문 앞의 설명입니다. 곧 질문이 나옵니다.');
    pacer.mark(() => {
      order.push(`mark after ${emitted.length} emits`);
      pacer.pause();
    });
    pacer.push('질문 뒤의 설명.');
    clock.advance(1_000);
    expect(order).toEqual(['mark after 2 emits']);
    expect(emitted.map((entry) => entry.text).join('')).toBe('질문 앞의 설명입니다. 곧 질문이 나옵니다.');
    pacer.resume();
    clock.advance(1_000);
    expect(emitted.map((entry) => entry.text).at(-1)).toBe('질문 뒤의 설명.');
  });

  it('resolves drained() and fires a mark at once when nothing is pending', async () => {
    const { clock, pacer } = setup();
    let marked = false;
    pacer.mark(() => (marked = true));
    expect(marked).toBe(true);
    pacer.push(words(5));
    let done = false;
    const drained = pacer.drained().then(() => (done = true));
    clock.advance(100);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(100);
    await drained;
    expect(done).toBe(true);
    expect(pacer.pendingTokens).toBe(0);
  });

  it('does not burst to catch up after idling', () => {
    const { clock, pacer, emitted } = setup();
    pacer.push('하나 둘');
    clock.advance(5_000);
    pacer.push('셋 넷 다섯');
    expect(emitted.at(-1)?.meta).toEqual({ scheduledAt: 5_000, emittedAt: 5_000, tokens: 1 });
    clock.advance(50);
    expect(emitted.at(-1)?.meta.tokens).toBe(1);
  });

  it('clear() drops pending text and stops the timer; callbacks may re-enter safely', () => {
    const { clock, pacer, emitted } = setup();
    pacer.push(words(10));
    expect(pacer.clear()).toBe(words(10).slice('단어0 '.length));
    expect(clock.pending()).toBe(0);
    const nested = setup();
    const echoes: string[] = [];
    const inner = createPacer({
      scheduler: nested.clock,
      emit: (text) => {
        echoes.push(text);
        if (echoes.length === 1) inner.push('다시 ');
      },
    });
    inner.push('처음 ');
    nested.clock.advance(1_000);
    expect(echoes.join('')).toBe('처음 다시 ');
    expect(emitted.length).toBe(1);
  });

  it('keeps streaming when a timer fires slightly before its due time', () => {
    const clock = manualScheduler(0.7);
    const emitted: Emitted[] = [];
    const pacer = createPacer({ scheduler: clock, emit: (text, meta) => emitted.push({ text, meta }), speed: 200 });
    const input = '# 평균의 의미\n\n이번 장에서는 평균의 의미를 다룹니다.\n\n평균은 자료 전체를 대표하는 하나의 값입니다.';
    for (const piece of input.split(/(?<= )/u)) pacer.push(piece);
    clock.advance(2_000);
    expect(emitted.map((entry) => entry.text).join('')).toBe(input);
    expect(pacer.pendingTokens).toBe(0);
  });

  it('keeps at most one timer per pacer across thousands of pacers', () => {
    const clock = manualScheduler();
    let emits = 0;
    const pacers = Array.from({ length: 2_000 }, () => createPacer({ scheduler: clock, emit: () => (emits += 1) }));
    for (const pacer of pacers) pacer.push(words(100));
    expect(clock.pending()).toBe(2_000);
    clock.advance(1_000);
    expect(clock.pending()).toBe(2_000);
    expect(emits).toBe(2_000 * 21);
  });
});
