import { englishFinalSound, letterCount } from '../text/index.js';
import type { Refusal } from './guard-rules.js';

/**
 * Checks of one text a student or teacher reads: is it a placeholder, does it restate its question or quote the
 * question's passage, does it ask about the medium, does it quote a cover or contents page, do its particles fit the
 * English words before them.
 */

/** Text compared loosely: NFKC, lower case, letters and digits only. */
export const loose = (text: string) => text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
export const oneLine = (text: string) => text.replace(/\s+/gu, ' ').trim();
export const clip = (text: string, max = 60) => {
  const line = oneLine(text);
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

/** Answers that say nothing: what a writer puts when it has no answer. */
const PLACEHOLDER_TEXTS = new Set(
  ['핵심 개념', '핵심개념', '이 개념', '핵심 내용', '주요 개념', '개념', '정답', '모범 답안', '답', '없음', '해당 없음', '알 수 없음', 'n/a', 'na', 'tbd', 'todo', 'none', 'unknown', 'answer', 'concept', 'key concept'].map(loose),
);
/** Explanations that teach nothing whatever the concept (templates filled with a name). */
const PLACEHOLDER_PATTERNS: readonly RegExp[] = [/간단한 예를 떠올리면 정의가 훨씬 또렷해집니다/u, /정의의 핵심 낱말부터 정리해 봅시다/u, /^(?:lorem ipsum|\.\.\.|…)$/iu];

/** Whether `text` is a placeholder: empty, a stock non-answer, a template, or one of the titles (deck, chapter). */
export function placeholderReason(text: string, titles: readonly string[] = []): string | undefined {
  const key = loose(text);
  if (letterCount(text) === 0 || PLACEHOLDER_TEXTS.has(key)) return `「${clip(text)}」은(는) 답이 아니라 자리표시입니다.`;
  if (PLACEHOLDER_PATTERNS.some((pattern) => pattern.test(oneLine(text)))) return `「${clip(text)}」은(는) 어떤 개념에도 붙는 틀 문장이라 아무것도 가르치지 않습니다.`;
  const title = titles.find((entry) => loose(entry) !== '' && loose(entry) === key);
  if (title !== undefined) return `답이 자료나 장의 제목(「${clip(title)}」)일 뿐입니다.`;
  return undefined;
}

/** The words every question is framed with, left out before comparing an answer with its question. */
const QUESTION_FRAME =
  /자신의 말로|설명해 보세요|설명하시오|설명해 볼까요|무엇인지|왜 중요한지|어떤 역할을 하는지|방금 살펴본 내용에서|다음 (?:설명|내용|문장)[^?？]*[?？]|무엇인가[?？]?|[?？.]/gu;

/** Whether `answer` only restates `question` (the same words, or nearly all of them and little else). */
export function restatesQuestion(question: string, answer: string): boolean {
  const asked = loose(question.replace(QUESTION_FRAME, ' '));
  const said = loose(answer);
  const whole = loose(question);
  if (said === '' || asked === '') return false;
  if (said === whole || said === asked) return true;
  // The answer is the question with a word or two around it, or a part of the question that is most of it.
  if (said.includes(asked) && said.length <= asked.length * 1.3 + 4) return true;
  return whole.includes(said) && said.length >= asked.length * 0.6;
}

/** The passages a question quotes (`「…」`). */
export function quotedPassages(question: string): string[] {
  return Array.from(question.matchAll(/「([^」]{8,})」/gu), (match) => match[1] ?? '');
}

/** Whether `answer` is the passage its question quotes (or most of it), rather than an answer to it. */
export function quotesQuestionPassage(question: string, answer: string): boolean {
  const said = loose(answer);
  if (said.length < 8) return false;
  return quotedPassages(question).some((passage) => {
    const quoted = loose(passage.replace(/_{3,}/gu, ' '));
    return quoted.includes(said) ? said.length >= quoted.length * 0.5 : said.includes(quoted) && said.length <= quoted.length * 1.3 + 4;
  });
}

/**
 * Words that name the medium or the course instead of something it teaches: asked about, they make questions like
 * "lecture에 대해 설명해 보세요".
 */
const MEDIUM =
  /^(?:(?:the|this|our|today'?s)\s+)?(?:lecture|lectures|lecture notes?|slides?|deck|chapter|chapters|section|outline|agenda|introduction|intro|course|class|summary|overview|contents|table of contents|syllabus|handout|material|materials|topic|topics|목차|차례|강의|강의 자료|강의안|슬라이드|이번 장|이 장|장|절|개요|요약|정리|수업|자료|교재|표지|본문|소개|도입)$/iu;

export function isMediumWord(phrase: string): boolean {
  return MEDIUM.test(oneLine(phrase).replace(/[.?!。]+$/u, ''));
}

/**
 * The concept a Korean question asks about: what stands before `에 대해`, `이/가 무엇`, `이/가 어떤`, `은/는 무엇`,
 * `의 정의`… (`방금 살펴본 내용에서` left out). Undefined when the question has no such frame.
 */
export function askedConcept(question: string): string | undefined {
  const text = oneLine(question).replace(/^(?:\[질문\]\s*)?(?:방금 살펴본 내용에서|강의에서 배운)\s*/u, '');
  const found =
    /^(.{1,60}?)\s*(?:에 대해|에 대한|의 (?:정의|의미|개념|역할|예시?)\b|(?:이|가|은|는)\s+(?:무엇|어떤|왜|어떻게|무슨)|(?:을|를)\s+(?:설명|정의|서술))/u.exec(text)?.[1] ??
    /^(.{1,60}?)(?:이\(가\)|은\(는\))\s/u.exec(text)?.[1];
  return found?.replace(/^['"‘“「]|['"’”」]$/gu, '').trim();
}

/**
 * Signs of a cover, contents or administrative page in a passage an item quotes or answers with: a course code, a
 * lecturer's title, a term and year, a lecture number, a school, contents leaders, an agenda list.
 */
const FRONT_MATTER_SIGNS: readonly RegExp[] = [
  /\b[A-Z]{2,5}\s?\d{3,4}[A-Z]?\b.{0,60}\b(?:introduction to|lecture\s+\d)/iu,
  /\b(?:prof\.|professor|dr\.|lecturer|instructor)\s+[A-Z]/u,
  /\b(?:spring|summer|fall|autumn|winter)\s+(?:semester\s+|term\s+)?(?:19|20)\d{2}\b/iu,
  /\blecture\s+\d{1,2}\s*[:：]/iu,
  /\b(?:school|department|faculty|college) of [A-Z]/u,
  /\d{4}\s*년\s*\d\s*학기|\d\s*주차\s*강의|교수\s*(?:연구실|면담)|학과\s+\S+\s+교수/u,
  /\.{4,}\s*\d{1,4}/u,
  /(?:^|\s)(?:outline|agenda|contents|목차|차례)\s*[•·\-*]\s*\S/iu,
  /(?:중간고사|기말고사)\s*\d{1,3}\s*%|출석\s*\d{1,3}\s*%/u,
];

export function frontMatterReason(text: string): string | undefined {
  const sign = FRONT_MATTER_SIGNS.find((pattern) => pattern.test(text));
  if (sign === undefined) return undefined;
  const at = sign.exec(text);
  return `표지·목차·수업 안내의 내용(「${clip(at?.[0] ?? text, 40)}」)은 가르칠 내용이 아닙니다.`;
}

const PARTICLE_AFTER_LATIN = /([A-Za-z][A-Za-z0-9*+#'’-]*|[A-Za-z]\w*\([^()\s]{0,6}\))(['"’”)\]]?)(은|는|이|가|을|를|과|와|으로|로)(?=[\s.,?!)」:;]|$)/gu;
const PAIRS: Readonly<Record<string, [string, string]>> = {
  은: ['은', '는'], 는: ['은', '는'], 이: ['이', '가'], 가: ['이', '가'], 을: ['을', '를'], 를: ['을', '를'], 과: ['과', '와'], 와: ['과', '와'], 으로: ['으로', '로'], 로: ['으로', '로'],
};

/** The particle a Korean reader puts after `word`, of the pair `particle` belongs to. */
export function fittingParticle(word: string, particle: string): string | undefined {
  const pair = PAIRS[particle];
  if (pair === undefined) return undefined;
  const sound = englishFinalSound(word);
  if (pair[0] === '으로') return sound === 'consonant' ? '으로' : '로';
  return sound === 'vowel' ? pair[1] : pair[0];
}

/** Particles that do not fit the English word before them (`heuristic가` for `heuristic이`). */
export function particleMistakes(text: string): { written: string; fitting: string }[] {
  const mistakes: { written: string; fitting: string }[] = [];
  for (const match of text.matchAll(PARTICLE_AFTER_LATIN)) {
    const [written, word = '', closing = '', particle = ''] = match;
    // A unit after a number (`3 m로`, `5 s가`) is read as its name (미터, 초), not letter by letter.
    if (/^[A-Za-z]{1,3}$/u.test(word) && /\d\s*$/u.test(text.slice(0, match.index))) continue;
    // An alias in brackets after a Korean word (`관세지급인도조건(DDP)은`): the particle is the Korean word's.
    if (closing === ')' && /[\uac00-\ud7a3]\($/u.test(text.slice(0, match.index))) continue;
    const fitting = fittingParticle(word, particle);
    if (fitting !== undefined && fitting !== particle) mistakes.push({ written, fitting: `${word}${closing}${fitting}` });
  }
  return mistakes;
}

export function particleRefusals(text: string): Refusal[] {
  return particleMistakes(text).map(({ written, fitting }) => ({ rule: 'particle', reason: `「${written}」의 조사가 영어 낱말의 발음과 맞지 않습니다(「${fitting}」).` }));
}
