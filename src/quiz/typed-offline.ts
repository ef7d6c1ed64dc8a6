import { englishFinalSound, tagEnglish } from '../text/index.js';
import type { OfflineTasks } from '../llm/index.js';
import type { Difficulty } from '../protocol/quiz.js';
import { checkTypedItem } from '../guard/index.js';
import { seededRandom, shuffled } from './quiz-seed.js';
import { sourceSentences } from './quiz-offline.js';
import { questionKey } from './quiz-agent.js';
import { TRUE_FALSE_QUESTION, MULTI_QUESTION, numericTolerance, orderingQuestion, numericQuestion, TYPED_TASK, TypedGenerateInput, type RawTypedItem, type TypedFormat } from './typed-agent.js';

/**
 * The offline writer of true/false, multiple-answer, ordering and numeric items: extractive and deterministic for a
 * seed, like the offline cloze writer. Every item says only what a passage says, or its plain negation:
 * - true/false: a sentence of a passage as it stands (참) or negated at its predicate (거짓: `…입니다` → `…이(가)
 *   아닙니다`, `…합니다` → `…하지 않습니다`, `is` → `is not`, `magnifies` → `does not magnify`); a sentence already
 *   negative, or whose predicate has no plain negation, is only ever a 참 statement;
 * - multiple answers: four such statements of different sentences, one to three of them true;
 * - ordering: a numbered list of three to six steps of one passage (`1. …`, `2) …`, `①`), in the list's order;
 * - numeric: a sentence that states a number with its unit (`600원`, `10 times`), the number blanked, the unit given.
 * What the passages cannot bear is not made: no numbered list, no ordering item. Each item passes the item guard; a
 * refused one is dropped. The agent reports the shortfall with the reason (typed-agent.ts).
 */

const LIST_ENTRY = /^(?:(\d{1,2})[.)]|([①-⑨]))\s*(.+)$/u;
const TARGET: Record<Difficulty, number> = { easy: 0, medium: 0.5, hard: 1 };
const MAX_STATEMENT = 200;
const NEGATIVE_KOREAN = /않|없|아니|못하|못\s/u;
const NEGATIVE_ENGLISH = /\b(?:not|never|no|none|neither|nor|cannot)\b|n't\b/iu;

interface Statement {
  text: string;
  passage: number;
}

const hasBatchim = (syllable: string) => {
  const code = syllable.charCodeAt(0) - 0xac00;
  return code >= 0 && code < 11172 ? code % 28 !== 0 : undefined;
};

/** A Korean sentence negated at its final predicate, or null when it has no plain negation (or already negates). */
export function negateKorean(sentence: string): string | null {
  if (NEGATIVE_KOREAN.test(sentence)) return null;
  const replaced: [RegExp, (match: RegExpExecArray) => string | null][] = [
    // `이루어져 있습니다` (있다 as an auxiliary after -어/-고) negates as `있지 않습니다`; `근처에 있습니다` as `없습니다`.
    [/(?<=[어아여져워와해고]\s)있습니다\.$/u, () => '있지 않습니다.'],
    [/(?<=[어아여져워와해고]\s)있다\.$/u, () => '있지 않다.'],
    [/있습니다\.$/u, () => '없습니다.'],
    [/있다\.$/u, () => '없다.'],
    [/(\S*?)([\uac00-\ud7a3A-Za-z])입니다\.$/u, (match) => copula(match, '아닙니다.')],
    [/(\S*?)([\uac00-\ud7a3A-Za-z])이다\.$/u, (match) => copula(match, '아니다.')],
    [/합니다\.$/u, () => '하지 않습니다.'],
    [/한다\.$/u, () => '하지 않는다.'],
    [/됩니다\.$/u, () => '되지 않습니다.'],
    [/된다\.$/u, () => '되지 않는다.'],
    [/([\uac00-\ud7a3])습니다\.$/u, (match) => `${match[1]}지 않습니다.`],
    [
      /([\uac00-\ud7a3])니다\.$/u,
      (match) => {
        // `나타냅니다`, `가까워집니다`: the stem's last syllable carries the ㅂ of -ㅂ니다.
        const code = (match[1] ?? '').charCodeAt(0) - 0xac00;
        if (code < 0 || code >= 11172 || code % 28 !== 17) return null;
        return `${String.fromCharCode(0xac00 + code - 17)}지 않습니다.`;
      },
    ],
  ];
  for (const [pattern, make] of replaced) {
    const match = pattern.exec(sentence);
    if (!match) continue;
    const tail = make(match);
    if (tail === null) return null;
    return `${sentence.slice(0, match.index)}${tail}`;
  }
  return null;
}

