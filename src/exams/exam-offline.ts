import { isAnswerSentence } from '../lecture/index.js';
import type { OfflineTasks } from '../llm/index.js';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { englishTerms, isEnglishProse, sourceSentences, termPattern } from '../quiz/index.js';
import { canBeNoun, isNounAt, keyTerms, nounPhrases, quotedWithParticle, tagEnglish, termsMatch, withParticle } from '../text/index.js';
import { EXAM_TASKS, ExamPlannerInput, ExamValidatorInput, ExamWriterInput, type ExamPassage } from './exam-agents.js';
import { containsKeyword, examItemRefusals, keywordForms, looseText } from './exam-checks.js';
import { aboutQuestion, itemFaults } from './exam-item-faults.js';
import { NOUN_PARTICLES, isCoordinated, isObjectMarked, usedAsNoun } from './keyword-forms.js';
import { seededShuffle } from './exam-seed.js';
import type { ComplexityLevel, ExamPlan, ExamProblem, ExamValidation, IntentType, PlannedItem, QuestionType } from './exam-types.js';

/**
 * The offline Planner, Writer and Validator: deterministic, extractive, and never stating anything the
 * material does not.
 *
 * Topics are the material's definition sentences, read from the retrieved passages after the quiz's cleaning
 * (`sourceSentences`: running headers, page numbers and formula lines out, wrapped lines joined) and the lecture's
 * model-answer filter (`isAnswerSentence`: no title page, table of contents, worked example or formula): `X(Y)은/는
 * …이다`, `X란 …`, `…을(를) X라고 한다`, `X: …` and `…다(X).`; in English `X is/are/refers to/means …` and, as a
 * property, `X runs …` (a subject and its verb in the present). A sentence labelled `Definition:`/`정의:` is a
 * definition of its subject, quoted without the label. A comparative with nothing to compare with (`Indirect costs
 * are larger: …`, `…은 더 크다`) is no topic sentence. A term is a noun phrase of at most three words, never two terms
 * joined by 와/과 (`금리와 물가`) nor a clause (`토지를 경작하`), nor a word with an adverbial particle (`중기에는 …`: 중기
 * + 에 + 는 says when, so the sentence defines nothing); a parenthesised alias right after it (`평균(산술평균)`)
 * becomes an accepted synonym (`평균/산술평균`); an English term and its plural are one topic (`thread`, `threads`).
 *
 * - Planner: every chapter asked for gets an item before any gets a second (chapters from the passages' `n장`;
 *   topics spread over the chapters and their passages), the profile's weak topics first; Descriptive items take the
 *   topics whose answer has two keywords to grade by and the most sentences, or a comparison of two related terms
 *   (sharing a word part, like 모평균 and 표본평균) the material contrasts — both in one chapter, or named in one of
 *   its sentences; terms named together first, then two kinds of one thing (`체세포 분열`, `감수 분열`) — when the
 *   target depth is beyond recall (a membrane in 1장 is never compared with a division in 2장); a topic whose item the
 *   guard would refuse leaves its slot to another; no two items ask the same term, whatever their types (one answer,
 *   one item: a Short_Keyword answer a Descriptive item names is given away); a term the material only says something
 *   of is a Descriptive topic only after the defined ones and with two keywords to grade by; each item's hint quotes the sentences it is written from (`[n] 「…」`).
 * - Writer: Short_Keyword "다음 설명에 해당하는 용어는 무엇인가? 「description」" (a property: "다음 문장의 빈칸에
 *   들어갈 용어는", 공통으로 only when the term fills two blanks) with the term as model answer; Descriptive "X이(가)
 *   무엇인지 설명하시오" only when the material defines X (a copula, naming or labelled sentence), answered with X's
 *   definitions proper; "자료의 내용을 바탕으로 X에 대하여 설명하시오" when it only says something of X, from sentences
 *   that open with X (`중기에는 …`) (a second one only when it adds
 *   something: not when most of its content words were said by the first), or "A과(와) B의 차이를 설명하시오", with
 *   2–4 key keywords drawn from the answer: nouns the material writes before a particle a verb stem does not take
 *   (keyword-forms.ts), so never `나타내`; a compound written as one (`이중 나선`, `유전 물질`) whole, none of its words
 *   alone, never an adjectival -적 form (`유전적`). An item the validator complained about is written from the
 *   term's next sentence; the others are kept as they were.
 * - Validator: checks against the passages — the model answer's content is in the source, every keyword is in the
 *   model answer, a Short_Keyword question does not contain its answer, a Descriptive item has at least two keywords,
 *   the question asks something — and what a teacher would not publish (exam-item-faults.ts): one fact asked twice,
 *   공통으로 with one blank, a keyword or an asked term glued with its particle or a verb stem, a definition item not
 *   answered with the material's definition or on a term the material does not define.
 */

export interface Definition {
  term: string;
  alias?: string | undefined;
  /** The whole sentence, as in the source. */
  sentence: string;
  /** What the sentence says of the term, without the term (a Short_Keyword question shows this). */
  description: string;
  /** `definition`: it says what the term is (copula, naming, label); `property`: something of it. */
  kind: 'definition' | 'property' | 'parenthetical';
  /** The passage it was found in (1-based number). */
  passage: number;
  /** English: asked as its sentence with the term blanked, answered with English keywords. */
  english?: boolean | undefined;
}

const TERM = String.raw`[가-힣A-Za-z][가-힣A-Za-z0-9]*(?: [가-힣A-Za-z0-9]+){0,2}?`;
/** A variable symbol written after a term (`모평균 μ`, `표본평균 x̄`, `확률변수 X`). */
const SYMBOL = String.raw`(?:\s+[A-Za-zμσλθπ][\u0300-\u036f\u2080-\u209c]*)?`;
const COPULA = /(?:입니다|이다|이에요|예요|이었다|였다)[.!。]?$/u;
/** The head of a topic sentence: its first words up to the topic particle (`평균(산술평균)은`, `확률변수 X는`). */
const TOPIC_HEAD = new RegExp(String.raw`^(?<term>.+?)${SYMBOL}(?:\s*\((?<alias>[^()]{1,30})\))?(?:은|는|이란|란)$`, 'u');
const NAMING = new RegExp(String.raw`^(?<desc>.+?)(?:을|를)\s+(?<term>${TERM})${SYMBOL}\s*(?:이)?라고\s*(?:합니다|한다|부릅니다|부른다|정의합니다|정의한다)[.!]?$`, 'u');
const LABEL = new RegExp(String.raw`^(?<term>${TERM})\s*[:：]\s*(?<rest>.+)$`, 'u');
const TRAILING_NAME = /^(?<rest>.+[다요])\s*\((?<term>[^()]{2,20})\)[.!]?$/u;
/** Words that head a sentence or label without being a concept. */
const NOT_TERMS = new Set(['요약', '정의', '정리', '핵심', '참고', '주의', '예', '예시', '예제', '보기', '결론', '목표', '문제', '답', '풀이', '이것', '이는', '다음', '결과', '사실', '대부분', '우리', '여러분', '모두', '관심', '하나', '가지', '경우', '정도', '아주', '항상', '서로', '각각', '자료', '내용', '부분', '이유', '방법', '의미', '전체']);
const PREDICATE = /[다요]$|[다요][.!。]$/u;

