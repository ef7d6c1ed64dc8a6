import { QUESTION_CLOSERS, QUESTION_OPEN } from './marker-parser.js';

/**
 * A lecture's `[질문] … [\질문]` blocks screened as the text streams, before any of it is stored for students: the
 * text outside a block passes at once; a block is held until it closes, then passes whole or is dropped whole when
 * `accept` refuses its question (the item guard: a question about the medium, a placeholder concept, a particle that
 * does not fit). A marker split across deltas (`[질` + `문]`) is held until it is complete. A block still open when the
 * stream ends passes as it is (the marker parser reads an unclosed question to the end).
 */
export async function* screenQuestions(deltas: AsyncIterable<string>, accept: (question: string) => boolean): AsyncGenerator<string> {
  let pending = '';
  let inside = false;
  for await (const delta of deltas) {
    pending += delta;
    for (;;) {
      if (!inside) {
        const at = pending.indexOf(QUESTION_OPEN);
        if (at === -1) {
          // Keep only what could still start a marker.
          const keep = partialMarkerLength(pending, [QUESTION_OPEN]);
          if (pending.length > keep) yield pending.slice(0, pending.length - keep);
          pending = pending.slice(pending.length - keep);
          break;
        }
        if (at > 0) yield pending.slice(0, at);
        pending = pending.slice(at);
        inside = true;
      }
      const close = closing(pending);
      if (close === undefined) break;
      const block = pending.slice(0, close.end);
      const question = pending.slice(QUESTION_OPEN.length, close.start);
      pending = pending.slice(close.end);
      inside = false;
      if (accept(question.trim())) yield block;
      // A dropped block takes the blank line after it, so the lecture reads on without a gap.
      else pending = pending.replace(/^[^\S\n]*\n?/u, '');
    }
  }
  if (pending.length > 0) yield pending;
}

function closing(text: string): { start: number; end: number } | undefined {
  let found: { start: number; end: number } | undefined;
  for (const marker of QUESTION_CLOSERS) {
    const at = text.indexOf(marker, QUESTION_OPEN.length);
    if (at !== -1 && (found === undefined || at < found.start)) found = { start: at, end: at + marker.length };
  }
  return found;
}

/** How many characters at the end of `text` are the start of one of the markers. */
function partialMarkerLength(text: string, markers: readonly string[]): number {
  let longest = 0;
  for (const marker of markers) {
    for (let length = Math.min(marker.length - 1, text.length); length > longest; length -= 1) {
      if (text.endsWith(marker.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}
