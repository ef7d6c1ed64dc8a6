import { QUESTION_CLOSERS, QUESTION_OPEN } from '../marker-parser.js';
import {
  contentTerms,
  englishTerms,
  hasFinalConsonant,
  isEnglishText,
  keyTerms,
  letterCount,
  looksLikeNoun,
  nounPhrases,
  rankedTerms,
  splitSentences,
  tagEnglish,
  termPattern,
  termsMatch,
  withParticle,
  type KeyTerm,
} from '../../text/index.js';
import { materialConcepts } from '../material-concepts.js';
import { onlyFrontMatter, toBlocks, type Block } from './offline-blocks.js';
import { pickModelAnswer } from '../model-answer.js';
import { checkAnswer, checkLectureQuestion } from '../../guard/index.js';

/**
 * The offline agents of the lecture flow: deterministic, extractive, no network. They keep the product usable
 * without a model key and give tests exact outputs; they explain only with the chapter's own sentences.
 */

const QUESTION_CLOSE = QUESTION_CLOSERS[0];

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
  const phrase = /^(.{1,40}?)(?:에 대해|에 대한|이란|(?:이|가|은|는|을|를)\s)/u.exec(text)?.[1]?.trim();
  if (phrase !== undefined && phrase.split(' ').length <= 4 && letterCount(phrase) > 0) return phrase;
  // A bare phrase (`대수의 법칙`) is the concept itself.
  const bare = text.replace(/[.?!。？！]+$/u, '');
  if (bare.length > 0 && bare.split(' ').length <= 4 && !/[요다]$/u.test(bare)) return bare;
  return rankedTerms(text)[0]?.term ?? '이 개념';
}

/** A Latin term (`round robin`, `PCB`) is found as whole words, plural or not; others by their stems. */
const LATIN_TERM = /^[A-Za-z][A-Za-z-]*(?:\s[A-Za-z][A-Za-z-]*)*$/u;

function sentenceScore(sentence: string, terms: readonly KeyTerm[]): number {
  const words = contentTerms(sentence);
  const formulas = sentence.toLowerCase();
  return terms.reduce((sum, entry) => {
    const found = entry.formula
      ? formulas.includes(entry.term.toLowerCase())
      : LATIN_TERM.test(entry.term) && entry.term.includes(' ')
        ? termPattern(entry.term).test(sentence)
        : words.some((word) => termsMatch(word, entry.term));
    return found ? sum + entry.score : sum;
  }, 0);
}

/**
 * The chapter's key terms, best first. English material's are its noun phrases (text/english-terms.ts: `round
 * robin`, `time quantum`, `context switch`), so a question never asks about a word of its prose that names nothing
 * on its own (`time`, `what`, `moves`, `low`); Korean material's are its ranked noun terms.
 */
function chapterTerms(text: string): KeyTerm[] {
  if (!isEnglishText(text)) return rankedTerms(text, { nounsOnly: true }).slice(0, 15);
  return englishTerms(text.split('\n').flatMap((line) => splitSentences(line)))
    .slice(0, 15)
    .map((entry) => ({ term: entry.term, count: entry.count, score: entry.score, formula: false }));
}

/** The terms a block is about, most said in it first: the chapter's terms it says (English) or its own key terms. */
function blockTerms(prose: string, terms: readonly KeyTerm[]): string[] {
  if (!isEnglishText(prose)) return keyTerms(prose, 8);
  const said = (term: string): number => (prose.match(termPattern(term)) ?? []).length;
  return terms
    .filter((entry) => said(entry.term) > 0)
    .sort((left, right) => said(right.term) - said(left.term))
    .map((entry) => entry.term);
}

/** What a chapter with no askable concept says instead of a question (one line). */
export const NO_QUESTION_LINE = '이 장에는 질문으로 확인할 만한 개념 설명이 없어, 질문 없이 다음 내용으로 넘어갑니다.';

