/**
 * The clock live rooms run on: the time deadlines are written and compared in, and the timers that wait for them.
 * Injected so tests can run a game in compressed time or make every timer fire early.
 */
export interface RoomClock {
  now(): number;
  /**
   * Calls `callback` after about `delayMs`; returns a cancel function. A timer may fire a little before its due time
   * (Node rounds to whole milliseconds against a finer clock), so whoever waits for a deadline checks the clock again.
   */
  schedule(callback: () => void, delayMs: number): () => void;
}

export const systemRoomClock: RoomClock = {
  now: () => Date.now(),
  schedule(callback, delayMs) {
    const timer = setTimeout(callback, Math.max(0, delayMs));
    return () => clearTimeout(timer);
  },
};
