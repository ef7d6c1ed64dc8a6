import { isNounAt, nounPhrases, tagEnglish } from './english.js';

/**
 * The key noun phrases of English material, read with the tagger (english.ts): what an offline cloze item blanks and
 * offers as choices, what the offline lecture asks about and announces, and what the offline tutor names. A term is a noun phrase the material defines (`A heuristic is …`, `… called
 * individuals`) or keeps using (two or more times): `admissible heuristic`, `learning rate`, `genetic algorithm`,
 * `frontier`. A phrase inside a longer term is a term of its own only when it also stands alone often enough
 * (`learning` never is: it is only ever part of `learning rate`). Never a verb, an adjective, a function word, a
 * number or a word of everyday prose (`value`, `part`, `way`).
 */

export interface EnglishTerm {
  /** As shown in a choice: lower case unless the material always capitalises it (`Bayes`). */
  term: string;
  /** The words of the term. */
  words: number;
  /** How often the material says it (plural forms included). */
  count: number;
  /** Said to be something in a definition sentence. */
  defined: boolean;
  score: number;
}

/** Nouns every text uses without teaching them: as answers or distractors they make silly questions. */
const GENERIC = new Set([
  'value', 'values', 'part', 'parts', 'way', 'ways', 'thing', 'things', 'set', 'number', 'numbers', 'example', 'examples', 'time', 'times', 'size',
  'lot', 'kind', 'kinds', 'type', 'types', 'case', 'cases', 'end', 'use', 'fact', 'idea', 'point', 'side', 'step', 'steps', 'place', 'result',
  'results', 'method', 'methods', 'problem', 'problems', 'data', 'information', 'detail', 'details', 'form', 'level', 'amount', 'order', 'chapter',
  'lecture', 'slide', 'section', 'page', 'figure', 'table', 'summary', 'outline', 'agenda', 'introduction', 'course', 'question', 'questions',
  'answer', 'answers', 'student', 'students', 'week', 'today', 'same', 'other', 'others', 'something', 'everything', 'nothing', 'anything', 'one',
]);

/**
 * Everyday nouns that name an idea only where the text defines them (`Work is force times distance`): elsewhere (`no
 * useful work is done`) a student told about them learns nothing.
 */
