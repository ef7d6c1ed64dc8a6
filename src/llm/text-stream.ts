import type { StreamTextResult, TextStream } from './model.js';

/**
 * Turns a producer that pushes deltas into a {@link TextStream}. The producer starts at once (not on first
 * iteration), so awaiting only `result` works too; deltas wait in a queue until the consumer reads them. When the
 * consumer stops early (break / return), the producer's signal aborts so the underlying request is cancelled.
 */
export function createTextStream(
  produce: (push: (delta: string) => void, signal: AbortSignal) => Promise<StreamTextResult>,
): TextStream {
  const cancel = new AbortController();
  const queue: string[] = [];
  let settled: { ok: true } | { ok: false; error: unknown } | undefined;
  let wake: (() => void) | undefined;

  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };

  const push = (delta: string) => {
    if (delta === '' || settled !== undefined || cancel.signal.aborted) return;
    queue.push(delta);
    notify();
  };

  // Started on a microtask so a synchronous throw in `produce` still becomes a rejection, not an exception here.
  const result = Promise.resolve()
    .then(() => produce(push, cancel.signal))
    .then(
      (value) => {
        settled = { ok: true };
        notify();
        return value;
      },
      (error: unknown) => {
        settled = { ok: false, error };
        notify();
        throw error;
      },
    );
  // A consumer that only iterates never looks at `result`; its rejection must not become an unhandledRejection.
  result.catch(() => undefined);

  const iterator: AsyncIterator<string> = {
    async next(): Promise<IteratorResult<string>> {
      for (;;) {
        const delta = queue.shift();
        if (delta !== undefined) return { done: false, value: delta };
        if (settled?.ok === true) return { done: true, value: undefined };
        if (settled?.ok === false) throw settled.error;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
    async return(): Promise<IteratorResult<string>> {
      if (settled === undefined) cancel.abort();
      queue.length = 0;
      return { done: true, value: undefined };
    },
  };

  return {
    result,
    [Symbol.asyncIterator]: () => iterator,
  };
}
