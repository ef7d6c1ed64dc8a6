import { contentTerms, cosineSimilarity, hashedTermVector, normalizeKorean, rankedTerms, termOverlap, termsMatch } from '../../text/index.js';

/**
 * Retrieval over a material's extracted text, with no model call: the facade picks the passages a question is
 * about before any agent runs (Gemini gets them next to the PDF, the offline model works only from them), and the
 * offline agents pick sentences from those passages. Deterministic: the same text and query give the same result.
 */

export interface Passage {
  /** Position in the material (page order), for stable ties and document-order output. */
  index: number;
  /** The page's heading line, when it has one. */
  heading: string;
  text: string;
}

/** A sentence of a passage with the formula lines that follow it (`… 다음과 같습니다.` then `x̄ = 80`). */
export interface Unit {
  passage: number;
  text: string;
  formulas: string[];
}

/** Passages handed to the agents: enough for a question's context, small enough to keep prompts short. */
export const MAX_PASSAGES = 4;
export const MAX_PASSAGE_CHARS = 4_000;
/** A page longer than this is cut at line ends, so one dense page cannot crowd out the others. */
const PASSAGE_TARGET_CHARS = 900;

const PAGE_NUMBER = /^(?:-?\s*\d{1,4}\s*-?|page\s*\d+|\d+\s*\/\s*\d+)$/iu;
const FORMULA_SIGN = /[=≤≥≠≈∑Σ∫√±×÷^→]|\b(?:lim|log|exp|sin|cos)\b/u;
const SENTENCE_END = /[.!?。？！:]$/u;

function hangulShare(line: string): number {
  const letters = (line.match(/[\p{L}\p{N}]/gu) ?? []).length;
  const hangul = (line.match(/[\uac00-\ud7a3]/gu) ?? []).length;
  return letters === 0 ? 0 : hangul / letters;
}

export function isFormulaLine(line: string): boolean {
  return FORMULA_SIGN.test(line) && hangulShare(line) <= 0.3;
}

/** Running headers and footers: lines that recur on several pages once digits are ignored (`기초 통계 · 3`). */
function recurringLines(pages: readonly string[][]): Set<string> {
  const seen = new Map<string, number>();
  for (const lines of pages) {
    for (const key of new Set(lines.map((line) => line.replace(/\d+/gu, '#')))) seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  const threshold = Math.max(3, Math.ceil(pages.length * 0.3));
  return new Set([...seen].filter(([, count]) => count >= threshold).map(([key]) => key));
}

/** Whether the page's first line reads as its heading (short, no sentence end, not a formula). */
function isHeading(line: string): boolean {
  return Array.from(line).length <= 30 && !SENTENCE_END.test(line) && !isFormulaLine(line);
}

/** The material split into passages: pages (blank-line separated), long pages cut at line ends. */
export function splitPassages(materialText: string): Passage[] {
  const pages = materialText
    .normalize('NFC')
    .split(/\n\s*\n/u)
    .map((page) => page.split(/\r?\n/u).map((line) => line.replace(/\s+/gu, ' ').trim()).filter((line) => line.length > 0));
  const recurring = recurringLines(pages);
  const passages: Passage[] = [];
  for (const page of pages) {
    const lines = page.filter((line) => !PAGE_NUMBER.test(line) && !recurring.has(line.replace(/\d+/gu, '#')));
    const first = lines[0];
    const heading = first !== undefined && lines.length > 1 && isHeading(first) ? first : '';
    let chunk: string[] = [];
    const flush = (): void => {
      if (chunk.length > 0) passages.push({ index: passages.length, heading, text: chunk.join('\n') });
      chunk = [];
    };
    for (const line of lines) {
      chunk.push(line);
      if (chunk.join('\n').length >= PASSAGE_TARGET_CHARS && !isFormulaLine(line)) flush();
    }
    flush();
  }
  return passages;
}

/** What retrieval needs of a passage, computed once per passage list (the facade keeps one list per material). */
interface PassageIndex {
  normalized: string[];
  vectors: Float32Array[];
}

const indexes = new WeakMap<readonly Passage[], PassageIndex>();

function indexOf(passages: readonly Passage[]): PassageIndex {
  let index = indexes.get(passages);
  if (index === undefined) {
    index = {
      normalized: passages.map((passage) => normalizeKorean(`${passage.heading} ${passage.text}`)),
      vectors: passages.map((passage) => Float32Array.from(hashedTermVector(passage.text))),
    };
    indexes.set(passages, index);
  }
  return index;
}

/** Dot product of L2-normalised vectors: their cosine similarity. */
function dot(left: Float32Array, right: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < left.length; i++) sum += (left[i] ?? 0) * (right[i] ?? 0);
  return sum;
}

/** Passages fully scored per query; the rest are ruled out by a cheap substring and embedding pass first. */
const SHORTLIST = 24;

function passageScore(passage: Passage, query: string, similarity: number): number {
  const heading = passage.heading.length > 0 ? termOverlap(passage.heading, query) : 0;
  return termOverlap(passage.text, query) + 0.5 * heading + 0.5 * similarity;
}

/**
 * The passages most relevant to `query`, best first by term overlap (recall of the query's key terms), a bonus
 * for a heading about it and bigram-embedding similarity; returned in document order, at most `limit` of them and
 * `maxChars` in all (the best passage is always kept, cut if it alone is longer). A long material is first cut
 * down to a shortlist by whether the query's words occur in a passage at all, so a question costs milliseconds
 * on the event loop even for hundreds of pages.
 */
