import winkNLP, { type ItsFunction } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * English text read offline: sentences, parts of speech, lemmas and noun phrases, from wink-nlp with its bundled
 * English lite model (MIT, 4.6 MB, no download at run time). Chosen over compromise 14.17 after measuring both on
 * the decks' sentences: the same accuracy on the words that matter for a blank (87 % and 86 % of 124 hand-labelled
 * nouns, verbs, adjectives and adverbs), but about ten times faster (200 sentences in ~60 ms against ~700 ms), half
 * the load time, Universal POS tags and lemmas (`heuristics` → `heuristic`). Its known slips are corrected here by
 * context: a third-person verb right after its subject read as a plural noun (`Crossover combines parts`), a plural
 * subject's verb read as a noun after a prepositional phrase (`Threads of one process share the …`) and a compound's
 * last noun read as a verb before the clause's verb (`A context switch saves …`).
 *
 * The model loads on first use (~0.1–0.2 s), once per process.
 */

export type EnglishTag =
  | 'ADJ' | 'ADP' | 'ADV' | 'AUX' | 'CCONJ' | 'DET' | 'INTJ' | 'NOUN' | 'NUM' | 'PART' | 'PRON' | 'PROPN' | 'PUNCT' | 'SCONJ' | 'SYM' | 'VERB' | 'X' | 'SPACE';

export interface EnglishToken {
  text: string;
  lemma: string;
  tag: EnglishTag;
}

export interface NounPhrase {
  /** The phrase as written (`admissible heuristic`, `learning rate`). */
  text: string;
  /** Its last noun's lemma (`heuristic`). */
  head: string;
  /** Token positions in the sentence, end exclusive. */
  start: number;
  end: number;
}

type Engine = ReturnType<typeof winkNLP>;
let engine: Engine | undefined;
const load = (): Engine => (engine ??= winkNLP(model, ['sbd', 'pos']));
// The package's types give `lemma` an add-ons parameter that `out` does not accept; at run time it is a token its-function.
const lemmaOf = (nlp: Engine) => nlp.its.lemma as unknown as ItsFunction<string>;

const NOUNS: ReadonlySet<EnglishTag> = new Set(['NOUN', 'PROPN']);
const AFTER_VERB: ReadonlySet<EnglishTag> = new Set(['DET', 'ADJ', 'NOUN', 'PROPN', 'NUM', 'PRON', 'ADP']);

/** The tokens of one sentence (or any short text) with their tags and lemmas. */
export function tagEnglish(text: string): EnglishToken[] {
  const nlp = load();
  const doc = nlp.readDoc(text);
  const words = doc.tokens().out();
  const tags = doc.tokens().out(nlp.its.pos) as EnglishTag[];
  const lemmas = doc.tokens().out(lemmaOf(nlp));
  const tokens = words.map((word, index) => ({ text: word, lemma: (lemmas[index] ?? word).toLowerCase(), tag: tags[index] ?? 'X' }));
  // `Crossover combines parts`, `it points in`: an -s word read as a plural noun right after a noun or a pronoun
  // subject and before an object or a preposition is the verb of the clause.
  for (let index = 1; index < tokens.length - 1; index += 1) {
    const token = tokens[index] as EnglishToken;
    const before = tokens[index - 1] as EnglishToken;
    const after = tokens[index + 1] as EnglishToken;
    if (token.tag !== 'NOUN' || !/[a-z]s$/u.test(token.text) || /ss$/u.test(token.text)) continue;
    const subject = NOUNS.has(before.tag) || (before.tag === 'PRON' && /^(?:it|he|she|this|that|which|who)$/iu.test(before.text)) || before.tag === 'X' || before.text === '*';
    if (subject && AFTER_VERB.has(after.tag) && !hasVerbAlready(tokens, index)) tokens[index] = { ...token, tag: 'VERB', lemma: token.lemma };
  }
  // `Hill climbing moves …`: an -ing word between a noun and the clause's verb names the subject with it (a gerund
  // noun), not a second verb.
  for (let index = 1; index < tokens.length - 1; index += 1) {
    const token = tokens[index] as EnglishToken;
    if (token.tag !== 'VERB' || !/ing$/iu.test(token.text)) continue;
    const before = tokens[index - 1] as EnglishToken;
    const after = tokens[index + 1] as EnglishToken;
    if (NOUNS.has(before.tag) && (after.tag === 'VERB' || after.tag === 'AUX') && (index === 1 || tokens[index - 2]?.tag === 'DET')) tokens[index] = { ...token, tag: 'NOUN' };
  }
  for (let index = 2; index < tokens.length - 1; index += 1) {
    const token = tokens[index] as EnglishToken;
    const before = tokens[index - 1] as EnglishToken;
    const after = tokens[index + 1] as EnglishToken;
    // `A context switch saves the state`: a bare verb between a noun after a determiner and the clause's -s verb is
    // the last noun of the subject.
    if (token.tag === 'VERB' && /^[a-z]+$/u.test(token.text) && !/(?:s|ed|ing)$/u.test(token.text) && NOUNS.has(before.tag) && tokens[index - 2]?.tag === 'DET' && after.tag === 'VERB' && /[a-z]s$/u.test(after.text)) {
      tokens[index] = { ...token, tag: 'NOUN' };
    }
    // `Threads of one process share the address space`: a bare word read as a noun after the noun of a prepositional
    // phrase, before a determiner, in a clause with no verb yet and a plural subject is the clause's verb.
    if (token.tag === 'NOUN' && /^[a-z]+$/u.test(token.text) && !/s$/u.test(token.text) && NOUNS.has(before.tag) && after.tag === 'DET' && !hasVerbAlready(tokens, index) && pluralSubjectBefore(tokens, index)) {
      tokens[index] = { ...token, tag: 'VERB' };
    }
  }
  return tokens;
}