/**
 * A named term without the copula's 이 that `이라고` leaves on it: after a final consonant the copula is written
 * (`표본평균이라고` names 표본평균), after a vowel it is not (`나이라고` names 나이).
 */
export function withoutCopula(term: string): string {
  const syllables = Array.from(term);
  const before = syllables.at(-2);
  if (syllables.at(-1) !== '이' || before === undefined || !/[가-힣]/u.test(before)) return term;
  return ((before.codePointAt(0) ?? 0) - 0xac00) % 28 === 0 ? term : syllables.slice(0, -1).join('');
}

function validTerm(term: string): boolean {
  const words = term.split(' ');
  if (words.length > 3 || Array.from(term).length > 15 || Array.from(term.replace(/\s/gu, '')).length < 2) return false;
  if (NOT_TERMS.has(term) || words.some((word) => NOT_TERMS.has(word))) return false;
  // Two terms joined by 와/과 (`금리와 물가는 …`) are a pair, not one term; a word with its object particle
  // (`넓은 토지를 경작하는 …`) belongs to a clause, not to a term.
  if (words.slice(0, -1).some((word) => isCoordinated(word) || isObjectMarked(word))) return false;
  // The last word names something: not a predicate form (`바꾸어도`, `얻은`).
  const last = words.at(-1) ?? '';
  if (Array.from(last).length < 2 && !/^[A-Za-z]/u.test(last)) return false;
  // A word with an adverbial particle or 와/과 on it (`중기에는 …`: 중기 + 에 + 는, "in metaphase") says when or where
  // something happens; the word before the particle is no term of the sentence's, and the glued form never one.
  if (gluedParticle(last)) return false;
  if (!/^[가-힣A-Za-z][가-힣A-Za-z0-9 ]*$/u.test(term)) return false;
  return !/[다고며면서록게던된한진낸른은는을할될까요죠어아해져여워든]$/u.test(last) || /^[A-Za-z]/u.test(last);
}

/** Whether a Korean word ends in a particle no noun ends in (`중기에`, `세포에서`, `세포막으로`, `세포막과`). */
export function gluedParticle(word: string): boolean {
  if (!/^[가-힣]+$/u.test(word) || Array.from(word).length < 2) return false;
  return /(?:에|에서|에게|께서|으로)$/u.test(word) || isCoordinated(word);
}

const clean = (text: string) => text.replace(/\s+/gu, ' ').trim();

/** `X(Y)은/는 …`, `X란 …`: the shortest head of one to three words that ends in the topic particle. */
function topicOf(text: string): { term: string; alias?: string | undefined; rest: string } | null {
  const words = text.split(' ');
  for (let count = 1; count <= Math.min(3, words.length - 1); count += 1) {
    const head = TOPIC_HEAD.exec(words.slice(0, count).join(' '))?.groups;
    if (head?.term === undefined || !validTerm(head.term)) continue;
    const alias = head.alias !== undefined && validTerm(head.alias) ? head.alias : undefined;
    return { term: head.term, ...(alias === undefined ? {} : { alias }), rest: words.slice(count).join(' ') };
  }
  return null;
}

/** An English definition: `(A|An|The) <noun phrase> is|are|refers to|means …`. */
const ENGLISH_DEFINITION = /^(?:(?:A|An|The)\s+(?=[A-Za-z]{2}|A\*))?(?<term>[A-Za-z][A-Za-z*-]*(?:\s+[A-Za-z][A-Za-z*-]*){0,3}?)\s+(?<verb>is|are|refers to|means)\s+(?<rest>.+)$/u;
const NOT_ENGLISH_TERMS = /^(?:if|when|while|with|here|there|it|this|that|these|those|they|for|in|on|at|as|so|then|however|each|every|one|all|some)\b/iu;

/**
 * A comparative with nothing to compare with (`Indirect costs are larger: …`, `비용은 더 크다`): the sentence leans on
 * the one before it, so it neither defines its subject nor makes a question on its own.
 */
function dangling(rest: string): boolean {
  if (/[\uac00-\ud7a3]/u.test(rest)) return /^더\s/u.test(rest) && !rest.includes('보다');
  if (/\bthan\b/iu.test(rest)) return false;
  const first = tagEnglish(rest)[0];
  return first !== undefined && (/^(?:more|less|fewer|better|worse)$/iu.test(first.text) || ((first.tag === 'ADJ' || first.tag === 'ADV') && /[a-z]{2}er$/iu.test(first.text)));
}

/** The term as a question names it: a capitalised first word in lower case (`Round robin` → `round robin`; `FCFS` kept). */
const englishTerm = (written: string) => written.replace(/^[A-Z][a-z-]+\b/u, (word) => word.toLowerCase());

/**
 * The definition an English sentence gives: its subject noun phrase (read with the tagger) before `is`, `are`,
 * `refers to`, `means`; a `definition` when what follows names a kind (`is a function that …`) or the material labels
 * it so (`Definition: …`), a `property` otherwise (`is optimal`). A subject followed by another verb in the present
 * (`FCFS runs processes in the order they arrive`) is a property too. Asked as the sentence with the term blanked, the
 * way English material is read.
 */
function parseEnglishDefinition(text: string, passage: number, labelled: boolean): Definition | null {
  if (!isEnglishProse(text)) return null;
  const match = ENGLISH_DEFINITION.exec(text)?.groups;
  if (match?.term !== undefined && match.rest !== undefined && !NOT_ENGLISH_TERMS.test(match.term)) {
    const written = match.term;
    if (dangling(match.rest)) return null;
    const tokens = /^A\*/u.test(written) ? [] : tagEnglish(text);
    const phrase = nounPhrases(tokens).find((entry) => entry.start <= 1 && entry.text.toLowerCase() === written.toLowerCase());
    if (/^A\*/u.test(written) || (phrase !== undefined && isNounAt(tokens, phrase.end - 1))) {
      const kind = labelled || /^(?:a|an|the|one|any)\s/iu.test(match.rest) ? 'definition' : 'property';
      return { term: englishTerm(written), sentence: text, description: text, kind, passage, english: true };
    }
  }
  const tokens = tagEnglish(text);
  const start = /^(?:a|an|the)$/iu.test(tokens[0]?.text ?? '') ? 1 : 0;
  const phrase = nounPhrases(tokens).find((entry) => entry.start === start);
  const verb = phrase === undefined ? undefined : tokens[phrase.end];
  if (phrase === undefined || verb?.tag !== 'VERB' || !/[a-z]s$/u.test(verb.text) || phrase.end - start > 4 || NOT_ENGLISH_TERMS.test(phrase.text)) return null;
  // `Interactive systems care …`, `War debts from …`: an adjective or a noun read with its plural noun as the verb.
  // The phrase ends in a word that can be a noun, the verb is one, and no later finite verb has a subject of its own
  // outside a clause of its own (`Poor harvests in 1788 doubled …`).
  const last = phrase.text.split(' ').at(-1) ?? '';
  if (!canBeNoun(/^[A-Z][a-z]/u.test(last) ? last.toLowerCase() : last) || tagEnglish(`They ${verb.lemma} it.`)[1]?.tag !== 'VERB') return null;
  if (laterFiniteVerb(tokens, phrase.end + 1)) return null;
  // The phrase is the sentence's words (`Round robin`), not a tagger's regrouping of them.
  if (!text.includes(phrase.text)) return null;
  return { term: englishTerm(phrase.text), sentence: text, description: text, kind: labelled ? 'definition' : 'property', passage, english: true };
}

