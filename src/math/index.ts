/**
 * Math answers compared by meaning: a leaf folder, no imports from the rest of src. mathEquivalent(a, b) answers
 * 'equal' | 'different' | 'unknown' for two answers in LaTeX or plain text. The first rule: a wrong answer is never
 * 'equal'; whatever it cannot read or decide is 'unknown', for a model or a person to judge. Synchronous,
 * deterministic and symmetric: normalise spellings and wrappers, read with the LaTeX reader (loaded once), compare
 * numbers, expressions (by evaluation at seeded sample points), lists, intervals and equations within
 * caps on size and depth (`npm run bench:math`).
 */
export { MAX_CHECK_WORK, type MathVerdict, mathEquivalent } from './equivalence.js';
export { isMathReaderLoaded, loadMathReader } from './latex-parser.js';
export { MAX_ANSWER_LENGTH } from './normalise.js';
export { mulberry32 } from './seeded-random.js';