/** Whether the clause before `index` opens with a plural noun followed by a preposition (`Threads of one process`). */
function pluralSubjectBefore(tokens: readonly EnglishToken[], index: number): boolean {
  const preposition = tokens.slice(0, index).findLastIndex((token) => token.tag === 'ADP');
  const subject = tokens[preposition - 1];
  return preposition > 0 && subject !== undefined && NOUNS.has(subject.tag) && /[a-z]s$/u.test(subject.text) && !/ss$/u.test(subject.text) && tokens.slice(preposition + 1, index).every((token) => /^(?:DET|NUM|ADJ|NOUN|PROPN)$/u.test(token.tag));
}

/** Whether the clause before `index` already has a verb (then an -s noun after a noun is a plural, not a verb). */
function hasVerbAlready(tokens: readonly EnglishToken[], index: number): boolean {
  for (let at = index - 1; at >= 0; at -= 1) {
    const token = tokens[at] as EnglishToken;
    if (token.tag === 'PUNCT' || token.tag === 'CCONJ' || token.tag === 'SCONJ' || /^(?:that|which|who)$/iu.test(token.text)) return false;
    if (token.tag === 'VERB' || token.tag === 'AUX') return true;
  }
  return false;
}

/** The sentences of an English text. */
export function englishSentences(text: string): string[] {
  return load().readDoc(text).sentences().out();
}

/**
 * The noun phrases of a sentence: runs of adjectives and nouns that end in a noun (`an informed search algorithm` →
 * `informed search algorithm`), with no determiner, number or pronoun.
 */
export function nounPhrases(tokens: readonly EnglishToken[]): NounPhrase[] {
  const phrases: NounPhrase[] = [];
  let start = -1;
  const close = (end: number) => {
    // Trim to the last noun: `costs the same` never ends a phrase on an adjective.
    let last = end - 1;
    while (last >= start && !NOUNS.has((tokens[last] as EnglishToken).tag)) last -= 1;
    if (start >= 0 && last >= start) {
      const words = tokens.slice(start, last + 1);
      phrases.push({ text: words.map((token) => token.text).join(' '), head: (tokens[last] as EnglishToken).lemma, start, end: last + 1 });
    }
    start = -1;
  };
  tokens.forEach((token, index) => {
    const inside = (NOUNS.has(token.tag) || token.tag === 'ADJ') && /^[A-Za-z][A-Za-z-]*$/u.test(token.text);
    if (inside && start < 0) start = index;
    if (!inside && start >= 0) close(index);
  });
  if (start >= 0) close(tokens.length);
  return phrases;
}

/** Whether `word` can be a noun at all: the tagger reads it as one in a plain frame (`We study the variable.`). */
export function canBeNoun(word: string): boolean {
  const tokens = tagEnglish(`We study the ${word}.`);
  const last = tokens.at(-2);
  return last !== undefined && NOUNS.has(last.tag);
}

/**
 * The tag of the word at `index` as a noun reading allows it: the tagger often reads a sentence-initial noun as an
 * adjective (`A variable is …`, `The median barely moves`); such a word that can be a noun is taken as one.
 */
export function isNounAt(tokens: readonly EnglishToken[], index: number): boolean {
  const token = tokens[index];
  if (token === undefined) return false;
  if (NOUNS.has(token.tag)) return true;
  if (token.tag !== 'ADJ' && token.tag !== 'X') return false;
  // An adjective before a noun qualifies it (`admissible heuristic`): not a noun there.
  const next = tokens[index + 1];
  if (next !== undefined && NOUNS.has(next.tag)) return false;
  return canBeNoun(token.text);
}
