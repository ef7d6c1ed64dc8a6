import { englishTerms, rankedTerms, RunningLines, stripParticles, termPattern, termsMatch } from '../text/index.js';
import type { OfflineTasks } from '../llm/index.js';
import type { Difficulty, QuizItem } from '../protocol/quiz.js';
import { QUIZ_TASKS, QuizGenerateInput, questionKey, type ReferencePassage } from './quiz-agent.js';
import { seededRandom, shuffled } from './quiz-seed.js';
import { latinWords } from './offline-latin.js';
import { checkQuizItem, duplicateRefusals } from '../guard/index.js';

/**
 * The offline QuizAgent: extractive cloze items, deterministic for a given seed (quiz-seed.ts). It picks explanatory
 * sentences of the source that contain one of the material's key terms, blanks the term out, and offers the term
 * with three other key terms of the same material as choices. The quiz's seed picks among the sentences that fit a
 * slot about equally well and shuffles distractors and choices, so the same text gives a different quiz for every
 * seed and the same quiz for the same seed. The explanation quotes the original sentence, so an item never states
 * anything the material does not.
 *
 * English text is read with the tagger (text/english-terms.ts): its key terms are the noun phrases the material defines
 * or keeps using (`admissible heuristic`, `learning rate`), the blank is the whole phrase (plural forms too), and the
 * distractors are other terms of the same material, of the same length in words where there are enough. A choice
 * offers terms of one language only, so the script of a choice never gives the answer away. Every item passes the
 * item guard (src/guard) before it is offered; one it refuses is dropped, never shipped: a text with fewer sound
 * items gives fewer items.
 *
 * Difficulty: every (sentence, term) pair gets a hardness in [0, 1] from how rare the term is in the material
 * (mostly) and how long the sentence is; easy slots take the lowest, hard slots the highest, medium the middle.
 * Hard items also get the distractors that look most like the answer (shared syllables, same length).
 */

export const CLOZE_QUESTION = '다음 빈칸에 들어갈 말로 알맞은 것은?';
export const BLANK = '____';

const HANGUL_TERM = /^[\uac00-\ud7a3]{2,10}$/u;
const WORD = /[\p{L}\p{N}]+/gu;
const HANGUL = /[\uac00-\ud7a3]/gu;
const LETTER = /[\p{L}]/gu;
const MIN_SENTENCE_SYLLABLES = 8;
/** An English sentence needs this many words to be a question after one is blanked. */
const MIN_LATIN_WORDS = 6;
/** Key terms considered for answers and distractors; the rest are too rare to ask about. */
const MAX_TERMS = 150;
const MAX_SENTENCE_CHARS = 300;
/** Shortest line that can be wrapped prose (continued on the next line) rather than a heading or subtitle. */
const MIN_WRAPPED_LINE_CHARS = 25;
/** A line is wrapped prose when it is nearly as long as the long lines of the text (the column width). */
const WRAPPED_LINE_SHARE = 0.8;
const FORMULA_LINE = /[=≈≠≤≥Σ∑∫√→←]/u;
const TARGET: Record<Difficulty, number> = { easy: 0, medium: 0.5, hard: 1 };
/** Candidates within this cost of a slot's best one fit it about as well; the seed picks among them. */
const SURPLUS_COST = 0.15;
/** At most this many of them are built and drawn from. */
const SURPLUS_COUNT = 4;

/**
 * Endings after which a word is a noun followed by a particle or the copula (`평균은`, `기댓값에`, `가중평균입니다`),
 * as opposed to a verb or adverb the stemmer cut (`가까워집|니다`, `모두`).
 */
const NOMINAL_ENDINGS: ReadonlySet<string> = new Set([
  '은', '는', '이', '가', '을', '를', '의', '에', '에서', '에게', '에는', '에도', '와', '과', '도', '만', '로', '으로',
  '로는', '으로는', '로써', '으로써', '로서', '으로서', '까지', '부터', '보다', '처럼', '마다', '조차', '만큼', '이다',
  '입니다', '이며', '이고', '이나', '이란', '이라', '이라고', '이라는', '이라면', '이지만', '이므로', '이었습니다', '였습니다',
  '이에요', '이예요', '란', '라고', '라는',
]);

/**
 * Everyday nouns that are never what a material teaches: as answers or distractors they make silly questions
 * (`대부분`, `사실`). Key terms stay dictionary-free; this list only trims the obvious.
 */
