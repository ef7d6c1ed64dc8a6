import { type AnalysedText, analyseText } from './text-units.js';
import { unitFound } from './unit-match.js';

/**
 * A reference answer made only of its question's words is one of two things:
 * - **the question restated** (a model answer that fell back to its question, or reordered it with its frame words):
 *   no reference. Anything that repeats the question would match it, so no verdict is made against it: the judge
 *   abstains and the exam item waits for the teacher.
 * - **an answer chosen from the question's words** ("the terminals are connected" for "What does a reading of 0 tell
 *   you about the connection between a bulb terminal and a battery terminal?", "햇빛에 둔 컵" for a question about a
 *   cup in the sun and one in the shade): a real reference, judged like any other. Under grouped CV the assessor
 *   judged 33 of the 41 dev answers to such references right (6 questions, Beetle and SciEntsBank, with each item's
 *   references), where abstaining told the teacher nothing. What overlap cannot read there is an answer that takes another of the question's
 *   options: it drops a word the reference chose and says one of the question's words the reference left out
 *   ("그늘에 둔 컵"), so a good verdict on it is never sure (verdict-confidence.ts).
 */

/** Share of the question's content words a reference of nothing else must repeat to be the question restated. */
export const RESTATED_QUESTION_SHARE = 0.5;

/** A text's words that carry content: two letters or more, or a number. */
function contentUnits(text: AnalysedText): string[] {
  return [...text.unitSet].filter((unit) => Array.from(unit).length >= 2 || /\d/u.test(unit));
}

function holds(text: AnalysedText, unit: string): boolean {
  return unitFound(unit, /[\uac00-\ud7a3]/u.test(unit), text);
}

/** Every content word of the reference is the question's (a number the question lacks is the reference's own). */
function madeOfQuestion(reference: AnalysedText, question: AnalysedText, referenceText: string, questionText: string): boolean {
  if (/\d/u.test(referenceText) && !/\d/u.test(questionText)) return false;
  return contentUnits(reference).every((unit) => holds(question, unit));
}

function restates(reference: AnalysedText, question: AnalysedText): boolean {
  const asked = contentUnits(question);
  return asked.filter((unit) => holds(reference, unit)).length >= RESTATED_QUESTION_SHARE * asked.length;
}

/**
 * Whether a reference answer is no reference: empty (no content word), or the question restated — nothing but the
 * question's words, and at least RESTATED_QUESTION_SHARE of them.
 */
export function referenceStandsIn(question: string, reference: string): boolean {
  const said = analyseText(reference);
  if (contentUnits(said).length === 0) return true;
  const asked = analyseText(question);
  return madeOfQuestion(said, asked, reference, question) && restates(said, asked);
}

/**
 * The answer may take another of the question's options than the reference chose: the reference is chosen from the
 * question's words (not restating it), and the answer leaves out one of the reference's content words while saying a
 * content word of the question that the reference does not.
 */
export function picksOtherOption(answer: AnalysedText, reference: AnalysedText, question: AnalysedText, referenceText: string, questionText: string): boolean {
  const chosen = contentUnits(reference);
  if (chosen.length === 0 || !madeOfQuestion(reference, question, referenceText, questionText) || restates(reference, question)) return false;
  if (chosen.every((unit) => holds(answer, unit))) return false;
  return contentUnits(question).some((unit) => !holds(reference, unit) && holds(answer, unit));
}
