import type { Attribution } from '../llm/index.js';

/**
 * A session's interruptions. Work runs in epochs: a step remembers the epoch it started in (`epoch`) and stops at
 * its next check once `interrupt()` (pause, hand raised or lowered, close, a lost store) has begun a new one. An
 * interrupt also wakes every wait of the old epoch and aborts its model calls.
 */
export class Interrupts {
  private current = 0;
  /** Wakes every wait of the current epoch when it is interrupted. */
  private readonly wakers = new Set<() => void>();
  private abort = new AbortController();

  constructor(private readonly attribution: Attribution) {}

  /** The epoch now: a step captures it when it starts. */
  get epoch(): number {
    return this.current;
  }

  /** Whether no interruption happened since `epoch` was captured. */
  isCurrent(epoch: number): boolean {
    return epoch === this.current;
  }

  /** Begins a new epoch: waits of the old one resolve, its model calls are aborted. */
  interrupt(): void {
    this.current += 1;
    for (const wake of [...this.wakers]) wake();
    this.wakers.clear();
    this.abort.abort();
    this.abort = new AbortController();
  }

  /** Waits for `subscribe`'s callback or an interruption, whichever comes first. */
  wait(subscribe: (wake: () => void) => (() => void) | void): Promise<void> {
    return new Promise<void>((resolve) => {
      let unsubscribe: (() => void) | void = undefined;
      const wake = () => {
        this.wakers.delete(wake);
        if (unsubscribe) unsubscribe();
        resolve();
      };
      this.wakers.add(wake);
      unsubscribe = subscribe(wake);
    });
  }

  /** Options of a model call made now: attributed to the session, aborted by the next interruption. */
  modelCall(): { attribution: Attribution; signal: AbortSignal } {
    return { attribution: { ...this.attribution }, signal: this.abort.signal };
  }
}