export function selectPassages(passages: readonly Passage[], query: string, limit = MAX_PASSAGES, maxChars = MAX_PASSAGE_CHARS): Passage[] {
  const { normalized, vectors } = indexOf(passages);
  const vector = hashedTermVector(query);
  const words = [...new Set(contentTerms(query))];
  const shortlist = passages
    .map((passage, at) => ({
      passage,
      hits: words.filter((word) => normalized[at]?.includes(word) === true).length,
      similarity: vectors[at] === undefined ? 0 : dot(vectors[at], vector),
    }))
    .sort((left, right) => right.hits - left.hits || right.similarity - left.similarity || left.passage.index - right.passage.index)
    .slice(0, Math.max(SHORTLIST, limit));
  const ranked = shortlist
    .map(({ passage, similarity }) => ({ passage, score: passageScore(passage, query, similarity) }))
    .sort((left, right) => right.score - left.score || left.passage.index - right.passage.index);
  const chosen: Passage[] = [];
  let used = 0;
  for (const { passage } of ranked) {
    if (chosen.length >= limit) break;
    if (chosen.length > 0 && used + passage.text.length > maxChars) continue;
    const text = passage.text.slice(0, maxChars);
    chosen.push({ ...passage, text });
    used += text.length;
  }
  return chosen.sort((left, right) => left.index - right.index);
}

/** The passage as agents see it: the heading (when there is one) above its text. */
export function passageText(passage: Passage): string {
  return passage.heading.length > 0 && !passage.text.startsWith(passage.heading) ? `${passage.heading}\n${passage.text}` : passage.text;
}

/**
 * A line without a sentence end continues on the next line when it looks wrapped: it ends with a comma, or it is
 * long (a line that reached the page's width). A short line without one stands alone: a subtitle, a list item, a
 * table-of-contents entry. Extracted PDF text has no other sign of where a sentence was cut.
 */
const WRAPPED_LINE_CHARS = 35;

function continues(line: string): boolean {
  return /[,，]$/u.test(line) || Array.from(line).length >= WRAPPED_LINE_CHARS;
}

/** Sentences of a passage text with their formulas; the heading line is dropped (it is not a statement). */
export function passageUnits(text: string, passage = 0): Unit[] {
  const lines = text.split(/\r?\n/u).map((line) => line.trim()).filter((line) => line.length > 0);
  if (lines.length > 1 && lines[0] !== undefined && isHeading(lines[0])) lines.shift();
  const units: Unit[] = [];
  let prose = '';
  const flush = (formula?: string): void => {
    const sentences = prose.split(/(?<=[.!?。？！])\s+/u).map((sentence) => sentence.trim()).filter((sentence) => sentence.length > 0);
    prose = '';
    sentences.forEach((sentence) => units.push({ passage, text: sentence, formulas: [] }));
    if (formula !== undefined) {
      const last = units.at(-1);
      if (last !== undefined) last.formulas.push(formula);
    }
  };
  for (const line of lines) {
    if (isFormulaLine(line)) {
      // A formula belongs to the statement it follows (`기댓값은 … 더한 값입니다.` then `E[X] = Σ x·P(X=x)`).
      flush(line);
    } else {
      prose = prose.length > 0 ? `${prose} ${line}` : line;
      if (/[.!?。？！]$/u.test(line) || !continues(line)) flush();
    }
  }
  flush();
  return units;
}

export function unitsOf(passages: readonly string[]): Unit[] {
  return passages.flatMap((passage, index) => passageUnits(passage, index));
}

/** Whether the sentence takes one of the terms as its topic (`기댓값은 …`, `대수의 법칙: …`): a definition. */
function defines(text: string, terms: readonly string[]): boolean {
  const topic = /^(\S+(?:\s\S+)?)(?:은|는|이란|란|:)\s/u.exec(text)?.[1];
  return topic !== undefined && contentTerms(topic).some((word) => terms.some((term) => termsMatch(word, term)));
}

/** A statement ends like one; fragments (titles, list entries, half a wrapped line) explain less. */
function isStatement(text: string): boolean {
  return /(?:[.!?。？！]|다|요)$/u.test(text);
}

/**
 * Units ranked for a query: share of the query's key terms they cover (halved for fragments), a bonus for
 * defining one of them, and a little embedding similarity to break ties between equally covering sentences. Units covering nothing are left
 * out; ties keep document order.
 */
export function rankUnits(units: readonly Unit[], query: string): Unit[] {
  const vector = hashedTermVector(query);
  const terms = rankedTerms(query).map((entry) => entry.term);
  return units
    .map((unit, order) => {
      const full = [unit.text, ...unit.formulas].join(' ');
      const covered = termOverlap(full, query);
      const weight = isStatement(unit.text) ? 1 : 0.5;
      const score = covered * weight + (defines(unit.text, terms) ? 0.3 : 0) + 0.1 * cosineSimilarity(hashedTermVector(full), vector);
      return { unit, order, covered, score };
    })
    .filter((entry) => entry.covered > 0)
    .sort((left, right) => right.score - left.score || left.order - right.order)
    .map((entry) => entry.unit);
}

/** A unit as markdown: the sentence, then each formula on its own line. */
export function renderUnit(unit: Unit): string {
  return [unit.text, ...unit.formulas].join('\n\n');
}
