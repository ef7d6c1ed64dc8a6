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

/**
 * The items with their keys spread over the four positions: each run of four items (in quiz order) uses every
 * position once, in an order the seed draws, so no position holds more than two of five keys in a quiz and each
 * position holds a quarter of the keys over many quizzes; the distractors around the key are in the seed's order
 * for the question. The answer index follows its choice. Models put keys where they please (Gemini: first, a
 * deterministic builder: wherever its sort left them), so every quiz is placed here, whatever wrote it.
 */
export function balanceKeys<T extends QuizItem>(items: readonly T[], seed: string): T[] {
  // Drawn for this set of questions too: two quizzes of one seed (a chapter's and the material's) differ.
  const random = seededRandom(seed, `key-positions\u0000${items.map((item) => item.question).join('\u0000')}`);
  const positions: number[] = [];
  while (positions.length < items.length) positions.push(...shuffled([0, 1, 2, 3], random));
  return items.map((item, index) => {
    const key = item.choices[item.answer];
    if (key === undefined || item.choices.length !== 4) return item;
    const others = shuffled(
      item.choices.filter((_, position) => position !== item.answer),
      seededRandom(seed, `choices\u0000${item.question}`),
    );
    const at = positions[index] ?? 0;
    others.splice(at, 0, key);
    return { ...item, choices: others, answer: at };
  });
}
