import { englishFinalSound } from './english-sound.js';

/**
 * Korean-aware text helpers for the offline model: normalisation, light particle stripping, key terms and a term
 * overlap score. Deliberately small and dictionary-free: answer and reference go through the same rules, so being
 * consistent matters more than being linguistically exact.
 */

/**
 * Particles and endings stripped from the end of an eojeol, longest first so `에서는` wins over `는`. Verb-ish
 * endings of `하다`/`되다` are included because lecture text turns nouns into verbs constantly (`계산한다`).
 */
const ENDINGS: readonly string[] = [
  '이었습니다', '였습니다', '하였습니다', '되었습니다',
  '입니다', '합니다', '됩니다', '습니다', '이에요', '이예요', '이라고', '이라는', '으로써', '으로서', '으로는',
  '에서는', '에서도', '에게서', '이므로', '하므로', '하였다', '되었다', '했습니다', '이지만', '이라면',
  '이다', '였다', '이며', '이고', '이나', '이란', '이라', '이든', '이면', '에요', '예요', '라고', '라는', '으로',
  '에서', '에게', '에는', '에도', '로는', '로써', '로서', '까지', '부터', '보다', '처럼', '마다', '조차', '만큼',
  '한다', '하는', '하고', '하여', '해서', '하면', '했다', '하며', '된다', '되는', '되어', '되며', '되고', '되면',
  '니다', '은', '는', '이', '가', '을', '를', '의', '에', '로', '와', '과', '도', '만', '다', '요', '란', '나', '며',
];

/** Function words that carry no content after stripping. */
const STOPWORDS: ReadonlySet<string> = new Set([
  // Korean
  '그리고', '그러나', '하지만', '그래서', '따라서', '그러면', '또한', '또는', '및', '즉', '등', '것', '수', '때',
  '이것', '그것', '저것', '여기', '거기', '우리', '여러분', '이런', '그런', '어떤', '무엇', '무엇인지', '왜', '어떻게',
  '있다', '없다', '있는', '없는', '있습니다', '없습니다', '있어요', '없어요', '하다', '되다', '한다', '된다',
  '합니다', '됩니다', '위해', '위한', '대한', '대해', '대해서', '통해', '같은', '같이', '다음', '이번', '이제',
  '먼저', '바로', '다시', '매우', '아주', '정말', '가장', '더', '잘', '좀', '이', '그', '저', '또', '각', '모든',
  '경우', '때문', '때문에', '정도', '부분', '내용', '설명', '설명해', '보세요', '봅시다', '살펴보겠습니다', '자신',
  '자신의', '말로', '이다', '입니다', '예', '예를', '들어', '들면', '하나', '두', '세', '한', '뒤', '후', '전',
  // English
  'the', 'a', 'an', 'of', 'and', 'or', 'to', 'in', 'on', 'at', 'by', 'for', 'with', 'as', 'is', 'are', 'was',
  'were', 'be', 'been', 'this', 'that', 'these', 'those', 'it', 'its', 'from', 'we', 'you', 'which', 'can',
]);

/**
 * English function words and question words beyond STOPWORDS: a student's `What is …?` or a slide's `moves between`
 * names no concept, so none of them is a key term (rankedTerms, keyTerms) or a question's concept. Kept out of
 * STOPWORDS so `contentTerms` stays what the chapter planner's slide similarity was measured with.
 */
const ENGLISH_FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'being', 'am', 'what', 'why', 'how', 'when', 'where', 'who', 'whom', 'whose', 'whether', 'do', 'does', 'did', 'not',
  'no', 'there', 'their', 'they', 'them', 'he', 'she', 'his', 'her', 'our', 'your', 'my', 'me', 'us', 'will', 'would',
  'should', 'could', 'may', 'might', 'must', 'shall', 'has', 'have', 'had', 'between', 'into', 'onto', 'about',
  'than', 'then', 'so', 'if', 'but', 'because', 'while', 'also', 'only', 'very', 'each', 'every', 'any', 'some',
  'all', 'more', 'most', 'such', 'other', 'both', 'either', 'neither', 'through', 'after', 'before', 'over',
  'under', 'up', 'down', 'out', 'off', 'again', 'just', 'too', 'here', 'own', 'same',
  // What is left of a contraction once its apostrophe is a space (`don't` -> `don t`).
  'don', 'doesn', 'didn', 'isn', 'aren', 'wasn', 'weren', 'won', 'wouldn', 'shouldn', 'couldn', 'haven', 'hasn',
  'll', 've', 're',
]);

