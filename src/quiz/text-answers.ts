import { CLOUD_WORDS, MAX_TEXT_ANSWER, type CloudWord } from '../protocol/quiz.js';

/**
 * Typed answers (short text and word cloud) as the room keeps and counts them. Student text is untrusted: it is
 * stored as typed (after NFKC, trimming and collapsing spaces, capped at MAX_TEXT_ANSWER) and only ever rendered as
 * text by the pages; controls and invisible format characters are removed here so two answers that look the same
 * count as one.
 */

// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

/** The text as recorded: NFKC, invisible characters removed, spaces collapsed, trimmed, capped. Empty when nothing is left. */
export function cleanText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').replace(/\s+/g, ' ').trim().slice(0, MAX_TEXT_ANSWER).trim();
}

/**
 * The key two answers share when they mean the same typed text: case-blind, without surrounding quotes or final
 * punctuation. Grading and the cloud go by this key, so "Median." and "median" are judged once and counted together.
 */
export function answerKey(text: string): string {
  return cleanText(text)
    .toLocaleLowerCase('ko')
    .replace(/^["'“‘「『(]+|["'”’」』)]+$/gu, '')
    .replace(/[.!?。！？,;:~]+$/u, '')
    .trim();
}

/** The distinct answers (by key) among typed texts, each with its first spelling and how many gave it; empty keys dropped. */
export function distinctAnswers(texts: Iterable<string>): Map<string, { text: string; count: number }> {
  const byKey = new Map<string, { text: string; count: number }>();
  for (const text of texts) {
    const key = answerKey(text);
    if (key === '') continue;
    const entry = byKey.get(key);
    if (entry) entry.count += 1;
    else byKey.set(key, { text: cleanText(text), count: 1 });
  }
  return byKey;
}

/** A word cloud's words: distinct answers by count (ties by first spelling), at most CLOUD_WORDS. */
export function cloudWords(texts: Iterable<string>): CloudWord[] {
  return [...distinctAnswers(texts).values()]
    .sort((left, right) => right.count - left.count || (left.text < right.text ? -1 : left.text > right.text ? 1 : 0))
    .slice(0, CLOUD_WORDS)
    .map(({ text, count }) => ({ text, count }));
}
