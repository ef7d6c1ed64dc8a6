import { QUESTION_CLOSERS, QUESTION_OPEN } from './marker-parser.js';
import { BULLET_LINE, RunningLines, contentTerms, keyTerms, letterCount, rankedTerms, splitSentences, termsMatch, withParticle, type KeyTerm } from '../text/index.js';

/**
 * The offline agents of the lecture flow: deterministic, extractive, no network. They keep the product usable
 * without a model key and give tests exact outputs; they explain only with the chapter's own sentences.
 */

const QUESTION_CLOSE = QUESTION_CLOSERS[0];

const FORMULA_LINE = /[=≤≥≠∑∫√±×÷^]|\b(?:lim|log|exp|sin|cos)\b/u;
const PAGE_NUMBER_LINE = /^(?:-?\s*\d{1,4}\s*-?|page\s*\d+|\d+\s*\/\s*\d+)$/iu;

function isFormula(line: string): boolean {
  const hangul = (line.match(/[\uac00-\ud7a3]/gu) ?? []).length;
  return FORMULA_LINE.test(line) && hangul <= letterCount(line) * 0.3;
}

/** A literal marker in a PDF must not turn into a question of ours. */
function neutraliseMarkers(text: string): string {
  return text.replace(/\[([\\/]?)질문\]/gu, '($1질문)');
}

/** A question may arrive with its markers still on; only the markers go. */
function stripMarkers(text: string): string {
  return text.replace(/\[[\\/]?질문\]/gu, ' ');
}

