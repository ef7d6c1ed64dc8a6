import { contentTerms, isFunctionWord, looksLikeNoun, rankedTerms, termPattern, termsMatch, withParticle } from '../../text/index.js';
import type { ControlResult } from './assistant-schemas.js';

/**
 * The offline Student Assistant's and Control Agent's decisions, from surface cues only. Documented rules, so a
 * teacher can predict them and tests can pin them down.
 *
 * Classify (specific vs vague):
 *   1. A whole-topic cue ("무슨 내용", "뭔지", "무엇인지", "전체적으로", "하나도", "처음부터" …) makes the question
 *      vague, unless it also names an element of the material (see 3) — "기댓값 공식이 뭔지" points at the formula.
 *   2. A focused ask ("왜", "어떻게", "무슨 의미", "무슨 뜻", "의미로", "이유", "차이", "언제" …) makes it specific
 *      when it also names an element, or at least two different terms of the material (a relation between them).
 *   3. Otherwise it is specific only when it names an element; a question about one concept is vague.
 *   0. Before all of these: a relation ask ("차이", "관계", "비교", "다른 점", "difference", "compare", "vs") that
 *      names two terms of the material is specific, whole-topic cue or not — "프로세스와 스레드의 차이가 뭔가요?" asks
 *      for the difference, not for either topic as a whole. Its concept is the relation (`process와 thread의 차이`).
 *   English questions have the same cues ("what is" is whole-topic; "why", "how", "when" are focused), and their
 *   concept is the longest run of their words the material says as one term (`round robin`, `context switch`).
 *   An element is a formula (`E[X]`), a math symbol or number, or a word for a part of the material: 공식, 식, 수식,
 *   기호, 항, 분모, 분자, 증명, 유도, 단계, 과정, 예제, 예시, 그래프, 표, 계산, 구하는 법. A number counts too,
 *   except one that only locates a part of the material (`1장`, `5쪽`).
 *   Seed examples: "기댓값 공식에서, 확률이 곱해지는데 이게 무슨 의미로 곱해지는지 모르겠다" names the formula and
 *   asks for a meaning (specific); "기댓값이 무슨 내용인지 모르겠다" is a whole-topic cue (vague).
 *
 * Control (understood or not): understood only when the reply has an agreeing cue ("네", "응", "이해했어요",
 * "알겠어요", "그렇군요" …) and no doubting cue ("아니요", "모르겠", "헷갈", "이해가 안", "어려워", "다시", a question
 * word or "?"). Mixed or unclear replies count as not understood, and the reply itself is the confusion.
 */

