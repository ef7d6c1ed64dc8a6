import { englishTerms, isEnglishText, keyTerms, looksLikeNoun, rankedTerms, splitSentences, termsMatch, withParticle } from '../../text/index.js';
import type { OfflineTasks } from '../../llm/index.js';
import { classifyQuestion, controlFromReply, materialTerms, questionConcept, questionFocus, relatedTerms } from './assistant-cues.js';
import { rankUnits, renderUnit, unitsOf, type Unit } from './assistant-sentences.js';
import { isConceptPhrase, materialConcepts } from '../material-concepts.js';
import { pickModelAnswer } from '../model-answer.js';

import { ASSISTANT_TASKS, AnswerInput, ClassifyInput, ControlInput, ExplainInput, FinalInput, SummaryInput, type Classification, type HandSubconcept } from './assistant-schemas.js';

/**
 * The offline raise-hand agents: extractive and deterministic, working only from the structured input (the
 * question, the passages the facade retrieved, earlier explanations). They explain with the material's own
 * sentences, so they never state anything the material does not.
 */

/** `'term'` followed by the particle that fits the term (not the quote mark). */
function quoted(term: string, pair: '을/를' | '이/가' | '은/는' | '과/와'): string {
  return `'${term}'${withParticle(term, pair).slice(term.length)}`;
}

function list(terms: readonly string[]): string {
  return terms.map((term) => `'${term}'`).join(', ');
}

/** The subconcepts offered when the material has too little to split: what it is, then an example. */
function genericSubconcepts(concept: string): HandSubconcept[] {
  return [
    { concept: `${concept}의 정의`, focus: `${withParticle(concept, '이/가')} 정확히 무엇을 가리키는지` },
    { concept: `${concept}의 예시`, focus: `${withParticle(concept, '이/가')} 실제로 쓰이는 간단한 예` },
  ];
}

const PARTICLE_SYLLABLES = '은는이가을를의에도로와과만';

/**
 * A one-syllable noun the stemmer kept with its particle (`합의` next to `합은`, `합입니다`): the particle guard
 * keeps two-syllable words whole, so the same noun shows up under several spellings that are not concepts.
 */
function particleArtifact(term: string, units: readonly Unit[]): boolean {
  const [stem, particle, extra] = Array.from(term);
  if (stem === undefined || particle === undefined || extra !== undefined || !PARTICLE_SYLLABLES.includes(particle)) return false;
  const other = new RegExp(`${stem}(?!${particle})(?:[${PARTICLE_SYLLABLES}]|입니다|이다)`, 'u');
  return units.some((unit) => other.test(unit.text));
}

/** Whether the term stands as a word somewhere (`확률을`, `확률,`), not only inside a verb (`가까워집니다`). */
function usedAsNoun(term: string, text: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`${escaped}(?:[${PARTICLE_SYLLABLES}]|입니|였|에서|으로|[\\s,.)·:]|$)`, 'u').test(text);
}

/**
 * The terms a vague question's concept is built from: noun terms of the sentences that mention the concept
 * (defining sentences first), not the concept itself, ordered by where the material first uses them — a textbook
 * introduces what an idea needs before the idea.
 */
export function offlineSubconcepts(concept: string, passages: readonly string[], limit = 3): HandSubconcept[] {
  const units = unitsOf(passages);
  const about = rankUnits(units, concept).slice(0, 4);
  const isConcept = (term: string): boolean => termsMatch(term, concept) || concept.split(/\s+/u).some((word) => termsMatch(term, word));
  const text = about.map((unit) => unit.text).join(' ');
  // What the material defines or emphasises around the concept comes first; frequent nouns fill in. Either way a
  // sub-concept is a concept (material-concepts.ts): never a number, a variable or a word about the material.
  const defined = materialConcepts(text).map((entry) => entry.concept);
  // English material's frequent terms are its noun phrases (`time quantum`, not `time`; never `robin` of `round robin`).
  const frequent = isEnglishText(text)
    ? englishTerms(about.map((unit) => unit.text)).map((entry) => entry.term)
    : rankedTerms(text, { nounsOnly: true })
        .filter((entry) => !entry.formula && Array.from(entry.term).length >= 2)
        .map((entry) => entry.term)
        .filter((term) => !particleArtifact(term, units) && usedAsNoun(term, text));
  const candidates = [...defined, ...frequent].filter((term) => !isConcept(term) && isConceptPhrase(term));
  const distinct = candidates.filter((term, index) => candidates.findIndex((other) => termsMatch(other, term)) === index);
  const firstUse = (term: string): number => {
    const at = units.findIndex((unit) => rankUnits([unit], term).length > 0);
    return at === -1 ? Number.MAX_SAFE_INTEGER : at;
  };
  const chosen = distinct
    .slice(0, limit)
    .map((term, rank) => ({ term, rank, at: firstUse(term) }))
    .sort((left, right) => left.at - right.at || left.rank - right.rank)
    .map(({ term }) => ({ concept: term, focus: `${withParticle(term, '이/가')} ${concept}에서 어떤 역할을 하는지` }));
  return [...chosen, ...genericSubconcepts(concept).slice(chosen.length)].slice(0, Math.max(2, chosen.length));
}