/** `값입니다` → `값이 아닙니다`; `평균입니다` → `평균이 아닙니다`; `기준이다` → `기준이 아니다`. */
function copula(match: RegExpExecArray, predicate: string): string | null {
  const [, before = '', last = ''] = match;
  const batchim = hasBatchim(last) ?? (englishFinalSound(`${before}${last}`) === 'consonant' ? true : englishFinalSound(`${before}${last}`) === 'vowel' ? false : undefined);
  if (batchim === undefined) return null;
  return `${before}${last}${batchim ? '이' : '가'} ${predicate}`;
}

const BE_LIKE = new Set(['be', 'can', 'will', 'should', 'must', 'may', 'might', 'could', 'would', 'shall']);

/** An English sentence negated at its first verb, or null when that is not plain (or it already negates). */
export function negateEnglish(sentence: string): string | null {
  if (NEGATIVE_ENGLISH.test(sentence)) return null;
  const tokens = tagEnglish(sentence);
  const at = tokens.findIndex((token, index) => index > 0 && (token.tag === 'AUX' || token.tag === 'VERB'));
  const token = tokens[at];
  if (token === undefined) return null;
  const next = tokens[at + 1];
  const word = token.text;
  const lower = word.toLowerCase();
  let negated: string | null = null;
  if (token.tag === 'AUX' && BE_LIKE.has(token.lemma)) negated = lower === 'can' ? `${word}not` : `${word} not`;
  else if (token.tag === 'AUX' && (token.lemma === 'have' || token.lemma === 'do')) {
    if (next?.tag === 'VERB') negated = `${word} not`;
    else if (token.lemma === 'have') negated = lower === 'has' ? 'does not have' : lower === 'had' ? 'did not have' : 'do not have';
  } else if (token.tag === 'VERB') {
    if (lower === token.lemma) negated = `do not ${token.lemma}`;
    else if (/s$/u.test(lower)) negated = `does not ${token.lemma}`;
    else if (/ed$/u.test(lower)) negated = `did not ${token.lemma}`;
  }
  if (negated === null) return null;
  const pattern = new RegExp(`(?<![A-Za-z])${word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}(?![A-Za-z])`, 'u');
  return pattern.test(sentence) ? sentence.replace(pattern, negated) : null;
}

export function negate(sentence: string): string | null {
  return /[\uac00-\ud7a3]/u.test(sentence) ? negateKorean(sentence) : negateEnglish(sentence);
}

/** Sentences that lean on what is around them: `다음과 같습니다`, `3장에서`, a heading glued on with a dash or colon. */
const LEANS_ON_CONTEXT = /다음(?:과|이|의|을|에)|아래|위의|\d+\s*장(?:에서|의|과|와|\))|이 자료|[—:：]|\b(?:following|below|above)\b/iu;
const MIN_KOREAN_SYLLABLES = 12;
const MIN_ENGLISH_WORDS = 6;

/**
 * Whether a sentence can be judged true or false on its own: a declarative statement (no example, no instruction —
 * an English sentence that opens with its verb is one), long enough to say something, not leaning on its context.
 */
export function standaloneStatement(sentence: string): boolean {
  if (LEANS_ON_CONTEXT.test(sentence) || /^(?:예|예시|보기)\s*[:：)]|^예를 들/u.test(sentence)) return false;
  if (/[\uac00-\ud7a3]/u.test(sentence)) return (sentence.match(/[\uac00-\ud7a3]/gu)?.length ?? 0) >= MIN_KOREAN_SYLLABLES;
  const tokens = tagEnglish(sentence).filter((token) => token.tag !== 'PUNCT');
  if (tokens.length < MIN_ENGLISH_WORDS) return false;
  const opening = tokens.find((token) => token.tag !== 'ADV');
  return opening !== undefined && opening.tag !== 'VERB' && opening.tag !== 'AUX';
}