/** Whether `term` (a normalised word) is an English function or question word: never a concept. */
export function isFunctionWord(term: string): boolean {
  return STOPWORDS.has(term) || ENGLISH_FUNCTION_WORDS.has(term);
}

const HANGUL_SYLLABLE = /^[\uac00-\ud7a3]$/u;
// Formula-like terms kept verbatim: E[X], Var(X), P(A|B), x^2, f(x).
const FORMULA_PATTERN = /[A-Za-z]{1,6}(?:\[[^\]\s]{1,16}\]|\([^)\s]{1,16}\))|[A-Za-z]\^\{?[0-9A-Za-z]{1,4}\}?/gu;

/** Formulas compare without case or spacing: `E[X]` and `e[x]` are the same term. */
function formulaKey(formula: string): string {
  return formula.normalize('NFC').toLowerCase().replace(/\s+/gu, '');
}

function isHangulSyllable(character: string): boolean {
  return HANGUL_SYLLABLE.test(character);
}

/** NFC, lowercase, punctuation and symbols to spaces, spaces collapsed. */
export function normalizeKorean(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/**
 * Strips one trailing particle or ending from an eojeol. A Hangul stem keeps at least two syllables when the word
 * had more than one (`나이` stays `나이`, `값을` stays `값을`), so the guard never empties or guts a word.
 */
export function stripParticles(word: string): string {
  // A Latin or numeric stem with a Hangul particle (`x의`, `3개`, `e는`) splits where the script changes.
  const mixed = /^([a-z0-9]+)([\uac00-\ud7a3]+)$/u.exec(word);
  if (mixed?.[1] !== undefined && mixed[2] !== undefined && ENDINGS.includes(mixed[2])) return mixed[1];
  const characters = Array.from(word);
  const last = characters[characters.length - 1];
  if (characters.length < 3 || last === undefined || !isHangulSyllable(last)) return word;
  // Only the longest matching ending is tried: falling back to a shorter one would leave half an ending behind
  // (`값입니다` must not become `값입니`).
  const ending = ENDINGS.find((candidate) => word.endsWith(candidate));
  if (ending === undefined) return word;
  const stem = Array.from(word.slice(0, word.length - ending.length));
  const stemLast = stem[stem.length - 1];
  return stem.length >= 2 && stemLast !== undefined && isHangulSyllable(stemLast) ? stem.join('') : word;
}

/** Content terms of a text in order of appearance: normalised, particles stripped, stopwords removed. */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of normalizeKorean(text).split(' ')) {
    if (word.length === 0 || STOPWORDS.has(word)) continue;
    const stem = stripParticles(word);
    if (STOPWORDS.has(stem)) continue;
    terms.push(stem);
  }
  return terms;
}

export interface KeyTerm {
  term: string;
  count: number;
  score: number;
  /** A formula such as `E[X]`, kept verbatim rather than normalised. */
  formula: boolean;
}

function formulaTerms(text: string): string[] {
  return Array.from(text.normalize('NFC').matchAll(FORMULA_PATTERN), (match) => match[0]);
}

// Last syllables of predicate forms (더한, 가진다, 커질수록, 나타내는): such words are not concepts to teach.
const PREDICATE_FINALS: ReadonlySet<string> = new Set([
  '다', '고', '며', '면', '서', '록', '지', '게', '던', '된', '한', '진', '낸', '른', '운', '은', '는', '을', '할',
  '될', '까', '요', '죠', '나', '니', '어', '아', '해', '돼', '져', '여', '워', '와', '줄', '준', '든',
]);

/** A cheap noun test for display terms: not ending like a predicate form. */
export function looksLikeNoun(term: string): boolean {
  const last = Array.from(term).at(-1);
  return last === undefined || !isHangulSyllable(last) || !PREDICATE_FINALS.has(last);
}

