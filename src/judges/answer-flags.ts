import { ENGLISH_PREDICATE_CUES } from './english-words.js';
import type { AnalysedText, Token } from './text-units.js';
import { analyseText, normalizeText } from './text-units.js';
import type { ReferenceComparison } from './reference-comparison.js';

/**
 * Answers that are never good whatever their word overlap: a give-up, an echo of the question, a passage pasted
 * from the material, a bare list of keywords. Each check is a pure function of analysed texts.
 */

const KOREAN_GIVE_UP = /모르겠|모르겟|몰라|몰르|모름|모릅니다|모르는데|잘\s*모르|기억(?:이)?\s*안|생각(?:이)?\s*안\s*나|글쎄|패스|ㅁㄹ/u;
const ENGLISH_GIVE_UP =
  /\b(?:i\s+)?(?:do\s*n'?t|dont|do\s+not)\s+know\b|\bidk\b|\bno\s+idea\b|\bnot\s+sure\b|\bno\s+clue\b|\bdunno\b|\bi\s+forgot\b|\bno\s+answer\b/u;
const BARE_GIVE_UP = /^(?:pass|skip|\?+|-+|n\/?a|모름|x)$/u;
/** Words of the give-up phrases themselves, which do not count as content when deciding whether more was said. */
const GIVE_UP_WORDS: ReadonlySet<string> = new Set([
  'know', 'idea', 'sure', 'clue', 'forgot', 'forget', 'answer', 'sorri', 'realli', 'think', '모르겠', '모르', '기억',
  '생각', '나', '글쎄', '잘', '죄송', '미안', '정말',
]);

/**
 * Korean words a student uses to talk about their own studying rather than the subject (`배우긴 했는데`, `시험
 * 범위였나요`, `뭐였는지`, `관련 있는 건 아는데 내용은`): beside a give-up phrase they say no more than it does.
 */
const STUDY_TALK = /^(?:배우|배웠|시험|범위|뭐|뭔|이거|그거|관련|내용|수업|공부|헷갈|안나|했)/u;

/**
 * A student saying, in the first person, that they do not know or remember part of what they were asked (`…,
 * 데크레셴도는 잘 모르겠어요`, `I'm not sure, but …`): not `아무도 모름`, said of the subject.
 */
const HEDGE = /모르겠|모르겟|기억(?:이)?\s*(?:잘\s*)?안\s*나|헷갈리|헷갈려|\b(?:i\s+)?(?:do\s*n'?t|dont|do\s+not)\s+know\b|\bnot\s+sure\b|\bi\s+forgot\b/u;

/** Whether an answer that is an attempt says it does not know part of it (HEDGE). */
export function hedges(answer: AnalysedText): boolean {
  return HEDGE.test(answer.normalized);
}

/** Loose jamo (`ㅠㅠ`, `ㅋㅋ`): a face, not a word. */
const EMOTICON = /^[\u1100-\u11ff\u3130-\u318f]+$/u;

/** The question and the references of an answer, to read what a give-up phrase is said beside. */
export interface GiveUpContext {
  question: AnalysedText;
  references: readonly AnalysedText[];
}

/**
 * A give-up ("모르겠어요", "idk", "I don't know", "pass", empty) with too little else to judge. Given the question and
 * the references, a Korean give-up phrase said beside nothing but the question's own words and talk about one's
 * studying (`P파랑 S파 배우긴 했는데 뭐가 뭔지 기억이 안 나요`, `연결 리스트가 뭐였는지 기억이 안 나요`) is one too, as
 * long as no word of the references that the question does not give is there: `모르겠지만 분산이 작아진다` is a hedged
 * attempt.
 */
export function isGiveUp(answer: AnalysedText, context?: GiveUpContext): boolean {
  const text = answer.normalized.trim();
  if (!/[\p{L}\p{N}]/u.test(text)) return true;
  if (BARE_GIVE_UP.test(text.replace(/[.!?\s]+$/u, ''))) return true;
  const korean = KOREAN_GIVE_UP.test(text);
  if (!korean && !ENGLISH_GIVE_UP.test(text)) return false;
  const rest = answer.units.filter((unit) => !GIVE_UP_WORDS.has(unit) && !unit.startsWith('모르') && !EMOTICON.test(unit));
  if (new Set(rest).size < 3) return true;
  if (context === undefined || !korean) return false;
  const beyondQuestion = rest.filter((unit) => !context.question.unitSet.has(unit));
  if (beyondQuestion.some((unit) => context.references.some((reference) => reference.unitSet.has(unit)))) return false;
  return new Set(beyondQuestion.filter((unit) => !STUDY_TALK.test(unit))).size < 3;
}

/** Adjacent content-unit pairs of a text (within two positions), as `left right` strings. */
function nearPairs(text: AnalysedText): Set<string> {
  const pairs = new Set<string>();
  text.units.forEach((unit, index) => {
    for (const next of text.units.slice(index + 1, index + 3)) pairs.add(`${unit} ${next}`);
  });
  return pairs;
}

/**
 * An echo: the answer repeats the question's own wording (most of its adjacent word pairs are the question's, or
 * for a one- or two-word answer, its words are) and has none of the reference's new concepts (those the
 * question does not already contain). A reference made only of the question's words cannot tell an echo from a
 * restatement, so it never flags.
 */
export function isEcho(answer: AnalysedText, question: AnalysedText, comparison: ReferenceComparison): boolean {
  if (answer.unitSet.size === 0 || comparison.novelCount === 0 || comparison.novelMatched > 0) return false;
  if (answer.units.length <= 2) return comparison.questionShare === 1;
  const questionPairs = nearPairs(question);
  const answerPairs = [...nearPairs(answer)];
  return answerPairs.filter((pair) => questionPairs.has(pair)).length / answerPairs.length >= 0.6;
}

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): string[] {
  return normalizeText(text).match(WORD) ?? [];
}

function shingles(tokens: readonly string[], size: number): Set<string> {
  const result = new Set<string>();
  for (let index = 0; index + size <= tokens.length; index += 1) result.add(tokens.slice(index, index + size).join(' '));
  return result;
}

/**
 * A pasted passage: most of the answer is long verbatim runs of the source material that are not part of the
 * reference itself. Korean words are longer (particles attached), so shorter runs count there.
 */
export function isPastedPassage(answerText: string, sourceText: string, referenceText: string, korean?: boolean): boolean {
  const answerWords = words(answerText);
  const hangul = korean ?? answerWords.filter((word) => /[\uac00-\ud7a3]/u.test(word)).length > answerWords.length / 2;
  const size = hangul ? 4 : 5;
  if (answerWords.length < (hangul ? 8 : 12)) return false;
  const source = shingles(words(sourceText), size);
  const reference = shingles(words(referenceText), size);
  const covered = new Array<boolean>(answerWords.length).fill(false);
  for (let index = 0; index + size <= answerWords.length; index += 1) {
    const shingle = answerWords.slice(index, index + size).join(' ');
    if (!source.has(shingle) || reference.has(shingle)) continue;
    for (let offset = 0; offset < size; offset += 1) covered[index + offset] = true;
  }
  return covered.filter(Boolean).length / answerWords.length >= 0.5;
}

const LIST_FILLERS: ReadonlySet<string> = new Set(['and', 'or', '및', '그리고', '등']);
/** Questions that ask for a list, where a list is the expected form. */
const ASKS_FOR_LIST = /\b(?:list|name|enumerate|write[- ]down)\b|나열|열거|이름을\s*쓰/u;

/** Korean endings that close or link a clause: a word ending so is a predicate, not a list item. */
const FINITE_ENDING = /(?:다|요|죠|니다|고|며|서|면|지만|는데|니까|므로|도록|게)$/u;

/** A predicate nominalised as 개조식 notes close it (음슴체: `저항함`, `높음`, `연장됨`): a statement, not a list item. */
const NOMINALISED_PREDICATE = /^(?:음|함|됨|임)$/u;

/**
 * A count the question names for what it asks (`3대 영양소`, `두 가지`, `Name the 2 phases`, `three reasons`): a list
 * of that many is the answer's form.
 */
const NAMED_COUNT =
  /(\d+|[두세네]|다섯|two|three|four|five)\s*(?:가지|대\s|개의?\s|종류|요소|원색|단계|(?:\w+\s+)?(?:ways|reasons|things|types|kinds|parts|phases|examples|factors|steps)\b)/u;
const COUNT_WORDS: Readonly<Record<string, number>> = { 두: 2, 세: 3, 네: 4, 다섯: 5, two: 2, three: 3, four: 4, five: 5 };

/** Korean words that ask something, wherever they stand (Korean asks in place: `어디이며, 어떤 과정으로`). */
const KOREAN_ASKING = /무엇|무슨|어떻게|어떤|어느|어디|왜|언제|누가|누구|얼마|몇/gu;
/**
 * English words that ask something where a question or a coordinated part of one begins: `when` in "What does it
 * mean when the reading jumps" joins a clause and asks nothing.
 */
const ENGLISH_ASKING = /(?:^|[.?!;,]\s*|\b(?:and|or)\s+)(what|why|how|which|where|when|who)\b/gu;
/** `각각`, `respectively`, or two things compared (`X와 Y는 어떻게 다른가요`): the question asks once per thing. */
const ASKS_PER_THING = /각각|다른가|다릅니까|차이|\brespectively\b|\bdiffer(?:s|ence|ences)?\b|\bcompare\b/u;

/**
 * How many parts a question asks for: its asking words (`어디이며, 어떤 과정으로`: two), at least two when it asks
 * about each of two things, and the count it names. A terse answer with one item per part (`미토콘드리아, 세포 호흡`)
 * answers it in 개조식; what the keyword-list rules are for is more items than the question asks, the reference's
 * words dumped.
 */
function questionParts(question: string): number {
  const text = question.normalize('NFKC').toLowerCase();
  const korean = text.match(KOREAN_ASKING) ?? [];
  const english = [...text.matchAll(ENGLISH_ASKING)].map((match) => match[1]);
  const count = NAMED_COUNT.exec(text)?.[1];
  const named = count === undefined ? 0 : (COUNT_WORDS[count] ?? Number(count));
  return Math.max(new Set([...korean, ...english]).size, ASKS_PER_THING.test(text) ? 2 : 1, named);
}

/**
 * Whether a list of `items` is the form of an answer to the question: no more items than the parts it asks for
 * (questionParts). The judges' keyword-list check and the exam's bare-list check both leave such a list to be read
 * for its content.
 */
export function listAnswersQuestion(question: string, items: number): boolean {
  return items <= questionParts(question);
}

/** A Korean word closing a 개조식 note with a nominalised predicate (`저항함`, `높음`): a statement, not a term. */
export function closesNote(token: Token): boolean {
  return token.hangul && token.predicate && NOMINALISED_PREDICATE.test(token.ending);
}

/** Korean particles that make a noun an argument of a predicate (topic, subject, object, target, means). */
const ARGUMENT_PARTICLE = /^(?:은|는|이|가|을|를|에|에게|에서|으로|로)$/u;

/**
 * A terse statement, not a keyword: a Korean item whose first words carry an argument particle and are followed by
 * what is said of them (`스택은 후입선출`, `저항에 반비례`), the 개조식 way of writing a sentence without its verb.
 */
export function isTerseStatement(item: string): boolean {
  const content = analyseText(item).tokens.filter((token) => token.content);
  return content.length >= 2 && content.slice(0, -1).some((token) => token.hangul && !token.verbal && ARGUMENT_PARTICLE.test(token.ending));
}

/**
 * Symbols that state a relation between the words around them: cause and effect or a sequence (→, ⇒, ->), a rise or
 * a fall (↑, ↓), an equality or a comparison (=, ≠, <, >, ∝, ↔). `수입품 가격↑ → 수입↓ → 국내 산업 보호` and
 * `은유: A=B` are 개조식 sentences, not lists of terms. Signs (+, −) and slashes are not relations.
 */
const RELATION_SYMBOL = /[→⇒⟶➔➜↑↓⇑⇓=≠<>≤≥∝↔⇔]|->|=>/u;

/** Whether the text states a relation with a symbol (RELATION_SYMBOL). */
export function statesRelationBySymbol(text: string): boolean {
  return RELATION_SYMBOL.test(text.normalize('NFKC'));
}

/**
 * A bare keyword list: short items with no predicate (no verb, copula, negation, sentence-building function word
 * or relation symbol), separated by commas or just spaces, more of them than the question asks for (questionParts).
 * Only for sentence references and questions that do not ask for a list or name a count; numbers and formulas are
 * answers of their own kind, not lists.
 */
export function isKeywordList(answer: AnalysedText, reference: AnalysedText, question: AnalysedText): boolean {
  if (!reference.tokens.some((token) => token.predicate || token.negation)) return false;
  if (ASKS_FOR_LIST.test(question.normalized)) return false;
  const content = answer.tokens.filter((token) => token.content);
  if (new Set(content.map((token) => token.unit)).size < 2 || content.some((token) => /\d/u.test(token.surface))) return false;
  if (answer.tokens.some((token) => token.negation) || statesRelationBySymbol(answer.normalized)) return false;
  if (answer.tokens.some((token) => !token.content && !LIST_FILLERS.has(token.surface) && !token.hangul)) return false;
  // Only clear predicates count here: `closed` in "closed path" is an adjective in a list item.
  const finite = (token: (typeof answer.tokens)[number]): boolean =>
    token.hangul
      ? FINITE_ENDING.test(token.surface) || closesNote(token)
      : ENGLISH_PREDICATE_CUES.has(token.surface);
  if (answer.tokens.some(finite)) return false;
  const items = answer.normalized.split(/[,;/·、\n]/u).filter((item) => /[\p{L}\p{N}]/u.test(item));
  // Comma-separated short items (`정지, 운동, 같은 속력, 방향`), or three or more words with nothing between.
  // Terse statements (`스택은 후입선출, 큐는 선입선출`, `빛에너지로 포도당 합성, 산소 방출`) are 개조식, not a list.
  if (items.length >= 2) {
    if (listAnswersQuestion(question.normalized, items.length)) return false;
    return items.every((item) => item.trim().split(/\s+/u).length <= 3) && !items.some(isTerseStatement);
  }
  // A noun phrase built on the genitive (`질량과 속도의 곱`, `인터넷 기기의 고유 주소`) names one thing by its parts;
  // two things joined by `와/과` answer a question about two (`정보 전달과 설득`).
  if (answer.tokens.some((token) => token.hangul && token.ending === '의')) return false;
  const joined = answer.tokens.filter((token) => token.hangul && /^(?:와|과)$/u.test(token.ending)).length;
  if (joined > 0 && listAnswersQuestion(question.normalized, joined + 1)) return false;
  // Words with argument particles (`식물이 양분을 만드는 것`) are a sentence, however few its verbs.
  return content.length >= 3 && !answer.tokens.some((token) => token.predicate) && !isTerseStatement(answer.normalized);
}

/**
 * The verdict an answer or a reference opens with, when it opens with one: yes/no (예/아니요…), an option letter
 * written as one (`A.`, `(B)`, `C)`), or a number that is a value, not a list number (`40 meters.`, `30,` — but
 * not `1.` or `2)`). Null otherwise.
 */
export function leadingVerdict(text: string): string | null {
  const trimmed = text.normalize('NFKC').trim();
  const option = /^\(?([A-H])[.)](?:\s|$)/u.exec(trimmed);
  if (option !== null) return `option:${option[1]}`;
  const lower = trimmed.toLowerCase();
  if (/^(?:yes|yeah|yep|true|correct)\b|^(?:예|네|맞다|맞아요|맞습니다)(?:[\s,.!]|$)/u.test(lower)) return 'yes';
  if (/^(?:no|nope|false|incorrect)\b|^(?:아니요|아니오|아뇨|아니다|아닙니다|틀리다|틀려요|틀립니다)(?:[\s,.!]|$)/u.test(lower)) return 'no';
  const number = /^(-?\d+(?:\.\d+)?)(?=[\s,;:]|$)/u.exec(lower);
  if (number !== null) return `number:${Number(number[1])}`;
  return null;
}

/**
 * A wrong choice: every reference opens with a verdict (yes/no, an option, a value), the answer opens with one of
 * the same kind, and it is none of theirs ("B. Because…" for "A. Dry soil…", "No, …" for "Yes. If both…", "30, I know"
 * for "40 meters."). What follows cannot make it right: the answer chose otherwise.
 */
export function isWrongChoice(answerText: string, referenceTexts: readonly string[]): boolean {
  const answer = leadingVerdict(answerText);
  if (answer === null || referenceTexts.length === 0) return false;
  const kind = (verdict: string) => (verdict === 'yes' || verdict === 'no' ? 'yes-no' : verdict.split(':')[0]);
  const references = referenceTexts.map(leadingVerdict);
  if (references.some((verdict) => verdict === null || kind(verdict) !== kind(answer))) return false;
  return !references.includes(answer);
}
