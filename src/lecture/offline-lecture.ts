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

// Sentences that steer the lecture rather than explain anything (ours and typical model phrasing).
const META_SENTENCE = /살펴보겠습니다|살펴보았습니다|알아보겠습니다|다룹니다|시작하겠습니다|[?？]$/u;

/** The explanatory sentences of a lecture or passage: no questions, headings or connectives. */
function explanatorySentences(text: string): string[] {
  const sentences = splitSentences(stripQuestionBlocks(neutraliseMarkers(text)));
  return sentences.filter((sentence) => !META_SENTENCE.test(sentence));
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

/**
 * Indexes of the sentences that best explain `terms`: covering them matters most; then the first sentence to
 * mention them and a sentence that takes them as its topic (`기댓값은 …`), as textbooks define before they use;
 * then the sentence that says more.
 */
function bestSentences(sentences: readonly string[], terms: readonly KeyTerm[], count: number): number[] {
  const first = sentences.findIndex((sentence) => sentenceScore(sentence, terms) > 0);
  return sentences
    .map((sentence, index) => {
      const covered = sentenceScore(sentence, terms);
      const bonus = (index === first ? 40 : 0) + (definesConcept(sentence, terms) ? 30 : 0);
      return { index, covered, score: covered * 100 + bonus + Math.min(contentTerms(sentence).length, 12) };
    })
    .filter((entry) => entry.covered > 0)
    .sort((left, right) => right.score - left.score || left.index - right.index)
    .slice(0, count)
    .map((entry) => entry.index);
}

/** Whether the sentence states something about one of the terms as its topic (`기댓값은 …`, `분산이란 …`). */
function definesConcept(sentence: string, terms: readonly KeyTerm[]): boolean {
  return terms.some((entry) =>
    new RegExp(`${escapeRegExp(entry.term)}(?:은|는|이란|란|이라|의 정의)\\s`, 'u').test(sentence),
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

export interface OfflineSubconceptInput {
  question: string;
  passage: string;
}

export interface Subconcept {
  concept: string;
  question: string;
  explanation: string;
}

const SUBCONCEPT_QUESTIONS: readonly ((term: string) => string)[] = [
  (term) => `${withParticle(term, '이/가')} 무엇을 뜻하는지 한두 문장으로 말해 볼까요?`,
  (term) => `${withParticle(term, '은/는')} 앞의 개념과 어떻게 연결되는지 설명해 볼까요?`,
  (term) => `${withParticle(term, '이/가')} 왜 필요한지 자신의 말로 설명해 볼까요?`,
];

/** The offline split of a misunderstood concept into 2–3 ordered subconcepts from the passage's key terms. */
export function offlineSubconcepts({ question, passage }: OfflineSubconceptInput): Subconcept[] {
  const main = questionConcept(question);
  const questionTerms = rankedTerms(`${main} ${stripMarkers(question)}`);
  const all = explanatorySentences(passage);
  // Focus on where the passage talks about the concept (and the sentence after, which usually elaborates).
  const hits = all.flatMap((sentence, index) => (sentenceScore(sentence, questionTerms) > 0 ? [index, index + 1] : []));
  const focus = hits.length > 0 ? all.filter((_, index) => hits.includes(index)) : all;
  const sentences = [...focus, ...all.filter((sentence) => !focus.includes(sentence))];
  const isMain = (entry: KeyTerm): boolean => questionTerms.some((other) => termsMatch(other.term, entry.term));
  // Formulas are not concepts one can be asked to explain in a sentence; they stay in the explanations.
  const concepts = rankedTerms(focus.join(' '), { nounsOnly: true })
    .filter((entry) => !entry.formula && !isMain(entry))
    .slice(0, 3);

  // Teach in the order the passage introduces the ideas.
  const firstMention = (entry: KeyTerm): number => {
    const index = sentences.findIndex((sentence) => sentenceScore(sentence, [entry]) > 0);
    return index === -1 ? Number.MAX_SAFE_INTEGER : index;
  };
  const ordered = concepts
    .map((entry, rank) => ({ entry, rank, at: firstMention(entry) }))
    .sort((left, right) => left.at - right.at || left.rank - right.rank);

  const explained = new Set<number>();
  const found = ordered.map(({ entry }, index) => {
    // Each subconcept gets its own sentence when the passage has one to spare.
    const candidates = bestSentences(all, [entry], all.length);
    const pick = candidates.find((candidate) => !explained.has(candidate)) ?? candidates[0];
    if (pick !== undefined) explained.add(pick);
    const fallback = `${withParticle(entry.term, '은/는')} ${withParticle(main, '을/를')} 이해하는 데 필요한 기본 개념입니다.`;
    return {
      concept: entry.term,
      question: (SUBCONCEPT_QUESTIONS[index] ?? SUBCONCEPT_QUESTIONS[0])?.(entry.term) ?? entry.term,
      explanation: pick === undefined ? fallback : (all[pick] ?? fallback),
    };
  });
  // A passage with too little to split still gives an ordered dialogue: what it is, then an example.
  const generic: Subconcept[] = [
    {
      concept: `${main}의 정의`,
      question: `${withParticle(main, '이/가')} 무엇을 가리키는지 한 문장으로 말해 볼까요?`,
      explanation: `먼저 ${withParticle(main, '이/가')} 정확히 무엇을 가리키는지, 정의의 핵심 낱말부터 정리해 봅시다.`,
    },
    {
      concept: `${main}의 예시`,
      question: `${withParticle(main, '이/가')} 쓰이는 간단한 예를 하나 들어 볼까요?`,
      explanation: `${withParticle(main, '이/가')} 실제로 쓰이는 간단한 예를 떠올리면 정의가 훨씬 또렷해집니다.`,
    },
  ];
  return [...found, ...generic.slice(found.length)].slice(0, 3);
}
