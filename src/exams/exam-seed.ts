import { createHash } from 'node:crypto';
import { mulberry32 } from '../math/index.js';

/**
 * An exam's seed decides what its generation leaves to chance, as a quiz's does (src/quiz/quiz-seed.ts): the same
 * material and request never give a predictable exam — a student's self-study exam is not the class's exam — while
 * one exam's generation is reproducible from its seed.
 */

/** A copy of `values` in the order the seed draws for `label` (Fisher–Yates on mulberry32 from SHA-256). */
export function seededShuffle<T>(values: readonly T[], seed: string, label: string): T[] {
  const random = mulberry32(createHash('sha256').update(seed).update('\u0000').update(label).digest().readUInt32LE(0));
  const out = [...values];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [out[index], out[other]] = [out[other] as T, out[index] as T];
  }
  return out;
}
