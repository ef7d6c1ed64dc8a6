import { mathEquivalent } from '../math/index.js';
import { checkMathProblem } from '../guard/index.js';
import { CHOICE_LETTERS, type MathJudgement, type RawMathProblem } from './problem.js';

/**
 * The deterministic checks that run before the judge: they cost nothing, so a problem they can
 * decide never spends a judge call.
 *
 * - The item guard (src/guard): no placeholder question or explanation, no explanation restating its question, nothing
 *   from a cover page, particles that fit the English words before them.
 * - Multiple choice: exactly four choices, none empty, no two the same (as text, or as math: `\frac12` and `0.5`
 *   are one choice written twice), and `correct_answer` one of A–D.
 * - The explanation's `final_answer` is compared with the keyed answer (the keyed choice, or the short answer) by
 *   `mathEquivalent`: `different` fails the problem with that feedback (naming the choice it does equal, if any);
 *   `equal` and `unknown` leave the verdict to the judge (`unknown`: prose answers, shapes it cannot read).
 */

export type CheckOutcome =
  | { ok: true; equivalence: 'equal' | 'unknown' }
  | { ok: false; check: NonNullable<MathJudgement['check']>; feedback: string; equivalence?: 'different' | undefined };

const sameText = (left: string, right: string) => left.normalize('NFKC').replace(/\s+/gu, '').toLowerCase() === right.normalize('NFKC').replace(/\s+/gu, '').toLowerCase();

/** The keyed answer of a problem: the keyed choice's text for multiple choice, `correct_answer` for short answer. */
export function keyedAnswer(problem: Pick<RawMathProblem, 'type' | 'choices' | 'correct_answer'>): string | undefined {
  if (problem.type === 'short_answer') return problem.correct_answer.trim() === '' ? undefined : problem.correct_answer;
  const index = CHOICE_LETTERS.indexOf(problem.correct_answer.trim().toUpperCase() as (typeof CHOICE_LETTERS)[number]);
  return index < 0 ? undefined : problem.choices[index];
}

export function checkProblem(problem: RawMathProblem): CheckOutcome {
  // The item guard first: a placeholder, an explanation that restates the question, a cover page, a bad particle.
  const refusals = checkMathProblem(problem);
  if (refusals.length > 0) return { ok: false, check: 'guard', feedback: refusals.map((refusal) => refusal.reason).join(' ') };
  if (problem.type === 'multiple_choice') {
    const choices = problem.choices.map((choice) => choice.trim());
    if (choices.length !== 4) return { ok: false, check: 'choices', feedback: `객관식 보기는 정확히 4개여야 합니다(${choices.length}개).` };
    if (choices.some((choice) => choice === '')) return { ok: false, check: 'choices', feedback: '빈 보기가 있습니다.' };
    for (let left = 0; left < 4; left += 1) {
      for (let right = left + 1; right < 4; right += 1) {
        const a = choices[left] as string;
        const b = choices[right] as string;
        if (sameText(a, b) || mathEquivalent(a, b) === 'equal') {
          return { ok: false, check: 'choices', feedback: `보기 ${CHOICE_LETTERS[left]}와 ${CHOICE_LETTERS[right]}가 같은 값입니다.` };
        }
      }
    }
  }
  const keyed = keyedAnswer(problem);
  if (keyed === undefined) {
    return {
      ok: false,
      check: 'answer-key',
      feedback: problem.type === 'multiple_choice' ? `correct_answer는 A, B, C, D 중 하나여야 합니다(받은 값: ${problem.correct_answer}).` : '정답이 비어 있습니다.',
    };
  }
  const verdict = mathEquivalent(problem.final_answer, keyed);
  if (verdict !== 'different') return { ok: true, equivalence: verdict };
  const matching =
    problem.type === 'multiple_choice' ? problem.choices.findIndex((choice) => mathEquivalent(problem.final_answer, choice) === 'equal') : -1;
  const also = matching >= 0 ? ` 풀이의 답은 보기 ${CHOICE_LETTERS[matching]}와 같습니다.` : '';
  return {
    ok: false,
    check: 'equivalence',
    equivalence: 'different',
    feedback: `풀이의 최종 답(${problem.final_answer.trim()})이 정답(${keyed.trim()})과 다릅니다.${also}`,
  };
}
