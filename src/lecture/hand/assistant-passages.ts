import type { Passage, Retriever } from '../../retrieval/index.js';
import type { ReplySource } from '../../protocol/wire/tutor.js';

/**
 * Which material passages a raise-hand agent works from: the current chapter first, the whole material when the
 * chapter gives too little. The rule:
 *
 *   1. Ask the Retriever for the question's passages with the chapter filter, and without it.
 *   2. A passage is *relevant* when its BM25 score is at least RELEVANT_SHARE of the best BM25 score in the whole
 *      material: it shares the question's terms about as well as the best passage does. A passage that only shares a
 *      common word (`평균` in a question about `대수의 법칙`) falls below.
 *   3. The chapter's relevant passages come first, best first. When they are fewer than MAX_PASSAGES, the material's
 *      relevant passages of other chapters fill the rest, best first: a question about something the chapter only
 *      mentions (a table of contents, a forward reference) still gets the passage that explains it.
 *   4. No passage anywhere shares a term with the question: the chapter's passages as the Retriever ordered them
 *      (by similarity), so the agents answer from where the student is.
 *   5. With semantic embeddings (`semantic`), a question put in other words than the material's still reaches the
 *      chapter that answers it: passages of other chapters closer in meaning to the question than every passage the
 *      chapter gave (cosine) come before the rest of rule 3 and 4, at most MAX_CLOSER of them, closest first. The
 *      whole PDF is never needed for this: the index covers the whole material on every model. Offline vectors are
 *      hashed bigrams (no meaning), so offline only shared terms reach other chapters.
 *   At most MAX_PASSAGES passages and MAX_PASSAGE_CHARS characters (the first passage is always kept).
 */

/** Passages handed to the agents: enough for a question's context, small enough to keep prompts short. */
export const MAX_PASSAGES = 4;
export const MAX_PASSAGE_CHARS = 4_000;
/** Share of the material's best BM25 score a passage needs to count as being about the question. */
export const RELEVANT_SHARE = 0.5;
/** Passages of other chapters taken for being closer in meaning than the chapter's (rule 5). */
export const MAX_CLOSER = 2;

export interface PassageQuery {
  materialId: string;
  /** The chapter the student is in (0-based). */
  chapter: number;
  query: string;
  signal?: AbortSignal | undefined;
  /**
   * `always`: the chapter's passages come first whether or not they share the question's terms as well as the best
   * passage elsewhere — the tutor's rule, for a comprehension question the chapter asked right after teaching its
   * concept (a later chapter that repeats the word more often must not answer it). Default `relevant` (rule 3).
   */
  chapterFirst?: 'relevant' | 'always' | undefined;
  /** The Retriever's dense scores carry meaning (the model has semantic embeddings): rule 5 applies. */
  semantic?: boolean | undefined;
}

/** The passages for a question by the rule above: the chapter's first, then the material's. */
export async function chapterFirstPassages(retriever: Retriever, request: PassageQuery): Promise<Passage[]> {
  const ask = (chapter?: number) =>
    retriever.retrieve({
      materialId: request.materialId,
      query: request.query,
      k: MAX_PASSAGES,
      ...(chapter === undefined ? {} : { filters: { chapter } }),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  const inChapter = await ask(request.chapter);
  // k passages of the whole material may all be the chapter's: ask for enough to fill from elsewhere.
  const whole = await retriever.retrieve({
    materialId: request.materialId,
    query: request.query,
    k: 2 * MAX_PASSAGES,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  const closer = request.semantic ? closerElsewhere(inChapter, whole, request.chapter) : [];
  const notCloser = (passage: Passage) => !closer.some((hit) => hit.chunkId === passage.chunkId);
  const best = Math.max(0, ...whole.map((passage) => passage.lexical ?? 0), ...inChapter.map((passage) => passage.lexical ?? 0));
  if (best === 0) return capped([...closer, ...inChapter]);
  const relevant = (passage: Passage) => (passage.lexical ?? 0) >= RELEVANT_SHARE * best;
  const chapterHits = (request.chapterFirst === 'always' ? inChapter : inChapter.filter(relevant)).slice(0, MAX_PASSAGES - closer.length);
  const elsewhere = whole.filter(
    (passage) => passage.chapter !== request.chapter && relevant(passage) && notCloser(passage) && !chapterHits.some((hit) => hit.chunkId === passage.chunkId),
  );
  return capped([...chapterHits, ...closer, ...elsewhere]);
}

/** Rule 5: passages of other chapters whose cosine beats every passage of the chapter, closest first. */
function closerElsewhere(inChapter: readonly Passage[], whole: readonly Passage[], chapter: number): Passage[] {
  const bar = Math.max(-1, ...inChapter.map((passage) => passage.dense ?? -1));
  return whole
    .filter((passage) => passage.chapter !== chapter && passage.dense !== null && passage.dense > bar)
    .sort((left, right) => (right.dense ?? 0) - (left.dense ?? 0))
    .slice(0, MAX_CLOSER);
}

function capped(passages: readonly Passage[]): Passage[] {
  const chosen: Passage[] = [];
  let used = 0;
  for (const passage of passages) {
    if (chosen.length >= MAX_PASSAGES) break;
    if (chosen.length > 0 && used + passage.text.length > MAX_PASSAGE_CHARS) continue;
    const text = passage.text.slice(0, MAX_PASSAGE_CHARS);
    chosen.push({ ...passage, text });
    used += text.length;
  }
  return chosen;
}

/**
 * The sources of a reply: one entry per chapter, its pages from the first to the last passage used (a reply cites
 * `2장 「기댓값」 p.5–7`, not every passage), chapters in document order.
 */
export function sourcesOf(passages: readonly Passage[]): ReplySource[] {
  const byChapter = new Map<number, ReplySource>();
  for (const { chapter, chapterTitle, startPage, endPage } of passages) {
    const known = byChapter.get(chapter);
    byChapter.set(
      chapter,
      known === undefined
        ? { chapter, chapterTitle, startPage, endPage }
        : { ...known, startPage: Math.min(known.startPage, startPage), endPage: Math.max(known.endPage, endPage) },
    );
  }
  return [...byChapter.values()].sort((left, right) => left.chapter - right.chapter);
}