/** Removes `[질문] … [\질문]` blocks and markdown syntax, leaving the explanatory prose. */
export function stripQuestionBlocks(text: string): string {
  return text
    .replace(/\[질문\][\s\S]*?(?:\[[\\/]질문\]|$)/gu, ' ')
    .replace(/^#{1,6}\s+.*$/gmu, ' ')
    .replace(/[*_`>]+/gu, ' ');
}

/** The concept a question asks about: its leading noun phrase (`대수의 법칙이 무엇인지…` -> `대수의 법칙`). */
export function questionConcept(question: string): string {
  const text = stripMarkers(question).replace(/\s+/gu, ' ').trim().replace(/^방금 살펴본 내용에서\s*/u, '');
  const phrase = /^(.{1,30}?)(?:에 대해|에 대한|이란|(?:이|가|은|는|을|를)\s)/u.exec(text)?.[1]?.trim();
  if (phrase !== undefined && phrase.split(' ').length <= 4 && letterCount(phrase) > 0) return phrase;
  // A bare phrase (`대수의 법칙`) is the concept itself.
  const bare = text.replace(/[.?!。？！]+$/u, '');
  if (bare.length > 0 && bare.split(' ').length <= 4 && !/[요다]$/u.test(bare)) return bare;
  return rankedTerms(text)[0]?.term ?? '이 개념';
}

interface Block {
  kind: 'prose' | 'formula' | 'list';
  text: string;
}

/**
 * Rebuilds paragraphs from extracted PDF lines: joins wrapped lines, keeps formulas and list items apart, drops page
 * numbers and running headers/footers.
 */
function toBlocks(title: string, text: string): Block[] {
  const blocks: Block[] = [];
  let prose = '';
  const flush = (): void => {
    if (letterCount(prose) > 0) blocks.push({ kind: 'prose', text: prose.trim() });
    prose = '';
  };
  const source = neutraliseMarkers(text.normalize('NFC'));
  const running = new RunningLines(source);
  const lines = source.split(/\r\n?|\n/u);
  for (const raw of lines) {
    const line = raw.replace(/\s+/gu, ' ').trim();
    if (line.length === 0) {
      flush();
    } else if (PAGE_NUMBER_LINE.test(line) || running.has(line) || (line === title.trim() && blocks.length === 0 && prose === '')) {
      continue;
    } else if (isFormula(line)) {
      flush();
      blocks.push({ kind: 'formula', text: line });
    } else if (BULLET_LINE.test(line)) {
      flush();
      const item = line.replace(BULLET_LINE, '- ');
      const previous = blocks[blocks.length - 1];
      if (previous?.kind === 'list') previous.text += `\n${item}`;
      else blocks.push({ kind: 'list', text: item });
    } else {
      // A Latin word hyphenated at the line end is glued back; everything else was wrapped at a space.
      prose = /[A-Za-z]-$/u.test(prose) && /^[a-z]/u.test(line) ? prose.slice(0, -1) + line : `${prose} ${line}`;
      // Extracted text often has no blank lines at all: cut long paragraphs at a sentence end.
      if (prose.length >= 500 && /[.!?。]$/u.test(line)) flush();
    }
  }
  flush();
  return blocks;
}

function sentenceScore(sentence: string, terms: readonly KeyTerm[]): number {
  const words = contentTerms(sentence);
  const formulas = sentence.toLowerCase();
  return terms.reduce((sum, entry) => {
    const found = entry.formula
      ? formulas.includes(entry.term.toLowerCase())
      : words.some((word) => termsMatch(word, entry.term));
    return found ? sum + entry.score : sum;
  }, 0);
}

/** The best key term of `sentence` not used yet, falling back to any unused chapter term. */
function pickTerm(sentence: string, terms: readonly KeyTerm[], used: Set<string>): string | undefined {
  const inSentence = terms.filter((entry) => !used.has(entry.term) && sentenceScore(sentence, [entry]) > 0);
  return (inSentence[0] ?? terms.find((entry) => !used.has(entry.term)))?.term;
}

const QUESTION_TEMPLATES: readonly ((term: string) => string)[] = [
  (term) => `${term}에 대해 자신의 말로 설명해 보세요.`,
  (term) => `${withParticle(term, '이/가')} 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.`,
  (term) => `방금 살펴본 내용에서 ${withParticle(term, '이/가')} 어떤 역할을 하는지 설명해 보세요.`,
];

/** Spreads `count` questions over the prose blocks: the best-scoring block of each of `count` equal stretches. */
function questionBlocks(blocks: readonly Block[], terms: readonly KeyTerm[], count: number): number[] {
  const prose = blocks.flatMap((block, index) => (block.kind === 'prose' ? [index] : []));
  const chosen: number[] = [];
  for (let part = 0; part < count; part += 1) {
    const from = Math.floor((part * prose.length) / count);
    const stretch = prose.slice(from, Math.floor(((part + 1) * prose.length) / count));
    let best: number | undefined;
    for (const index of stretch) {
      const score = sentenceScore(blocks[index]?.text ?? '', terms);
      if (best === undefined || score > sentenceScore(blocks[best]?.text ?? '', terms)) best = index;
    }
    if (best !== undefined) chosen.push(best);
  }
  return chosen;
}

export interface OfflineLectureInput {
  title: string;
  text: string;
}

/** The offline Main Lecture Agent: an extractive Korean markdown lecture with 1–3 embedded questions. */
export function writeOfflineLecture({ title, text }: OfflineLectureInput): string {
  const heading = title.trim().replace(/\s+/gu, ' ') || '이번 장';
  const blocks = toBlocks(heading, text);
  const terms = rankedTerms(blocks.map((block) => block.text).join('\n'), { nounsOnly: true }).slice(0, 15);
  const proseLength = blocks.reduce((sum, block) => sum + (block.kind === 'prose' ? block.text.length : 0), 0);
  const proseCount = blocks.filter((block) => block.kind === 'prose').length;
  const questionCount = Math.min(proseCount, proseLength < 350 ? 1 : proseLength < 1000 ? 2 : 3);
  const asked = new Set(questionBlocks(blocks, terms, questionCount));
  const used = new Set<string>();
  const intro = title.trim() ? `이번 장에서는 ${withParticle(heading, '을/를')} 다룹니다.` : '이번 장의 내용을 함께 살펴보겠습니다.';
  const out: string[] = [`# ${neutraliseMarkers(heading)}`, neutraliseMarkers(intro)];

  // A short connective opens the lecture and each stretch after a question, as a spoken lecture would.
  let connective: '먼저' | '이어서' | null = '먼저';
  let question: string | null = null;
  const introduced = new Set<string>();
  const ask = (): void => {
    if (question !== null) out.push(question);
    question = null;
  };
  blocks.forEach((block, index) => {
    // A question waits for the formulas that belong to its paragraph.
    if (block.kind !== 'formula') ask();
    if (block.kind === 'prose' && connective !== null) {
      const lead = keyTerms(block.text, 5).find((term) => !introduced.has(term) && !/[[(^]/u.test(term));
      if (lead !== undefined) out.push(`${connective} ${withParticle(lead, '을/를')} 살펴보겠습니다.`);
      if (lead !== undefined) introduced.add(lead);
      connective = null;
    }
    out.push(block.text);
    if (!asked.has(index)) return;
    const sentences = splitSentences(block.text);
    const key = [...sentences].sort((left, right) => sentenceScore(right, terms) - sentenceScore(left, terms))[0];
    const term = pickTerm(key ?? block.text, terms, used) ?? heading;
    used.add(term);
    const template = QUESTION_TEMPLATES[used.size - 1] ?? QUESTION_TEMPLATES[0];
    question = `${QUESTION_OPEN} ${template?.(term) ?? term} ${QUESTION_CLOSE}`;
    connective = '이어서';
  });
  ask();

  if (asked.size === 0) {
    out.push('자료에 본문이 거의 없어, 제목이 가리키는 핵심 개념을 중심으로 생각해 보겠습니다.');
    out.push(`${QUESTION_OPEN} ${heading}에 대해 알고 있는 내용을 자신의 말로 설명해 보세요. ${QUESTION_CLOSE}`);
  }
  const summary = terms.slice(0, 3).map((entry) => entry.term);
  if (summary.length > 0) {
    out.push(`정리하면, 이번 장에서는 ${withParticle(summary.join(', '), '을/를')} 중심으로 살펴보았습니다.`);
  }
  return `${out.join('\n\n')}\n`;
}