const QUESTION_TEMPLATES: readonly ((term: string) => string)[] = [
  (term) => `${term}에 대해 자신의 말로 설명해 보세요.`,
  (term) => `${withParticle(term, '이/가')} 무엇인지, 왜 중요한지 자신의 말로 설명해 보세요.`,
  (term) => `방금 살펴본 내용에서 ${withParticle(term, '이/가')} 어떤 역할을 하는지 설명해 보세요.`,
];

// Frequent words of lecture prose that pass the noun test but name nothing to explain (`모두 더하면`, `항상 0`).
const NOT_CONCEPTS: ReadonlySet<string> = new Set([
  '모두', '항상', '거의', '서로', '함께', '일부', '전체', '대부분', '여기서', '다음', '아주', '크게', '조금씩', '이상',
  '이하', '처음', '마지막', '자체', '사실', '결과', '방법', '요약', '정리',
]);

// Headings that announce a kind of page rather than a concept (`동전 던지기 예`, `정리와 주의할 점`).
const EXAMPLE_HEADING = /(?:^|\s)(?:예|예시|예제|보기|연습|연습\s*문제|풀이|example|examples|exercise|exercises)$|^(?:예제|연습|example|exercise)\b/iu;
/** A heading that sums the chapter up (`Summary`, `정리`): said as the wrap-up, not as a topic. */
const WRAP_UP_HEADING = /^(?:summary|recap|wrap-?up|conclusions?|key takeaways|정리|요약|마무리|요약 및 정리)$/iu;

/** How the lecture turns to a summary slide (model-answer.ts knows it as ours). */
export const WRAP_UP_LINE = '끝으로 지금까지의 내용을 정리해 보겠습니다.';
const NOT_CONCEPT_HEADING = /(?:^|\s)(?:예|예시|예제|보기|연습|문제|풀이|정리|요약|참고|실습|점|example|exercise|summary)$|^(?:정리|요약|참고|연습)/iu;


/**
 * Whether `term` can stand in a sentence of ours with a particle after it: a Hangul noun of two or more syllables or
 * a Latin word that the text itself uses as a word, alone or with one noun particle (`분산을`, `분산 `). A stem the
 * particle stripper cut from a verb (`움직이` of `움직이는`), a number with a counter (`600원씩`) or a variable
 * (`xₙ이`) never does.
 */
function isUsableTerm(term: string, text: string): boolean {
  if (NOT_CONCEPTS.has(term)) return false;
  // An English term (a noun phrase of the material) stands as written, plural or not.
  if (LATIN_TERM.test(term) && (term.includes(' ') || isEnglishText(text))) return letterCount(term) >= 3 && termPattern(term).test(text);
  if (!/^(?:[\uac00-\ud7a3]{2,}|[A-Za-z][A-Za-z-]{2,})$/u.test(term) || !looksLikeNoun(term)) return false;
  const word = escapeRegExp(term);
  const start = `(?:^|[\\s(‘'"“])${word}`;
  const end = `(?=[\\s.,:;!?()’'"”]|$)`;
  // 움직입니다, 움직이고, 움직였다: the text conjugates it, so it is a verb stem, whatever else the text does with it.
  if (new RegExp(`${start}(?:고|며|면|어|었|였|게|지만|도록|기|ㅂ니다)`, 'iu').test(text) || conjugated(term, text)) return false;
  if (new RegExp(`${start}(?:을|를|이|가|의|에|과|와|으로|로|도|만|에서|이다|입니다|이라고|라고|이라는|라는|이란|란)?${end}`, 'iu').test(text)) return true;
  // `-는`/`-은` alone also ends verb modifiers (움직이는, 커지는): trusted only after a final consonant (`스택은`).
  return hasFinalConsonant(term) && new RegExp(`${start}(?:은|는)${end}`, 'iu').test(text);
}

/** Whether the text has the term with a verb ending fused into its last syllable (`움직입니다`, `움직인`, `움직일`). */
function conjugated(term: string, text: string): boolean {
  const last = term.at(-1) ?? '';
  const code = last.charCodeAt(0) - 0xac00;
  if (code < 0 || code >= 11172 || code % 28 !== 0) return false;
  // ㄴ, ㄹ and ㅂ finals are 4, 8 and 17 places after the open syllable.
  const fused = [4, 8, 17].map((offset) => String.fromCharCode(0xac00 + code + offset));
  return fused.some((syllable) => new RegExp(`(?:^|\\s)${escapeRegExp(term.slice(0, -1) + syllable)}`, 'u').test(text));
}

