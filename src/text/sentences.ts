/** A bullet or numbered list item's leading mark (`- `, `1. `, `① `). */
export const BULLET_LINE = /^(?:[-*•·‣▪◦]|\d{1,2}[.)]|[①-⑳])\s+/u;

/** Letters and digits in any script: what makes a fragment a sentence rather than punctuation. */
export function letterCount(text: string): number {
  return (text.match(/[\p{L}\p{N}]/gu) ?? []).length;
}

/** Sentences of a text; blank lines and list items also end a sentence (they often lack a full stop). */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n\s*\n|\n(?=\s*(?:[-*•·]|\d{1,2}[.)]|#)\s)/u)
    .flatMap((paragraph) => paragraph.replace(/\s+/gu, ' ').split(/(?<=[.!?。？！])\s+/u))
    .map((sentence) => sentence.replace(BULLET_LINE, '').trim())
    .filter((sentence) => letterCount(sentence) > 0);
}
