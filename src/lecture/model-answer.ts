import { BULLET_LINE, contentTerms, letterCount, rankedTerms, termsMatch } from '../text/index.js';
import { questionConcept } from './offline/offline-lecture.js';

/**
 * The offline model answer: the lecture's own definition and explanation sentences about the concept a question
 * asks for. A model answer is what the judge compares a student with and what the student reads after the verdict,
 * so it must never be a title page, a table of contents, a running header, a worked example or our own connective
 * sentences: those are filtered out before any sentence is ranked.
 */

/** How strongly a sentence is about the concept: it defines it, states something of it in a clause, or names it. */
export type SentenceRole = 'definition' | 'topic' | 'mention';
const ROLE_RANK: Readonly<Record<SentenceRole, number>> = { definition: 3, topic: 2, mention: 1 };

/** Most sentences a model answer is made of. */
const MAX_SENTENCES = 2;

// Our own lecture scaffolding (offline-lecture.ts) and headings: never content.
const SCAFFOLD_PARAGRAPH = /^(?:#|이번 장에서는 |이번 장의 내용을 |(?:먼저|이어서) .{1,40} 살펴보겠습니다\.?$|끝으로 지금까지의 내용을 정리해 보겠습니다\.?$|정리하면, |자료에 본문이 거의 없어|이 장에는 질문으로 확인할)/u;
const FORMULA_LINE = /[=≤≥≠∑∫√±×÷^→]|\b(?:lim|log|exp|sin|cos)\b/u;
/** Worked examples: "예: …", "예를 들어 …", a heading such as "동전 던지기 예" glued to its text, "for example". */
const EXAMPLE = /^(?:예|예시|보기|사례)\s*[:)\].]|^(?:예를 들(?:어|면)|예컨대|가령|이를테면)|(?:^|\s)예\s*[:)]|(?:^|\s)예\s|^(?:for (?:example|instance)|e\.g\.|example\b)/iu;
/** Title pages, contents, chapter cross-references and course administration. */
const FRONT_MATTER =
  /\d+\s*장(?=[\s:(),)]|$|에|의|과|와|이|을)|제\s*\d+\s*장|목차|차례|contents|이\s*(?:자료|책|교재|강의|문서|강좌)(?:는|은|에서는)|장으로 이루어|\bchapter\s+\d|\bpage\s+\d|페이지|저자|출판|copyright|©|강의 계획|수강|과제|출석/iu;
/** A sentence that points at what follows ("다음과 같습니다", "…:") rather than saying something. */
const POINTER = /(?:다음과 같(?:습니다|다|아요)|다음이 (?:항상 )?성립(?:합니다|한다))[.!]?$|[:：]$/u;
/** A Korean statement ends in a predicate; a title, a contents line or a header fragment does not. */
// A bracketed name after the predicate (`…커지지는 않습니다(도박사의 오류).`) still ends a statement.
const KOREAN_PREDICATE = /(?:다|요|죠|함|임|됨)(?:\s?\([^()]{1,30}\))?[.!。]?["')\]]*$/u;
/** A label in front of a sentence that is not part of what it says. */
const LEADING_LABEL = /^(?:요약|정의|정리|핵심|참고|주의|note|definition|summary)\s*[:：]\s*/iu;

function isFormula(text: string): boolean {
  const hangul = (text.match(/[\uac00-\ud7a3]/gu) ?? []).length;
  // English prose that writes a formula inline is prose (its sentences are read one by one).
  if (hangul === 0 && (text.match(/\b[A-Za-z]{3,}\b/gu) ?? []).length >= 5) return false;
  return FORMULA_LINE.test(text) && hangul <= letterCount(text) * 0.3;
}

/** A worked computation or a formula run into the prose: several numbers, or an equation. */
function isWorked(text: string): boolean {
  const numbers = text.match(/\d+(?:[.,]\d+)*/gu) ?? [];
  return numbers.length >= 3 || text.includes('=');
}

function isStatement(text: string): boolean {
  if (/[?？]["')\]]*$/u.test(text)) return false;
  if (/[\uac00-\ud7a3]/u.test(text)) return KOREAN_PREDICATE.test(text);
  // Other scripts: a full sentence of several words.
  return /[.!]["')\]]*$/u.test(text) && text.split(/\s+/u).length >= 4;
}

/** Whether a sentence may be part of a model answer at all. */
export function isAnswerSentence(sentence: string): boolean {
  return (
    letterCount(sentence) >= 8 &&
    sentence.length <= 300 &&
    isStatement(sentence) &&
    !POINTER.test(sentence) &&
    !EXAMPLE.test(sentence) &&
    !FRONT_MATTER.test(sentence) &&
    !isWorked(sentence) &&
    !isFormula(sentence)
  );
}

/** The sentences of the lecture that could explain something, in order: no scaffolding, headings or formulas. */
export function answerSentences(lecture: string): string[] {
  return lecture
    .replace(/\[질문\][\s\S]*?(?:\[[\\/]질문\]|$)/gu, '\n\n')
    .replace(/```[\s\S]*?(?:```|$)/gu, '\n\n')
    .split(/\n\s*\n/u)
    .flatMap((paragraph) => paragraph.split(/\n(?=\s*(?:[-*•·]|\d{1,2}[.)])\s)/u))
    .map((paragraph) => paragraph.replace(BULLET_LINE, '').replace(/\s+/gu, ' ').trim())
    .filter((paragraph) => paragraph.length > 0 && !SCAFFOLD_PARAGRAPH.test(paragraph) && !isFormula(paragraph))
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?。？！])\s+/u))
    .map((sentence) => sentence.replace(LEADING_LABEL, '').trim())
    .filter(isAnswerSentence);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** The concept as a pattern: any spacing between its words (`대수의 법칙` = `대수의법칙`), any case. */