/** The statements of the passages (standalone sentences, each with its passage number). */
function statements(passages: TypedGenerateInput['passages']): Statement[] {
  const seen = new Set<string>();
  // List entries are steps or instructions (an ordering item's material), not statements.
  const prose = (text: string) =>
    text
      .split('\n')
      .filter((line) => !LIST_ENTRY.test(line.trim()))
      .join('\n');
  return passages.flatMap((passage) =>
    sourceSentences(prose(passage.text)).flatMap((sentence) => {
      if (sentence.text.length > MAX_STATEMENT || seen.has(sentence.text) || sentence.example || !standaloneStatement(sentence.text)) return [];
      seen.add(sentence.text);
      return [{ text: sentence.text, passage: passage.number }];
    }),
  );
}

/** Candidates ordered for a slot: closest in length share to its difficulty (short easy, long hard), seed-shuffled ties. */
function forSlot<T extends { text: string }>(candidates: readonly T[], difficulty: Difficulty, random: () => number): T[] {
  const lengths = [...new Set(candidates.map((entry) => entry.text.length))].sort((left, right) => left - right);
  const share = (entry: T) => (lengths.length <= 1 ? 0.5 : lengths.indexOf(entry.text.length) / (lengths.length - 1));
  return shuffled(candidates, random).sort((left, right) => Math.round(Math.abs(share(left) - TARGET[difficulty]) * 4) - Math.round(Math.abs(share(right) - TARGET[difficulty]) * 4));
}

const quote = (text: string) => `「${text}」`;

function trueFalseItems(input: TypedGenerateInput, passagesText: readonly string[]): RawTypedItem[] {
  const pool = statements(input.passages);
  const seed = input.seed ?? '';
  const used = new Set<string>();
  // About half the statements are false, in an order the seed decides.
  const polarity = shuffled(
    input.difficulties.map((_, index) => index % 2 === 1),
    seededRandom(seed, 'truefalse-polarity'),
  );
  const items: RawTypedItem[] = [];
  for (const [slot, difficulty] of input.difficulties.entries()) {
    const wantFalse = polarity[slot] ?? false;
    const ordered = forSlot(
      pool.filter((entry) => !used.has(entry.text)),
      difficulty,
      seededRandom(seed, `truefalse\u0000${slot}`),
    );
    for (const falseFirst of [wantFalse, !wantFalse]) {
      const found = ordered.map((entry) => ({ entry, negated: falseFirst ? negate(entry.text) : entry.text })).find(({ entry, negated }) => negated !== null && !input.avoid.some((question) => question.includes(entry.text)));
      if (!found || found.negated === null) continue;
      const { entry, negated } = found;
      const item: RawTypedItem = {
        statement: negated,
        answer: !falseFirst,
        explanation: falseFirst ? `자료의 원문은 ${quote(entry.text)}입니다. 문장은 그 내용을 부정하므로 거짓입니다.` : `자료에 ${quote(entry.text)}라고 나옵니다.`,
        difficulty,
        sources: [entry.passage],
      };
      if (checkTypedItem({ type: 'truefalse', question: `${TRUE_FALSE_QUESTION} ${quote(negated)}`, explanation: item.explanation ?? '', answer: !falseFirst }, { passages: passagesText }).length > 0) continue;
      used.add(entry.text);
      items.push(item);
      break;
    }
  }
  return items;
}