const CLAUSE_OPENERS = /^(?:which|that|who|whom|whose|when|where|while|if|because|since|until|unless|although|so|;)$/iu;
const NOMINAL: ReadonlySet<string> = new Set(['NOUN', 'PROPN', 'NUM']);

/** Whether a finite verb (`doubled`, `were`, `runs`) right after a noun follows `from` before any clause opens. */
function laterFiniteVerb(tokens: readonly { text: string; tag: string }[], from: number): boolean {
  for (let index = from; index < tokens.length; index += 1) {
    const token = tokens[index] as { text: string; tag: string };
    if (CLAUSE_OPENERS.test(token.text)) return false;
    const finite = token.tag === 'AUX' || (token.tag === 'VERB' && /[a-z](?:s|ed)$/u.test(token.text));
    if (finite && NOMINAL.has(tokens[index - 1]?.tag ?? '')) return true;
  }
  return false;
}

/** A label saying the sentence is a definition (`Definition: a thread is …`, `정의: …`). */
const DEFINITION_LABEL = /^(?:definition|def\.|정의)\s*[:：]\s*(?=\S)/iu;

/** The definition a sentence gives, if it gives one. */
export function parseDefinition(sentence: string, passage: number): Definition | null {
  const whole = clean(sentence);
  // `Definition: a thread is …`: the sentence after the label, which the label says is a definition.
  const labelled = DEFINITION_LABEL.exec(whole);
  if (labelled !== null) {
    const rest = whole.slice(labelled[0].length);
    const text = rest.charAt(0).toUpperCase() + rest.slice(1);
    const parsed = /[\uac00-\ud7a3]/u.test(text) ? parseDefinition(text, passage) : parseEnglishDefinition(text, passage, true);
    return parsed === null ? null : { ...parsed, kind: parsed.kind === 'property' ? 'definition' : parsed.kind };
  }
  const text = whole;
  if (!/[\uac00-\ud7a3]/u.test(text)) return parseEnglishDefinition(text, passage, false);
  const naming = NAMING.exec(text)?.groups;
  const named = naming?.term === undefined ? undefined : withoutCopula(naming.term);
  if (named !== undefined && naming?.desc !== undefined && validTerm(named)) {
    return { term: named, sentence: text, description: clean(naming.desc), kind: 'definition', passage };
  }
  const topic = topicOf(text);
  if (topic !== null && PREDICATE.test(topic.rest) && !dangling(topic.rest)) {
    const copula = COPULA.test(topic.rest);
    return {
      term: topic.term,
      ...(topic.alias === undefined ? {} : { alias: topic.alias }),
      sentence: text,
      description: copula ? clean(topic.rest.replace(COPULA, '')) : clean(topic.rest),
      kind: copula ? 'definition' : 'property',
      passage,
    };
  }
  const label = LABEL.exec(text)?.groups;
  if (label?.term !== undefined && label.rest !== undefined && validTerm(label.term) && PREDICATE.test(label.rest)) {
    return { term: label.term, sentence: text, description: clean(label.rest), kind: 'definition', passage };
  }
  const trailing = TRAILING_NAME.exec(text)?.groups;
  if (trailing?.term !== undefined && trailing.rest !== undefined && validTerm(trailing.term)) {
    return { term: trailing.term, sentence: text, description: `${clean(trailing.rest)}.`, kind: 'parenthetical', passage };
  }
  return null;
}

/** The sentences of a passage that may be part of an answer (no headers, contents, examples, formulas). */
export function passageSentences(passage: ExamPassage): string[] {
  return sourceSentences(passage.text)
    .map((sentence) => sentence.text)
    .filter((sentence) => isAnswerSentence(sentence));
}

/** Every definition in the passages, in passage order. */
export function findDefinitions(passages: readonly ExamPassage[]): Definition[] {
  return passages.flatMap((passage) => passageSentences(passage).flatMap((sentence) => parseDefinition(sentence, passage.number) ?? []));
}

export interface Topic {
  term: string;
  alias?: string | undefined;
  definitions: Definition[];
}

/** Whether two written terms name one thing: the same, or an English term and its plural (`thread`, `threads`). */
export function sameTerm(left: string, right: string): boolean {
  if (left === right) return true;
  if (!/^[A-Za-z]/u.test(left) || !/^[A-Za-z]/u.test(right)) return false;
  const [shorter, longer] = left.length <= right.length ? [left.toLowerCase(), right.toLowerCase()] : [right.toLowerCase(), left.toLowerCase()];
  return longer === shorter || longer === `${shorter}s` || longer === `${shorter}es`;
}

/**
 * Definitions grouped by term (a term and its alias are one topic, an English term and its plural too), in order of
 * first appearance; the topic is named as its first definition proper names it (`thread`, not `threads`).
 */
export function findTopics(passages: readonly ExamPassage[]): Topic[] {
  const topics: Topic[] = [];
  for (const definition of findDefinitions(passages)) {
    const found = topics.find((topic) => sameTerm(topic.term, definition.term) || topic.alias === definition.term || (definition.alias !== undefined && topic.term === definition.alias));
    if (found) {
      if (definition.kind === 'definition' && found.definitions.every((entry) => entry.kind !== 'definition')) found.term = definition.term;
      found.definitions.push(definition);
      found.alias ??= definition.alias;
    } else topics.push({ term: definition.term, ...(definition.alias === undefined ? {} : { alias: definition.alias }), definitions: [definition] });
  }
  return topics;
}

/** Whether a sentence opens with the term as its topic, subject or setting (`중기에는 …`, `염색체가 …`). */
const opensWith = (sentence: string, term: string) => sentence.startsWith(term) && /^(?:은|는|이|가|에는|에서는)\s/u.test(sentence.slice(term.length));

/** Whether the material defines the topic (`X란 …`, `X는 …이다`, `Definition: …`, `…이다(X).`), not only says something of it. */
const defines = (topic: Topic) => topic.definitions.some((definition) => definition.kind !== 'property');

/** The sentences a Descriptive item on the topic is answered with: its definitions proper when it has any. */
function explainingDefinitions(topic: Topic): Definition[] {
  const proper = topic.definitions.filter((definition) => definition.kind !== 'property');
  const [first, ...others] = proper.length > 0 ? proper : topic.definitions;
  if (first === undefined) return [];
  // A second sentence only when it adds something: not one whose content words were mostly said by the first
  // (`DNA는 이중 나선 구조의 유전 물질이다.` after `DNA란 … 이중 나선을 이루는 유전 물질이다.`).
  const second = others.find((definition) => !restates(definition.sentence, first.sentence));
  return second === undefined ? [first] : [first, second];
}

