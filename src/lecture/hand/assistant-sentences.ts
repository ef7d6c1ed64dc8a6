import { contentTerms, cosineSimilarity, hashedTermVector, rankedTerms, termOverlap, termsMatch } from '../../text/index.js';

/**
 * The sentences of retrieved passages, for the offline raise-hand agents: they explain with the material's own
 * sentences, so they never state anything the material does not. Passages come from the Retriever
 * (assistant-passages.ts); this file only cuts them into sentences with their formulas and ranks those for a query.
 * Deterministic: the same passages and query give the same result.
 */

/** A sentence of a passage with the formula lines that follow it (`… 다음과 같습니다.` then `x̄ = 80`). */
export interface Unit {
  passage: number;
  text: string;
  formulas: string[];
}

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

/**
 * Whether a line reads as a heading or a contents entry: short (a few words), no sentence end, not a formula. A
 * longer unpunctuated line is a statement cut short (`예: 주사위를 던져 나온 눈을 X라 하면`), not a title.
 */
function isHeading(line: string): boolean {
  return Array.from(line).length <= 30 && line.split(/\s+/u).length <= HEADING_WORDS && !SENTENCE_END.test(line) && !isFormulaLine(line);
}
const HEADING_WORDS = 5;

/**
 * A line without a sentence end continues on the next line when it looks wrapped: it ends with a comma, or it is
 * long (a line that reached the page's width). A short line without one stands alone: a subtitle, a list item, a
 * table-of-contents entry. Extracted PDF text has no other sign of where a sentence was cut.
 */
const WRAPPED_LINE_CHARS = 35;

function continues(line: string): boolean {
  return /[,，]$/u.test(line) || Array.from(line).length >= WRAPPED_LINE_CHARS;
}

/**
 * Sentences of a passage text with their formulas. Headings are dropped (they are not statements): a passage keeps
 * the headings of the sections it spans on lines of their own, each before the prose it titles. A short line before
 * a formula stays: it introduces the formula (`예: 주사위의 눈을 X라 하면` then `E[X] = 3.5`).
 */
export function passageUnits(text: string, passage = 0): Unit[] {
  const all = text.split(/\r?\n/u).map((line) => line.trim()).filter((line) => line.length > 0);
  const lines = all.filter((line, at) => {
    const next = all[at + 1];
    return !(next !== undefined && isHeading(line) && !isFormulaLine(next));
  });
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
