import { type AnalysedText, ENGLISH_PREDICATE_CUES, analyseText, closesNote, listAnswersQuestion, statesRelationBySymbol } from '../judges/index.js';

/**
 * Exam-level shape checks the server adds to the judges' flags (answer-flags.ts), for the seed's items: a
 * Descriptive item asks for an explanation, so some answers are never one whatever a model says.
 * - `bare-list`: a Descriptive answer made of two or more separated items (comma, semicolon, line, 、 or ·) of at
 *   most three words each, none of them a clause — an item of two or more words with a predicate (is, has, can,
 *   decreases…), a Korean finite or connective ending, or a subject/topic particle before another word
 *   (`평균은 중심, 분산은 퍼짐` is two short clauses, not a list; `온실가스, 증가하면, 지구에서` is a list), and no relation
 *   written with a symbol (`공급량↓, 가격↑`: judges' statesRelationBySymbol), and more items than the question asks
 *   for (judges' listAnswersQuestion: `미토콘드리아, 세포 호흡` answers "어디이며, 어떤 과정으로"; a counted list answers
 *   "3대 영양소는"). The judges' own list check is stricter
 *   about where it applies (sentence references, questions that do not ask for a list, no numbers) because it also
 *   grades short-answer data; an exam's Descriptive item never wants a bare list.
 * - `question-echo`: the answer is (most of) the question: it repeats at least 80 % of the question's content words
 *   and adds none of its own. The judges' echo check stays silent when the model answer has no words beyond
 *   the question's; this one does not need the model answer.
 * - `no-content`: a Descriptive answer without a single content word (`Why`, `네`, punctuation).
 * - `copied-material`: a Descriptive answer of at least {@link MIN_COPIED_WORDS} words, half or more of them in runs
 *   of four words found verbatim in the material and not in the model answer. The judges' pasted-passage check
 *   wants longer answers and runs (it also reads short-answer data where quoting is common); an exam answer that
 *   is mostly the material's other sentences is not the student's explanation.
 */

export const MIN_COPIED_WORDS = 8;
const COPY_RUN = 4;

const WORD = /[\p{L}\p{N}]+/gu;
const wordsOf = (text: string): string[] => text.normalize('NFKC').toLowerCase().match(WORD) ?? [];

function runs(words: readonly string[]): Set<string> {
  const result = new Set<string>();
  for (let index = 0; index + COPY_RUN <= words.length; index += 1) result.add(words.slice(index, index + COPY_RUN).join(' '));
  return result;
}

function isCopiedMaterial(answerText: string, source: string, modelAnswer: string): boolean {
  const words = wordsOf(answerText);
  if (words.length < MIN_COPIED_WORDS) return false;
  const material = runs(wordsOf(source));
  const reference = runs(wordsOf(modelAnswer));
  const covered = new Array<boolean>(words.length).fill(false);
  for (let index = 0; index + COPY_RUN <= words.length; index += 1) {
    const run = words.slice(index, index + COPY_RUN).join(' ');
    if (!material.has(run) || reference.has(run)) continue;
    for (let offset = 0; offset < COPY_RUN; offset += 1) covered[index + offset] = true;
  }
  return covered.filter(Boolean).length / words.length >= 0.5;
}

export type ShapeFlag = 'bare-list' | 'question-echo' | 'no-content' | 'copied-material';

const FINITE_ENDING = /(?:다|요|죠|니다|고|며|서|면|지만|는데|니까|므로|도록|게)$/u;
const CLAUSE_PARTICLES: ReadonlySet<string> = new Set(['은', '는', '이', '가', '께서']);
const SEPARATORS = /[,;、·\n]/u;

/** Whether one list item is a clause: two or more words with a predicate, a negation or a subject/topic particle. */
function isClause(item: AnalysedText): boolean {
  if (item.tokens.length < 2) return false;
  return item.tokens.some(
    (token, index) =>
      token.negation ||
      (token.hangul
        ? FINITE_ENDING.test(token.surface) || closesNote(token) || (CLAUSE_PARTICLES.has(token.ending) && index < item.tokens.length - 1)
        : token.predicate || ENGLISH_PREDICATE_CUES.has(token.surface)),
  );
}

function isBareList(answer: AnalysedText, text: string, question: string): boolean {
  const items = text.split(SEPARATORS).filter((item) => /[\p{L}\p{N}]/u.test(item));
  if (items.length < 2 || items.some((item) => item.trim().split(/\s+/u).length > 3)) return false;
  if (listAnswersQuestion(question, items.length)) return false;
  if (answer.tokens.filter((token) => token.content).length < 2 || answer.tokens.some((token) => token.negation)) return false;
  if (statesRelationBySymbol(text)) return false;
  return !items.some((item) => isClause(analyseText(item)));
}

function isQuestionEcho(answer: AnalysedText, question: AnalysedText): boolean {
  if (question.unitSet.size === 0 || answer.unitSet.size === 0) return false;
  let repeated = 0;
  for (const unit of question.unitSet) if (answer.unitSet.has(unit)) repeated += 1;
  const added = [...answer.unitSet].filter((unit) => !question.unitSet.has(unit)).length;
  // Nothing of its own: one added word can be the whole answer ("…분산이 줄어듭니다" to "…분산은 어떻게 되는지").
  return repeated / question.unitSet.size >= 0.8 && added === 0;
}

/**
 * Text without punctuation, for comparing an answer's words with the question's: an echo typed without the
 * question's punctuation ("e.g." → "eg", "2.5" → "25") must not look like words of its own.
 */
const withoutPunctuation = (text: string): string => text.replace(/[^\p{L}\p{N}\s]/gu, '');

/** Whether the answer has a content word the question does not (then it says something, whatever it says). */
export function addsOwnWords(answer: string, question: string): boolean {
  const questionUnits = analyseText(withoutPunctuation(question)).unitSet;
  return [...analyseText(withoutPunctuation(answer)).unitSet].some((unit) => !questionUnits.has(unit));
}

export interface ShapeInput {
  type: 'Short_Keyword' | 'Descriptive';
  answer: string;
  question: string;
  modelAnswer: string;
  source?: string | undefined;
  /** The judges already read the answer as a keyword list (then it is not an echo either). */
  listed: boolean;
  /** The judges already read it as a pasted passage. */
  pasted: boolean;
}

export function answerShapeFlags(input: ShapeInput): ShapeFlag[] {
  const { type, answer: answerText, question: questionText, listed } = input;
  const answer = analyseText(answerText);
  const flags: ShapeFlag[] = [];
  const list = type === 'Descriptive' && !listed && isBareList(answer, answerText, questionText);
  if (list) flags.push('bare-list');
  // A list of the question's own terms is a list (at most partial), not an echo.
  else if (!listed && isQuestionEcho(analyseText(withoutPunctuation(answerText)), analyseText(withoutPunctuation(questionText)))) flags.push('question-echo');
  if (type === 'Descriptive' && /[\p{L}\p{N}]/u.test(answerText) && answer.unitSet.size === 0) flags.push('no-content');
  if (type === 'Descriptive' && !input.pasted && input.source !== undefined && isCopiedMaterial(answerText, input.source, input.modelAnswer)) {
    flags.push('copied-material');
  }
  return flags;
}