const GENERIC_NOUNS: ReadonlySet<string> = new Set([
  '대부분', '사람', '사실', '일부', '전체', '거리', '근처', '정리', '요약', '방법', '이유', '결과', '의미', '경우', '자료',
  '내용', '문제', '정도', '부분', '다음', '이번', '값들', '자신', '여기', '모든', '각각', '하나', '처음', '마지막', '이상',
  '이하', '미만', '초과', '가지', '무엇', '사이', '순서', '시간', '동안', '관심', '생각', '이야기', '사용', '활용', '예시',
  '설명', '질문', '정답', '보기', '우리', '여러분', '오늘', '지금', '이후', '이전', '아래', '위의', '다른', '같은',
]);

/** Batchim-dependent particles, shown in both forms so the blank's particle does not give the answer away. */
const NEUTRAL_PARTICLES: readonly [RegExp, string][] = [
  [/^(?:은|는)/u, '은(는)'],
  [/^(?:을|를)/u, '을(를)'],
  [/^(?:과|와)/u, '과(와)'],
  [/^(?:으로|로)/u, '(으)로'],
  [/^(?:이라|라)/u, '(이)라'],
  [/^(?:이며|며)/u, '(이)며'],
  [/^(?:이나|나)/u, '(이)나'],
  [/^(?:이란|란)/u, '(이)란'],
  [/^(?:이|가)$/u, '이(가)'],
];

export interface Sentence {
  text: string;
  /** Its words as written (letters and digits). */
  words: string[];
  /** Starts like an example (`예:`, `예를 들어`): a weaker question than a definition. */
  example: boolean;
}

export interface Term {
  term: string;
  /** An English term's lower-case phrase (every form of it is this term: termPattern). Absent for Korean. */
  stem?: string;
  /** Words of an English term. */
  words?: number;
  /** 0 is the material's most important term. */
  rank: number;
  count: number;
}

interface Candidate {
  sentence: Sentence;
  term: Term;
  hardness: number;
  order: number;
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

/** The 90th percentile of the lengths of the text's lines: about the width of its text column. */
function longLineLength(lines: readonly string[]): number {
  const lengths = lines.filter((line) => line.length > 0).map((line) => line.length).sort((left, right) => left - right);
  return lengths[Math.floor((lengths.length - 1) * 0.9)] ?? 0;
}

/** Share of letters among the visible characters: formulas, tables and page numbers score low. */
function letterRatio(text: string): number {
  const visible = text.replace(/\s+/gu, '').length;
  return visible === 0 ? 0 : count(text, LETTER) / visible;
}

const endsSentence = (text: string) => /[.!?。？！]["'”’)]?$/u.test(text);

/**
 * The source's sentences, cleaned: footers, page numbers and formula lines dropped, lines wrapped in the middle of
 * a sentence joined back, headings kept apart (they have no final punctuation and are filtered out later).
 */
export function sourceSentences(text: string): Sentence[] {
  const lines = text
    .normalize('NFC')
    .split(/\r?\n/u)
    .map((line) => line.replace(/\s+/gu, ' ').trim());
  const boilerplate = new RunningLines(text.normalize('NFC'));
  const wrapAt = Math.max(MIN_WRAPPED_LINE_CHARS, WRAPPED_LINE_SHARE * longLineLength(lines));
  const units: string[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer !== '') units.push(buffer);
    buffer = '';
  };
  for (const line of lines) {
    // Numbers inside prose (`연봉 3000, 3200, …`) keep their line; a line of numbers and symbols alone is dropped.
    const junk =
      line === '' ||
      boilerplate.has(line) ||
      count(line, LETTER) < 2 ||
      (count(line, HANGUL) < 2 && letterRatio(line) < 0.5);
    if (junk) {
      flush();
      continue;
    }
    // Formula lines stand alone: joined to prose they would make a sentence of symbols.
    const formula = FORMULA_LINE.test(line) && !endsSentence(line);
    const continues =
      buffer !== '' &&
      !formula &&
      !FORMULA_LINE.test(buffer) &&
      !endsSentence(buffer) &&
      (/[,，·]$/u.test(buffer) || buffer.length >= wrapAt) &&
      !/^(?:[-*•·]|\d{1,2}[.)])\s/u.test(line);
    if (buffer !== '' && !continues) flush();
    buffer = buffer === '' ? line : `${buffer} ${line}`;
    if (formula) flush();
  }
  flush();