export function offlineClassify(input: ClassifyInput): Classification {
  const kind = classifyQuestion(input.question, input.passages);
  const concept = questionConcept(input.question, input.passages);
  return { kind, concept, subconcepts: kind === 'vague' ? offlineSubconcepts(concept, input.passages) : [] };
}

/** Whether a unit was already shown in one of the texts (so a re-explanation reaches for other sentences). */
function shownIn(unit: Unit, texts: readonly string[]): boolean {
  return texts.some((text) => text.includes(unit.text));
}

function body(units: readonly Unit[]): string {
  return units.map(renderUnit).join('\n\n');
}

/** What the student said they did not get, as its key terms: the reply itself is never echoed back. */
function confusionTerms(confusion: string): string[] {
  return keyTerms(questionFocus(confusion), 2);
}

const NOT_FOUND = '자료에서 이 내용을 직접 다루는 문장을 찾지 못했어요. 궁금한 부분을 조금 더 구체적으로 적어 주시면 다시 찾아볼게요.';

export function offlineAnswer(input: AnswerInput): string {
  const all = unitsOf(input.passages);
  const best = rankUnits(all, `${questionFocus(input.question)} ${input.concept}`).slice(0, 3);
  if (best.length === 0) return `**${input.concept}**에 대한 질문이군요.\n\n${NOT_FOUND}\n`;
  // Document order reads as an explanation; rank order would jump around.
  const ordered = all.filter((unit) => best.includes(unit));
  // A difference is told from what each side is: the material's definition of each term first, then the sentences
  // that relate them.
  const pair = relatedTerms(input.question, input.passages);
  const definitions = pair === undefined ? [] : definitionUnits(pair, all);
  const shown = definitions.length === 0 ? ordered : [...definitions, ...ordered.filter((unit) => !definitions.includes(unit))].slice(0, definitions.length + 2);
  const terms = materialTerms(input.question, input.passages).filter(looksLikeNoun).slice(0, 3);
  const key =
    terms.length > 1
      ? `\n\n핵심은 ${quoted(terms.join("', '"), '이/가')} 어떻게 연결되는지입니다.`
      : terms.length === 1
        ? `\n\n이 문장들에서 ${quoted(terms[0] ?? '', '이/가')} 어떻게 쓰이는지에 주목해 보세요.`
        : '';
  return `**질문하신 내용: ${input.concept}**\n\n자료에서 관련된 부분을 함께 짚어 볼게요.\n\n${body(shown)}${key}\n`;
}

/** For each term, the unit the material defines it in (model-answer.ts picks it), once each, in the terms' order. */
function definitionUnits(terms: readonly string[], units: readonly Unit[]): Unit[] {
  const text = units.map(renderUnit).join('\n\n');
  const found: Unit[] = [];
  for (const term of terms) {
    const definition = pickModelAnswer(term, text).split(/(?<=[.!?。])\s+/u)[0] ?? '';
    const unit = definition === '' ? undefined : units.find((candidate) => candidate.text.includes(definition) || definition.includes(candidate.text));
    if (unit !== undefined && !found.includes(unit)) found.push(unit);
  }
  return found;
}

/**
 * One explanation of `target`: the sentences that best explain it; on a re-explanation, sentences not shown
 * before, chosen with what the student found confusing, and a plainer restatement when the material has no more.
 */
