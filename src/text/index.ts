/**
 * Text utilities shared by every feature: Korean normalisation and key terms, sentences, running headers and
 * footers of extracted PDF text, hashed term vectors and prompt fences. A leaf: it imports no other folder of src.
 */
export {
  contentTerms,
  hasFinalConsonant,
  keyTerms,
  looksLikeNoun,
  normalizeKorean,
  rankedTerms,
  stripParticles,
  termOverlap,
  termOverlapDetail,
  termsMatch,
  withParticle,
  type KeyTerm,
  type RankOptions,
  type TermOverlap,
} from './korean-text.js';
export { FENCE_TAGS, fence, neutraliseFenceTags, type FenceTag } from './prompt-fence.js';
export { RunningLines } from './running-lines.js';
export { BULLET_LINE, letterCount, splitSentences } from './sentences.js';
export { DEFAULT_TERM_VECTOR_DIMENSION, cosineSimilarity, hashedTermVector } from './term-vectors.js';
