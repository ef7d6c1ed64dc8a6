import {
  ENGLISH_NEGATIONS,
  ENGLISH_PASSIVE,
  ENGLISH_PREDICATE_CUES,
  ENGLISH_RELATIONS,
  ENGLISH_STOPWORDS,
  englishUnit,
} from './english-words.js';
import { KOREAN_PASSIVE, KOREAN_RELATIONS, KOREAN_STOPWORDS, analyseKoreanWord, isBareEnding } from './korean-words.js';

/**
 * Text → tokens with matching units, for English, Korean and the two mixed. A unit is what two texts must share
 * for a word to count as matched: a Porter stem (folded through synonym groups) for Latin words, a stripped stem
 * for Hangul words. Question, reference and answer all go through this one function.
 */

export interface Token {
  /** Normalised surface form (shown in evidence). */
  surface: string;
  /** Matching unit; '' for pure polarity or function markers. */
  unit: string;
  hangul: boolean;
  /** Counts for overlap (not a stopword, not a polarity marker). */
  content: boolean;
  negation: boolean;
  /** Shows that the text has a predicate (a verb, copula or sentence-building function word). */
  predicate: boolean;
  /** Relation cue around which concept order matters (`causes`, `than`, `보다`, `원인`). */
  relation: boolean;
  /** The cue's identity, so that two texts' cues can be paired: the unit, `면` for any Korean conditional, `보다`. */
  cue: string;
  passive: boolean;
  /** Inside parentheses right after another word: an alias of that word (`분산(variance)`). */
  aliasOf: number | undefined;
  sentence: number;
  clause: number;
  /** A Korean connective ending closes the clause after this word. */
  endsClause: boolean;
  /** The Korean particle or ending after the stem (`가` in `평균이가`… `A가`), '' for English: the word's role. */
  ending: string;
  /**
   * A Korean verb or adjective form (`나눈`, `다릅니다`, `가까워져요`): its unit is a stem no student would read as a
   * concept. Nouns with a copula (`값입니다`) or a light verb (`증가한다`) are not verbal.
   */
  verbal: boolean;
}

export interface AnalysedText {
  normalized: string;
  tokens: Token[];
  /** Content units in order of appearance. */
  units: string[];
  unitSet: ReadonlySet<string>;
  /** Spacing-free character bigrams of the Hangul content plus whole Latin units: for fuzzy, spacing-blind overlap. */
  grams: ReadonlySet<string>;
  /** Hangul content stems joined without spaces: `표본 평균` and `표본평균` give the same stream. */
  hangulStream: string;
  /** Number of words in the text (tokens of any kind). */
  wordCount: number;
}

