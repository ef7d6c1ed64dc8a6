import { withParticle } from '../../text/index.js';
import { materialConcepts } from '../material-concepts.js';
import { announcedBlock, answerSentences, pickModelAnswer } from '../model-answer.js';
import { questionConcept } from './offline-lecture.js';

/**
 * The offline split of a misunderstood concept into 2–3 sub-concepts for the tutor's remediation. A sub-concept is a
 * concept the lecture itself defines or emphasises (material-concepts.ts), never a number, a variable or a word of
 * the cover page; it is explained with the lecture's own definition sentences (model-answer.ts), so never with a
 * worked example, a title page or our connective sentences. Every question asks what its explanation answers.
 */

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

/** Most sub-concepts of one question. */
const MAX_SUBCONCEPTS = 3;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** The names a concept goes by in the passage: itself and what brackets pair it with (`평균(산술평균)`). */
export function mainNames(main: string, passage: string): Set<string> {
  const names = new Set([main]);
  const escaped = escapeRegExp(main);
  for (const match of passage.matchAll(new RegExp(`${escaped}\\s*\\(([^()]{1,20})\\)|([^\\s()]{1,20})\\s*\\(${escaped}\\)`, 'gu'))) {
    const alias = (match[1] ?? match[2])?.trim();
    if (alias !== undefined) names.add(alias);
  }
  return names;
}

/** Whether `sentence` names `phrase` (any spacing between its words). */
function names(sentence: string, phrase: string): boolean {
  return new RegExp(phrase.split(/\s+/u).map(escapeRegExp).join('\\s*'), 'iu').test(sentence);
}

/**
 * The sub-concepts of the concept `question` asks about: concepts the passage defines or emphasises, those the
 * passage relates to the main concept (named in one sentence with it) first, then the most emphasised; at most
 * three, in the order the passage introduces them (a textbook defines before it uses). Each is explained by its own
 * definition sentences. A passage with too little to split gives a definition-then-example dialogue instead.
 */
export function offlineSubconcepts({ question, passage }: OfflineSubconceptInput): Subconcept[] {
  const main = questionConcept(question);
  const sentences = answerSentences(passage);
  const excluded = mainNames(main, passage);
  // The block the lecture announced the concept with teaches its parts: concepts named there come first.
  const block = announcedBlock(main, passage) ?? '';
  const mainFound = passage.search(new RegExp(main.split(/\s+/u).map(escapeRegExp).join('\\s*'), 'iu'));
  const mainAt = mainFound === -1 ? Number.POSITIVE_INFINITY : mainFound;
  const ranked = materialConcepts(passage)
    .filter((entry) => !excluded.has(entry.concept))
    .map((entry) => ({
      ...entry,
      related: sentences.filter((sentence) => names(sentence, entry.concept) && [...excluded].some((name) => names(sentence, name))).length,
      inBlock: names(block, entry.concept),
      explanation: pickModelAnswer(entry.concept, passage),
    }))
    // A concept with no sentence of its own to explain it cannot be taught from this passage (a sentence about
    // something else, picked for sharing a word, would teach the wrong thing); nor is a concept the material only
    // teaches later (Newton's laws are no part of uniform acceleration) unless a sentence relates the two or the
    // block that taught this one names it. What came before may be what this one builds on.
    .filter((entry) => entry.explanation.length > 0 && names(entry.explanation, entry.concept) && (entry.related > 0 || entry.inBlock || entry.at < mainAt))
    .sort((left, right) => Number(right.related > 0) - Number(left.related > 0) || Number(right.inBlock) - Number(left.inBlock) || right.weight - left.weight || left.at - right.at);

  // `평균(산술평균)` is one concept under two names: the student is asked about it once.
  const distinct: typeof ranked = [];
  for (const entry of ranked) {
    if (!distinct.some((kept) => mainNames(kept.concept, passage).has(entry.concept) || mainNames(entry.concept, passage).has(kept.concept))) distinct.push(entry);
  }
  const found = distinct
    .slice(0, MAX_SUBCONCEPTS)
    .sort((left, right) => left.at - right.at)
    .map((entry, index) => ({
      concept: entry.concept,
      question: (SUBCONCEPT_QUESTIONS[index] ?? SUBCONCEPT_QUESTIONS[0])?.(entry.concept) ?? entry.concept,
      explanation: entry.explanation,
    }));
  // A passage with too little to split still gives an ordered dialogue: what it is, then what else the lecture says
  // of it — each explained with the lecture's own sentences, never with a template that fits any concept.
  const definition = pickModelAnswer(question, passage);
  const said = new Set(definition.split(/(?<=[.!?。])\s+/u));
  const more = [...new Set([...(block === '' ? [] : answerSentences(block)), ...sentences])].find(
    (sentence) => !said.has(sentence) && [...excluded].some((name) => names(sentence, name)),
  );
  const generic: Subconcept[] = [
    {
      concept: `${main}의 정의`,
      question: `${withParticle(main, '이/가')} 무엇을 가리키는지 한 문장으로 말해 볼까요?`,
      explanation: definition || `먼저 ${withParticle(main, '이/가')} 정확히 무엇을 가리키는지, 정의의 핵심 낱말부터 정리해 봅시다.`,
    },
    ...(more === undefined
      ? []
      : [{ concept: `${main}의 핵심 성질`, question: `강의에서 ${withParticle(main, '은/는')} 어떤 성질이 있다고 했나요?`, explanation: more }]),
  ];
  const parts = [...found, ...generic.slice(found.length)].slice(0, MAX_SUBCONCEPTS);
  if (parts.length >= 2) return parts;
  // Two at least (the tutor's schema). Each question asks what its explanation answers: the example the block gives
  // (`Example: two threads increment the same counter …`), else what the concept is, in the student's own words.
  const example = exampleOf(block);
  const second: Subconcept =
    example === undefined
      ? { concept: `${main}의 뜻`, question: `${withParticle(main, '이/가')} 무엇인지 자신의 말로 풀어서 말해 볼까요?`, explanation: definition || (parts[0]?.explanation ?? '') }
      : { concept: `${main}의 예시`, question: `강의에서는 ${main}의 예로 무엇을 들었나요?`, explanation: example };
  return [...parts, second];
}

/** A sentence that opens as an example (`Example: …`, `예를 들어 …`). */
const EXAMPLE_OPENER = /^(?:(?:example|for example|for instance|e\.g\.|예|예시|보기|사례)\s*[:：,)]|예를 들(?:어|면)\s*,?|예컨대\s*,?)\s*/iu;

/** The example a block gives, without its label: the first sentence of it that opens as one. */
function exampleOf(block: string): string | undefined {
  const sentence = block
    .split(/\n\s*\n|(?<=[.!?。])\s+/u)
    .map((line) => line.replace(/\s+/gu, ' ').trim())
    .find((line) => EXAMPLE_OPENER.test(line) && /[.!?。]$/u.test(line));
  const bare = sentence?.replace(EXAMPLE_OPENER, '').trim();
  return bare === undefined || bare.length < 10 ? undefined : bare.charAt(0).toUpperCase() + bare.slice(1);
}