export interface RankOptions {
  /** Keep only noun-like words (and formulas): for terms shown to people, not for overlap scoring. */
  nounsOnly?: boolean;
}

/** Key terms with their scores (frequency × length, length capped so one long word cannot dominate). */
export function rankedTerms(text: string, options: RankOptions = {}): KeyTerm[] {
  const byTerm = new Map<string, KeyTerm>();
  const add = (term: string, weight: number, formula = false): void => {
    const entry = byTerm.get(term) ?? { term, count: 0, score: 0, formula };
    entry.count += 1;
    entry.score = entry.count * weight;
    byTerm.set(term, entry);
  };
  for (const formula of formulaTerms(text)) add(formula, 5, true);
  for (const term of contentTerms(text)) {
    const length = Array.from(term).length;
    // One-letter Latin and one-syllable Hangul words are too ambiguous to be key terms; digits need two figures.
    if (length < 2 || ENGLISH_FUNCTION_WORDS.has(term) || (options.nounsOnly === true && !looksLikeNoun(term))) continue;
    add(term, Math.min(length, 5));
  }
  // Map iteration is insertion order, so ties keep first appearance: deterministic for equal scores.
  return [...byTerm.values()].sort((left, right) => right.score - left.score);
}

/** The `limit` most important content terms of `text`, best first. Formulas such as `E[X]` are kept verbatim. */
export function keyTerms(text: string, limit = 10): string[] {
  return rankedTerms(text, { nounsOnly: true })
    .slice(0, Math.max(0, limit))
    .map((entry) => entry.term);
}

/** Initial consonant and vowel indices of a Hangul syllable. */
function onsetAndVowel(syllable: string): [number, number] {
  const index = syllable.charCodeAt(0) - 0xac00;
  return [Math.floor(index / 588), Math.floor((index % 588) / 28)];
}

// Syllables of 하다 conjugations: 더하고, 더한, 더해서, 더했다, 더함, 더합니다.
const HADA_FORMS: ReadonlySet<string> = new Set(['하', '한', '할', '함', '합', '해', '했']);

/**
 * Same first syllable and the second differs only in its final consonant (나누면/나눈, 기댓값/기대), both are
 * 하다 forms (더해서/더한) or both are particles (값을/값의): forms of one stem the dictionary-free stripper
 * cannot unify.
 */
function sameStem(left: string, right: string): boolean {
  const [a1, a2] = Array.from(left);
  const [b1, b2] = Array.from(right);
  if (a1 === undefined || a2 === undefined || b1 === undefined || b2 === undefined || a1 !== b1) return false;
  if (!isHangulSyllable(a1) || !isHangulSyllable(a2) || !isHangulSyllable(b2)) return false;
  if (HADA_FORMS.has(a2) && HADA_FORMS.has(b2)) return true;
  // 값을/값의/값이: a one-syllable stem the length guard kept together with different particles.
  if (left.length === 2 && right.length === 2 && ENDINGS.includes(a2) && ENDINGS.includes(b2)) return true;
  const [aOnset, aVowel] = onsetAndVowel(a2);
  const [bOnset, bVowel] = onsetAndVowel(b2);
  return aOnset === bOnset && aVowel === bVowel;
}

/** Whether two stemmed terms name the same thing: equal, a compound containing the other, or a leftover ending. */
export function termsMatch(left: string, right: string): boolean {
  if (left === right) return true;
  if (sameStem(left, right)) return true;
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  if (shorter.length === 0) return false;
  // Korean compounds put the head last (`산술평균` is a `평균`), and the particle guard can leave `값이` for `값`.
  if (Array.from(shorter).length >= 2 && longer.includes(shorter)) return true;
  return longer.startsWith(shorter) && longer.length - shorter.length <= 2;
}

export interface TermOverlap {
  score: number;
  matched: string[];
  missing: string[];
}

/**
 * How much of the reference's key content the answer covers, in [0, 1]: the score-weighted share of the
 * reference's key terms (up to 12) that some answer term matches. A recall, since a short correct answer should
 * not be punished for not repeating a long reference.
 */