const FUNCTION_WORDS = new Set(['a', 'an', 'the', 'is', 'are', 'was', 'were', 'be', 'of', 'in', 'on', 'at', 'by', 'to', 'for', 'with', 'and', 'or', 'its', 'it', 'their', 'that', 'which', 'this', 'as', 'from', 'own']);
const KOREAN_ENDINGS = /(?:이다|입니다|이며|이고|에서|으로|에게|까지|부터|처럼|보다|이란|란|은|는|이|가|을|를|의|에|로|와|과|도|만)$/u;

/** A sentence's content words: lower-cased, without their particle or copula; no function words, no single letters. */
function contentWords(sentence: string): string[] {
  return (sentence.normalize('NFC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .map((word) => (/[가-힣]/u.test(word) && Array.from(word).length > 2 ? word.replace(KOREAN_ENDINGS, '') : word))
    .filter((word) => !FUNCTION_WORDS.has(word) && Array.from(word).length >= 2);
}

/** Whether `sentence` says mostly what `said` says: more than half of its content words are already there. */
export function restates(sentence: string, said: string): boolean {
  const words = contentWords(sentence);
  const before = new Set(contentWords(said));
  const text = looseText(said).toLowerCase();
  const repeated = words.filter((word) => before.has(word) || (/[가-힣]/u.test(word) && text.includes(word)));
  return words.length > 0 && repeated.length * 2 > words.length;
}

/** `values` taken in turns from each group: every group's first, then every group's second, … */
function inTurns<T>(values: readonly T[], groupOf: (value: T) => string | number): T[] {
  const groups = new Map<string | number, T[]>();
  for (const value of values) groups.set(groupOf(value), [...(groups.get(groupOf(value)) ?? []), value]);
  const lists = [...groups.values()];
  const spread: T[] = [];
  for (let rank = 0; spread.length < values.length; rank += 1) for (const list of lists) if (list[rank] !== undefined) spread.push(list[rank] as T);
  return spread;
}

/**
 * The chapter a passage belongs to, as its metadata names it (`2장 「…」`); a passage without one is its own.
 */
function chapterOfPassage(passages: readonly ExamPassage[]): (passage: number) => string {
  const chapters = new Map(passages.map((passage) => [passage.number, /^(\d+)장/u.exec(passage.meta)?.[1] ?? `passage ${passage.number}`]));
  return (passage) => chapters.get(passage) ?? `passage ${passage}`;
}

/** Topics spread over the chapters, and within one over its passages (each one's first topic, then its second, …); weak topics first. */
function spreadTopics(topics: readonly Topic[], weak: readonly string[], chapterOf: (passage: number) => string): Topic[] {
  const passageOf = (topic: Topic) => topic.definitions[0]?.passage ?? 0;
  const spread = inTurns(inTurns(topics, passageOf), (topic) => chapterOf(passageOf(topic)));
  const isWeak = (topic: Topic) => weak.some((name) => name.includes(topic.term) || termsMatch(name, topic.term) || (topic.alias !== undefined && name.includes(topic.alias)));
  return [...spread.filter(isWeak), ...spread.filter((topic) => !isWeak(topic))];
}

/** The topics in the order the exam's seed draws them (as found, without a seed). */
function seededTopics(topics: Topic[], seed: string | undefined): Topic[] {
  return seed === undefined ? topics : seededShuffle(topics, seed, 'exam-topics');
}

/**
 * Two terms the material contrasts: both in one chapter, or named together in one of its sentences (a summary line, a
 * table row), and not the same thing. A word part shared across chapters (세포막 in 1장, 체세포 분열 in 2장) is no contrast.
 */
function contrasted(left: Topic, right: Topic, chapterOf: (topic: Topic) => string, sentences: readonly string[]): boolean {
  return related(left.term, right.term) && (chapterOf(left) === chapterOf(right) || namedTogether(left, right, sentences));
}

/** Whether one sentence of the material names both terms (a summary line, a table row). */
function namedTogether(left: Topic, right: Topic, sentences: readonly string[]): boolean {
  const names = (topic: Topic, sentence: string) => (/^[A-Za-z]/u.test(topic.term) ? termPattern(topic.term).test(sentence) : sentence.includes(topic.term));
  return sentences.some((sentence) => names(left, sentence) && names(right, sentence));
}

/**
 * How closely the material contrasts two terms, closest first: named in one sentence (0), two kinds of one thing —
 * the same last word or last two syllables (`체세포 분열`, `감수 분열`; `관성의 법칙`, `가속도의 법칙`; `모평균`, `표본평균`) —
 * (1), otherwise (2).
 */
function contrastRank(left: Topic, right: Topic, sentences: readonly string[]): number {
  if (namedTogether(left, right, sentences)) return 0;
  const head = (term: string) => {
    const last = term.toLowerCase().split(/\s+/u).at(-1) ?? '';
    return /[가-힣]/u.test(last) ? Array.from(last).slice(-2).join('') : last.replace(/s$/u, '');
  };
  return head(left.term) === head(right.term) ? 1 : 2;
}

/** Two terms are related when one contains a two-syllable part of the other (`모평균`, `표본평균`). */
function related(left: string, right: string): boolean {
  if (left === right) return false;
  // English: two terms that share a word (`gradient ascent`, `gradient descent`; `local search`, `A* search`).
  if (/^[A-Za-z]/u.test(left) && /^[A-Za-z]/u.test(right)) {
    const words = new Set(left.toLowerCase().split(/\s+/u));
    return right.toLowerCase().split(/\s+/u).some((word) => words.has(word) && word.length > 3);
  }
  const parts = (text: string) => Array.from({ length: Math.max(0, Array.from(text).length - 1) }, (_, index) => Array.from(text).slice(index, index + 2).join(''));
  return parts(left).some((part) => /^[가-힣]{2}$/u.test(part) && right.includes(part));
}

const quote = (definition: Definition) => `[${definition.passage}] 「${definition.sentence}」`;

interface Unit {
  topic: string;
  type: QuestionType;
  intent: IntentType;
  definitions: Definition[];
}

/** The offline Agent_ShortAnswerPlanner. */
export function planOffline(input: ExamPlannerInput): ExamPlan {
  const { request, profile } = input;
  const weak = profile?.user_status.weak_topics.map((topic) => topic.topic) ?? [];
  const depth = profile?.learning_goal.target_depth;
  const chapterOf = chapterOfPassage(input.passages);
  const topics = spreadTopics(seededTopics(findTopics(input.passages), input.seed), weak, chapterOf);
  const usedTerms = new Set<string>();
  const usedSentences = new Set<string>();
  const units: Unit[] = [];
  // Items per chapter so far: every chapter asked for gets an item before any gets a second one.
  const itemsIn = new Map<string, number>();
  const topicChapter = (topic: Topic) => chapterOf(topic.definitions[0]?.passage ?? 0);
  const load = (topic: Topic) => itemsIn.get(topicChapter(topic)) ?? 0;
  const byLoad = <T>(candidates: readonly T[], loadOf: (candidate: T) => number) => [...candidates].sort((left, right) => loadOf(left) - loadOf(right));
  const free = (topic: Topic) => !usedTerms.has(topic.term);
  const take = (topic: Topic, used: readonly Definition[]) => {
    usedTerms.add(topic.term);
    for (const definition of used) usedSentences.add(definition.sentence);
  };
  const count = (chapters: readonly string[]) => {
    for (const chapter of new Set(chapters)) itemsIn.set(chapter, (itemsIn.get(chapter) ?? 0) + 1);
  };
  const sourceText = input.passages.map((passage) => passage.text).join('\n');
  // Only items that pass the item guard as written (the offline writer writes them the same way again); a topic whose
  // item would be refused leaves its slot to another.
  const texts = input.passages.map((passage) => passage.text);
  const isSound = (unit: Unit) => examItemRefusals(writeItem(planEntry(unit, 1, request.difficulty ?? 'Basic'), input.passages), texts).length === 0;
  const gradable = (topic: Topic) => descriptiveKeywords(explainingDefinitions(topic).map((definition) => definition.sentence).join(' '), [topic.term], sourceText).length >= 2;
  const shortFits = (topic: Topic) => defines(topic);
  const allSentences = input.passages.flatMap((passage) => sourceSentences(passage.text).map((sentence) => sentence.text));
  const descriptiveCount = request.descriptive;
  const shortCount = request.count - descriptiveCount;

  // Descriptive first: comparisons when the depth allows (at most half of them), then the richest topics.
  let comparisons = depth === 'Basic Recall' ? 0 : Math.ceil(descriptiveCount / 2);
  for (let slot = 0; slot < descriptiveCount; slot += 1) {
    const pairs =
      comparisons > 0
        ? topics.flatMap((left, index) => topics.slice(index + 1).filter((right) => free(left) && free(right) && contrasted(left, right, topicChapter, allSentences)).map((right) => [left, right] as const))
        : [];
    // Siblings (모평균, 표본평균) before a term and its own kind (평균, 모평균).
    const nested = ([left, right]: readonly [Topic, Topic]) => left.term.includes(right.term) || right.term.includes(left.term);
    const english = (candidate: readonly [Topic, Topic]) => /^[A-Za-z]/u.test(candidate[0].term);
    // The chapters with the fewest items first; among them the pairs the material contrasts most closely.
    const fewest = byLoad(byLoad(pairs, ([left, right]) => contrastRank(left, right, allSentences)), ([left, right]) => Math.min(load(left), load(right)));
    const pair = fewest.find((candidate) => !nested(candidate)) ?? fewest.find((candidate) => !english(candidate));
    if (pair) {
      const [left, right] = pair;
      const definitions = [explainingDefinitions(left)[0] as Definition, explainingDefinitions(right)[0] as Definition];
      take(left, definitions);
      take(right, definitions);
      count([topicChapter(left), topicChapter(right)]);
      comparisons -= 1;
      units.push({ topic: `${withParticle(left.term, '과/와')} ${right.term}의 비교`, type: 'Descriptive', intent: 'Comparison', definitions });
      continue;
    }
    // Keep the topics that suit a Short_Keyword item for those slots while there are enough others.
    // A term the material only says something of (`염기 A는 T와 … 결합한다`) is asked about (`염기에 대하여`), not what
    // it is, and only when its sentences have two keywords to grade by; terms the material defines first.
    const open = topics.filter((topic) => free(topic) && (defines(topic) || gradable(topic)) && isSound({ topic: topic.term, type: 'Descriptive', intent: 'Definition', definitions: explainingDefinitions(topic) }));
    const spareShort = open.filter(shortFits).length > shortCount;
    // The chapters with the fewest items first, then the topics whose answer has two keywords to grade by, then the
    // topics with the most sentences.
    const richest = [...open].sort((left, right) => right.definitions.length - left.definitions.length);
    const ranked = byLoad(byLoad(byLoad(richest, (topic) => (gradable(topic) ? 0 : 1)), (topic) => (defines(topic) ? 0 : 1)), load);
    const topic = ranked.find((candidate) => spareShort || !shortFits(candidate)) ?? ranked[0];
    if (!topic) break;
    const definitions = explainingDefinitions(topic);
    take(topic, definitions);
    count([topicChapter(topic)]);
    units.push({ topic: topic.term, type: 'Descriptive', intent: 'Definition', definitions });
  }
  for (let slot = 0; slot < shortCount; slot += 1) {
    const open = byLoad(
      topics.filter((topic) => free(topic) && isSound({ topic: topic.term, type: 'Short_Keyword', intent: 'Recall', definitions: [shortDefinition(topic)] })),
      load,
    );
    const fewest = open[0] === undefined ? 0 : load(open[0]);
    const topic = open.find((candidate) => load(candidate) === fewest && shortFits(candidate)) ?? open[0];
    if (!topic) break;
    const definition = shortDefinition(topic);
    take(topic, [definition]);
    count([topicChapter(topic)]);
    units.push({ topic: topic.term, type: 'Short_Keyword', intent: definition.kind === 'definition' ? 'Definition' : 'Recall', definitions: [definition] });
  }
  // A small material: a topic again, from a sentence not used yet; then key terms with the sentences that name them.
  const allDefinitions = topics.flatMap((topic) => topic.definitions);
  const mentions = keyTerms(input.passages.map((passage) => passage.text).join('\n'), 60)
    .filter((term) => /^[가-힣]{2,}$/u.test(term) && !NOT_TERMS.has(term) && !topics.some((topic) => topic.term.includes(term) || term.includes(topic.term)))
    .flatMap((term) => {
      const sentences = input.passages.flatMap((passage) =>
        passageSentences(passage)
          .filter((sentence) => usedAsNoun(term, sentence) && !usedSentences.has(sentence))
          .map((sentence) => ({ passage: passage.number, sentence })),
      );
      return sentences.length > 0 ? [{ term, sentences }] : [];
    });
  // A key term's sentences not used yet, at most two; a Descriptive item asks about the term only from sentences that
  // open with it (`중기에는 염색체가 …`), not from one that merely names it (`물질의 출입을 조절하고`).
  const mentionDefinitions = (mention: (typeof mentions)[number], type: QuestionType) =>
    mention.sentences
      .filter((found) => !usedSentences.has(found.sentence) && (type === 'Short_Keyword' || opensWith(found.sentence, mention.term)))
      .slice(0, 2)
      .map(({ passage, sentence }): Definition => ({ term: mention.term, sentence, description: sentence, kind: 'property', passage }));
  const missing = (type: QuestionType) => (type === 'Descriptive' ? descriptiveCount : shortCount) - units.filter((unit) => unit.type === type).length;
  // Never two items on one term, of one type or not: two Short_Keyword items with the same answer, two Descriptive
  // items explaining the same term, or a Short_Keyword item whose answer a Descriptive item names test the same fact
  // (and one gives the other away) however their sentences differ.
  const asked = (term: string) => units.some((unit) => unit.definitions.some((entry) => sameTerm(entry.term, term)));
  // A Descriptive item needs two keywords to grade by.
  const fits = (type: QuestionType, definitions: readonly Definition[], term: string) =>
    type === 'Short_Keyword' || descriptiveKeywords(definitions.map((definition) => definition.sentence).join(' '), [term], sourceText).length >= 2;
  const definitionLoad = (definition: Definition) => itemsIn.get(chapterOf(definition.passage)) ?? 0;
  for (const type of ['Descriptive', 'Short_Keyword'] as const) {
    const intent: IntentType = type === 'Descriptive' ? 'Definition' : 'Recall';
    while (missing(type) > 0) {
      // (a) a sentence not used yet of a topic no item asks; (b) a key term with the sentences that use it. The chapters
      // with the fewest items first. A material with too little for the request gets fewer items (the generator says
      // so): never the same term twice, never a placeholder.
      const again = byLoad(allDefinitions, definitionLoad).find(
        (definition) => !usedSentences.has(definition.sentence) && !asked(definition.term) && fits(type, [definition], definition.term),
      );
      if (again) {
        usedSentences.add(again.sentence);
        count([chapterOf(again.passage)]);
        units.push({ topic: again.term, type, intent, definitions: [again] });
        continue;
      }
      const mention = mentions.find((entry) => !usedTerms.has(entry.term) && !asked(entry.term) && mentionDefinitions(entry, type).length > 0 && fits(type, mentionDefinitions(entry, type), entry.term));
      if (mention === undefined) break;
      usedTerms.add(mention.term);
      const definitions = mentionDefinitions(mention, type);
      for (const definition of definitions) usedSentences.add(definition.sentence);
      count(definitions.slice(0, 1).map((definition) => chapterOf(definition.passage)));
      units.push({ topic: mention.term, type, intent, definitions });
    }
  }
  const sound = units.filter(isSound);
  if (sound.length === 0) {
    throw new AppError(ErrorCode.TOO_LITTLE_MATERIAL, '이 자료(또는 장)에는 시험 문항을 낼 정의나 설명 문장이 없습니다. 다른 장을 고르거나 내용이 더 많은 자료를 올려 주세요.');
  }
  // Short_Keyword items first, as the seed's examples; ids in that order.
  const ordered = [...sound.filter((unit) => unit.type === 'Short_Keyword'), ...sound.filter((unit) => unit.type === 'Descriptive')];
  const level = (unit: Unit): ComplexityLevel =>
    request.difficulty ?? profile?.user_status.proficiency_level ?? (unit.intent === 'Comparison' ? 'Advanced' : unit.type === 'Descriptive' ? 'Intermediate' : 'Basic');
  const planned: PlannedItem[] = ordered.map((unit, index) => ({
    id: index + 1,
    target_topic: unit.topic,
    question_type: unit.type,
    intent_type: unit.intent,
    complexity_level: level(unit),
    source_reference_hint: `${unit.definitions.map(quote).join(' ')} — ${hintFor(unit)}`,
  }));
  const weakNote = weak.length > 0 ? ` 학습자의 취약 주제(${weak.slice(0, 3).join(', ')})와 관련된 개념을 먼저 배치함.` : '';
  return {
    planning_strategy: `자료의 정의 문장에서 핵심 개념을 골라 용어 인출을 묻는 단답형 ${shortCount}문항과 정의·비교를 서술하는 서술형 ${descriptiveCount}문항으로 구성함.${weakNote}`,
    planned_items: planned,
  };
}

/** The sentence a Short_Keyword item on the topic shows: a definition proper when there is one. */
function shortDefinition(topic: Topic): Definition {
  return topic.definitions.find((entry) => entry.kind !== 'property') ?? (topic.definitions[0] as Definition);
}

/** A unit as a plan entry (the hint quotes its sentences, which the writer reads back). */
function planEntry(unit: Unit, id: number, level: ComplexityLevel): PlannedItem {
  return {
    id,
    target_topic: unit.topic,
    question_type: unit.type,
    intent_type: unit.intent,
    complexity_level: level,
    source_reference_hint: `${unit.definitions.map(quote).join(' ')} — ${hintFor(unit)}`,
  };
}

/** An exam problem as the guard reads it. */
export function asItem(problem: ExamProblem) {
  return { type: problem.type, question: problem.question_content, modelAnswer: problem.model_answer, keywords: problem.key_keywords };
}

function hintFor(unit: Unit): string {
  if (unit.intent === 'Comparison') return '두 용어의 정의를 대조해 차이를 서술하게 한다.';
  if (unit.type === 'Descriptive' && unit.definitions.every((definition) => definition.kind === 'property')) return `${unit.topic}에 대해 자료가 말하는 내용을 핵심 표현으로 서술하게 한다.`;
  if (unit.type === 'Descriptive') return `${withParticle(unit.topic, '이/가')} 무엇인지 정의 문장의 핵심 표현으로 설명하게 한다.`;
  return `설명을 보여 주고 용어 '${unit.topic}'${withParticle(unit.topic, '을/를').slice(unit.topic.length)} 인출하게 한다.`;
}

/** The sentences an item's hint quotes, read back as definitions (the term from the plan when none parses). */
function quotedDefinitions(item: PlannedItem): Definition[] {
  return [...item.source_reference_hint.matchAll(/\[(\d+)\] 「([^」]+)」/gu)].map((match) => {
    const passage = Number(match[1]);
    const sentence = match[2] ?? '';
    const parsed = parseDefinition(sentence, passage);
    return parsed !== null && item.target_topic.includes(parsed.term) ? parsed : { term: item.target_topic, sentence, description: sentence, kind: 'property', passage };
  });
}

const NOUNISH = /^[가-힣A-Za-z]{2,}$/u;
/**
 * 2–3 key keywords of an English model answer: the material's key noun phrases it says (englishTerms of the
 * passages), the terms the question names left out.
 */
function englishKeywords(answer: string, named: readonly string[], source: string): string[] {
  const terms = englishTerms(source.split(/(?<=[.!?])\s+|\n/u)).filter((entry) => termPattern(entry.term).test(answer));
  // The longest terms first (`local search` before `search`), then the answer's own noun phrases.
  const said = [...terms.sort((left, right) => right.words - left.words || right.score - left.score).map((entry) => entry.term), ...answerPhrases(answer)];
  const taken: string[] = [];
  for (const term of said) {
    if (taken.length >= 3) break;
    const overlaps = [...named, ...taken].some((name) => name.toLowerCase().includes(term.toLowerCase()) || term.toLowerCase().includes(name.toLowerCase()));
    if (!overlaps) taken.push(term);
  }
  return taken;
}

/** The noun phrases of an English answer, without a leading article, longest first (`natural selection`). */
function answerPhrases(answer: string): string[] {
  return answer
    .split(/(?<=[.!?])\s+/u)
    .flatMap((sentence) => nounPhrases(tagEnglish(sentence)).map((phrase) => phrase.text.toLowerCase()))
    .filter((phrase) => phrase.length > 3 && !/^(?:same|other|such|many|each|every|different|small|large|single|good|new|first|last)\b|\b(?:method|way|thing|part|value|function|step|time)$/u.test(phrase))
    .sort((left, right) => right.split(' ').length - left.split(' ').length);
}

/** An adjectival form in -적 (`유전적`, `경제적`): three syllables or more; `목적`, `흔적` are nouns. */
const ADJECTIVAL = /^[가-힣]{2,}적$/u;
/** A word that ends as no bare noun does: a particle, a verb or adnominal ending. */
const NOT_BARE = /[은는이가을를의에로와과도만다고며면서록게던된한진낸른린난운할될까요죠어아해져여워든]$/u;

/**
 * The compound terms of a Korean answer, as the material writes them: a bare noun of two syllables or more right
 * before another noun with its particle (`이중 나선을`, `유전 물질이다`, `뉴클레오타이드 사슬이` → `이중 나선`, `유전
 * 물질`, `뉴클레오타이드 사슬`), the compound one the material uses as a noun.
 */
function compoundTerms(answer: string, source: string): string[] {
  const found: string[] = [];
  for (const sentence of answer.split(/(?<=[.!?。])\s+/u)) {
    // Words as written: a word with punctuation after it (`법칙:`, `물질,`) ends a phrase and starts no compound.
    const words = sentence.split(/\s+/u).map((word) => word.replace(/^[^\p{L}\p{N}]+/u, ''));
    for (let index = 0; index + 1 < words.length; index += 1) {
      const first = words[index] as string;
      const next = (words[index + 1] as string).replace(/[^\p{L}\p{N}]+$/u, '');
      if (!/^[가-힣]{2,}$/u.test(first) || NOT_BARE.test(first) || ADJECTIVAL.test(first) || NOT_TERMS.has(first) || !/^[가-힣]{2,}$/u.test(next)) continue;
      // The second word's noun: the shortest stem of two syllables or more followed by one or two of a noun's
      // particles (`위치까지의`), one the material uses as a noun.
      const stems = Array.from({ length: Array.from(next).length - 1 }, (_, cut) => Array.from(next).slice(0, cut + 2).join(''));
      const stem = stems.find(
        (candidate) => particlesOnly(next.slice(candidate.length)) && !ADJECTIVAL.test(candidate) && !NOT_TERMS.has(candidate) && usedAsNoun(candidate, source, true),
      );
      const compound = stem === undefined ? undefined : `${first} ${stem}`;
      if (compound !== undefined && !found.includes(compound) && usedAsNoun(compound, source, true)) found.push(compound);
    }
  }
  return found;
}

/** Whether `rest` is nothing, a noun's particle, or two of them (`까지의`, `에서는`). */
function particlesOnly(rest: string): boolean {
  if (NOUN_PARTICLES.has(rest)) return true;
  return Array.from({ length: Math.max(0, rest.length - 1) }, (_, cut) => cut + 1).some((cut) => NOUN_PARTICLES.has(rest.slice(0, cut)) && NOUN_PARTICLES.has(rest.slice(cut)));
}

/**
 * 2–4 key keywords of a model answer: its key terms, the terms the question names left out unless needed. A Korean
 * compound the material writes as one (`이중 나선`) is kept whole and first, none of its words alone (`나선`, `물질`),
 * and an adjectival form in -적 (`유전적`) is no keyword.
 */
function descriptiveKeywords(answer: string, named: readonly string[], source: string): string[] {
  if (!/[\uac00-\ud7a3]/u.test(answer)) return englishKeywords(answer, named, source);
  const taken: string[] = [];
  const compounds = compoundTerms(answer, source);
  const inCompound = (term: string) => compounds.some((compound) => compound.split(' ').includes(term));
  const ranked = keyTerms(answer, 12);
  const rank = (compound: string) => Math.min(...compound.split(' ').map((word) => (ranked.includes(word) ? ranked.indexOf(word) : ranked.length)));
  const candidates = [...[...compounds].sort((left, right) => rank(left) - rank(right)), ...ranked.filter((term) => NOUNISH.test(term) && !ADJECTIVAL.test(term) && !inCompound(term))];
  for (const term of candidates) {
    if (taken.length >= 3) break;
    // Nothing the question names or a keyword taken already holds, nor a compound sharing a word with one
    // (`처음 위치` taken: not `나중 위치` too).
    const sharesWord = (name: string) => term.includes(' ') && name.split(' ').some((word) => term.split(' ').includes(word));
    if (NOT_TERMS.has(term) || [...named, ...taken].some((name) => name.includes(term) || term.includes(name) || sharesWord(name))) continue;
    // A noun in the answer, and one the material uses as a noun with a particle somewhere.
    if (!usedAsNoun(term, answer) || !usedAsNoun(term, source, true)) continue;
    taken.push(term);
  }
  for (const name of named) if (taken.length < 2 && containsKeyword(answer, name)) taken.push(name);
  return taken.slice(0, 4);
}

/** A term with its alias as one keyword (`평균/산술평균`), and as a model answer (`평균 (산술평균)`). */
const keywordOf = (definition: Definition) => (definition.alias === undefined ? definition.term : `${definition.term}/${definition.alias}`);
const answerOf = (definition: Definition) => (definition.alias === undefined ? definition.term : `${definition.term} (${definition.alias})`);

/** The description of a Short_Keyword question, with every form of the answer blanked. */
function shownDescription(definition: Definition): string {
  if (definition.english === true) return definition.description.replace(termPattern(definition.term), BLANK);
  let shown = definition.description;
  for (const form of [definition.term, ...(definition.alias === undefined ? [] : [definition.alias])]) shown = shown.split(form).join(BLANK);
  // The particle after a blank in both forms, so it does not hint at the answer's last syllable.
  return shown.replace(/____(?:\s*\([^()]*\))?(은|는|이|가|을|를|과|와)(?=\s|$)/gu, (_, particle: string) => `${BLANK}${NEUTRAL[particle] ?? particle}`);
}
const BLANK = '____';
const NEUTRAL: Record<string, string> = { 은: '은(는)', 는: '은(는)', 이: '이(가)', 가: '이(가)', 을: '을(를)', 를: '을(를)', 과: '과(와)', 와: '과(와)' };

/**
 * One item written from its plan entry. `rewrite`: the earlier version the validator complained about — the item is
 * then written from a sentence of the same term that version did not use, when the material has one.
 */
export function writeItem(item: PlannedItem, passages: readonly ExamPassage[], rewrite?: ExamProblem): ExamProblem {
  let definitions = quotedDefinitions(item);
  if (rewrite !== undefined) {
    const term = definitions[0]?.term ?? item.target_topic;
    const shown = looseText(`${rewrite.question_content} ${rewrite.model_answer}`);
    const unused = findDefinitions(passages).filter((definition) => definition.term === term && !shown.includes(looseText(definition.description)));
    const next = (item.question_type === 'Short_Keyword' ? unused.filter((definition) => definition.kind !== 'property') : []).concat(unused)[0];
    if (next && item.question_type === 'Short_Keyword') definitions = [next];
    else if (next) definitions = [...definitions.filter((definition) => definition.term !== term || shown.includes(looseText(definition.description))).slice(0, 1), next];
  }
  // A sentence quoted without its label (`Definition: …`) is still the definition the material labels it.
  const found = findDefinitions(passages);
  definitions = definitions.map((definition) => found.find((entry) => entry.sentence === definition.sentence && sameTerm(entry.term, definition.term)) ?? definition);
  const first = definitions[0] ?? { term: item.target_topic, sentence: item.target_topic, description: item.target_topic, kind: 'property' as const, passage: 1 };
  if (item.question_type === 'Short_Keyword') {
    const blanked = shownDescription({ ...first, description: first.sentence });
    // 공통으로 ("common to the blanks") only where the term fills two blanks or more.
    const common = blanked.split(BLANK).length > 2 ? '공통으로 ' : '';
    const question =
      first.kind === 'property'
        ? `다음 문장의 빈칸에 ${common}들어갈 용어는 무엇인가? 「${blanked}」`
        : first.kind === 'parenthetical'
          ? `다음 내용을 가리키는 말로 자료에서 소개한 용어는 무엇인가? 「${shownDescription(first)}」`
          : `다음 설명에 해당하는 용어는 무엇인가? 「${shownDescription(first)}」`;
    return {
      id: item.id,
      type: 'Short_Keyword',
      question_content: question,
      model_answer: answerOf(first),
      key_keywords: [keywordOf(first)],
      intent_diagnosis: `'${first.term}'의 정의를 정확한 용어로 인출할 수 있는지 확인합니다.`,
    };
  }
  const terms = definitions.map((definition) => definition.term).filter((term, index, all) => all.findIndex((other) => sameTerm(other, term)) === index);
  const sourceText = passages.map((passage) => passage.text).join('\n');
  const answer = definitions.map((definition) => definition.sentence).join(' ');
  if (item.intent_type === 'Comparison' && terms.length >= 2) {
    const [left, right] = terms as [string, string];
    const keywords = [...new Set([left, right, ...descriptiveKeywords(answer, [left, right], sourceText)])].slice(0, 4);
    return {
      id: item.id,
      type: 'Descriptive',
      question_content: `${withParticle(left, '과/와')} ${right}의 차이를 자료의 정의를 바탕으로 설명하시오.`,
      model_answer: answer,
      key_keywords: keywords,
      intent_diagnosis: `${withParticle(left, '과/와')} ${right}의 개념적 차이를 각각의 정의에 근거해 구분할 수 있는지 평가합니다.`,
    };
  }
  const term = terms[0] ?? item.target_topic;
  const keywords = descriptiveKeywords(answer, [term], sourceText);
  // "무엇인지" asks for a definition: only of a term the material defines. What it only says something of is asked
  // about (`염기 A는 T와, G는 C와 상보적으로 결합한다.`: 염기에 대하여).
  if (definitions.every((definition) => definition.kind === 'property')) {
    return {
      id: item.id,
      type: 'Descriptive',
      question_content: aboutQuestion(term),
      model_answer: answer,
      key_keywords: keywords,
      intent_diagnosis: `'${term}'에 대해 자료가 설명한 내용을 핵심 표현(${keywords.join(', ')})을 사용해 서술할 수 있는지 평가합니다.`,
    };
  }
  return {
    id: item.id,
    type: 'Descriptive',
    question_content: `${withParticle(term, '이/가')} 무엇인지 자료의 내용을 바탕으로 설명하시오.`,
    model_answer: answer,
    key_keywords: keywords,
    intent_diagnosis: `'${term}'의 정의를 핵심 표현(${keywords.join(', ')})을 사용해 설명할 수 있는지 평가합니다.`,
  };
}

/** The offline Agent_ShortAnswerWriter: every planned item; from round 2, only the items complained about rewritten. */
export function writeOffline(input: ExamWriterInput): { short_answer_problems: ExamProblem[] } {
  const complained = new Set(input.feedback.map((entry) => entry.id));
  return {
    short_answer_problems: input.plan.planned_items.map((item) => {
      const kept = input.prior?.find((problem) => problem.id === item.id && problem.type === item.question_type);
      if (kept && !complained.has(item.id)) return kept;
      return writeItem(item, input.passages, kept);
    }),
  };
}

const HANGUL_OR_LATIN = /[\p{L}]/gu;

/** The offline Agent_ShortAnswerValidator: checks against the passages (see the module comment). */
export function validateOffline(input: ExamValidatorInput): ExamValidation {
  const text = input.passages.map((passage) => passage.text).join('\n');
  const source = looseText(text);
  const feedback: ExamValidation['feedback_message'] = [];
  const definitions = findDefinitions(input.passages).filter((definition) => definition.kind !== 'property');
  const faults = itemFaults(input.problems, text, (term) => definitions.filter((definition) => sameTerm(definition.term, term)).map((definition) => definition.sentence));
  for (const problem of input.problems) {
    const issues: string[] = [];
    if (problem.type === 'Short_Keyword') {
      const absent = problem.key_keywords.filter((keyword) => !keywordForms(keyword).some((form) => source.includes(looseText(form))));
      if (absent.length > 0) issues.push(`[사실 확인] 정답 키워드 ${quotedWithParticle(absent, '이/가')} 강의 자료에 없습니다.`);
      const leaked = problem.key_keywords.filter((keyword) => containsKeyword(problem.question_content, keyword));
      if (leaked.length > 0) issues.push(`[질문 명확성] 질문에 정답 ${quotedWithParticle(leaked, '이/가')} 그대로 들어 있어 답을 알려 줍니다.`);
    } else {
      const sentences = problem.model_answer.split(/(?<=[.!?。])\s+/u).filter((sentence) => (sentence.match(HANGUL_OR_LATIN) ?? []).length >= 4);
      const unsupported = sentences.filter((sentence) => !source.includes(looseText(sentence)));
      if (sentences.length === 0 || unsupported.length > 0) issues.push(`[사실 확인] 모범 답안의 문장 ${unsupported.length}개가 강의 자료에서 확인되지 않습니다. 자료의 정의대로 고치세요.`);
      if (problem.key_keywords.length < 2) issues.push('[키워드] 서술형인데 핵심 키워드가 2개 미만이라 채점 변별력이 떨어집니다. 평가 기준이 되는 키워드를 2개 이상 넣으세요.');
      if (sentences.some((sentence) => looseText(problem.question_content).includes(looseText(sentence)))) issues.push('[질문 명확성] 질문에 모범 답안 문장이 그대로 들어 있습니다.');
    }
    const missing = problem.key_keywords.filter((keyword) => !containsKeyword(problem.model_answer, keyword));
    if (missing.length > 0) issues.push(`[키워드] 키워드 ${quotedWithParticle(missing, '이/가')} 모범 답안에 없습니다. 모범 답안에 있는 표현을 키워드로 쓰세요.`);
    if ((problem.question_content.match(HANGUL_OR_LATIN) ?? []).length < 8 || !/(?:[?？]|시오[.]?|하라[.]?|」)$/u.test(problem.question_content.trim())) {
      issues.push('[질문 명확성] 질문이 짧거나 무엇을 답해야 하는지 분명하지 않습니다.');
    }
    issues.push(...(faults.get(problem.id) ?? []));
    // Each issue opens with its kind ([사실 확인], [키워드], [질문 명확성]: the validator prompt's checklist, as the
    // server's own checks write theirs); which validator wrote it is not the teacher's concern and is not said.
    if (issues.length > 0) feedback.push({ id: problem.id, message: issues.join(' ') });
  }
  return { is_valid: feedback.length === 0, feedback_message: feedback };
}

export const examOfflineTasks: OfflineTasks = {
  [EXAM_TASKS.plan]: { object: (input) => planOffline(ExamPlannerInput.parse(input)) },
  [EXAM_TASKS.write]: { object: (input) => writeOffline(ExamWriterInput.parse(input)) },
  [EXAM_TASKS.validate]: { object: (input) => validateOffline(ExamValidatorInput.parse(input)) },
};