  const seen = new Set<string>();
  const sentences: Sentence[] = [];
  for (const unit of units) {
    for (const piece of unit.split(/(?<=[.!?。？！])\s+/u)) {
      const sentence = piece.replace(/^(?:[-*•·]|\d{1,2}[.)])\s+/u, '').trim();
      if (!usableSentence(sentence) || seen.has(sentence)) continue;
      seen.add(sentence);
      sentences.push({
        text: sentence,
        words: sentence.match(WORD) ?? [],
        example: /^(?:예|예시|보기)\s*[:：)]|^예를 들(?:어|면)/u.test(sentence),
      });
    }
  }
  return sentences;
}

/**
 * A sentence that opens by pointing back at the one before ("이럴 때는 ____을 함께 봅니다", "This means …") cannot
 * stand alone as a question: the student never sees what "이럴 때" is.
 */
const POINTS_BACK =
  /^(?:이럴|이런|이러한|이렇게|이와|이때|이것|이는|이들|이를|이에|그럴|그런|그러한|그렇게|그때|그것|그는|그들|그래서|그러므로|그러나|그런데|그리고|하지만|따라서|또한|또|즉|반면|이\s|그\s|저\s)|^(?:this|these|that|those|it|they|however|therefore|thus|so|also|then)\b/iu;