function multiItems(input: TypedGenerateInput, passagesText: readonly string[]): RawTypedItem[] {
  const pool = statements(input.passages);
  const seed = input.seed ?? '';
  const used = new Set<string>();
  const items: RawTypedItem[] = [];
  for (const [slot, difficulty] of input.difficulties.entries()) {
    const random = seededRandom(seed, `multi\u0000${slot}`);
    const fresh = forSlot(
      pool.filter((entry) => !used.has(entry.text)),
      difficulty,
      random,
    );
    const trueCount = 1 + Math.floor(random() * 3);
    const falses = fresh.flatMap((entry) => {
      const negated = negate(entry.text);
      return negated === null ? [] : [{ entry, text: negated }];
    });
    const picked = falses.slice(0, 4 - trueCount);
    const truths = fresh.filter((entry) => !picked.some((other) => other.entry.text === entry.text)).slice(0, trueCount);
    if (picked.length + truths.length < 4 || picked.length === 0) break;
    const choices = shuffled(
      [...truths.map((entry) => ({ text: entry.text, right: true, entry })), ...picked.map(({ entry, text }) => ({ text, right: false, entry }))],
      random,
    );
    const item: RawTypedItem = {
      question: MULTI_QUESTION,
      choices: choices.map((choice) => choice.text),
      answers: choices.flatMap((choice, index) => (choice.right ? [index] : [])),
      explanation: `자료에 나오는 문장: ${truths.map((entry) => quote(entry.text)).join(' ')} 나머지 보기는 자료의 ${picked.map(({ entry }) => quote(entry.text)).join(' ')}을(를) 부정한 것입니다.`.slice(0, 1000),
      difficulty,
      sources: [...new Set(choices.map((choice) => choice.entry.passage))].sort((left, right) => left - right),
    };
    if (checkTypedItem({ type: 'multi', question: MULTI_QUESTION, explanation: item.explanation ?? '', choices: item.choices ?? [], answers: item.answers ?? [] }, { passages: passagesText }).length > 0) continue;
    for (const choice of choices) used.add(choice.entry.text);
    items.push(item);
  }
  return items;
}

const CIRCLED = '①②③④⑤⑥⑦⑧⑨';

interface StepList {
  lead: string;
  steps: string[];
  passage: number;
}

/** Numbered lists (1, 2, 3… in order, three or more entries) of the passages, with the line before them as their lead. */
export function numberedLists(passages: TypedGenerateInput['passages']): StepList[] {
  const lists: StepList[] = [];
  for (const passage of passages) {
    // A heading glued to the first entry (`Preparing a slide 1. Place …`) is split from it.
    const lines = passage.text
      .normalize('NFC')
      .replace(/\s(?=(?:\d{1,2}[.)]|[①-⑨])\s+\p{Lu})/gu, '\n')
      .split(/\n/u)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    let run: { lead: string; steps: string[] } | undefined;
    const close = () => {
      if (run && run.steps.length >= 3) lists.push({ lead: run.lead, steps: run.steps.slice(0, 6), passage: passage.number });
      run = undefined;
    };
    lines.forEach((line, index) => {
      const match = LIST_ENTRY.exec(line);
      const number = match ? (match[1] !== undefined ? Number(match[1]) : CIRCLED.indexOf(match[2] ?? '') + 1) : 0;
      const text = (match?.[3] ?? '').replace(/[.。]$/u, '').trim();
      if (match && number === 1) {
        close();
        run = { lead: lines[index - 1] !== undefined && !LIST_ENTRY.test(lines[index - 1] ?? '') ? (lines[index - 1] ?? '') : '', steps: [text] };
      } else if (match && run && number === run.steps.length + 1) run.steps.push(text);
      else close();
    });
    close();
  }
  return lists;
}

function orderingItems(input: TypedGenerateInput, passagesText: readonly string[]): RawTypedItem[] {
  const lists = numberedLists(input.passages).filter((list) => list.steps.every((step) => step.length >= 2 && step.length <= 200) && new Set(list.steps).size === list.steps.length);
  const ordered = shuffled(lists, seededRandom(input.seed ?? '', 'ordering'));
  const items: RawTypedItem[] = [];
  for (const difficulty of input.difficulties) {
    const list = ordered.shift();
    if (!list) break;
    const lead = list.lead.replace(/[:：]$/u, '').trim();
    const question = orderingQuestion(lead.length >= 2 && lead.length <= 80 && !/[.!?]$/u.test(lead) ? lead : undefined);
    if (input.avoid.some((asked) => questionKey(asked) === questionKey(question))) continue;
    const explanation = `자료에 나온 순서: ${list.steps.map((step, index) => `${index + 1}. ${step}`).join(' ')}`.slice(0, 1000);
    if (checkTypedItem({ type: 'ordering', question, explanation, steps: list.steps }, { passages: passagesText }).length > 0) continue;
    items.push({ question, steps: list.steps, explanation, difficulty, sources: [list.passage] });
  }
  return items;
}

