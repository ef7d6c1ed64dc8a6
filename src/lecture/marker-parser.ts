/**
 * Incremental parser for lecture text with embedded comprehension questions `[질문] … [\질문]`.
 *
 * The lecture arrives as arbitrary chunks (model deltas, store stream reads), so a marker may be cut anywhere,
 * even between the halves of a surrogate pair. The parser only ever holds back the shortest tail that could still
 * become a marker, so text reaches the student as early as possible and no piece of a marker is ever shown.
 *
 * Decisions (pinned by test/marker-parser.test.ts):
 * - Closers `[\질문]` and `[/질문]` are equivalent.
 * - A closer outside a question is dropped: it is a marker the model mis-placed, never lecture text.
 * - An opener inside a question closes the open question and starts a new one (the model forgot the closer); so
 *   `[질문] a [질문] b [\질문] c [\질문]` asks `a`, asks `b`, shows ` c ` and drops the stray last closer.
 * - Question text is trimmed; an empty or whitespace-only question is dropped.
 * - `end()` asks an unterminated question if it has text and releases a held-back partial marker as plain text.
 */

export const QUESTION_OPEN = '[질문]';
export const QUESTION_CLOSERS = ['[\\질문]', '[/질문]'] as const;

const MARKERS: readonly string[] = [QUESTION_OPEN, ...QUESTION_CLOSERS];
const LONGEST_MARKER = Math.max(...MARKERS.map((marker) => marker.length));

/**
 * `start`/`end` are UTF-16 offsets in the whole text pushed so far (plus `options.offset`). A text segment is the
 * exact source slice `[start, end)`; a question spans its markers, so `end` is where the lecture resumes after it.
 */
export type LectureSegment =
  | { type: 'text'; text: string; start: number; end: number }
  | { type: 'question'; text: string; start: number; end: number };

export interface MarkerParser {
  /** Feeds the next chunk; returns the segments that became certain. */
  push(chunk: string): LectureSegment[];
  /** Flushes everything held back; the parser is then fresh again (offsets continue). */
  end(): LectureSegment[];
  /** True while inside an open `[질문]` whose closer has not arrived yet. */
  readonly inQuestion: boolean;
}

export interface MarkerParserOptions {
  /** Source offset of the first pushed character, for a parser resumed in the middle of a lecture. */
  offset?: number;
}

interface FoundMarker {
  index: number;
  marker: string;
}

function findMarker(buffer: string, from: number): FoundMarker | null {
  let index = buffer.indexOf('[', from);
  while (index !== -1) {
    for (const marker of MARKERS) {
      if (buffer.startsWith(marker, index)) return { index, marker };
    }
    index = buffer.indexOf('[', index + 1);
  }
  return null;
}

/** Length of the longest suffix of `buffer` that is a proper prefix of some marker. */
function partialMarkerLength(buffer: string): number {
  const limit = Math.min(buffer.length, LONGEST_MARKER - 1);
  for (let length = limit; length > 0; length -= 1) {
    const suffix = buffer.slice(buffer.length - length);
    if (MARKERS.some((marker) => marker.startsWith(suffix))) return length;
  }
  return 0;
}

function endsWithHighSurrogate(text: string): boolean {
  const code = text.charCodeAt(text.length - 1);
  return code >= 0xd800 && code <= 0xdbff;
}

export function createMarkerParser(options: MarkerParserOptions = {}): MarkerParser {
  // `buffer` holds unreleased source starting at offset `bufferStart`. Outside a question it is only the held-back
  // tail; inside a question it is the whole question text so far.
  let buffer = '';
  let bufferStart = options.offset ?? 0;
  let questionStart: number | null = null;
  // Inside a question, everything before `scanFrom` is known to hold no marker start, so it is not rescanned.
  let scanFrom = 0;

  function consume(length: number): void {
    buffer = buffer.slice(length);
    bufferStart += length;
    scanFrom = 0;
  }

  function pushText(out: LectureSegment[], length: number): void {
    if (length === 0) return;
    out.push({ type: 'text', text: buffer.slice(0, length), start: bufferStart, end: bufferStart + length });
  }

  function pushQuestion(out: LectureSegment[], textLength: number, end: number): void {
    const text = buffer.slice(0, textLength).trim();
    if (text.length > 0 && questionStart !== null) {
      out.push({ type: 'question', text, start: questionStart, end });
    }
  }

  function drain(out: LectureSegment[]): void {
    let found = findMarker(buffer, scanFrom);
    while (found !== null) {
      const markerEnd = bufferStart + found.index + found.marker.length;
      const isOpen = found.marker === QUESTION_OPEN;
      if (questionStart === null) {
        pushText(out, found.index);
      } else {
        pushQuestion(out, found.index, isOpen ? bufferStart + found.index : markerEnd);
      }
      questionStart = isOpen ? bufferStart + found.index : null;
      consume(found.index + found.marker.length);
      found = findMarker(buffer, 0);
    }
  }

  return {
    get inQuestion() {
      return questionStart !== null;
    },
    push(chunk) {
      const out: LectureSegment[] = [];
      buffer += chunk;
      drain(out);
      const held = partialMarkerLength(buffer);
      if (questionStart === null) {
        let release = buffer.length - held;
        // Never split a surrogate pair across two segments: the second half may be in the next chunk.
        if (release > 0 && endsWithHighSurrogate(buffer.slice(0, release))) release -= 1;
        pushText(out, release);
        consume(release);
      } else {
        scanFrom = buffer.length - held;
      }
      return out;
    },
    end() {
      const out: LectureSegment[] = [];
      drain(out);
      if (questionStart === null) {
        pushText(out, buffer.length);
      } else {
        pushQuestion(out, buffer.length, bufferStart + buffer.length);
      }
      questionStart = null;
      consume(buffer.length);
      return out;
    },
  };
}

/** Parses a complete text in one go. */
export function parseLecture(text: string): LectureSegment[] {
  const parser = createMarkerParser();
  return [...parser.push(text), ...parser.end()];
}

/** The text a student sees of `segments` up to a source offset: markers removed, questions excluded. */
export function displayText(segments: readonly LectureSegment[], upTo: number): string {
  let text = '';
  for (const segment of segments) {
    if (segment.start >= upTo) break;
    if (segment.type === 'text') text += segment.text.slice(0, Math.max(0, upTo - segment.start));
  }
  return text;
}