/** A declarative sentence of some length, mostly words: no question, heading, formula, page furniture or back-reference. */
function usableSentence(sentence: string): boolean {
  if (POINTS_BACK.test(sentence.trim())) return false;
  // A sentence that carries a formula (`3.5 + 3.5 = 7입니다.`) would blank a word around symbols: not a fair item.
  if (sentence.length > MAX_SENTENCE_CHARS || /[?？]/u.test(sentence) || FORMULA_LINE.test(sentence)) return false;
  if (letterRatio(sentence) < 0.6) return false;
  if (count(sentence, HANGUL) === 0) return /[.]["'”’)]?$/u.test(sentence) && latinWords(sentence).length >= MIN_LATIN_WORDS;
  if (!/[.。]$/u.test(sentence) && !/[다요]$/u.test(sentence)) return false;
  return count(sentence, HANGUL) >= MIN_SENTENCE_SYLLABLES;
}

/** Whether `word` is `term` itself or `term` plus a noun's particle or copula. */
function isTermWord(word: string, term: string): boolean {
  if (word === term) return true;
  return word.startsWith(term) && NOMINAL_ENDINGS.has(word.slice(term.length)) && stripParticles(word) === term;
}

/** Whether `sentence` says the English term (any form of it). */
function saysTerm(sentence: string, term: Term): boolean {
  return termPattern(term.stem ?? term.term).test(sentence);
}

/** How terms are looked up by what a word can be read as. */
const termKey = (term: Term) => term.term;

/**
 * The terms a word can be read as (as term keys): itself, and its stem when it ends in a noun's particle
 * (`평균은` -> `평균`); an English word, its analyzer stem.
 */
function nounReadings(word: string): string[] {
  const readings = [word];
  const stem = stripParticles(word);
  if (stem !== word && isTermWord(word, stem)) readings.push(stem);
  return readings;
}

/** Nouns that follow a verb's -(으)ㄹ form (`늘어놓았을 때`, `볼 수`): the word before them is no noun with 을. */
const DEPENDENT_NOUNS: ReadonlySet<string> = new Set(['때', '수', '것', '적', '줄', '뿐', '만큼', '경우', '동안', '때는', '때에는', '때의', '때가', '것이다', '것입니다']);
/** Last syllables of a verb stem in the past or future tense (`늘어놓았`, `했`, `하겠`): never a noun's. */
const TENSE_SYLLABLE = /[았었였했겠웠렸졌켰쳤왔봤줬났갔섰]$/u;

/**
 * A verb form that looks like a noun with 을 (`늘어놓았을 때` reads as `늘어놓았` + 을): a stem ending in a tense
 * syllable, or 을/를 before a dependent noun. Without this the offline quiz blanked verbs ("크기순으로 ____을(를) 때").
 */
function looksLikeVerbForm(stem: string, ending: string, next: string | undefined): boolean {
  if (TENSE_SYLLABLE.test(stem)) return true;
  return (ending === '을' || ending === '를') && next !== undefined && DEPENDENT_NOUNS.has(next);
}

/**
 * The material's answerable key terms, most important first (at most {@link MAX_TERMS}): Hangul nouns of 2–10
 * syllables that the text uses as nouns somewhere (followed by a particle or the copula), so stemming leftovers of
 * verbs and adverbs (`가까워집`, `모두`) stay out.
 */
export function answerTerms(text: string): Term[] {
  const usedAsNoun = new Set<string>();
  const words = text.normalize('NFC').match(WORD) ?? [];
  words.forEach((word, index) => {
    const stem = stripParticles(word);
    if (stem === word || !isTermWord(word, stem) || looksLikeVerbForm(stem, word.slice(stem.length), words[index + 1])) return;
    usedAsNoun.add(stem);
  });
  const scored: (Omit<Term, 'rank'> & { score: number })[] = [];
  for (const entry of rankedTerms(text, { nounsOnly: true })) {
    if (entry.formula || !HANGUL_TERM.test(entry.term) || GENERIC_NOUNS.has(entry.term) || !usedAsNoun.has(entry.term)) continue;
    scored.push({ term: entry.term, count: entry.count, score: entry.score });
  }
  const english = englishTerms(sourceSentences(text).map((sentence) => sentence.text));
  for (const entry of english) scored.push({ term: entry.term, stem: entry.term.toLowerCase(), words: entry.words, count: entry.count, score: entry.score });
  // Both languages on one scale (frequency × capped length); equal scores keep Korean first, then first seen.
  return scored
    .map((entry, order) => ({ entry, order }))
    .sort((left, right) => right.entry.score - left.entry.score || left.order - right.order)
    .slice(0, MAX_TERMS)
    .map(({ entry }, rank) => ({ term: entry.term, ...(entry.stem === undefined ? {} : { stem: entry.stem, words: entry.words ?? 1 }), rank, count: entry.count }));
}

/**
 * The sentence with every occurrence of `term` blanked, or null when the term also shows inside another word
 * (`평균` in `표본평균`): the blank would then be answered by the sentence itself.
 */
export function blankOut(sentence: string, term: string | Term): string | null {
  const entry: Term = typeof term === 'string' ? { term, rank: 0, count: 0 } : term;
  return entry.stem === undefined ? blankKorean(sentence, entry.term) : blankLatin(sentence, entry);
}

function blankKorean(sentence: string, term: string): string | null {
  let blanks = 0;
  let leaked = false;
  const blanked = sentence.replace(WORD, (word) => {
    if (!word.includes(term)) return word;
    if (!isTermWord(word, term)) {
      leaked = true;
      return word;
    }
    blanks += 1;
    const rest = word.slice(term.length);
    const neutral = NEUTRAL_PARTICLES.find(([pattern]) => pattern.test(rest));
    return BLANK + (neutral ? rest.replace(neutral[0], neutral[1]) : rest);
  });
  if (leaked || blanks === 0) return null;
  // Enough of the sentence must remain to be a question.
  return count(blanked.replaceAll(BLANK, ''), HANGUL) >= 6 ? blanked : null;
}

/** Every form of an English term blanked (the whole phrase); null when a longer word still shows it. */
function blankLatin(sentence: string, term: Term): string | null {
  const shown = (term.stem ?? term.term).toLowerCase();
  let blanks = 0;
  const blanked = sentence.replace(termPattern(shown), () => {
    blanks += 1;
    return BLANK;
  });
  if (blanks === 0 || blanked.toLowerCase().includes(shown)) return null;
  return latinWords(blanked.replaceAll(BLANK, '')).length >= MIN_LATIN_WORDS - 1 ? blanked : null;
}

/** How much two terms look alike: shared syllables first, then equal length. */
function likeness(left: string, right: string): number {
  const syllables = new Set(Array.from(left));
  const shared = Array.from(right).filter((syllable) => syllables.has(syllable)).length;
  return shared * 2 - Math.abs(Array.from(left).length - Array.from(right).length);
}

/**
 * Three distractors: other key terms of the material that do not name the same thing as the answer or as each
 * other (`평균` never sits next to `표본평균`), preferably ones the sentence does not contain.
 */
function pickDistractors(answer: Term, sentence: Sentence, terms: readonly Term[], difficulty: Difficulty, random: () => number): string[] | null {
  // Choices of one language: an English term among Korean ones (or the reverse) would give the answer away.
  const pool = terms.filter(
    (entry) => (entry.stem === undefined) === (answer.stem === undefined) && entry.term !== answer.term && !termsMatch(entry.term.toLowerCase(), answer.term.toLowerCase()),
  );
  const inSentence = (entry: Term) => (entry.stem === undefined ? sentence.words.some((word) => word.includes(entry.term)) : saysTerm(sentence.text, entry));
  // English siblings: no word shared with the answer (`local search` is no distractor of `local search method`), the
  // same number of words first, so the shape of a choice does not give the answer away.
  const answerWords = new Set((answer.stem ?? '').split(' '));
  const sibling = (entry: Term) => entry.stem === undefined || !(entry.stem ?? '').split(' ').some((word) => answerWords.has(word));
  const sameShape = (entry: Term) => entry.stem === undefined || entry.words === answer.words;
  const siblings = pool.filter(sibling);
  const shuffledPool =
    difficulty === 'hard'
      ? [...siblings].sort((left, right) => likeness(answer.term, right.term) - likeness(answer.term, left.term) || left.rank - right.rank)
      : shuffled(siblings, random);
  const ordered = [...shuffledPool.filter(sameShape), ...shuffledPool.filter((entry) => !sameShape(entry))];
  const picked: string[] = [];
  for (const entry of [...ordered.filter((entry) => !inSentence(entry)), ...ordered.filter(inSentence)]) {
    if (picked.length === 3) break;
    if (picked.some((other) => termsMatch(other.toLowerCase(), entry.term.toLowerCase()))) continue;
    picked.push(entry.term);
  }
  return picked.length === 3 ? picked : null;
}

function candidatesOf(sentences: readonly Sentence[], terms: readonly Term[]): Candidate[] {
  const lengths = [...new Set(sentences.map((sentence) => sentence.text.length))].sort((left, right) => left - right);
  const lengthShare = (length: number) => (lengths.length <= 1 ? 0 : lengths.indexOf(length) / (lengths.length - 1));
  const rankShare = (rank: number) => (terms.length <= 1 ? 0 : rank / (terms.length - 1));
  const byTerm = new Map(terms.map((term) => [termKey(term), term]));
  const candidates: Candidate[] = [];
  for (const sentence of sentences) {
    const found = new Set(sentence.words.flatMap(nounReadings).filter((reading) => byTerm.has(reading)));
    const english = terms.filter((entry) => entry.stem !== undefined && saysTerm(sentence.text, entry));
    // An English term inside a longer term of the same sentence is not asked alone there (`gradient` of `gradient
    // descent`): the longer one is the key noun phrase.
    const maximal = english.filter((entry) => {
      let rest = sentence.text;
      for (const other of english) if ((other.words ?? 1) > (entry.words ?? 1)) rest = rest.replace(termPattern(other.stem ?? other.term), ' ');
      return saysTerm(rest, entry);
    });
    for (const term of [...terms.filter((entry) => entry.stem === undefined && found.has(termKey(entry))), ...maximal]) {
      candidates.push({
        sentence,
        term,
        hardness: 0.65 * rankShare(term.rank) + 0.35 * lengthShare(sentence.text.length),
        order: candidates.length,
      });
    }
  }
  return candidates;
}

export interface ClozeRequest {
  text: string;
  difficulties: readonly Difficulty[];
  /** Questions that must not be produced again. */
  avoid?: readonly string[];
  /** The quiz's seed (quiz-seed.ts); the same text and seed always give the same items. */
  seed?: string;
}

/**
 * One cloze item per requested difficulty, in order, whenever the text has enough sentences and key terms (at
 * least four terms: an answer and three distractors); fewer items otherwise, never a broken one.
 */
export function buildClozeItems(request: ClozeRequest): QuizItem[] {
  return buildClozeDrafts(request).map((draft) => draft.item);
}

/** A cloze item with the source sentence it blanks (to find the passage it came from). */
export interface ClozeDraft {
  item: QuizItem;
  sentence: string;
}

export function buildClozeDrafts(request: ClozeRequest): ClozeDraft[] {
  const sentences = sourceSentences(request.text);
  const terms = answerTerms(request.text);
  if (terms.length < 4) return [];
  const candidates = candidatesOf(sentences, terms);
  const avoid = new Set((request.avoid ?? []).map(questionKey));
  const usedSentences = new Set<string>();
  const usedTerms = new Set<string>();
  const items: ClozeDraft[] = [];

  const seed = request.seed ?? '';
  const verdicts = new Map<string, boolean>();
  const refused = (item: QuizItem) => {
    let verdict = verdicts.get(item.question);
    if (verdict === undefined) {
      // Its own rules, and no other blank of a sentence an avoided (earlier) question was made of.
      verdict = checkQuizItem(item, { passages: [request.text] }).length > 0 || (duplicateRefusals([{ question: item.question }], request.avoid ?? []).at(-1) ?? []).length > 0;
      verdicts.set(item.question, verdict);
    }
    return verdict;
  };

  for (const [slot, difficulty] of request.difficulties.entries()) {
    const cost = (candidate: Candidate) =>
      Math.abs(candidate.hardness - TARGET[difficulty]) + (usedTerms.has(candidate.term.term) ? 1 : 0) + (candidate.sentence.example ? 0.25 : 0);
    const fittingFor = (reuse: boolean) => {
      const ranked = candidates
        .filter((candidate) => reuse || !usedSentences.has(candidate.sentence.text))
        .sort((left, right) => cost(left) - cost(right) || left.order - right.order);
      // The valid items that fit this slot about as well as the best one; the seed draws one of them.
      const fitting: { candidate: Candidate; item: QuizItem }[] = [];
      for (const candidate of ranked) {
        const first = fitting[0];
        if (fitting.length === SURPLUS_COUNT || (first && cost(candidate) > cost(first.candidate) + SURPLUS_COST)) break;
        const item = clozeItem(candidate, terms, difficulty, seed);
        if (item === null || avoid.has(questionKey(item.question))) continue;
        // The item guard decides, as for every model: a refused item is dropped, never offered.
        if (refused(item)) continue;
        if (fitting.some((entry) => entry.candidate.sentence.text === candidate.sentence.text)) continue;
        fitting.push({ candidate, item });
      }
      return fitting;
    };
    // A short text (ten passages of one topic can be short) may run out of fresh sentences: then a sentence already
    // asked about is asked again for another of its terms rather than leaving the slot empty.
    const fresh = fittingFor(false);
    const fitting = fresh.length > 0 ? fresh : fittingFor(true);
    const picked = fitting[Math.floor(seededRandom(seed, `slot\u0000${slot}`)() * fitting.length)];
    if (!picked) continue;
    items.push({ item: picked.item, sentence: picked.candidate.sentence.text });
    avoid.add(questionKey(picked.item.question));
    usedSentences.add(picked.candidate.sentence.text);
    usedTerms.add(picked.candidate.term.term);
  }
  return items;
}

function clozeItem(candidate: Candidate, terms: readonly Term[], difficulty: Difficulty, seed: string): QuizItem | null {
  const { sentence, term } = candidate;
  const blanked = blankOut(sentence.text, term);
  if (blanked === null) return null;
  const random = seededRandom(seed, `${sentence.text}\u0000${term.term}`);
  const distractors = pickDistractors(term, sentence, terms, difficulty, random);
  if (distractors === null) return null;
  const choices = shuffled([term.term, ...distractors], random);
  return {
    question: `${CLOZE_QUESTION} 「${blanked}」`,
    choices,
    answer: choices.indexOf(term.term),
    explanation: `자료의 원문은 「${sentence.text}」입니다. 따라서 빈칸에 들어갈 말은 '${term.term}'입니다.`,
    difficulty,
  };
}

const flat = (text: string) => text.normalize('NFC').replace(/\s+/gu, ' ');

/**
 * The passage a cloze sentence was taken from (its number), found by the sentence's text; a sentence the cleaning
 * joined differently matches by its first words. Undefined when none matches: the agent then drops the item
 * rather than cite a passage it did not come from.
 */
export function passageOfSentence(sentence: string, passages: readonly ReferencePassage[]): number | undefined {
  const whole = flat(sentence);
  const start = whole.slice(0, 40);
  const texts = passages.map((passage) => flat(passage.text));
  const index = texts.findIndex((text) => text.includes(whole));
  const found = index >= 0 ? index : texts.findIndex((text) => text.includes(start));
  return found >= 0 ? passages[found]?.number : undefined;
}

export const quizOfflineTasks: OfflineTasks = {
  [QUIZ_TASKS.generate]: {
    object: (input) => {
      const { passages, difficulties, avoid, seed } = QuizGenerateInput.parse(input);
      // The passages as one text, a blank line apart: a sentence never runs from one passage into the next.
      const text = passages.map((passage) => passage.text).join('\n\n');
      const drafts = buildClozeDrafts({ text, difficulties, avoid, ...(seed === undefined ? {} : { seed }) });
      return {
        items: drafts.map(({ item, sentence }) => {
          const number = passageOfSentence(sentence, passages);
          return { ...item, sources: number === undefined ? [] : [number] };
        }),
      };
    },
  },
};
