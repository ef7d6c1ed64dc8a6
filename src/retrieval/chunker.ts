import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { withoutFrontMatter } from '../text/index.js';
import { runningLinesOf, sentenceUnits, type SentenceUnit } from './sentence-units.js';

/**
 * A material's chapters → passages ("chunks") of about 400–800 characters. A chunk never crosses a chapter and never
 * cuts a sentence (only a sentence longer than the maximum is cut, at a space). Within a chapter the cut points are
 * chosen together (dynamic programming over sentence boundaries) so that every chunk stays within the bounds where
 * the sentences allow it and close to the target otherwise — a greedy packer leaves a short last chunk per chapter.
 * Front matter (the cover, the agenda or contents, administrative pages: text/front-matter.ts) is never a passage:
 * nothing a quiz, an exam or the tutor writes may rest on it.
 */

export interface ChunkSource {
  chapters: readonly { index: number; title: string; startPage: number; endPage: number }[];
  /** Text of every page; page n is `pageTexts[n - 1]`. */
  pageTexts: readonly string[];
}

export interface ChunkDraft {
  /** `{chapter}.{ordinal in the chapter}`: stable for the same text and rules. */
  id: string;
  chapter: number;
  chapterTitle: string;
  startPage: number;
  endPage: number;
  text: string;
  /** The sentences the chunk is made of (for the level heuristic). */
  sentences: number;
}

export const CHUNK_MIN_CHARS = 400;
export const CHUNK_MAX_CHARS = 800;
const CHUNK_TARGET_CHARS = 600;

/** Cost of a chunk of `length` characters: short chunks are heavily penalised, the rest by distance to the target. */
function cost(length: number): number {
  const short = length < CHUNK_MIN_CHARS ? 1_000 + (CHUNK_MIN_CHARS - length) : 0;
  const off = (length - CHUNK_TARGET_CHARS) / 200;
  return short + off * off;
}

/** Best cut of `units` into runs of at most CHUNK_MAX_CHARS (joined with one separator character each). */
function packUnits(units: readonly SentenceUnit[]): SentenceUnit[][] {
  const count = units.length;
  const best = new Array<number>(count + 1).fill(Number.POSITIVE_INFINITY);
  const from = new Array<number>(count + 1).fill(0);
  best[0] = 0;
  for (let end = 1; end <= count; end++) {
    let length = -1;
    for (let start = end - 1; start >= 0; start--) {
      length += (units[start]?.text.length ?? 0) + 1;
      if (length > CHUNK_MAX_CHARS && start < end - 1) break;
      const total = (best[start] ?? Number.POSITIVE_INFINITY) + cost(length);
      if (total < (best[end] ?? Number.POSITIVE_INFINITY)) {
        best[end] = total;
        from[end] = start;
      }
    }
  }
  const runs: SentenceUnit[][] = [];
  for (let end = count; end > 0; end = from[end] ?? 0) runs.unshift(units.slice(from[end] ?? 0, end));
  return runs;
}

function joinUnits(units: readonly SentenceUnit[]): string {
  return units.map((unit, index) => (index === 0 ? unit.text : `${unit.breakBefore ? '\n' : ' '}${unit.text}`)).join('');
}

function chapterChunks(source: ChunkSource, chapter: ChunkSource['chapters'][number], running: ReturnType<typeof runningLinesOf>): ChunkDraft[] {
  const units = sentenceUnits(source.pageTexts, chapter.startPage, chapter.endPage, { maxChars: CHUNK_MAX_CHARS, running });
  return packUnits(units).map((run, ordinal) => ({
    id: `${chapter.index}.${ordinal}`,
    chapter: chapter.index,
    chapterTitle: chapter.title,
    startPage: run[0]?.startPage ?? chapter.startPage,
    endPage: Math.max(...run.map((unit) => unit.endPage)),
    text: joinUnits(run),
    sentences: run.length,
  }));
}

/** The chunks of every chapter, in document order. */
export function chunkMaterial(source: ChunkSource): ChunkDraft[] {
  const running = runningLinesOf(source.pageTexts);
  const taught = { ...source, pageTexts: withoutFrontMatter(source.pageTexts) };
  return source.chapters.flatMap((chapter) => chapterChunks(taught, chapter, running));
}

/** The same, with a turn of the event loop after each chapter (a 300-page material is ~60 ms of CPU). */
export async function chunkMaterialSliced(source: ChunkSource): Promise<ChunkDraft[]> {
  const running = runningLinesOf(source.pageTexts);
  const taught = { ...source, pageTexts: withoutFrontMatter(source.pageTexts) };
  const chunks: ChunkDraft[] = [];
  for (const chapter of source.chapters) {
    await yieldToLoop();
    chunks.push(...chapterChunks(taught, chapter, running));
  }
  return chunks;
}
