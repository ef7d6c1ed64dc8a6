import { letterCount, looksLikeNoun } from '../text/index.js';

/**
 * The concepts a material teaches: noun phrases it defines (`평균(산술평균)은 …`, `…을 표본평균이라고 합니다`,
 * `대수의 법칙: …`), names in brackets (`집단 전체(모집단)`), bold text and headings (markdown `#` lines, or short
 * lines without a predicate in extracted PDF text). Never a number, a year, a variable (`x₁`, `μ`), a function word
 * or a verb form, and always spelled as the material spells it. Used for the offline tutor's sub-concepts and for the
 * choices a vague raised hand is offered — both must name things a student can find in the material.
 */

/** How the material singles the phrase out; a definition says the most about what the material teaches. */
export type ConceptSource = 'definition' | 'heading' | 'emphasis';
const SOURCE_WEIGHT: Readonly<Record<ConceptSource, number>> = { definition: 3, heading: 2, emphasis: 2 };

export interface MaterialConcept {
  concept: string;
  /** Strongest way the material singles it out. */
  source: ConceptSource;
  /** Sum of the weights of every time it is singled out. */
  weight: number;
  /** Character offset of its first appearance in the text (the material's teaching order). */
  at: number;
}

/** Words that are not concepts on their own: deixis, connectives, words about the material or the lesson. */
const FUNCTION_WORDS: ReadonlySet<string> = new Set([
  '이', '그', '저', '것', '이것', '그것', '저것', '수', '등', '및', '또는', '그리고', '그러나', '하지만', '따라서', '즉',
  '때', '경우', '점', '곳', '바', '데', '중', '위', '아래', '다음', '앞', '뒤', '여기', '이번', '지금', '오늘',
  '자료', '내용', '설명', '예', '예시', '예제', '보기', '요약', '정리', '참고', '주의', '문제', '질문', '답', '목차',
  '차례', '개요', '소개', '장', '절', '쪽', '페이지', '강의', '수업', '교재', '과제', '출석', '학기', '담당', '교수',
  '방법', '결과', '사실', '부분', '전체', '하나', '모두', '각', '두', '세', '네', '이때', '그때', '이제', '여기서', '이처럼',
  '이렇게', '그러면', '또', '또한', '한',
  'the', 'a', 'an', 'this', 'that', 'these', 'those', 'it', 'they', 'there', 'which', 'what', 'example', 'examples',
  'chapter', 'section', 'page', 'slide', 'summary', 'contents', 'introduction', 'overview', 'note', 'notes',
  // English determiners (`Its weakness: …`), and labels a slide puts before a colon (`Definition: …`, `Goals: …`,
  // `Reading: …`): they say what kind of line follows, not what it teaches.
  'its', 'their', 'our', 'your', 'my', 'his', 'her', 'some', 'each', 'every', 'all', 'any', 'no', 'other', 'such',
  'definition', 'definitions', 'goal', 'goals', 'aim', 'aims', 'idea', 'ideas', 'key', 'recap', 'review', 'reading',
  'readings', 'question', 'questions', 'answer', 'answers', 'agenda', 'outline', 'tip', 'tips', 'warning', 'remember',
]);

/** Facets of a concept a heading names (`평균의 의미`): the concept is the part before them. */
const FACET = /^(.+?)의\s+(?:의미|정의|개념|뜻|소개|개요|이해|종류|특징)$/u;
/** Headings of worked examples and course administration: not concepts. */
const NOT_A_HEADING = /(?:^|\s)(?:예|예시|예제|보기|사례|연습|문제)$|목차|차례|contents/iu;

