import { parseAnswer } from './answer.js';
import { compareAnswers } from './compare-answers.js';
import type { Budget, Verdict } from './compare-expressions.js';
import { loadMathReader } from './latex-parser.js';
import { MAX_ANSWER_LENGTH } from './normalise.js';

export type MathVerdict = Verdict;

/**
 * Work one check may do, in evaluated tree nodes; past it the answer is `unknown`. A count rather than a clock, so
 * verdicts are the same on a busy machine. The table's costliest pair uses about 1,600.
 */
export const MAX_CHECK_WORK = 30_000;

/**
 * Compares two math answers (LaTeX or plain text) by meaning: `equal` only when they are sure to say the same,
 * `different` when they are sure not to, `unknown` for everything else (prose, text it cannot read, shapes that
 * could mean several things, differences below what it can measure). A wrong answer is never `equal`.
 *
 * Synchronous and bounded: answers over 500 characters are `unknown` unread, and a check that would do more than
 * `MAX_CHECK_WORK` gives up with `unknown`. The first call loads the LaTeX reader (about 0.1–0.2 s).
 */
export function mathEquivalent(a: string, b: string): MathVerdict {
  if (typeof a !== 'string' || typeof b !== 'string') return 'unknown';
  if (a.length > MAX_ANSWER_LENGTH || b.length > MAX_ANSWER_LENGTH) return 'unknown';
  loadMathReader();
  const budget: Budget = { remaining: MAX_CHECK_WORK };
  try {
    return compareAnswers(parseAnswer(a), parseAnswer(b), budget);
  } catch {
    // UnsupportedMath, OverBudget, or the reader failing on odd input: all of them mean "cannot say".
    return 'unknown';
  }
}
