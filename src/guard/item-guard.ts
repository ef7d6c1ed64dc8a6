import { isNounAt, tagEnglish } from '../text/index.js';
import { clozeInSource, blankedSentence, clozeRefusals } from './cloze-checks.js';
import type { Refusal } from './guard-rules.js';
import {
  askedConcept,
  clip,
  frontMatterReason,
  isMediumWord,
  loose,
  oneLine,
  particleRefusals,
  placeholderReason,
  quotesQuestionPassage,
  restatesQuestion,
} from './text-checks.js';

/**
 * The item guard: one deterministic check of every generated item before it is stored or shown, whatever model wrote
 * it (Gemini, an OpenAI-compatible server, the offline model). Each function returns the item's refusals (empty:
 * it may be shown); the generator then has the item rewritten (a model, within its regeneration rounds) or drops it
 * (the offline model, which would write it the same way again). Pure: no store, no model, no clock.
 */

/** What an item is checked against: the passages it was written from and the titles it must not answer with. */
export interface GuardContext {
  /** The material's text the item rests on (its passages, or the chapter's lecture). */
  passages: readonly string[];
  /** The material's and chapter's titles: never an answer. */
  titles?: readonly string[] | undefined;
}

const sourceOf = (context: GuardContext) => context.passages.join('\n\n');

function conceptRefusals(question: string): Refusal[] {
  const concept = askedConcept(question);
  if (concept === undefined) return [];
  if (isMediumWord(concept)) return [{ rule: 'medium-question', reason: `질문이 내용이 아니라 '${concept}' 자체를 묻습니다.` }];
  const placeholder = placeholderReason(concept);
  return placeholder === undefined ? [] : [{ rule: 'placeholder', reason: `질문이 묻는 개념이 자리표시('${concept}')입니다.` }];
}

function frontMatter(texts: readonly string[]): Refusal[] {
  for (const text of texts) {
    const reason = frontMatterReason(text);
    if (reason !== undefined) return [{ rule: 'front-matter', reason }];
  }
  return [];
}

function particles(texts: readonly string[]): Refusal[] {
  return texts.flatMap(particleRefusals);
}

/** A model answer (of a lecture question, an exam item, a sub-concept's explanation). */
export function checkAnswer(question: string, answer: string, context: GuardContext): Refusal[] {
  const refusals: Refusal[] = [];
  const placeholder = placeholderReason(answer, context.titles);
  if (placeholder !== undefined) refusals.push({ rule: 'placeholder', reason: placeholder });
  else if (quotesQuestionPassage(question, answer)) refusals.push({ rule: 'quoted-passage', reason: '모범 답안이 질문에 인용한 지문을 그대로 옮긴 것입니다.' });
  else if (restatesQuestion(question, answer)) refusals.push({ rule: 'restated-question', reason: `모범 답안이 질문(「${clip(question)}」)을 되풀이할 뿐입니다.` });
  return [...refusals, ...frontMatter([answer]), ...particles([answer])];
}

/** A lecture's `[질문]`: asks about a concept of the content, in Korean whose particles fit. */
export function checkLectureQuestion(question: string): Refusal[] {
  return [...conceptRefusals(question), ...frontMatter([question]), ...particles([question])];
}

export interface Subconcept {
  concept: string;
  question: string;
  explanation: string;
}

/** Sub-concepts of a tutored question, each one its own concept, explained with content. */
export function checkSubconcepts(parts: readonly Subconcept[], context: GuardContext): Refusal[][] {
  const seen = new Set<string>();
  return parts.map((part) => {
    const refusals: Refusal[] = [];
    if (isMediumWord(part.concept)) refusals.push({ rule: 'medium-question', reason: `하위 개념 '${part.concept}'은(는) 내용이 아니라 강의 자체입니다.` });
    if (!/의 (?:정의|예시|핵심 성질|뜻)$/u.test(part.concept) && !usedAsConcept(part.concept, sourceOf(context))) {
      refusals.push({ rule: 'cloze-not-in-source', reason: `하위 개념 '${part.concept}'은(는) 강의가 개념으로 설명하는 말이 아닙니다.` });
    }
    const placeholder = placeholderReason(part.concept) ?? placeholderReason(part.explanation, context.titles);
    if (placeholder !== undefined) refusals.push({ rule: 'placeholder', reason: placeholder });
    else if (restatesQuestion(part.question, part.explanation)) refusals.push({ rule: 'restated-question', reason: `하위 개념 '${part.concept}'의 설명이 질문을 되풀이합니다.` });
    const key = singular(part.concept);
    if (seen.has(key)) refusals.push({ rule: 'duplicate', reason: `하위 개념 '${part.concept}'이(가) 두 번 나옵니다.` });
    seen.add(key);
    return [...refusals, ...frontMatter([part.explanation]), ...particles([part.question, part.explanation])];
  });
}

/** `heuristics` and `heuristic`, `Outliers` and `outlier` are one choice. */
const singular = (text: string) => loose(text).replace(/(?<=[a-z]{3})(?:es|s)$/u, '');