const EVERYDAY = new Set(['work', 'stuff', 'area', 'aspect', 'role', 'reason', 'purpose', 'matter', 'manner', 'sort']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/** The pattern of a term in running text: its words with any spacing, an optional plural ending, whole words. */
export function termPattern(term: string): RegExp {
  const words = term.split(/\s+/u).map(escape);
  const last = words.pop() ?? '';
  return new RegExp(`(?<![A-Za-z-])${[...words, `${last}(?:s|es)?`].join('\\s+')}(?![A-Za-z-])`, 'giu');
}

const DEFINES = /^(?:(?:a|an|the)\s+(?=[A-Za-z]{2}))?([A-Za-z][A-Za-z* -]{1,60}?)\s+(?:is|are|refers to|means|consists of)\b/iu;
const CALLED = /\bcalled\s+(?:(?:a|an|the)\s+)?([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){0,2})/iu;

/** Whether a sentence of Latin letters is English prose (not code, a formula or a label). */
export function isEnglishProse(sentence: string): boolean {
  if (/[\uac00-\ud7a3]/u.test(sentence)) return false;
  const words = sentence.match(/[A-Za-z]+/gu) ?? [];
  return words.length >= 4 && /[.!?]["')\]]?$/u.test(sentence.trim());
}

export interface EnglishTermOptions {
  /**
   * How often a phrase the material does not define must be said to be a term (2 by default: said once, a phrase
   * is prose, not vocabulary). 1 for a short text (a model answer) whose phrases are named from it.
   */
  minCount?: number;
}

/**
 * Whether a text is English material: its Latin letters outnumber its Hangul syllables ten to one. Korean material
 * that writes English terms in brackets (`평균(mean)`) stays Korean; a Korean sentence has a Hangul syllable for
 * every two or three letters a Latin word would spend.
 */
export function isEnglishText(text: string): boolean {
  const latin = (text.match(/[A-Za-z]/gu) ?? []).length;
  const hangul = (text.match(/[\uac00-\ud7a3]/gu) ?? []).length;
  return latin >= 20 && latin > hangul * 10;
}

/** The terms of the English sentences of `sentences`, most important first. */
export function englishTerms(sentences: readonly string[], options: EnglishTermOptions = {}): EnglishTerm[] {
  const minCount = options.minCount ?? 2;
  const prose = sentences.filter(isEnglishProse);
  const text = prose.join('\n');
  const candidates = new Map<string, { shown: Map<string, number>; defined: boolean; determined: boolean }>();
  const add = (phrase: string, defined: boolean, determined: boolean) => {
    const words = phrase.trim().split(/\s+/u);
    if (words.length === 0 || words.length > 4 || words.some((word) => !/^[A-Za-z][A-Za-z*-]*$/u.test(word))) return;
    const form = singular(phrase.trim());
    const key = form.toLowerCase();
    const entry = candidates.get(key) ?? { shown: new Map<string, number>(), defined: false, determined: false };
    entry.shown.set(form, (entry.shown.get(form) ?? 0) + 1);
    entry.defined ||= defined;
    entry.determined ||= determined;
    candidates.set(key, entry);
  };
  for (const sentence of prose) {
    const tokens = tagEnglish(sentence);
    const phrases = nounPhrases(tokens);
    for (const phrase of phrases) {
      const span = tokens.slice(phrase.start, phrase.end);
      // After a determiner (`the frontier`, `a local maximum`) a phrase is used as a noun for sure.
      const determined = /^(?:DET|PRON)$/u.test(tokens[phrase.start - 1]?.tag ?? '') || tokens[phrase.start - 1]?.text === '*';
      // Every tail of the phrase that starts at a word the material could name alone (`informed search algorithm`:
      // itself, `search algorithm`, `algorithm`); a leading adjective alone is never a term.
      for (let start = 0; start < span.length; start += 1) {
        if (start > 0 && span[start - 1]?.tag === 'ADJ' && span[start]?.tag !== 'NOUN' && span[start]?.tag !== 'PROPN') continue;
        add(span.slice(start).map((token) => token.text).join(' '), false, determined);
      }
    }
    // A phrase a sentence defines (`A heuristic is …`, `… called individuals`): a noun phrase of that sentence, or
    // `A* …` (the tagger splits `A*`).
    const defined = DEFINES.exec(sentence)?.[1] ?? CALLED.exec(sentence)?.[1];
    if (defined !== undefined && (/^A\*/u.test(defined) || phrases.some((phrase) => phrase.text.toLowerCase().endsWith(defined.toLowerCase())))) add(defined, true, true);
  }
  const terms: EnglishTerm[] = [];
  for (const [key, entry] of candidates) {
    const words = key.split(' ');
    const last = words.at(-1) ?? '';
    if (GENERIC.has(key) || GENERIC.has(last) && words.length === 1) continue;
    // Its last word must be a noun where the material says it.
    const count = (text.match(termPattern(key)) ?? []).length;
    if (count === 0) continue;
    if (!entry.defined && count < minCount) continue;
    // One word must be a noun the material uses as one: after a determiner somewhere, or defined.
    if (words.length === 1 && (!(entry.determined || entry.defined) || !isNounAt(tagEnglish(`We study the ${key}.`), 3))) continue;
    const shown = shownForm([...entry.shown.entries()].sort((left, right) => right[1] - left[1])[0]?.[0] ?? key);
    terms.push({ term: shown, words: words.length, count, defined: entry.defined, score: count * (1 + 0.5 * (words.length - 1)) + (entry.defined ? 3 : 0) });
  }
  // A term inside a longer term is kept only when it also stands alone at least twice (`learning` of `learning rate`
  // never does; `heuristic` of `admissible heuristic` does).
  const standsAlone = (term: EnglishTerm) => {
    const longer = terms.filter((other) => other.words > term.words && termPattern(term.term).test(other.term));
    if (longer.length === 0) return true;
    let rest = text;
    for (const other of longer) rest = rest.replace(termPattern(other.term), ' ');
    return (rest.match(termPattern(term.term)) ?? []).length >= minCount || (term.defined && (rest.match(termPattern(term.term)) ?? []).length >= 1);
  };
  return terms.filter(standsAlone).sort((left, right) => right.score - left.score || right.words - left.words || left.term.localeCompare(right.term));
}

/** The phrase with its last word singular (`individuals` → `individual`, `strategies` → `strategy`). */
function singular(phrase: string): string {
  const words = phrase.split(/\s+/u);
  const last = words.pop() ?? '';
  // `switches`, `crashes`, `boxes` lose `es`; `caches` and `states` only their `s`.
  const one = /(?:ss|us|is|ics)$/iu.test(last) || last.length <= 3 ? last : last.replace(/ies$/u, 'y').replace(/(?<=(?:tch|sh|x|zz))es$/u, '').replace(/(?<=[a-z]{3})s$/u, '');
  return [...words, one].join(' ');
}

/**
 * How a term is shown: as the material writes it, but a capital that starts a sentence or a title lowered (`Gradient
 * ascent` → `gradient ascent`, `Case Study` → `case study`); acronyms, `A*` and inner capitals (`PriorityQueue`) stay.
 */
function shownForm(form: string): string {
  return form
    .split(' ')
    .map((word) => (/^[A-Z][a-z-]+$/u.test(word) ? word.toLowerCase() : word))
    .join(' ');
}

/**
 * The noun compounds an English text names, in order of appearance, each once: its noun phrases (`kernel data
 * structure`, `time quantum`, `round robin`) without the describing adjectives in front (`low turnaround time` is a
 * `turnaround time`) unless the text says the whole phrase twice (`critical section`). Never a generic noun alone
 * (`time`, `example`), an everyday one the text does not define (`work` of `no useful work is done`), a name that only
 * sets the scene (`On Unix, …`), a function word, a verb or an adjective, nor a phrase with a word of under two
 * letters (the tagger splits `I/O`). What the offline tutor names when it tells a student which ideas an answer has
 * or lacks.
 */
export function englishCompounds(text: string): string[] {
  const compounds: string[] = [];
  for (const sentence of text.split(/(?<=[.!?;:])\s+|\n/u)) {
    const tokens = tagEnglish(sentence);
    for (const phrase of nounPhrases(tokens)) {
      let start = phrase.start;
      while (start < phrase.end - 1 && tokens[start]?.tag === 'ADJ' && (text.match(termPattern(phrase.text)) ?? []).length < 2) start += 1;
      // A plural in front of a noun is a verb the tagger misread (`one that is too small wastes time`): compounds
      // modify with the singular (`process control block`).
      while (start < phrase.end - 1 && /^[a-z]+[^su]s$/u.test(tokens[start]?.text ?? '')) start += 1;
      const words = tokens.slice(start, phrase.end).map((token) => token.text);
      if (words.some((word) => !/^[A-Za-z][A-Za-z-]+$/u.test(word))) continue;
      const compound = words.join(' ');
      // Only as the text writes it, whole words: the tagger's tokens do not always join back (`-process server`).
      if (!termPattern(compound).test(text)) continue;
      // Alone, a generic noun names nothing, a two-letter word is a unit (`ms`) unless written as an acronym (`OS`),
      // and a word right after `that`/`which`/`who` is the verb of a relative clause the tagger misread (`stores`).
      const after = tokens[start - 1]?.text.toLowerCase() ?? '';
      if (words.length === 1 && (GENERIC.has(compound.toLowerCase()) || /^[a-z]{2}$/u.test(compound) || /^(?:that|which|who)$/u.test(after))) continue;
      if (words.length === 1 && EVERYDAY.has(compound.toLowerCase()) && !defines(text, compound)) continue;
      // A name that only sets the scene of a sentence (`On Unix, fork() creates …`, `In Python, …`) is where the idea
      // holds, not the idea.
      if (words.length === 1 && tokens[start]?.tag === 'PROPN' && start === 1 && tokens[0]?.tag === 'ADP' && tokens[phrase.end]?.text === ',') continue;
      if (!compounds.some((other) => other.toLowerCase() === compound.toLowerCase())) compounds.push(compound);
    }
  }
  return compounds;
}

/** Whether a sentence of `text` defines `term` (`Work is …`, `A heuristic is …`). */
function defines(text: string, term: string): boolean {
  return text.split(/(?<=[.!?;])\s+|\n/u).some((sentence) => DEFINES.exec(sentence.trim())?.[1]?.toLowerCase() === term.toLowerCase());
}