/** A heading as a noun phrase to say (`1. 평균의 성질` -> `평균의 성질`), or nothing when it would not read. */
function spokenHeading(heading: string): string | undefined {
  const phrase = heading
    .replace(/^(?:제\s*)?\d{1,2}(?:\s*장|[.)])?\s+/u, '')
    // A facet of a concept (`평균의 의미`) is said as the concept; a title's leading article is not said (`The Mean`).
    .replace(/의\s+(?:의미|정의|개념|뜻|소개|개요|이해)$/u, '')
    .replace(/^(?:the|an?)\s+(?=\S)/iu, '')
    .trim();
  const spoken = englishHeadingTopic(phrase) ?? phrase;
  return /[\uac00-\ud7a3A-Za-z0-9)]$/u.test(spoken) && letterCount(spoken) >= 2 ? spoken : undefined;
}

/**
 * What an English slide title names, said as a noun phrase: a question title's longest noun phrase (`What Is a
 * Process?` -> `Process`, `Why Use Threads?` -> `Threads`), a `Topic: subtitle` title's subtitle (`Creating
 * Processes: fork and exec` -> `fork and exec`). Undefined for any other heading, which is said as written.
 */
function englishHeadingTopic(heading: string): string | undefined {
  if (/[^\x20-\x7e]/u.test(heading)) return undefined;
  // `Round Robin (RR)` is said `Round Robin`: the abbreviation in brackets is how the slides write it, not a word.
  const named = /^([A-Za-z][A-Za-z ,/-]*[A-Za-z])\s*\([A-Z0-9]{1,8}\)$/u.exec(heading)?.[1];
  if (named !== undefined) return named;
  const subtitle = /^[^:]{2,}:\s+([A-Za-z][A-Za-z0-9 ,()/-]*[A-Za-z0-9)])$/u.exec(heading)?.[1];
  if (subtitle !== undefined) return subtitle;
  if (!heading.endsWith('?')) return undefined;
  // Tagged in lower case: title capitals make the tagger read every word as a proper noun.
  const words = heading.replace(/\?$/u, '').split(/\s+/u);
  const tokens = tagEnglish(words.join(' ').toLowerCase());
  if (tokens.length !== words.length) return undefined;
  const longest = nounPhrases(tokens).sort((left, right) => right.end - right.start - (left.end - left.start))[0];
  return longest === undefined ? undefined : words.slice(longest.start, longest.end).join(' ');
}

interface Section {
  index: number;
  heading?: string;
  prose: string;
}

/** The taught concept blocks of a chapter, in reading order. */
function sectionsOf(blocks: readonly Block[]): Section[] {
  const sections = new Map<number, Section>();
  for (const block of blocks) {
    const section = sections.get(block.section) ?? { index: block.section, prose: '' };
    if (block.kind === 'heading') section.heading = block.text;
    if (block.kind === 'prose') section.prose = `${section.prose} ${block.text}`.trim();
    sections.set(block.section, section);
  }
  return [...sections.values()];
}