/** NFKC (full-width letters, compatibility jamo, ligatures), lowercase, typographic quotes folded. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u0060\u00b4^]/gu, "'")
    .replace(/[\u201c\u201d]/gu, '"');
}

const TOKEN = /[\p{L}\p{N}]+(?:['.][\p{L}\p{N}]+)*|[.!?;\n,()]/gu;
const SCRIPT_RUN = /[\uac00-\ud7a3]+|[^\uac00-\ud7a3]+/gu;
const CONTRACTED_NEGATION = /^(.+?)n't$/u;
const GLUED_NEGATION: ReadonlySet<string> = new Set([
  'dont', 'doesnt', 'didnt', 'isnt', 'arent', 'wasnt', 'werent', 'cant', 'couldnt', 'wouldnt', 'shouldnt', 'wont',
  'havent', 'hasnt', 'hadnt', 'aint',
]);
const CLAUSE_WORDS: ReadonlySet<string> = new Set([
  'whereas', 'while', 'but', 'however', 'although', 'though', 'so', 'because', 'since', 'therefore', 'thus', 'unless',
]);
const BE_FORMS: ReadonlySet<string> = new Set(['is', 'are', 'was', 'were', 'be', 'been', 'being']);

interface Position {
  sentence: number;
  clause: number;
  aliasOf: number | undefined;
}

function latinTokens(word: string, position: Position): Token[] {
  const base = { hangul: false, relation: false, cue: '', passive: false, endsClause: false, ending: '', verbal: false, ...position };
  const contracted = CONTRACTED_NEGATION.exec(word);
  if (contracted !== null || GLUED_NEGATION.has(word) || word === 'cannot') {
    return [{ ...base, surface: word, unit: '', content: false, negation: true, predicate: true }];
  }
  const bare = word.replace(/'s$/u, '').replace(/'/gu, '');
  if (bare.length === 0) return [];
  if (ENGLISH_NEGATIONS.has(bare)) {
    return [{ ...base, surface: bare, unit: '', content: false, negation: true, predicate: bare === 'not' }];
  }
  const unit = /^\p{N}/u.test(bare) ? bare : englishUnit(bare);
  const stop = ENGLISH_STOPWORDS.has(bare);
  return [{
    ...base,
    surface: bare,
    unit,
    content: !stop,
    negation: false,
    predicate: ENGLISH_PREDICATE_CUES.has(bare) || /(?:ed|es)$/u.test(bare) && !stop && bare.length > 4,
    relation: ENGLISH_RELATIONS.has(unit),
    cue: ENGLISH_RELATIONS.has(unit) ? unit : '',
    passive: ENGLISH_PASSIVE.has(bare),
  }];
}

function hangulToken(run: string, position: Position): Token {
  const word = analyseKoreanWord(run);
  const stop = KOREAN_STOPWORDS.has(run) || KOREAN_STOPWORDS.has(word.stem) || word.stem === '';
  const ending = run.startsWith(word.stem) ? run.slice(word.stem.length) : '';
  return {
    surface: run,
    unit: word.stem,
    hangul: true,
    content: !stop && !word.negation,
    negation: word.negation,
    predicate: word.predicate,
    relation: word.relation || KOREAN_RELATIONS.has(word.stem),
    cue: word.relation ? (run.endsWith('보다') ? '보다' : '면') : KOREAN_RELATIONS.has(word.stem) ? word.stem : '',
    passive: KOREAN_PASSIVE.has(run) || KOREAN_PASSIVE.has(word.stem),
    endsClause: word.clauseEnd,
    ending,
    verbal: word.verbal,
    ...position,
  };
}

/** Splits `variance가` into `variance` (+ a dropped particle), `cpu사용률` into `cpu` and `사용률`. */
function wordTokens(word: string, position: Position): Token[] {
  const runs = word.match(SCRIPT_RUN) ?? [];
  const tokens: Token[] = [];
  runs.forEach((run, index) => {
    if (/[\uac00-\ud7a3]/u.test(run)) {
      if (index > 0 && isBareEnding(run)) {
        // A particle or copula glued to a Latin word: its role is kept, the word is the Latin part.
        const previous = tokens.at(-1);
        if (previous === undefined) return;
        previous.ending = run;
        if (!['은', '는', '이', '가', '을', '를', '의', '에', '로', '와', '과', '도', '만'].includes(run)) previous.predicate = true;
        return;
      }
      tokens.push(hangulToken(run, position));
      return;
    }
    tokens.push(...latinTokens(run, position));
  });
  return tokens;
}

/** Standalone Hangul words that are only a particle. */
const PARTICLE_WORDS: ReadonlySet<string> = new Set(['은', '는', '이', '가', '을', '를', '의', '에', '로', '으로', '와', '과', '도', '만', '이다', '입니다', '이며', '이고', '에서']);

/** A capital `A` names a thing when a name or a non-noun follows (`A and C`, `bulb A is`, `A.`), not `A bulb`. */
function namesThing(pieces: readonly string[], index: number, previous: Token | undefined): boolean {
  const next = pieces[index + 1];
  if (previous?.content === true && !previous.hangul) return true;
  if (next === undefined || !/^[\p{L}\p{N}]/u.test(next)) return true;
  const lower = next.toLowerCase();
  // An article never precedes a verb in -s or a plural ("A causes B", "A increases").
  if (/[^su]s$/u.test(lower) && !/(?:ss|is|as|us)$/u.test(lower)) return true;
  return ENGLISH_STOPWORDS.has(lower) || ENGLISH_NEGATIONS.has(lower) || /^[A-Z]$/u.test(next) || /[\uac00-\ud7a3]/u.test(next);
}

/**
 * What a token adds to the spacing-free stream: its unit, except that a verb keeps its own syllables (`더한`, not the
 * folded `더하`), as it stands in an answer written without spaces (`전부더한다음에`).
 */
function streamPiece(token: Token): string {
  if (!token.verbal || token.surface.startsWith(token.unit)) return token.unit;
  return Array.from(token.surface).slice(0, Array.from(token.unit).length).join('');
}

/**
 * The texts analysed last, with their analyses. One judgement reads the same question, reference and answer in
 * several places (integrity flags, the assessor, feedback, contradiction checks), and a lecture's reference is judged
 * against every student's answer; an analysis depends on the text alone. The entries are frozen: a caller that wants
 * to change tokens copies them.
 */
const ANALYSED_CACHE_SIZE = 256;
/** Longer texts (a whole chapter the critic reads) are analysed once each and not kept: 256 of them weigh megabytes. */
const CACHED_TEXT_MAX = 4_000;
const analysedCache = new Map<string, AnalysedText>();

