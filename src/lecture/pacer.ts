import { tokenize, type TokenizeOptions } from './tokenizer.js';

/**
 * Per-session pacer: releases display tokens at the session's speed and batches whatever is due into at most one
 * emit per window. Time and timers come in through `PacerScheduler` so tests drive it with a manual clock and no
 * sleeps, and so thousands of pacers cost one pending timer each (never one per token).
 *
 * Timing model: every token has a due time; the next one is due `1000 / speed` ms after the previous one. Idle
 * time is not caught up (text pushed after a drain starts at "now"), paused time is cut out (resume keeps the
 * phase), and a speed change applies from the next token on. A late timer releases everything that is due, so the
 * average rate holds even on a busy event loop, and `scheduledAt` tells a benchmark how late the batch was.
 */

/** Cancels a scheduled callback. */
export type CancelTimer = () => void;

export interface PacerScheduler {
  now(): number;
  schedule(callback: () => void, delayMs: number): CancelTimer;
}

export interface PacerEmitMeta {
  /** When the batch's earliest token was due (scheduler time). `emittedAt - scheduledAt` is its lateness. */
  scheduledAt: number;
  emittedAt: number;
  /** Number of display tokens in the batch. */
  tokens: number;
}

export interface PacerOptions {
  scheduler: PacerScheduler;
  emit: (text: string, meta: PacerEmitMeta) => void;
  /** Tokens per second, clamped to [MIN_SPEED, MAX_SPEED]. Default 25. */
  speed?: number;
  /** Minimum spacing of two emits, in ms. Default 50. */
  windowMs?: number;
  tokenizer?: TokenizeOptions;
}

export interface Pacer {
  /** Queues marker-free lecture text. The first emit after an idle period happens synchronously, inside push. */
  push(text: string): void;
  /**
   * Calls `callback` once everything pushed before it has been emitted, right after that emit (synchronously now
   * if nothing is pending). Text pushed after the mark is never batched with text before it, so a callback that
   * calls `pause()` stops the stream exactly there — e.g. at a question.
   */
  mark(callback: () => void): void;
  /** Resolves when everything pushed so far has been emitted. */
  drained(): Promise<void>;
  pause(): void;
  resume(): void;
  setSpeed(tokensPerSecond: number): void;
  /** Cancels the timer and drops pending text and marks; the pacer stays usable. Returns the dropped text. */
  clear(): string;
  readonly speed: number;
  readonly paused: boolean;
  /** Tokens queued and not yet emitted. */
  readonly pendingTokens: number;
  /** UTF-16 length of all text emitted so far (lets a session persist its stream offset). */
  readonly emittedChars: number;
}

export const DEFAULT_SPEED = 25;
export const MIN_SPEED = 1;
export const MAX_SPEED = 200;
export const DEFAULT_WINDOW_MS = 50;

export function clampSpeed(tokensPerSecond: number): number {
  if (!Number.isFinite(tokensPerSecond)) throw new RangeError(`speed must be a finite number, got ${tokensPerSecond}`);
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, tokensPerSecond));
}

/** The real clock: monotonic time and Node timers. */
export const systemScheduler: PacerScheduler = {
  now: () => performance.now(),
  schedule(callback, delayMs) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    return () => clearTimeout(timer);
  },
};

type QueueItem = { kind: 'token'; text: string } | { kind: 'mark'; callback: () => void };