/** The concept a block's question asks about: a usable key term of its best sentence, or of the block itself. */
function questionTerm(section: Section, terms: readonly KeyTerm[], used: Set<string>): string | undefined {
  // A block with no prose (only code, a formula, a list) taught nothing in words that a question could check.
  if (letterCount(section.prose) === 0) return undefined;
  // A heading that names a concept (`평균의 성질`) is what the block taught, and the lecture has just said it.
  const named = section.heading === undefined ? undefined : spokenHeading(section.heading);
  // A worked example applies what came before; it teaches no concept of its own to be asked about.
  if (named !== undefined && EXAMPLE_HEADING.test(named)) return undefined;
  if (named !== undefined && !used.has(named) && !NOT_CONCEPT_HEADING.test(named) && named.split(' ').length <= 4) return named;
  // A concept the block itself singles out in brackets or bold (`…않습니다(도박사의 오류)`) is what it teaches.
  const own = materialConcepts(section.prose).find(
    (entry) => entry.source === 'emphasis' && !used.has(entry.concept) && !NOT_CONCEPTS.has(entry.concept) && (entry.concept.includes(' ') || isUsableTerm(entry.concept, section.prose)),
  );
  if (own !== undefined) return own.concept;
  // A formula (`E[X]`) is not asked about in words: "E[X]가 무엇인지 설명해 보세요" has no sentence to answer it.
  const usable = terms.filter((entry) => !used.has(entry.term) && !entry.formula && isUsableTerm(entry.term, section.prose));
  const sentences = splitSentences(section.prose);
  const key = [...sentences].sort((left, right) => sentenceScore(right, usable) - sentenceScore(left, usable))[0] ?? section.prose;
  // The sentence's topic (`평균(산술평균)은 …`) is what it teaches; otherwise its most important term.
  const topic = usable.find((entry) => new RegExp(`^${escapeRegExp(entry.term)}(?:\\([^)]*\\))?(?:은|는|이란|란)\\s`, 'u').test(key));
  return (topic ?? usable.find((entry) => sentenceScore(key, [entry]) > 0) ?? usable[0])?.term;
}

/**
 * Spreads `count` questions over the blocks that teach something, at most one each: the best-scoring block of each
 * of `count` equal stretches.
 */
function questionSections(sections: readonly Section[], terms: readonly KeyTerm[], count: number): number[] {
  const taught = sections.filter((section) => questionTerm(section, terms, new Set()) !== undefined);
  const chosen: number[] = [];
  const size = Math.min(count, taught.length);
  for (let part = 0; part < size; part += 1) {
    const stretch = taught.slice(Math.floor((part * taught.length) / size), Math.floor(((part + 1) * taught.length) / size));
    let best: Section | undefined;
    for (const section of stretch) {
      if (best === undefined || sentenceScore(section.prose, terms) > sentenceScore(best.prose, terms)) best = section;
    }
    if (best !== undefined) chosen.push(best.index);
  }
  return chosen;
}

export interface OfflineLectureInput {
  title: string;
  text: string;
}

/**
 * The offline Main Lecture Agent: an extractive Korean markdown lecture with 1–3 embedded questions. It reads the
 * chapter's pages in order without their cover, contents or administrative pages, says each block's heading in a
 * connective sentence instead of gluing it to the prose (a topic announced once, a summary slide as the wrap-up), and
 * asks at most one question per block, after the block, about a concept that block taught.
 */