export function termOverlapDetail(answer: string, reference: string): TermOverlap {
  const referenceTerms = rankedTerms(reference).slice(0, 12);
  if (referenceTerms.length === 0) return { score: 0, matched: [], missing: [] };
  const answerTerms = [...new Set([...contentTerms(answer), ...formulaTerms(answer).map(formulaKey)])];
  let total = 0;
  let covered = 0;
  const matched: string[] = [];
  const missing: string[] = [];
  for (const entry of referenceTerms) {
    total += entry.score;
    const needle = entry.formula ? formulaKey(entry.term) : entry.term;
    if (answerTerms.some((term) => termsMatch(term, needle))) {
      covered += entry.score;
      matched.push(entry.term);
    } else {
      missing.push(entry.term);
    }
  }
  return { score: total === 0 ? 0 : covered / total, matched, missing };
}

export function termOverlap(answer: string, reference: string): number {
  return termOverlapDetail(answer, reference).score;
}

/**
 * What a particle after `word` attaches to when it is read aloud: closing quotes and brackets are not read
 * (`'인플레이션'`, `「TLB」`), only the last word of a phrase or list is, and an alias in brackets after a Korean word (`관세지급인도조건(DDP)`, `인플레이션 (inflation)`)
 * is not either — the particle is the Korean word's. Symbols with a name (`C++`, `C#`, `A*`) stay.
 */
function spokenWord(word: string): string {
  const bare = word.normalize('NFC').replace(/[^\p{L}\p{N}*+#]+$/u, '');
  const alias = /[\uac00-\ud7a3]\s*[([][^()[\]]*$/u.exec(bare);
  const read = alias === null ? bare : bare.slice(0, alias.index + 1);
  // The last word of a phrase or a list is what is read last: `'process', 'TLB'` ends in TLB, an acronym.
  return read.split(/[\s'"‘’“”「」『』,]+/u).at(-1) ?? '';
}

/**
 * Whether the word's last sound has a final consonant (batchim), which picks 은/는, 이/가, 을/를, 과/와. Hangul by its
 * last syllable; English words, acronyms, digits and symbols as a Korean reader says them (english-sound.ts: a final
 * m, n, ng and l sound keeps its consonant, r does not; `TLB` 티엘비 and `switch` 스위치 end in a vowel; 1 일, 3 삼 in a
 * consonant, 2 이, 5 오 in a vowel).
 */
export function hasFinalConsonant(word: string): boolean {
  const spoken = spokenWord(word);
  const last = spoken.at(-1);
  if (last === undefined) return false;
  if (isHangulSyllable(last)) return (last.charCodeAt(0) - 0xac00) % 28 !== 0;
  return englishFinalSound(spoken) !== 'vowel';
}

/** Whether the word ends in ㄹ (Hangul, or read so: `model` 모델, `goal` 골), which takes 로 rather than 으로. */
function endsInRieul(word: string): boolean {
  const spoken = spokenWord(word);
  const last = spoken.at(-1) ?? '';
  if (isHangulSyllable(last)) return (last.charCodeAt(0) - 0xac00) % 28 === 8;
  return englishFinalSound(spoken) === 'rieul';
}

export type ParticlePair = '은/는' | '이/가' | '을/를' | '과/와' | '으로/로';

/** `word` with the right form of a particle pair given as `'을/를'` (batchim form first), read as hasFinalConsonant reads it. */
export function withParticle(word: string, pair: ParticlePair): string {
  const [withBatchim, without] = pair.split('/') as [string, string];
  if (pair === '으로/로') {
    // ㄹ-final words take 로 (`서울로`, `model로`), like vowel-final ones.
    return word + (hasFinalConsonant(word) && !endsInRieul(word) ? withBatchim : without);
  }
  return word + (hasFinalConsonant(word) ? withBatchim : without);
}

/**
 * Terms in single quotes, listed with commas, then the particle the last one takes: `'인플레이션'을`, `'TLB'가`,
 * `'caches', 'switch'가`. What a feedback sentence about named keywords writes instead of a both-forms `이(가)`.
 */
export function quotedWithParticle(terms: string | readonly string[], pair: ParticlePair): string {
  const listed = (typeof terms === 'string' ? [terms] : terms).map((term) => `'${term}'`).join(', ');
  return withParticle(listed, pair);
}
