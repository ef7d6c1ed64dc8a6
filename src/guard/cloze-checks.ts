import { canBeNoun, isNounAt, letterCount, tagEnglish, type EnglishTag, type EnglishToken } from '../text/index.js';
import type { Refusal } from './guard-rules.js';
import { clip, oneLine } from './text-checks.js';

/**
 * Checks of a cloze item (a sentence of the material with a blank `____`): the blank must be a whole key noun (phrase)
 * of the material standing where a noun stands, in a sentence that stands on its own, outside code and formulas,
 * and the sentence with the keyed answer put back must be in the passages the item was written from; the choices
 * must fit the blank as the key does.
 */

export const BLANK = /_{3,}/u;
const BLANKS = /_{3,}/gu;

/** The sentence with the blank: the quoted one (`「…」`) when the question quotes one, else the question. */
export function blankedSentence(question: string): string | undefined {
  const quoted = Array.from(question.matchAll(/「([^」]+)」/gu), (match) => match[1] ?? '').find((text) => BLANK.test(text));
  if (quoted !== undefined) return quoted;
  return BLANK.test(question) ? question : undefined;
}

/** Neutral particle pairs after a blank (`____은(는)`) as a pattern of either form. */
const NEUTRAL: readonly [RegExp, string][] = [
  [/은\\\(는\\\)/gu, '(?:은|는)'],
  [/이\\\(가\\\)/gu, '(?:이|가)'],
  [/을\\\(를\\\)/gu, '(?:을|를)'],
  [/과\\\(와\\\)/gu, '(?:과|와)'],
  [/\\\(으\\\)로/gu, '(?:으로|로)'],
  [/\\\(이\\\)/gu, '(?:이)?'],
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const flat = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ').trim();

/** Whether the blanked sentence, with `key` in its blanks, is written in `source` (spacing and case aside). */
export function clozeInSource(blanked: string, key: string, source: string): boolean {
  let pattern = escape(flat(blanked).replace(/[.。]$/u, ''))
    .split(escape('____'))
    .join(escape(key.trim()))
    .replace(/_{3,}/gu, escape(key.trim()));
  for (const [neutral, either] of NEUTRAL) pattern = pattern.replace(neutral, either);
  pattern = pattern.replace(/(?:\\ |\s)+/gu, '\\s*');
  return new RegExp(pattern, 'iu').test(flat(source));
}

/** Sentences that open by pointing back at one the student does not see. */
const POINTS_BACK =
  /^(?:(?:this|these|that|those|it|its|they|their|he|she|such|here|there|however|therefore|thus|hence|so|also|then|similarly|likewise|in this case|for this reason)\b|(?:이럴|이런|이러한|이렇게|이와|이때|이것|이는|이들|이를|이에|그럴|그런|그러한|그렇게|그때|그것|그는|그들|그래서|그러므로|그러나|그런데|하지만|따라서|또한|즉|반면|이\s|그\s))/iu;
const FORMULA_SIGN = /[=≤≥≠≈←→∑Σ∫√±×÷^]|\b(?:def|return|while|for\s+\w+\s+in)\b|\w\([^()]*\)\s*[:{]$/u;

const WORD_CLASS: Partial<Record<EnglishTag, string>> = {
  VERB: '동사형',
  AUX: '동사형',
  ADV: '부사',
  ADJ: '형용사',
  ADP: '기능어(전치사)',
  DET: '기능어(한정사)',
  PRON: '기능어(대명사)',
  CCONJ: '기능어(접속사)',
  SCONJ: '기능어(접속사)',
  PART: '기능어',
  INTJ: '감탄사',
};

/** Korean words that are never a noun a blank may ask for: adverbs and connectives. */
const KOREAN_ADVERBS = new Set([
  '매우', '아주', '항상', '늘', '모두', '거의', '가장', '약', '대략', '특히', '주로', '자주', '다시', '이미', '함께', '서로', '조금', '더', '덜', '잘', '곧',
  '그리고', '그러나', '하지만', '따라서', '그래서', '또한', '또', '즉', '및', '또는', '만약', '반드시', '결코', '전혀', '평균적으로', '대체로', '보통',
]);
const KOREAN_VERB_FORM = /(?:다|니다|하는|되는|하게|하여|해서|하고|하며|하면|된|한|던|인|었|았|였|겠)$/u;

/** Every span of `key` in `tokens` (its words in order, case aside). */
function spansOf(tokens: readonly EnglishToken[], key: string): { start: number; end: number }[] {
  const words = key.trim().split(/\s+/u).map((word) => word.toLowerCase());
  const spans: { start: number; end: number }[] = [];
  for (let start = 0; start + words.length <= tokens.length; start += 1) {
    if (words.every((word, offset) => tokens[start + offset]?.text.toLowerCase() === word)) spans.push({ start, end: start + words.length });
  }
  return spans;
}

const count = (haystack: string, phrase: string) => (haystack.match(new RegExp(`(?<![A-Za-z])${escape(phrase)}(?![A-Za-z])`, 'giu')) ?? []).length;

/** Why an English blank is not a whole noun (phrase) of the material, if it is not. */
function englishBlankReasons(filled: string, key: string, source: string): Refusal[] {
  const tokens = tagEnglish(filled);
  const spans = spansOf(tokens, key);
  const span = spans[0];
  if (span === undefined) return [];
  const refusals: Refusal[] = [];
  const head = span.end - 1;
  const headTag = (tokens[head] as EnglishToken).tag;
  if (headTag !== 'NUM' && !isNounAt(tokens, head)) {
    const kind = WORD_CLASS[headTag] ?? '명사가 아닌 말';
    refusals.push({ rule: 'cloze-blank-word', reason: `빈칸의 정답 '${key}'은(는) 이 문장에서 ${kind}입니다. 빈칸은 자료의 핵심 용어(명사구)여야 합니다.` });
    return refusals;
  }
  // Half of a term the material keeps saying as two words, at any of the blanks: `The ____ rate` (learning rate),
  // `____ ascent`, `breadth-first ____`.
  for (const { start, end } of spans) {
    const before = tokens[start - 1];
    const after = tokens[end];
    const neighbours: string[] = [];
    if (after !== undefined && (after.tag === 'NOUN' || after.tag === 'PROPN')) neighbours.push(`${key} ${after.text}`);
    if (before !== undefined && (before.tag === 'NOUN' || before.tag === 'PROPN' || before.tag === 'ADJ')) neighbours.push(`${before.text} ${key}`);
    // A hyphenated modifier (`breadth-first search`) is one word of the term in the text.
    const hyphenated = /([A-Za-z]+-[A-Za-z]+)\s*$/u.exec(tokens.slice(Math.max(0, start - 3), start).map((token) => token.text).join('').replace(/\s/gu, ''));
    if (hyphenated?.[1] !== undefined) neighbours.push(`${hyphenated[1]} ${key}`);
    const term = neighbours.find((phrase) => count(source, phrase) >= 2);
    if (term !== undefined) {
      refusals.push({ rule: 'cloze-partial-term', reason: `빈칸 '${key}'은(는) 자료가 한 용어로 쓰는 '${term}'의 일부입니다. 용어 전체를 빈칸으로 하세요.` });
      break;
    }
  }
  return refusals;
}

/** Why a Korean blank is not a noun's place, if it is not. */
function koreanBlankReasons(blanked: string, key: string): Refusal[] {
  const word = key.trim();
  if (KOREAN_ADVERBS.has(word)) return [{ rule: 'cloze-blank-word', reason: `빈칸의 정답 '${word}'은(는) 부사나 접속어입니다. 빈칸은 자료의 핵심 용어여야 합니다.` }];
  if (!/\s/u.test(word) && KOREAN_VERB_FORM.test(word) && letterCount(word) >= 2) {
    return [{ rule: 'cloze-blank-word', reason: `빈칸의 정답 '${word}'은(는) 동사·형용사의 활용형입니다. 빈칸은 자료의 핵심 용어여야 합니다.` }];
  }
  // No particle after the blank, and a number or a predicate next: an adverb's place (`한 장에 ____ 600원씩 잃게`).
  if (/_{3,}\s+(?:[\d.,]+|[가-힣]+(?:니다|다|요)[.!]?$)/u.test(blanked) || /_{3,}\s+[\d.,]+\s*[가-힣]*씩/u.test(blanked)) {
    return [{ rule: 'cloze-blank-word', reason: `빈칸 뒤에 조사가 없고 수나 서술어가 바로 이어져, 빈칸이 부사 자리입니다.` }];
  }
  return [];
}

/** Content words of a blanked sentence outside its blanks (two letters or more). */
function contentWords(blanked: string): string[] {
  return (blanked.replace(BLANKS, ' ').match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter((word) => !/^(?:은|는|이|가|을|를|과|와|으로|로|the|and|of|an|to|in|is|are)$/iu.test(word));
}

export interface ClozeItem {
  question: string;
  /** The keyed answer (the words of the blank). */
  key: string;
  /** The other choices, when the item has choices. */
  distractors?: readonly string[] | undefined;
}

/**
 * The refusals of a cloze item against the passages it was written from (`source`); none when the question has
 * no blank (it is no cloze item).
 */
export function clozeRefusals(item: ClozeItem, source: string): Refusal[] {
  const blanked = blankedSentence(item.question);
  if (blanked === undefined) {
    return /빈칸/u.test(item.question) && /「[^」]+」/u.test(item.question)
      ? [{ rule: 'cloze-fragment', reason: '빈칸을 채우라는 문제인데 인용한 문장에 빈칸(____)이 없습니다.' }]
      : [];
  }
  const key = item.key.trim();
  const refusals: Refusal[] = [];
  const sentence = oneLine(blanked);
  if (FORMULA_SIGN.test(sentence.replace(BLANKS, 'x')) || FORMULA_SIGN.test(key)) {
    refusals.push({ rule: 'cloze-in-code', reason: `빈칸이 코드나 수식이 든 문장(「${clip(sentence)}」)에 있습니다. 코드와 수식은 그대로 보여야 합니다.` });
  }
  if (POINTS_BACK.test(sentence) || contentWords(sentence).length < 3) {
    refusals.push({ rule: 'cloze-fragment', reason: `빈칸 문장 「${clip(sentence)}」은(는) 앞 문맥 없이는 뜻이 통하지 않습니다.` });
  }
  if (!clozeInSource(sentence, key, source)) {
    refusals.push({ rule: 'cloze-not-in-source', reason: `정답 '${key}'을(를) 넣은 문장이 근거 자료에 없습니다.` });
  }
  const english = /[A-Za-z]/u.test(key) && !/[\uac00-\ud7a3]/u.test(key);
  const filled = sentence.replace(BLANKS, key);
  refusals.push(...(english ? englishBlankReasons(filled, key, source) : koreanBlankReasons(sentence, key)));
  // Every choice must fit the blank as the key does: a noun blank offers nouns.
  if (english && refusals.every((refusal) => refusal.rule !== 'cloze-blank-word')) {
    const odd = (item.distractors ?? []).filter((choice) => /^[A-Za-z][A-Za-z -]*$/u.test(choice.trim()) && !canBeNoun(choice.trim().split(/\s+/u).at(-1) ?? choice));
    if (odd.length > 0) refusals.push({ rule: 'cloze-choice-shape', reason: `보기 ${odd.map((choice) => `'${choice}'`).join(', ')}은(는) 명사 빈칸에 들어갈 수 없는 말이라 정답이 드러납니다.` });
  }
  return refusals;
}