export function writeOfflineLecture({ title, text }: OfflineLectureInput): string {
  const heading = title.trim().replace(/\s+/gu, ' ') || '이번 장';
  const blocks = toBlocks(heading, neutraliseMarkers(text));
  const terms = chapterTerms(blocks.map((block) => block.text).join('\n'));
  const sections = sectionsOf(blocks);
  const proseLength = sections.reduce((sum, section) => sum + section.prose.length, 0);
  const questionCount = proseLength < 350 ? 1 : proseLength < 1000 ? 2 : 3;
  const asked = new Set(questionSections(sections, terms, questionCount));
  const used = new Set<string>();
  // The title is the lecture's heading; the opening sentence does not repeat it.
  const out: string[] = [`# ${neutraliseMarkers(heading)}`];
  if (blocks.length === 0 && onlyFrontMatter(text)) {
    // Every page was a cover, a table of contents or course administration: nothing was taught, so nothing is asked.
    out.push('이 부분은 자료의 표지, 목차나 수업 안내라서 따로 설명할 내용이 없습니다. 다음 장에서 본격적으로 내용을 살펴보겠습니다.');
    return `${out.join('\n\n')}\n`;
  }
  out.push('이번 장의 내용을 함께 살펴보겠습니다.');

  let spoken = 0;
  let afterQuestion = true;
  const introduced = new Set<string>();
  const connect = (section: Section | undefined): void => {
    if (section === undefined) return;
    const named = section.heading === undefined ? undefined : spokenHeading(section.heading);
    // A block without a heading gets a connective only where the lecture turns (its start, after a question).
    if (named === undefined && !afterQuestion) return;
    const lead = named ?? blockTerms(section.prose, terms).find((term) => !introduced.has(term) && isUsableTerm(term, section.prose));
    if (lead !== undefined && spoken > 0 && WRAP_UP_HEADING.test(lead)) {
      // A summary slide is the lecture's wrap-up, not a topic called `Summary`.
      out.push(WRAP_UP_LINE);
      spoken += 1;
    } else if (lead !== undefined) {
      // Only these openers: model-answer.ts knows them as ours and never quotes them as an answer. A topic said again
      // (`What Is a Thread?`, then `Why Use Threads?`) goes on with it; it is not announced as if it were new.
      const again = introduced.has(lead) ? ' 조금 더' : '';
      out.push(`${spoken === 0 ? '먼저' : '이어서'} ${withParticle(lead, '을/를')}${again} 살펴보겠습니다.`);
      introduced.add(lead);
      spoken += 1;
    }
    afterQuestion = false;
  };
  let questions = 0;
  const ask = (section: Section | undefined): void => {
    if (section === undefined || !asked.has(section.index)) return;
    const term = questionTerm(section, terms, used);
    if (term === undefined) return;
    const template = QUESTION_TEMPLATES[used.size] ?? QUESTION_TEMPLATES[0];
    const question = template?.(term) ?? term;
    // Asked only when the lecture so far answers it with its own sentences and the item guard accepts the question
    // and that answer: a block with no askable concept gets no question.
    const answer = pickModelAnswer(question, out.join('\n\n'));
    if (answer === '' || checkLectureQuestion(question).length > 0 || checkAnswer(question, answer, { passages: [text], titles: [heading] }).length > 0) return;
    used.add(term);
    questions += 1;
    out.push(`${QUESTION_OPEN} ${question} ${QUESTION_CLOSE}`);
    afterQuestion = true;
  };
  let current: Section | undefined;
  for (const block of blocks) {
    if (block.section !== current?.index) {
      // A question waits for the whole block it asks about, formulas included.
      ask(current);
      current = sections.find((section) => section.index === block.section);
      connect(current);
    }
    // Code stays whole, line by line, in a code block: never joined to prose, never asked about.
    if (block.kind === 'code') out.push(`\`\`\`\n${block.text}\n\`\`\``);
    else if (block.kind !== 'heading') out.push(block.text);
  }
  ask(current);

  if (questions === 0) {
    // Said once, plainly: nothing in this chapter defines or explains a concept a question could check.
    out.push(NO_QUESTION_LINE);
  }
  const prose = sections.map((section) => section.prose).join(' ');
  // The topics the lecture announced, in its order, when it announced several (`Standard Deviation` stays one topic,
  // where key terms would split it into `standard`, `deviation`); else the chapter's key concepts, never a formula.
  const topics = [...introduced].filter((topic) => !NOT_CONCEPT_HEADING.test(topic) && !EXAMPLE_HEADING.test(topic));
  const summary = topics.slice(0, 4);
  for (const entry of terms) {
    // Announced topics say what the chapter covered; key terms only fill in for a chapter without them.
    if (summary.length >= 3 || topics.length >= 2) break;
    // A word of a topic already named (`대수` of `대수의 법칙`) or a topic's part is not a concept of its own here.
    if (entry.formula || !isUsableTerm(entry.term, prose) || summary.some((topic) => topic.toLowerCase().includes(entry.term.toLowerCase()) || entry.term.toLowerCase().includes(topic.toLowerCase()))) continue;
    summary.push(entry.term);
  }
  if (summary.length > 0) {
    out.push(`정리하면, 이번 장에서는 ${withParticle(summary.join(', '), '을/를')} 중심으로 살펴보았습니다.`);
  }
  return `${out.join('\n\n')}\n`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