/** Tokens and units of a text. */
export function analyseText(text: string): AnalysedText {
  const cached = analysedCache.get(text);
  if (cached !== undefined) return cached;
  const analysed = analyse(text);
  if (text.length > CACHED_TEXT_MAX) return analysed;
  for (const token of analysed.tokens) Object.freeze(token);
  Object.freeze(analysed.tokens);
  Object.freeze(analysed.units);
  Object.freeze(analysed);
  if (analysedCache.size >= ANALYSED_CACHE_SIZE) analysedCache.delete(analysedCache.keys().next().value as string);
  analysedCache.set(text, analysed);
  return analysed;
}

function analyse(text: string): AnalysedText {
  const normalized = normalizeText(text);
  // Matching runs on the NFKC text with its case, so that a capital `A` naming a thing ("bulb A", "A and C") can be
  // told from the article.
  const pieces = Array.from(text.normalize('NFKC').replace(/[\u2018\u2019\u0060\u00b4^]/gu, "'").matchAll(TOKEN), (match) => match[0]);
  const tokens: Token[] = [];
  let sentence = 0;
  let clause = 0;
  let depth = 0;
  let aliasAnchor: number | undefined;
  pieces.forEach((original, pieceIndex) => {
    const piece = original.toLowerCase();
    if (piece === '(') {
      depth += 1;
      aliasAnchor = depth === 1 && tokens.length > 0 ? tokens.length - 1 : aliasAnchor;
      return;
    }
    if (piece === ')') {
      depth = Math.max(0, depth - 1);
      if (depth === 0) aliasAnchor = undefined;
      return;
    }
    if (piece === '.' || piece === '!' || piece === '?' || piece === '\n') {
      sentence += 1;
      clause += 1;
      return;
    }
    if (piece === ',' || piece === ';') {
      // A comma in parentheses lists what the words before it stand for (`성질 그대로(모양, 상태만)`): one clause.
      if (depth === 0) clause += 1;
      return;
    }
    const previous = tokens.at(-1);
    if (/^[\uac00-\ud7a3]+$/u.test(piece) && previous !== undefined && PARTICLE_WORDS.has(piece)) {
      // `평균(mean)은`: a particle cut off by the parenthesis belongs to the word before.
      previous.ending = piece;
      return;
    }
    if (CLAUSE_WORDS.has(piece)) clause += 1;
    const produced = wordTokens(piece, { sentence, clause, aliasOf: depth > 0 ? aliasAnchor : undefined });
    if (original === 'A' && produced[0] !== undefined && namesThing(pieces, pieceIndex, previous)) {
      produced[0] = { ...produced[0], unit: 'a', content: true };
    }
    tokens.push(...produced);
    if (produced.some((token) => token.endsClause)) clause += 1;
  });
  tokens.forEach((token, index) => {
    const previous = tokens[index - 1];
    // "no longer" is one negation, not a negated "long"; "whether or not" negates nothing.
    if (token.surface === 'longer' && previous?.surface === 'no') token.content = false;
    if (token.surface === 'not' && previous?.surface === 'or') token.negation = false;
    // "is contained in", "was caused": a passive relation swaps its concepts just like "by" does.
    if (!token.hangul && token.relation && /ed$/u.test(token.surface)) {
      const before = tokens.slice(Math.max(0, index - 3), index);
      if (before.some((other) => BE_FORMS.has(other.surface)) && !tokens.slice(index + 1, index + 3).some((other) => other.passive)) {
        token.passive = true;
      }
    }
  });
  const units = tokens.filter((token) => token.content).map((token) => token.unit);
  const hangulStream = tokens
    .filter((token) => token.content && token.hangul)
    .map(streamPiece)
    .join('');
  const grams = new Set<string>();
  const syllables = Array.from(hangulStream);
  for (let index = 0; index + 1 < syllables.length; index += 1) grams.add(`${syllables[index]}${syllables[index + 1]}`);
  for (const token of tokens) if (token.content && !token.hangul) grams.add(token.unit);
  return {
    normalized,
    tokens,
    units,
    unitSet: new Set(units),
    grams,
    hangulStream,
    wordCount: tokens.length,
  };
}

const NEIGHBOUR_WINDOW = 4;

/** Indexes of the content tokens within NEIGHBOUR_WINDOW tokens of `index`, in the same clause, on the given side(s). */
export function neighbours(text: AnalysedText, index: number, side: 'before' | 'after' | 'both'): number[] {
  const clause = text.tokens[index]?.clause;
  const result: number[] = [];
  for (let offset = 1; offset <= NEIGHBOUR_WINDOW; offset += 1) {
    for (const position of [side === 'after' ? -1 : index - offset, side === 'before' ? -1 : index + offset]) {
      const token = text.tokens[position];
      if (position >= 0 && token !== undefined && token.clause === clause && token.content) result.push(position);
    }
  }
  return result;
}
