import { createHash, randomBytes } from 'node:crypto';
import { mulberry32 } from '../math/index.js';
import type { QuizItem } from '../protocol/quiz.js';

/**
 * Every generated quiz has its own random seed, stored with it. The seed decides everything generation leaves to
 * chance — which sentence of a surplus the offline builder asks about, the distractors it picks, and the order of
 * every item's choices (for every model: Gemini puts the answer first far too often) — so the same material never
 * gives a predictable answer key (a student cannot regenerate the teacher's quiz), while the teacher's quiz can
 * still be reproduced from its seed.
 */

/** 128 random bits as 32 hex characters: not guessable, and it never leaves the quiz's owner. */
export const QUIZ_SEED = /^[0-9a-f]{32}$/;

export function newQuizSeed(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Numbers in [0, 1) for one purpose (`label`) of one quiz: mulberry32 started from SHA-256 of the seed and the
 * label, so each purpose has its own stream and one never shifts another.
 */
export function seededRandom(seed: string, label: string): () => number {
  return mulberry32(createHash('sha256').update(seed).update('\u0000').update(label).digest().readUInt32LE(0));
}

/** A Fisher–Yates shuffle of a copy. */
export function shuffled<T>(values: readonly T[], random: () => number): T[] {
  const out = [...values];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [out[index], out[other]] = [out[other] as T, out[index] as T];
  }
  return out;
}

/** The item with its choices in the seed's order for this question; the answer index follows its choice. */
export function shuffleChoices(item: QuizItem, seed: string): QuizItem {
  const order = shuffled([0, 1, 2, 3], seededRandom(seed, `choices\u0000${item.question}`));
  return { ...item, choices: order.map((index) => item.choices[index] as string), answer: order.indexOf(item.answer) };
}