function explainTarget(target: string, passages: readonly string[], previous: readonly string[], confusion: string): string {
  const units = unitsOf(passages);
  if (previous.length === 0) {
    const best = rankUnits(units, target).slice(0, 2);
    const ordered = units.filter((unit) => best.includes(unit));
    // The material's own definition of the target first: retrieval by terms alone lets a compound's head win
    // (`평균` sentences for `표본평균`), and a definition is what a first explanation owes the student.
    // From the passages' sentences, not their raw text: a passage keeps the headings of the sections it spans.
    const definition = pickModelAnswer(target, units.map(renderUnit).join('\n\n'));
    const defines = definition.includes(target);
    if (defines && !ordered.some((unit) => unit.text.includes(definition))) {
      return [definition, ...ordered.slice(0, 1).map(renderUnit)].join('\n\n');
    }
    return ordered.length > 0 ? body(ordered) : `${withParticle(target, '은/는')} 자료에서 따로 설명하지 않는 개념이에요.`;
  }
  const terms = confusionTerms(confusion);
  const fresh = rankUnits(units, [target, ...terms].join(' ')).filter((unit) => !shownIn(unit, previous));
  const opening =
    terms.length > 0
      ? `${list(terms)} 부분이 헷갈리셨군요. 다른 문장으로 다시 설명해 볼게요.`
      : '조금 더 천천히, 다른 방향에서 다시 설명해 볼게요.';
  const example = fresh.find((unit) => /^예[:\s를]/u.test(unit.text));
  const picked = [...new Set([fresh[0], example].filter((unit): unit is Unit => unit !== undefined))];
  if (picked.length > 0) return `${opening}\n\n${body(picked)}`;
  const core = rankUnits(units, target)[0];
  const restated = core === undefined ? `${withParticle(target, '은/는')} 앞에서 본 설명의 핵심 낱말부터 차근차근 떠올려 보세요.` : renderUnit(core);
  return `${opening}\n\n한 문장으로 줄이면 이렇습니다.\n\n${restated}`;
}

export function offlineExplain(input: ExplainInput): string {
  const { subconcept, concept, index, total, previous } = input;
  const heading = `**${index + 1}/${total}. ${subconcept.concept}**`;
  const text = explainTarget(subconcept.concept, input.passages, previous, input.confusion);
  const bridge = previous.length === 0 ? `\n\n이 내용은 ${quoted(concept, '을/를')} 이해하는 바탕이 됩니다.` : '';
  return `${heading}\n\n${text}${bridge}\n`;
}

export function offlineFinal(input: FinalInput): string {
  const { concept, parts, previous } = input;
  const text = explainTarget(concept, input.passages, previous, input.confusion);
  const names = parts.map((part) => part.concept);
  const recap =
    previous.length === 0 && names.length > 0
      ? `지금까지 살펴본 ${withParticle(list(names), '을/를')} 바탕으로 ${quoted(concept, '을/를')} 정리해 볼게요.\n\n`
      : '';
  return `**${concept}**\n\n${recap}${text}\n`;
}

// Our own connective sentences: a summary keeps what was explained, not how the dialogue went.
const DIALOGUE_SENTENCE = /볼게요|바탕이 됩니다|헷갈리셨군요|이렇습니다|떠올려 보세요|찾아볼게요|질문하신 내용/u;

/** The sentence of an explanation that best states its concept (the first statement when none mentions it). */
function keySentence(concept: string, explanation: string): string {
  const sentences = splitSentences(explanation.replace(/^\*\*.*\*\*$/gmu, ' ')).filter(
    (sentence) => !DIALOGUE_SENTENCE.test(sentence),
  );
  const units = sentences.map((text) => ({ passage: 0, text, formulas: [] }));
  return rankUnits(units, concept)[0]?.text ?? sentences[0] ?? explanation.trim().slice(0, 200);
}

export function offlineSummary(input: SummaryInput): string {
  const sections = input.parts.map((part, index) => `## ${index + 1}. ${part.concept}\n\n- ${keySentence(part.concept, part.explanation)}`);
  const names = input.parts.map((part) => part.concept);
  const closing = `${withParticle(list(names.slice(0, -1)), '을/를')} 차례로 이해하면 ${quoted(input.concept, '이/가')} 자연스럽게 이어집니다.`;
  return `# ${input.concept} 정리\n\n${sections.join('\n\n')}\n\n${names.length > 1 ? closing : ''}\n`.replace(/\n\n\n$/u, '\n');
}

export const handOfflineTasks: OfflineTasks = {
  [ASSISTANT_TASKS.classify]: { object: (input) => offlineClassify(ClassifyInput.parse(input)) },
  [ASSISTANT_TASKS.answer]: { text: (input) => offlineAnswer(AnswerInput.parse(input)) },
  [ASSISTANT_TASKS.explain]: { text: (input) => offlineExplain(ExplainInput.parse(input)) },
  [ASSISTANT_TASKS.control]: { object: (input) => controlFromReply(ControlInput.parse(input).reply) },
  [ASSISTANT_TASKS.final]: { text: (input) => offlineFinal(FinalInput.parse(input)) },
  [ASSISTANT_TASKS.summary]: { text: (input) => offlineSummary(SummaryInput.parse(input)) },
};