/**
 * Whether an English phrase stands in the prose as a noun phrase of its own somewhere (`the frontier`, `a child`),
 * not only as a modifier of another noun (`start` of `start state`) or inside a longer word. Korean: always.
 */
export function usedAsConcept(phrase: string, prose: string): boolean {
  if (!/^[A-Za-z][A-Za-z* -]*$/u.test(phrase.trim())) return true;
  const words = phrase.trim().toLowerCase().split(/\s+/u);
  const pattern = new RegExp(`(?<![A-Za-z])${words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('\\s+')}(?:s|es)?(?![A-Za-z])`, 'iu');
  for (const sentence of prose.split(/(?<=[.!?])\s+|\n/u)) {
    if (!pattern.test(sentence)) continue;
    const tokens = tagEnglish(sentence);
    for (let index = 0; index + words.length <= tokens.length; index += 1) {
      const span = tokens.slice(index, index + words.length);
      if (!span.every((token, offset) => token.lemma === words[offset] || token.text.toLowerCase() === words[offset])) continue;
      const next = tokens[index + words.length];
      if (isNounAt(tokens, index + words.length - 1) && !(next !== undefined && (next.tag === 'NOUN' || next.tag === 'PROPN'))) return true;
    }
  }
  return false;
}

/** Lines of the material that are code or formulas: a concept met only there is an identifier, not a concept. */
const CODE_LINE = /^(?:def|for|while|if|return|class|import|function|var|let|const)\b|^[\w.[\]]+\s*(?:=|←|:=)\s*\S|[;{}]$|^\S+\(.*\)\s*:?$/u;

/**
 * The raised hand's "which part?" choices: concepts of the chapter's prose (never only of its code), not the medium,
 * not a placeholder, each once. Returns a refusal list per choice.
 */
export function checkChoices(choices: readonly string[], context: GuardContext): Refusal[][] {
  const prose = sourceOf(context)
    .split(/\n|(?<=[.!?。？！])\s+/u)
    .filter((line) => !CODE_LINE.test(line.trim()))
    .join('\n')
    .toLowerCase();
  const seen = new Set<string>();
  return choices.map((choice) => {
    const refusals: Refusal[] = [];
    if (isMediumWord(choice)) refusals.push({ rule: 'medium-question', reason: `'${choice}'은(는) 내용이 아니라 강의 자체를 가리킵니다.` });
    const placeholder = placeholderReason(choice, context.titles);
    if (placeholder !== undefined) refusals.push({ rule: 'placeholder', reason: placeholder });
    if (!prose.includes(choice.toLowerCase()) || !usedAsConcept(choice, prose)) refusals.push({ rule: 'cloze-not-in-source', reason: `'${choice}'은(는) 이 장의 본문이 개념으로 설명하는 말이 아닙니다.` });
    const key = singular(choice);
    if (seen.has(key)) refusals.push({ rule: 'duplicate', reason: `'${choice}'이(가) 선택지에 두 번 나옵니다.` });
    seen.add(key);
    return refusals;
  });
}

export interface ChoiceItem {
  question: string;
  choices: readonly string[];
  /** The keyed choice's index. */
  answer: number;
  explanation?: string | undefined;
}

/** Four different choices, the key one of them, none a placeholder. */
function choiceRefusals(item: ChoiceItem): Refusal[] {
  const keys = item.choices.map((choice) => loose(choice));
  if (item.choices.length !== 4) return [{ rule: 'choices', reason: `보기가 ${item.choices.length}개입니다. 정확히 4개여야 합니다.` }];
  if (keys.some((key) => key === '')) return [{ rule: 'choices', reason: '빈 보기가 있습니다.' }];
  if (new Set(keys).size !== keys.length) return [{ rule: 'choices', reason: '같은 보기가 두 번 나옵니다.' }];
  if (!Number.isInteger(item.answer) || item.answer < 0 || item.answer >= item.choices.length) return [{ rule: 'choices', reason: '정답 번호가 보기 가운데 하나를 가리키지 않습니다.' }];
  const placeholder = item.choices.map((choice) => placeholderReason(choice)).find((reason) => reason !== undefined);
  return placeholder === undefined ? [] : [{ rule: 'placeholder', reason: placeholder }];
}

/** A four-choice quiz item against the passages it was written from. */
export function checkQuizItem(item: ChoiceItem, context: GuardContext): Refusal[] {
  const refusals = choiceRefusals(item);
  const key = item.choices[item.answer] ?? '';
  if (key !== '' && isMediumWord(key)) refusals.push({ rule: 'medium-question', reason: `정답 '${key}'은(는) 내용이 아니라 강의 자체를 가리킵니다.` });
  refusals.push(...conceptRefusals(item.question));
  refusals.push(...frontMatter([item.question, ...item.choices]));
  if (key !== '') {
    const distractors = item.choices.filter((_, index) => index !== item.answer);
    refusals.push(...clozeRefusals({ question: item.question, key, distractors }, sourceOf(context)));
  }
  refusals.push(...particles([item.question, item.explanation ?? '']));
  return refusals;
}