const WHOLE_TOPIC =
  /무슨\s*내용|무슨\s*말|뭔지|무엇인지|뭐(?:예|에|이)요|뭐야|뭔가요|무엇인가요|전체적으로|전반적으로|하나도|전혀|아예|처음부터|개념\s*자체|다\s*모르|\bwhat(?:\s+(?:is|are)|'s)\b|\bdon'?t\s+(?:get|understand)\b/iu;
const FOCUSED_ASK =
  /왜|어째서|어떻게|무슨\s*(?:의미|뜻)|어떤\s*(?:의미|뜻)|뭘\s*뜻|무엇을\s*뜻|의미로|뜻으로|이유|차이|언제|어디서|얼마나|어떤\s*역할|\b(?:why|how|when)\b/iu;
/** A question about how two things relate: the difference, the relation, a comparison. */
const RELATION = /차이|관계|비교|다른\s*점|\b(?:differ|differs|difference|differences|compare|compared|comparison|versus|vs|relation|relationship)\b/iu;
const DIFFERENCE = /차이|다른\s*점|비교|\b(?:differ|differs|difference|differences|compare|compared|comparison|versus|vs)\b/iu;
const ELEMENT_WORD = /공식|수식|기호|분모|분자|증명|유도|단계|과정|예제|예시|그래프|계산|구하|구해|구할|(?:^|[\s,])(?:식|항|표)(?:[이가은는을를의에]|에서)?(?=[\s,?]|$)/u;
// A number is an element (`3.5는 어떻게 나와요?`) unless it only locates a part of the material (`1장`, `5쪽`).
const MATH = /[A-Za-z]\s*[[(]|[=+−×÷Σ∑∫√^≤≥≠≈μσ]|\d(?![\d.]*\s*(?:장|절|쪽|페이지|번째|주차|강))/u;

/** Words of asking and not-knowing: they tell how the student asks, not what about. */
const ASK_WORDS = [
  '무슨', '무엇', '뭔지', '뭐', '뭘', '내용', '내용인지', '모르겠', '모르겠어', '모르겠다', '모르겠어요', '모르', '이해',
  '의미', '의미로', '뜻', '이게', '이거', '그게', '언제', '항상', '어떤', '어디서', '얼마나', '이유', '전체적', '전반적',
  '궁금', '궁금해', '궁금합니다', '질문', '헷갈', '헷갈려', '알려', '알려주세요', '설명', '설명해', '주세요', '하나도', '전혀',
  // English asking words (English function and question words are text/'s isFunctionWord).
  'explain', 'understand', 'confused', 'please', 'tell', 'difference', 'differences', 'differ',
  'compare', 'versus', 'vs',
];

function isAskWord(term: string): boolean {
  return isFunctionWord(term) || ASK_WORDS.some((word) => term === word || (word.length >= 2 && term.startsWith(word)));
}

/** The question without its asking words: what it is about (used as the retrieval query). */
export function questionFocus(question: string): string {
  const terms = contentTerms(question).filter((term) => !isAskWord(term));
  const formulas = rankedTerms(question).filter((entry) => entry.formula).map((entry) => entry.term);
  return [...formulas, ...terms].join(' ') || question;
}

/**
 * The question's terms that the material also uses, in the material's own form (`평균이랑` -> `평균`), without
 * repeats; all of the question's terms when there is no material to compare with.
 */
export function materialTerms(question: string, passages: readonly string[]): string[] {
  const terms = contentTerms(question).filter((term) => !isAskWord(term) && Array.from(term).length >= 2);
  const material = passages.length > 0 ? [...new Set(contentTerms(passages.join('\n')))] : null;
  const known = material === null ? terms : terms.flatMap((term) => materialForm(term, material));
  const single = known.filter((term, index) => known.findIndex((other) => termsMatch(other, term)) === index);
  const phrases = passages.length > 0 ? materialPhrases(question, passages.join('\n')) : [];
  if (phrases.length === 0) return single;
  // A phrase stands for its words (`round robin`, not `round` and `robin`); all in the question's order.
  const lower = question.toLowerCase();
  const covered = (term: string): boolean => phrases.some((phrase) => phrase.toLowerCase().split(' ').includes(term.toLowerCase()));
  return [...phrases, ...single.filter((term) => !covered(term))].sort((left, right) => lower.indexOf(left.toLowerCase()) - lower.indexOf(right.toLowerCase()));
}

/** Most words of an English term in a question. */
const MAX_PHRASE_WORDS = 4;

/**
 * The runs of two to four English words of the question that the material says as they stand (`round robin`,
 * `context switch`, `process control block`), longest first at each place, as the student wrote them. Every word
 * of a run is a content word, so `a process and a thread` is never one.
 */
function materialPhrases(question: string, material: string): string[] {
  const words = question.normalize('NFC').split(/[^A-Za-z-]+/u).filter((word) => word.length > 0);
  const content = (word: string): boolean => contentTerms(word).length > 0 && !isAskWord(word.toLowerCase());
  const phrases: string[] = [];
  for (let start = 0; start < words.length; start += 1) {
    if (!content(words[start] ?? '')) continue;
    for (let length = Math.min(MAX_PHRASE_WORDS, words.length - start); length >= 2; length -= 1) {
      const run = words.slice(start, start + length);
      if (!run.every(content) || !termPattern(run.join(' ')).test(material)) continue;
      phrases.push(run.join(' '));
      start += length - 1;
      break;
    }
  }
  return phrases;
}

/** The material's spelling of a question term: the same word, else the longest material word it starts with. */
function materialForm(term: string, material: readonly string[]): string[] {
  if (material.includes(term)) return [term];
  const matches = material.filter((other) => termsMatch(term, other));
  if (matches.length === 0) return [];
  const stems = matches.filter((other) => term.startsWith(other)).sort((left, right) => right.length - left.length);
  return [stems[0] ?? term];
}

/**
 * Whether the question names nothing to explain: no noun of two or more syllables beyond the asking words and no
 * element (`잘 모르겠어요`, `모르겠어요`, `이해가 안 돼요`, `?`). Such a question is answered with "which part?".
 */
export function namesNothing(question: string): boolean {
  if (namesElement(question)) return false;
  return !contentTerms(question).some((term) => !isAskWord(term) && Array.from(term).length >= 2 && looksLikeNoun(term));
}

export function namesElement(question: string): boolean {
  return ELEMENT_WORD.test(question) || MATH.test(question);
}

export function classifyQuestion(question: string, passages: readonly string[]): 'specific' | 'vague' {
  if (RELATION.test(question) && materialTerms(question, passages).length >= 2) return 'specific';
  const element = namesElement(question);
  if (WHOLE_TOPIC.test(question)) return element ? 'specific' : 'vague';
  if (FOCUSED_ASK.test(question)) return element || materialTerms(question, passages).length >= 2 ? 'specific' : 'vague';
  return element ? 'specific' : 'vague';
}

/**
 * The concept the question is about: its first noun term the material also uses (`기댓값 공식에서, …` ->
 * `기댓값`), a two-word phrase when the material uses it as one (`대수의 법칙`), else its first noun term.
 */
export function questionConcept(question: string, passages: readonly string[]): string {
  const known = materialTerms(question, passages).filter((term) => looksLikeNoun(term));
  const pair = relatedTerms(question, passages);
  if (pair !== undefined) return `${withParticle(pair[0], '과/와')} ${pair[1]}의 ${DIFFERENCE.test(question) ? '차이' : '관계'}`;
  return singleConcept(question, passages, known);
}

/** The two material terms a relation ask is about (rule 0), in the question's order; undefined for other asks. */
export function relatedTerms(question: string, passages: readonly string[]): [string, string] | undefined {
  if (!RELATION.test(question)) return undefined;
  const [first, second] = materialTerms(question, passages).filter((term) => looksLikeNoun(term));
  return first !== undefined && second !== undefined ? [first, second] : undefined;
}

function singleConcept(question: string, passages: readonly string[], known: readonly string[]): string {
  const first = known[0] ?? contentTerms(question).find((term) => !isAskWord(term) && looksLikeNoun(term));
  if (first === undefined) return '질문한 개념';
  const words = question.normalize('NFC').split(/\s+/u);
  const at = words.findIndex((word) => word.startsWith(first));
  const phrase = at >= 0 && /의$/u.test(words[at] ?? '') ? `${words[at]} ${contentTerms(words[at + 1] ?? '')[0] ?? ''}`.trim() : '';
  return phrase.length > first.length && passages.some((passage) => passage.includes(phrase)) ? phrase : first;
}

// ---- Control

const AGREE =
  /(?:^|[\s,.!~])(?:네|넵|넹|예|응|웅|yes|yep|ok|okay|오케이)(?=$|[\s,.!~])|ㅇㅇ|ㅇㅋ|알겠|알았|알 것 같|이해(?:가)?\s*(?:됐|되었|됩니다|돼(?=$|[\s.!~요]))|이해했|이해\s*완료|그렇군요|그렇구나|아하|좋아요|확실히|맞아요/iu;
const DOUBT =
  /아니|아뇨|아닌|노노|모르겠|몰라|모름|모르|헷갈|헷깔|햇갈|이해(?:가|를)?\s*(?:안|못)|안\s*(?:돼|되|가)|못\s*(?:알|하겠)|어려|복잡|애매|글쎄|잘\s*모|다시|더\s*(?:설명|자세|쉽게|알려)|왜|어떻게|무슨|뭐|뭔|무엇|[?？]|\b(?:no|nope|not)\b/iu;

export function controlFromReply(reply: string): ControlResult {
  const text = reply.normalize('NFC').trim();
  const understood = AGREE.test(text) && !DOUBT.test(text);
  return { understood, confusion: understood ? '' : text.slice(0, 500) };
}