function conceptPattern(concept: string): string {
  return concept
    .trim()
    .split(/\s+/u)
    .map((word) => escapeRegExp(word))
    .join('\\s*');
}

/** The names a concept goes by: `평균(산술평균)` is also `평균` and `산술평균`. */
function conceptNames(concept: string): string[] {
  const names = [concept.trim()];
  // An English plural names its singular too (`Heuristics` is defined as `A heuristic is …`).
  if (/^[A-Za-z][A-Za-z -]*[a-z]s$/u.test(concept.trim()) && !/(?:ss|us|is)$/u.test(concept.trim())) names.push(concept.trim().replace(/ies$/u, 'y').replace(/s$/u, ''));
  const parenthesised = /^(.+?)\s*\(([^()]+)\)$/u.exec(concept.trim());
  if (parenthesised?.[1] !== undefined && parenthesised[2] !== undefined) names.push(parenthesised[1], parenthesised[2]);
  return names.filter((name) => letterCount(name) > 0);
}

// A symbol written after a concept's name (`확률변수 X는`, `표본평균 x̄라고`): letters of no Hangul, up to 4 of them.
const SYMBOL = '(?:\\s+[^\\s\\uac00-\\ud7a3,.]{1,4})?';
// Another name in brackets right after the concept (`평균(산술평균)은`), or the concept inside them.
const ALIAS = '(?:\\s*\\([^()]{1,30}\\))?';
const TOPIC = '(?:은|는|이란|란|이라\\s*함은|\\s*[:：])(?=\\s)';
const NAMING = '(?:이)?라고\\s*(?:합니다|한다|해요|하며|하고|부른다|부릅니다|불러요|정의한다|정의합니다|말한다|말합니다)';

interface Reading {
  role: SentenceRole;
  /** The sentence as it should be quoted (a heading glued in front of its topic removed). */
  text: string;
}

/** How `sentence` is about one of the concept's names, if it is. */
function readSentence(sentence: string, names: readonly string[]): Reading | undefined {
  let best: Reading | undefined;
  const consider = (reading: Reading): void => {
    if (best === undefined || ROLE_RANK[reading.role] > ROLE_RANK[best.role]) best = reading;
  };
  for (const name of names) {
    const pattern = conceptPattern(name);
    const topic = new RegExp(`(^|[\\s,(])(?:[^\\s(]{1,20}\\(\\s*)?${pattern}(?:\\s*\\))?${ALIAS}${SYMBOL}${TOPIC}`, 'iu').exec(sentence);
    if (topic !== null) {
      const at = topic.index + (topic[1]?.length ?? 0);
      const prefix = sentence.slice(0, at).trim();
      if (prefix.length === 0) consider({ role: 'definition', text: sentence });
      // A heading glued to the sentence that defines it ("기댓값과 평균 기댓값은 …"): a few words with no
      // predicate or punctuation that name the concept themselves.
      else if (isGluedHeading(prefix, pattern)) consider({ role: 'definition', text: sentence.slice(at) });
      else if (/[,，:]$/u.test(prefix)) consider({ role: 'topic', text: sentence });
      else consider({ role: 'mention', text: sentence });
    }
    if (new RegExp(`${pattern}${ALIAS}${SYMBOL}\\s*${NAMING}`, 'iu').test(sentence)) consider({ role: 'definition', text: sentence });
    if (new RegExp(`^(?:the\\s+|an?\\s+)?${pattern}\\s+(?:is|are|means|refers to)\\b|\\bcalled\\s+(?:the\\s+|an?\\s+)?${pattern}\\b`, 'iu').test(sentence)) {
      consider({ role: 'definition', text: sentence });
    }
    if (new RegExp(`^${pattern}${ALIAS}${SYMBOL}(?:이|가)\\s`, 'iu').test(sentence)) consider({ role: 'topic', text: sentence });
    if (new RegExp(pattern, 'iu').test(sentence)) consider({ role: 'mention', text: sentence });
  }
  return best;
}

