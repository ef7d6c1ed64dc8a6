import { analyseText, unitFound, type AnalysedText } from '../judges/index.js';
import { parseJson } from '../llm/index.js';
import { letterCount, splitSentences } from '../text/index.js';

/**
 * What the offline critic reads from a text, deterministically: its language, the topic terms of a request, the
 * checkable facts (numbers, codes, acronyms) an output states, its format problems and repeated sentences.
 */

export type Language = 'ko' | 'en' | 'none';

/** Korean when Hangul syllables carry at least as much as the Latin letters (a syllable is about 2.5 letters). */
export function languageOf(text: string): Language {
  const hangul = (text.match(/[\uac00-\ud7a3]/gu) ?? []).length;
  const latin = (text.match(/[A-Za-z]/gu) ?? []).length;
  if (hangul + latin < 2) return 'none';
  return hangul * 2.5 >= latin ? 'ko' : 'en';
}

export const LANGUAGE_NAMES: Record<Exclude<Language, 'none'>, string> = { ko: '한국어', en: '영어' };

/**
 * How requests ask — not what they are about, so never a topic: `추천해줘`, `please explain`. Words of these forms
 * and units of this text are left out of a request's topic terms.
 */
const REQUEST_TEXT =
  '추천 추천해 추천해줘 알려 알려줘 설명 설명해 찾아 찾아줘 도와 도와줘 요약 요약해 번역 번역해 정리 정리해 작성 작성해 만들어 보여 해줘 주세요 부탁 부탁해 좀 관련 대해 무엇 뭐 어떻게 ' +
  'you are agent assistant user query request please recommend recommendation suggest find search show tell explain describe summarize translate write give help list want need can could would me';
const REQUEST_FORM = /(?:줘|주세요|주십시오|해라|하라|하세요|할까|일까|인가요|나요|습니까|해요)$/u;

let requestUnits: ReadonlySet<string> | undefined;
function requestFrame(): ReadonlySet<string> {
  requestUnits ??= new Set(analyseText(REQUEST_TEXT).units);
  return requestUnits;
}

export interface Term {
  unit: string;
  hangul: boolean;
  surface: string;
}

/** A noun with the copula glued on (`파리입니다`, `리옹이다`): the noun is a term, not a predicate. */
const COPULA = /^(\p{L}{2,}?)(?:입니다|이었습니다|였습니다|이에요|예요|이다|이며|이고|였다|이었다)$/u;

/** The distinct content words of a text that are not predicates or request words: what it is about. */
export function topicTerms(text: AnalysedText): Term[] {
  const seen = new Set<string>();
  const terms: Term[] = [];
  for (const token of text.tokens) {
    if (!token.content || token.unit === '') continue;
    let { unit, surface } = token;
    if (token.predicate) {
      const noun = token.hangul ? COPULA.exec(surface)?.[1] : undefined;
      if (noun === undefined) continue;
      unit = analyseText(noun).units[0] ?? noun;
      surface = noun;
    }
    if (seen.has(unit) || requestFrame().has(unit) || REQUEST_FORM.test(surface)) continue;
    if (Array.from(unit).length < 2 && !/\d/u.test(unit)) continue;
    seen.add(unit);
    terms.push({ unit, hangul: token.hangul, surface });
  }
  return terms;
}

/** The terms found in `text`, and those missing. */
export function coverage(terms: readonly Term[], text: AnalysedText): { found: Term[]; missing: Term[] } {
  const found: Term[] = [];
  const missing: Term[] = [];
  for (const term of terms) (unitFound(term.unit, term.hangul, text) ? found : missing).push(term);
  return { found, missing };
}

/** Runs of letters and digits, with decimal points and thousands separators inside (`1.29kg`, `1,000`, `M3`). */
const ALPHANUMERIC_RUN = /[A-Za-z0-9]+(?:[.,][A-Za-z0-9]+)*/gu;

const normalise = (text: string) => text.normalize('NFKC').toLowerCase();
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
const withoutThousands = (text: string) => text.replace(/(\d),(?=\d{3}(?!\d))/gu, '$1');

/**
 * The facts an output states that a reader can check: numbers and codes (runs with a digit: `19`, `1.29kg`, `M3`)
 * and acronyms (`USB`, `FOB`), thousands separators ignored. Distinct, lower-cased, in order of appearance.
 */
export function checkableFacts(text: string): string[] {
  const runs = text.normalize('NFKC').match(ALPHANUMERIC_RUN) ?? [];
  const facts = runs.filter((run) => /\d/u.test(run) || /^[A-Z]{2,}$/u.test(run)).map((run) => withoutThousands(run).toLowerCase());
  return [...new Set(facts)];
}

/** The facts of `facts` that none of `sources` contains as a whole run. */
export function unsupportedFacts(facts: readonly string[], sources: readonly string[]): string[] {
  const haystack = sources.map((source) => withoutThousands(normalise(source))).join('\n');
  return facts.filter((fact) => !new RegExp(`(?<![a-z\\d]|\\d[.,])${escapeRegExp(fact)}(?![a-z\\d]|[.,]\\d)`, 'u').test(haystack));
}

const PAIRS: readonly [string, string, string][] = [
  ['(', ')', '괄호 ( )'],
  ['[', ']', '대괄호 [ ]'],
  ['{', '}', '중괄호 { }'],
  ['「', '」', '낫표 「 」'],
];

/** Format problems: unbalanced brackets, an unclosed code fence or bold mark, an odd number of straight double quotes. */
export function formatProblems(text: string): string[] {
  const problems: string[] = [];
  for (const [open, close, name] of PAIRS) {
    let depth = 0;
    let broken = false;
    for (const character of text) {
      if (character === open) depth += 1;
      else if (character === close) {
        depth -= 1;
        if (depth < 0) broken = true;
      }
    }
    if (broken || depth !== 0) problems.push(`${name}의 짝이 맞지 않습니다`);
  }
  if ((text.match(/```/gu) ?? []).length % 2 === 1) problems.push('코드 블록(```)이 닫히지 않았습니다');
  const withoutFences = text.replace(/```[\s\S]*?```/gu, '');
  if ((withoutFences.match(/\*\*/gu) ?? []).length % 2 === 1) problems.push('굵게 표시(**)가 닫히지 않았습니다');
  if ((withoutFences.match(/"/gu) ?? []).length % 2 === 1) problems.push('큰따옴표(")의 짝이 맞지 않습니다');
  return problems;
}

/** Sentences (of at least 8 letters) that appear more than once, as first written. */
export function repeatedSentences(text: string): string[] {
  const seen = new Map<string, number>();
  const repeated: string[] = [];
  for (const sentence of splitSentences(text)) {
    if (letterCount(sentence) < 8) continue;
    const key = normalise(sentence).replace(/[^\p{L}\p{N}]+/gu, '');
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    if (count === 2) repeated.push(sentence);
  }
  return repeated;
}

/** Whether a text is JSON (a reference in JSON asks for JSON). */
export function isJson(text: string): boolean {
  const trimmed = text.trim();
  return /^[[{]/u.test(trimmed) && parseJson(trimmed).ok;
}

/** Whether a text has list lines (`- `, `1. `). */
export function hasListLines(text: string): boolean {
  return /^\s*(?:[-*•]|\d{1,2}[.)])\s+\S/mu.test(text);
}