export interface ExamItem {
  type: 'Short_Keyword' | 'Descriptive';
  question: string;
  modelAnswer: string;
  keywords: readonly string[];
}

/** A short-answer or descriptive exam item. */
export function checkExamItem(item: ExamItem, context: GuardContext): Refusal[] {
  const refusals: Refusal[] = [...conceptRefusals(item.question), ...checkAnswer(item.question, item.modelAnswer, context)];
  const placeholderKeyword = item.keywords.map((keyword) => placeholderReason(keyword)).find((reason) => reason !== undefined);
  if (placeholderKeyword !== undefined) refusals.push({ rule: 'placeholder', reason: `핵심 키워드: ${placeholderKeyword}` });
  if (item.type === 'Short_Keyword' && isMediumWord(item.modelAnswer)) refusals.push({ rule: 'medium-question', reason: `정답 '${item.modelAnswer}'은(는) 내용이 아니라 강의 자체를 가리킵니다.` });
  refusals.push(...frontMatter([item.question]));
  if (item.type === 'Short_Keyword') {
    // A term asked for with its sentence blanked: the blank's rules, the term's own spelling as the key.
    const key = item.keywords[0]?.split('/')[0]?.trim() ?? item.modelAnswer;
    const blanked = blankedSentence(item.question);
    const source = sourceOf(context);
    const cloze = clozeRefusals({ question: item.question, key }, source);
    // A short answer may give the term with its alias (`평균 (산술평균)`): the sentence needs only one of them.
    const inSource = blanked === undefined || item.keywords.some((keyword) => keyword.split('/').some((form) => clozeInSource(blanked, form.trim(), source)));
    refusals.push(...cloze.filter((refusal) => refusal.rule !== 'cloze-not-in-source' || !inSource));
  }
  return dedupe(refusals);
}

/** A math problem (seed 002): a question and explanation with content; four different choices, keyed by letter. */
export function checkMathProblem(problem: { question: string; explanation: string; choices: readonly string[] }): Refusal[] {
  const refusals: Refusal[] = [];
  const placeholder = placeholderReason(problem.question) ?? placeholderReason(problem.explanation);
  if (placeholder !== undefined) refusals.push({ rule: 'placeholder', reason: placeholder });
  else if (restatesQuestion(problem.question, problem.explanation)) refusals.push({ rule: 'restated-question', reason: '풀이가 문제를 되풀이할 뿐입니다.' });
  refusals.push(...frontMatter([problem.question]), ...particles([problem.question]));
  return refusals;
}

/**
 * The refusals for repeats within one set (a quiz, an exam, a math set): an item whose question — or, for cloze
 * items, whose sentence with the key put back — is one an earlier item already has. `earlier`: questions of items
 * kept before this set (another round's).
 */
export function duplicateRefusals(items: readonly { question: string; key?: string | undefined }[], earlier: readonly string[] = []): Refusal[][] {
  const seen = new Set(earlier.map(questionKey));
  // Cloze sentences seen so far, as word sets without their blanks: another blank of one sentence is the same item.
  const sentences: Set<string>[] = earlier.flatMap((question) => {
    const blanked = blankedSentence(question);
    return blanked === undefined ? [] : [sentenceWords(blanked)];
  });
  return items.map((item) => {
    const refusals: Refusal[] = [];
    const key = questionKey(item.question);
    if (seen.has(key)) refusals.push({ rule: 'duplicate', reason: '이미 낸 문항과 같은 질문입니다.' });
    seen.add(key);
    const blanked = blankedSentence(item.question);
    if (blanked !== undefined) {
      const words = sentenceWords(blanked);
      if (refusals.length === 0 && sentences.some((other) => overlap(words, other) >= 0.7)) refusals.push({ rule: 'duplicate', reason: '같은 문장으로 이미 문항을 냈습니다.' });
      sentences.push(words);
    }
    return refusals;
  });
}

/** The words of a blanked sentence without its blanks. */
function sentenceWords(blanked: string): Set<string> {
  return new Set((blanked.replace(/_{3,}/gu, ' ').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => word.length > 1));
}

/** Shared words over the smaller set's size. */
function overlap(left: ReadonlySet<string>, right: ReadonlySet<string>): number {
  const small = left.size <= right.size ? left : right;
  const large = small === left ? right : left;
  if (small.size === 0) return 0;
  return [...small].filter((word) => large.has(word)).length / small.size;
}

/** Two questions are the same when they differ only in spacing, punctuation or letter case. */
export const questionKey = (question: string) => loose(oneLine(question));

function dedupe(refusals: readonly Refusal[]): Refusal[] {
  const seen = new Set<string>();
  return refusals.filter((refusal) => {
    const key = `${refusal.rule}\u0000${refusal.reason}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
