import type { Store } from '../../src/store/index.js';

/** The hash writes a test can hold (the calls that race in an exam's close and submission). */
const HOLDABLE = new Set(['hset', 'hsetUnless', 'hsetnx']);

export interface HeldCall {
  /** Resolves once a matching call arrived and is held (not yet sent to the store). */
  reached: Promise<void>;
  /** Lets the held call through. */
  release(): void;
}

/**
 * A real store whose next hash write matching a rule waits until the test lets it go: it places a request's write
 * after another request's, which a test otherwise could only hope for. Everything else goes straight through.
 */
export function holdingStore(real: Store): { store: Store; holdNext(match: (method: string, key: string, fields: string[]) => boolean): HeldCall } {
  let rule: { match: (method: string, key: string, fields: string[]) => boolean; arrived: () => void; gate: Promise<void> } | null = null;
  const store = new Proxy(real, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (typeof property !== 'string' || !HOLDABLE.has(property)) return method.bind(target);
      return async (...args: unknown[]) => {
        const key = String(args[0]);
        const fields = typeof args[1] === 'string' ? [args[1]] : Object.keys((args[1] ?? {}) as Record<string, string>);
        const held = rule;
        if (held && held.match(property, key, fields)) {
          rule = null;
          held.arrived();
          await held.gate;
        }
        return method.apply(target, args);
      };
    },
  });
  return {
    store,
    holdNext(match) {
      let arrived = () => {};
      let release = () => {};
      const reached = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      rule = { match, arrived, gate };
      return { reached, release };
    },
  };
}