function isGluedHeading(prefix: string, pattern: string): boolean {
  return (
    prefix.split(/\s+/u).length <= 4 &&
    !/[.,!?:;，。]/u.test(prefix) &&
    !KOREAN_PREDICATE.test(prefix) &&
    !/(?:의|을|를|에|에서|으로|로|인|한|된|은|는)$/u.test(prefix) &&
    new RegExp(pattern, 'iu').test(prefix)
  );
}

/**
 * The model answer to `question` from `lecture` (the chapter's lecture as the student saw it): the sentences that
 * define the question's concept (`평균(산술평균)은 …`, `…을 표본평균이라고 합니다`), else those that say something
 * of it, else those that name it, at most two, in the lecture's order; the question's key terms decide when the
 * concept is not named at all. Empty when the lecture has no sentence to offer.
 */
export function pickModelAnswer(question: string, lecture: string): string {
  // The block the lecture announced the concept with ("이어서 평균의 성질을 살펴보겠습니다.") is where it was taught:
  // its sentences answer first, so a title-like concept is not answered with another block's definition.
  const block = announcedBlock(questionConcept(question), lecture);
  return (block === undefined ? '' : pickFrom(question, block)) || pickFrom(question, lecture);
}

/** The lecture from the connective that announces `concept` to the next connective or question. */
export function announcedBlock(concept: string, lecture: string): string | undefined {
  const opener = new RegExp(`^(?:먼저|이어서) ${conceptPattern(concept)}(?:을|를) 살펴보겠습니다\\.$`, 'imu').exec(lecture);
  if (opener === null) return undefined;
  const rest = lecture.slice(opener.index + opener[0].length);
  const end = rest.search(/^(?:(?:먼저|이어서) .{1,60} 살펴보겠습니다\.|끝으로 지금까지의 내용을 정리해 보겠습니다\.|\[질문\])/mu);
  return end === -1 ? rest : rest.slice(0, end);
}

function pickFrom(question: string, lecture: string): string {
  const sentences = answerSentences(lecture);
  const names = conceptNames(questionConcept(question));
  const readings = sentences.flatMap((sentence, index) => {
    const reading = readSentence(sentence, names);
    return reading === undefined ? [] : [{ index, ...reading }];
  });
  const strongest = Math.max(0, ...readings.map((reading) => ROLE_RANK[reading.role]));
  if (strongest > 0) {
    // The strongest sentence first; a second one only if it is at least a statement about the concept.
    const floor = Math.min(strongest, ROLE_RANK.topic);
    const first = readings.find((reading) => ROLE_RANK[reading.role] === strongest);
    const second = readings.find((reading) => reading !== first && ROLE_RANK[reading.role] >= floor);
    return [first, second]
      .filter((reading) => reading !== undefined)
      .sort((left, right) => left.index - right.index)
      .slice(0, MAX_SENTENCES)
      .map((reading) => reading.text)
      .join(' ');
  }
  return byQuestionTerms(question, sentences);
}

/** The (at most two) sentences that cover the most of the question's key terms, in the lecture's order. */
function byQuestionTerms(question: string, sentences: readonly string[]): string {
  const terms = rankedTerms(question, { nounsOnly: true });
  return sentences
    .map((sentence, index) => {
      const words = contentTerms(sentence);
      const covered = terms.filter((entry) => words.some((word) => termsMatch(word, entry.term))).length;
      return { sentence, index, covered };
    })
    .filter((entry) => entry.covered > 0)
    .sort((left, right) => right.covered - left.covered || left.index - right.index)
    .slice(0, MAX_SENTENCES)
    .sort((left, right) => left.index - right.index)
    .map((entry) => entry.sentence)
    .join(' ');
}