/** Multi-syllable endings of verb and adjective forms (`가까워집니다`, `더하는`, `커질수록`, `같다`). */
const VERB_ENDING = /(?:니다|한다|된다|진다|는다|이다|하는|되는|하고|하여|해서|하면|되면|으면|하며|으며|했다|였다|지만|수록|어요|아요|해요|세요|려고|도록)$/u;
/** A last word that still carries a particle (`평균을`, `값에서`): the phrase was cut in the wrong place. */
const TRAILING_PARTICLE = /(?:을|를|에서|으로|에게|부터|까지|처럼|보다|라고|이라)$/u;
/** Digits of any script (ASCII, full-width, sub- and superscripts), Greek letters, math and currency symbols. */
const NOT_A_WORD = /[\p{N}\p{Lm}\p{M}₀-₉⁰-⁹\u0370-\u03ff=+\-−×÷^_√∑Σ∫≤≥≠≈→←%$€₩@#&*/\\|<>~]/u;

/** Whether `phrase` can be a concept: 1–4 words of letters, a noun at its end, no function word alone. */
export function isConceptPhrase(phrase: string): boolean {
  const text = phrase.normalize('NFC').trim();
  if (text.length === 0 || NOT_A_WORD.test(text)) return false;
  if (!/^[\p{L}\s'’()·-]+$/u.test(text) || /[()]/u.test(text)) return false;
  const words = text.split(/\s+/u);
  if (words.length > 4 || letterCount(text) < 2 || letterCount(text) > 30) return false;
  const last = words.at(-1) ?? '';
  // A variable or an abbreviation of one or two Latin letters (`x`, `Xn`) is not a concept to explain in words.
  if (words.some((word) => /^[A-Za-z]{1,2}[\uac00-\ud7a3]{0,2}$/u.test(word))) return false;
  if (words.every((word) => FUNCTION_WORDS.has(word.toLowerCase()))) return false;
  if (FUNCTION_WORDS.has(last.toLowerCase()) && words.length > 1 && !/의$/u.test(words.at(-2) ?? '')) return false;
  if (/[\uac00-\ud7a3]/u.test(last)) {
    if (VERB_ENDING.test(last) || TRAILING_PARTICLE.test(last) || !looksLikeNoun(last)) return false;
    // A one-syllable Hangul word is too ambiguous (`합`, `값`) or the stem of a cut verb (`받는` -> `받`).
    if (Array.from(last).length < 2) return false;
  }
  const inner = words.slice(0, -1);
  // A phrase that starts with a determiner or a counted word (`두 확률변수의 합`) is a description, not a name.
  if (inner.length > 0 && FUNCTION_WORDS.has(inner[0]?.toLowerCase() ?? '')) return false;
  // Inner Korean words join nouns (`대수의 법칙`, `동전 던지기`); a particle or a verb form inside means a clause
  // (`사람이 받는`) or two phrases run together (`기댓값과 평균`).
  return inner.every((word) => !VERB_ENDING.test(word) && !/[\uac00-\ud7a3](?:을|를|에서|으로|이|가|은|는|과|와|도|에)$/u.test(word));
}

const NAMING = /(?:^|[\s(,])([\p{L}][\p{L}\s]{0,20}?)(?:\s+[^\s\uac00-\ud7a3]{1,4})?(?:이)?라고\s*(?:합니다|한다|해요|하며|하고|부른다|부릅니다|불러요|정의한다|정의합니다|말한다|말합니다)/gu;
const TOPIC = /^([\p{L}][\p{L}\s]{0,24}?)(?:\s*\(([^()]{1,20})\))?(?:\s+[^\s\uac00-\ud7a3]{1,4})?(?:은|는|이란|란|이라\s*함은)\s/u;
const COLON = /^([\p{L}][\p{L}\s]{0,24}?)\s*[:：]\s*\S/u;
const BRACKETED = /([\p{L}]{1,12})\s*\(([\p{L}][\p{L}\s]{0,14})\)/gu;
const ENGLISH_DEFINITION = /^(?:the\s+|an?\s+)?([a-z][a-z\s-]{2,40}?)\s+(?:is|are|means|refers to)\s+(?:the|an?|defined)\b|\bcalled\s+(?:the\s+|an?\s+)?([a-z][a-z-]+(?:\s+[a-z][a-z-]+)?)/giu;
/** One English word with an adjective's ending (`Categorical`, `Quantitative`, `Continuous`). */
const ENGLISH_ADJECTIVE = /^[A-Za-z]+(?:al|ive|ous|ic|ful|less|able|ible)$/iu;
const BOLD = /\*\*([^*\n]{1,40})\*\*/gu;
const MARKDOWN_HEADING = /^#{1,6}\s+(.+)$/u;
/** A PDF line that is a heading: short, no sentence end, no predicate. */
const HEADING_LINE = /^[^.!?。:：]{2,30}$/u;
const KOREAN_PREDICATE = /(?:다|요|죠|함|임|됨)[.!。]?$/u;
const NUMBERING = /^(?:제?\s*\d+\s*[장절강]\s*|\d+(?:\.\d+)*[.)]?\s+|[IVX]+\.\s+|chapter\s+\d+[.:]?\s+)/iu;

/** The noun phrases a heading names: its numbering and facet stripped, `A과 B` split into A and B. */
function headingConcepts(heading: string): string[] {
  const text = heading.replace(NUMBERING, '').trim();
  if (NOT_A_HEADING.test(text) || KOREAN_PREDICATE.test(text)) return [];
  const facet = FACET.exec(text)?.[1];
  const base = facet ?? text;
  const pair = /^(\S+?)(?:과|와)\s+(\S+)$/u.exec(base);
  return pair?.[1] !== undefined && pair[2] !== undefined ? [pair[1], pair[2]] : [base];
}

/** The sentences of `text` with their offsets (a line break ends one too, so headings stay apart). */
function sentencesOf(text: string): { sentence: string; at: number }[] {
  const result: { sentence: string; at: number }[] = [];
  for (const match of text.matchAll(/[^\n.!?。？！]+[.!?。？！]?/gu)) {
    const sentence = match[0].replace(/^[\s\-*•·>#]+/u, '').trim();
    if (sentence.length > 0) result.push({ sentence, at: match.index });
  }
  return result;
}

/** The concepts `text` defines or emphasises, heaviest first (ties: first appearance). */
export function materialConcepts(text: string): MaterialConcept[] {
  const source = text.normalize('NFC');
  const found = new Map<string, MaterialConcept>();
  const add = (raw: string | undefined, kind: ConceptSource, at: number): void => {
    const concept = headNoun(raw?.replace(/\s+/gu, ' ').trim(), source);
    if (concept === undefined || !isConceptPhrase(concept) || isVerbStem(concept.split(' ').at(-1) ?? '', source)) return;
    // Always in the material: the phrase as the material writes it (any spacing).
    if (!new RegExp(concept.split(' ').map(escapeRegExp).join('\\s*'), 'iu').test(source)) return;
    const entry = found.get(concept) ?? { concept, source: kind, weight: 0, at };
    entry.weight += SOURCE_WEIGHT[kind];
    if (SOURCE_WEIGHT[kind] > SOURCE_WEIGHT[entry.source]) entry.source = kind;
    entry.at = Math.min(entry.at, at);
    found.set(concept, entry);
  };

  let offset = 0;
  for (const line of source.split('\n')) {
    const trimmed = line.trim();
    const heading = MARKDOWN_HEADING.exec(trimmed)?.[1] ?? (HEADING_LINE.test(trimmed) && !KOREAN_PREDICATE.test(trimmed) ? trimmed : undefined);
    if (heading !== undefined) for (const concept of headingConcepts(heading.replace(/\*\*/gu, ''))) add(concept, 'heading', offset);
    offset += line.length + 1;
  }
  for (const match of source.matchAll(BOLD)) add(match[1], 'emphasis', match.index);
  for (const { sentence, at } of sentencesOf(source.replace(/\*\*/gu, ''))) {
    // Worked examples and labels introduce nothing to learn (`예: …`, `요약: …`).
    if (/^(?:예|예시|보기|요약|정리|참고|주의|note|example)\s*[:：)]/iu.test(sentence)) continue;
    const topic = TOPIC.exec(sentence);
    if (topic !== null && KOREAN_PREDICATE.test(sentence)) {
      add(topic[1], 'definition', at);
      add(topic[2], 'definition', at);
    }
    const labelled = COLON.exec(sentence)?.[1];
    // `Categorical: eye colour, …` labels a kind by its adjective; the concept is the noun it qualifies.
    if (labelled === undefined || !ENGLISH_ADJECTIVE.test(labelled)) add(labelled, 'definition', at);
    for (const match of sentence.matchAll(NAMING)) add(lastNounPhrase(match[1] ?? ''), 'definition', at + match.index);
    for (const match of sentence.matchAll(BRACKETED)) add(match[2], 'emphasis', at + match.index);
    for (const match of sentence.matchAll(ENGLISH_DEFINITION)) add(match[1] ?? match[2], 'definition', at + match.index);
  }
  // A heading that the text never mentions again is a title (of the course, the cover), not something it teaches.
  const mentions = (concept: string): number => source.split(concept).length - 1;
  return [...found.values()]
    .filter((entry) => entry.weight > SOURCE_WEIGHT.heading || entry.source !== 'heading' || mentions(entry.concept) >= 2)
    .sort((left, right) => right.weight - left.weight || left.at - right.at);
}

/**
 * Whether the text conjugates `word`, so it is the stem of a verb the particle stripper cut (`움직이` of `움직이는`):
 * a verb ending fused into its last open syllable (`움직입니다`, `움직인`, `움직일`, `움직였다`) or added to it.
 */
export function isVerbStem(word: string, text: string): boolean {
  const last = word.at(-1) ?? '';
  const code = last.charCodeAt(0) - 0xac00;
  if (code < 0 || code >= 11172) return false;
  const escaped = escapeRegExp(word);
  if (new RegExp(`(?:^|[\\s(])${escaped}(?:었|였|고\\s|며\\s|면\\s|어서|지만|도록)`, 'u').test(text)) return true;
  if (code % 28 !== 0) return false;
  // ㄴ, ㄹ and ㅂ finals are 4, 8 and 17 places after the open syllable; 이 + 었 is written 였.
  const fused = [4, 8, 17].map((offset) => String.fromCharCode(0xac00 + code + offset));
  const stem = escapeRegExp(word.slice(0, -1));
  return new RegExp(`(?:^|[\\s(])${stem}(?:${fused.join('|')}${last === '이' ? '|였' : ''})`, 'u').test(text);
}

/**
 * An English phrase without the describing words in front of the term the material keeps using: `A small standard
 * deviation means …` defines `standard deviation` (said five times), not `small standard deviation` (said once).
 */
function headNoun(phrase: string | undefined, source: string): string | undefined {
  if (phrase === undefined || !/^[A-Za-z][A-Za-z\s-]*$/u.test(phrase)) return phrase;
  const count = (text: string) => source.match(new RegExp(`\\b${escapeRegExp(text)}\\b`, 'giu'))?.length ?? 0;
  let current = phrase;
  for (;;) {
    const words = current.split(' ');
    if (words.length < 2) return current;
    const tail = words.slice(1).join(' ');
    if (count(tail) < count(current) + 2) return current;
    current = tail;
  }
}

/**
 * The named phrase at the end of `…의 평균을 표본평균` or `일정한 운동을 등가속도 운동`: the words after the last one
 * that carries an object particle or a verb form, at most three (`표본평균`, `등가속도 운동`, `대수의 법칙`).
 */
function lastNounPhrase(text: string): string {
  const words = text.trim().split(/\s+/u);
  const phrase: string[] = [];
  for (let index = words.length - 1; index >= 0 && phrase.length < 3; index -= 1) {
    const word = words[index] ?? '';
    const ends = phrase.length > 0 && (/(?:을|를|에서|으로|에게|이|가|은|는|와|과)$/u.test(word) && !/의$/u.test(word) || VERB_ENDING.test(word) || !looksLikeNoun(word) || FUNCTION_WORDS.has(word));
    if (ends) break;
    phrase.unshift(word);
  }
  return phrase.join(' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
