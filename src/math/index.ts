/** Math answers compared by meaning (issue 14 §1): a leaf folder, no imports from the rest of src. */
export { MAX_CHECK_WORK, type MathVerdict, mathEquivalent } from './equivalence.js';
export { isMathReaderLoaded, loadMathReader } from './latex-parser.js';
export { MAX_ANSWER_LENGTH } from './normalise.js';
export { mulberry32 } from './seeded-random.js';