export function createPacer(options: PacerOptions): Pacer {
  const { scheduler, emit } = options;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  let speed = clampSpeed(options.speed ?? DEFAULT_SPEED);
  // An array with a moving head: shift() on long queues would be O(n) per token.
  let queue: QueueItem[] = [];
  let head = 0;
  let tokenCount = 0;
  // The next token is due at max(lastDue + interval, floor): `lastDue` is when the last released token was due,
  // `floor` the earliest moment the stream may go on (set when text arrives after idling and on a speed change).
  let lastDue = Number.NEGATIVE_INFINITY;
  let floor = Number.NEGATIVE_INFINITY;
  let lastEmitAt = Number.NEGATIVE_INFINITY;
  let pausedAt: number | null = null;
  let emittedChars = 0;
  let cancelTimer: CancelTimer | null = null;
  let timerAt = Number.POSITIVE_INFINITY;
  let running = false;

  const nextDue = (): number => Math.max(lastDue + 1000 / speed, floor);

  function compact(): void {
    if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  }

  function stopTimer(): void {
    cancelTimer?.();
    cancelTimer = null;
    timerAt = Number.POSITIVE_INFINITY;
  }

  /** Fires marks at the head of the queue; they are due because everything before them is out. */
  function fireMarks(): void {
    let item = queue[head];
    while (item !== undefined && item.kind === 'mark') {
      head += 1;
      item.callback();
      item = queue[head];
    }
  }

  function tick(): void {
    running = true;
    try {
      const now = scheduler.now();
      fireMarks();
      const scheduledAt = nextDue();
      if (pausedAt !== null || tokenCount === 0 || now < scheduledAt || now < lastEmitAt + windowMs) return;
      let text = '';
      let tokens = 0;
      let item = queue[head];
      while (item !== undefined && item.kind === 'token' && nextDue() <= now) {
        lastDue = nextDue();
        text += item.text;
        tokens += 1;
        head += 1;
        item = queue[head];
      }
      tokenCount -= tokens;
      emittedChars += text.length;
      lastEmitAt = now;
      emit(text, { scheduledAt, emittedAt: now, tokens });
      fireMarks();
      compact();
    } finally {
      running = false;
      // Also after the early returns: a timer may fire a little before its due time (Node timers round to whole
      // milliseconds), and the stream must then be re-planned, not left without a timer.
      plan();
    }
  }

  /** Arranges the next tick: synchronously when one is due now, else through the single timer. */
  function plan(): void {
    if (running) return;
    if (pausedAt !== null || tokenCount === 0) {
      stopTimer();
      return;
    }
    const at = Math.max(nextDue(), lastEmitAt + windowMs);
    if (at <= scheduler.now()) {
      stopTimer();
      tick();
      return;
    }
    if (cancelTimer !== null && timerAt === at) return;
    stopTimer();
    timerAt = at;
    cancelTimer = scheduler.schedule(() => {
      cancelTimer = null;
      timerAt = Number.POSITIVE_INFINITY;
      tick();
    }, at - scheduler.now());
  }

  function push(text: string): void {
    if (text.length === 0) return;
    const last = queue[queue.length - 1];
    let source = text;
    // A model delta can end mid-word; re-tokenise the unreleased last token with the new text so the token
    // boundaries do not depend on how the text was chunked.
    if (queue.length > head && last !== undefined && last.kind === 'token') {
      source = last.text + text;
      queue.pop();
      tokenCount -= 1;
    }
    // Idle time is not owed to anyone: a new stretch of text starts now, not in a catch-up burst.
    if (tokenCount === 0) floor = pausedAt ?? scheduler.now();
    for (const token of tokenize(source, options.tokenizer)) {
      queue.push({ kind: 'token', text: token });
      tokenCount += 1;
    }
    plan();
  }

  function mark(callback: () => void): void {
    if (queue.length === head) {
      callback();
      return;
    }
    queue.push({ kind: 'mark', callback });
  }

  return {
    push,
    mark,
    drained: () => new Promise<void>((resolve) => mark(resolve)),
    pause() {
      if (pausedAt !== null) return;
      pausedAt = scheduler.now();
      stopTimer();
    },
    resume() {
      if (pausedAt === null) return;
      // Shift the schedule by the paused time so the token that was next stays next, with the same spacing.
      const pausedFor = scheduler.now() - pausedAt;
      lastDue += pausedFor;
      floor += pausedFor;
      pausedAt = null;
      plan();
    },
    setSpeed(tokensPerSecond) {
      speed = clampSpeed(tokensPerSecond);
      // The next token is re-spaced from the last released one, but never into the past: that would burst.
      floor = Math.max(floor, pausedAt ?? scheduler.now());
      plan();
    },
    clear() {
      stopTimer();
      let dropped = '';
      for (let index = head; index < queue.length; index += 1) {
        const item = queue[index];
        if (item?.kind === 'token') dropped += item.text;
      }
      queue = [];
      head = 0;
      tokenCount = 0;
      return dropped;
    },
    get speed() {
      return speed;
    },
    get paused() {
      return pausedAt !== null;
    },
    get pendingTokens() {
      return tokenCount;
    },
    get emittedChars() {
      return emittedChars;
    },
  };
}
