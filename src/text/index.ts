/**
 * Text utilities shared by every feature: Korean normalisation and key terms, sentences, running headers and
 * footers of extracted PDF text, front matter (covers, contents, administrative pages), English read with a tagger
 * (english.ts), the key noun phrases of English material (english-terms.ts: what the offline agents name as its
 * concepts) and the particle a word takes (withParticle, quotedWithParticle: read through closing quotes and
 * brackets, English words and digits as said), hashed term vectors and prompt fences. A leaf: it imports no other
 * folder of src.
 */
export {
  contentTerms,
  hasFinalConsonant,
  isFunctionWord,
  keyTerms,
  looksLikeNoun,
  normalizeKorean,
  quotedWithParticle,
  rankedTerms,
  stripParticles,
  termOverlap,
  termOverlapDetail,
  termsMatch,
  withParticle,
  type KeyTerm,
  type ParticlePair,
  type RankOptions,
  type TermOverlap,
} from './korean-text.js';
export { FENCE_TAGS, fence, neutraliseFenceTags, type FenceTag } from './prompt-fence.js';
export { RunningLines } from './running-lines.js';
export { BULLET_LINE, letterCount, splitSentences } from './sentences.js';
export { DEFAULT_TERM_VECTOR_DIMENSION, cosineSimilarity, hashedTermVector } from './term-vectors.js';
export { CLOSING_LINE, COVER_LINE, isFrontMatterLine, isFrontMatterPage, withoutFrontMatter } from './front-matter.js';
export { canBeNoun, englishSentences, isNounAt, nounPhrases, tagEnglish, type EnglishTag, type EnglishToken, type NounPhrase } from './english.js';
export { englishFinalSound, isLatinWord, type FinalSound } from './english-sound.js';
export { englishCompounds, englishTerms, isEnglishProse, isEnglishText, termPattern, type EnglishTerm, type EnglishTermOptions } from './english-terms.js';