const KOREAN_UNITS = '퍼센트|개월|시간|킬로그램|미터|가지|단계|마리|원|명|개|번|회|년|일|분|초|배|점|쪽|세|건|곳|%|km|kg|cm|mm|ml|m|g';
const KOREAN_AMOUNT = new RegExp(`(?<![\\p{L}\\d.,])(\\d{1,3}(?:,\\d{3})+|\\d+(?:\\.\\d+)?)\\s?(${KOREAN_UNITS})(?![A-Za-z])`, 'gu');

interface Amount {
  value: number;
  written: string;
  unit: string;
  /** The sentence with the number blanked. */
  blanked: string;
}

/** The numbers a sentence states with a unit, each with the sentence it leaves when blanked. */
export function statedAmounts(sentence: string): Amount[] {
  const amounts: Amount[] = [];
  const numbers = sentence.match(/\d+(?:[.,]\d+)*/gu) ?? [];
  const once = (written: string) => numbers.filter((entry) => entry === written).length === 1;
  if (/[\uac00-\ud7a3]/u.test(sentence)) {
    for (const match of sentence.matchAll(KOREAN_AMOUNT)) {
      const [whole, written = '', unit = ''] = match;
      if (!once(written)) continue;
      amounts.push({ value: Number(written.replace(/,/gu, '')), written, unit, blanked: `${sentence.slice(0, match.index)}____${whole.slice(written.length)}${sentence.slice(match.index + whole.length)}` });
    }
    return amounts;
  }
  const tokens = tagEnglish(sentence);
  tokens.forEach((token, index) => {
    if (!/^\d+(?:\.\d+)?$/u.test(token.text) || !once(token.text)) return;
    const unitWords: string[] = [];
    for (let next = index + 1; next < tokens.length && unitWords.length < 2 && tokens[next]?.tag === 'NOUN'; next += 1) unitWords.push(tokens[next]?.text ?? '');
    const unit = unitWords.join(' ');
    if (unit === '' || unit.length > 20) return;
    const pattern = new RegExp(`(?<![\\w.])${token.text.replace('.', '\\.')}(?=\\s+${unitWords[0] ?? ''})`, 'u');
    if (!pattern.test(sentence)) return;
    amounts.push({ value: Number(token.text), written: token.text, unit, blanked: sentence.replace(pattern, '____') });
  });
  return amounts;
}

function numericItems(input: TypedGenerateInput, passagesText: readonly string[]): RawTypedItem[] {
  const candidates = statements(input.passages).flatMap((entry) => statedAmounts(entry.text).map((amount) => ({ ...amount, text: entry.text, passage: entry.passage })));
  const seed = input.seed ?? '';
  const used = new Set<string>();
  const items: RawTypedItem[] = [];
  for (const [slot, difficulty] of input.difficulties.entries()) {
    const ordered = forSlot(
      candidates.filter((entry) => !used.has(entry.text)),
      difficulty,
      seededRandom(seed, `numeric\u0000${slot}`),
    );
    for (const candidate of ordered) {
      const question = numericQuestion(candidate.blanked, candidate.unit);
      if (input.avoid.some((asked) => questionKey(asked) === questionKey(question))) continue;
      const explanation = `자료에 ${quote(candidate.text)}라고 나옵니다. 정답은 ${candidate.written}${/^[A-Za-z]/u.test(candidate.unit) ? ' ' : ''}${candidate.unit}입니다.`;
      if (checkTypedItem({ type: 'numeric', question, explanation, answer: candidate.value, unit: candidate.unit }, { passages: passagesText }).length > 0) continue;
      used.add(candidate.text);
      items.push({ question, answer: candidate.value, unit: candidate.unit, tolerance: numericTolerance(candidate.value), explanation, difficulty, sources: [candidate.passage] });
      break;
    }
  }
  return items;
}

const BUILDERS: Record<TypedFormat, (input: TypedGenerateInput, passagesText: readonly string[]) => RawTypedItem[]> = {
  truefalse: trueFalseItems,
  multi: multiItems,
  ordering: orderingItems,
  numeric: numericItems,
};

export const typedOfflineTasks: OfflineTasks = {
  [TYPED_TASK]: {
    object: (raw: unknown) => {
      const input = TypedGenerateInput.parse(raw);
      return { items: BUILDERS[input.format](input, input.passages.map((passage) => passage.text)) };
    },
  },
};
