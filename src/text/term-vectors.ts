/** Dimensions of a hashed term vector unless the caller asks for others (the offline model's embedding size). */
export const DEFAULT_TERM_VECTOR_DIMENSION = 512;

/**
 * A deterministic embedding: hashed bag of character bigrams (signed feature hashing), L2-normalised. Korean has
 * no reliable word boundaries for a tokenizer-free model, but shared syllable pairs track shared vocabulary well
 * enough for offline retrieval. Text with no bigram falls back to its single character; empty text is a zero vector.
 */
export function hashedTermVector(text: string, dimension = DEFAULT_TERM_VECTOR_DIMENSION): number[] {
  const vector = new Array<number>(dimension).fill(0);
  const characters = Array.from(text.normalize('NFC').toLowerCase().replace(/\s+/gu, ' ').trim());
  const grams: string[] = [];
  for (let index = 0; index + 1 < characters.length; index++) grams.push(`${characters[index]}${characters[index + 1]}`);
  if (grams.length === 0 && characters.length === 1) grams.push(characters[0] ?? '');
  for (const gram of grams) {
    const hash = fnv1a(gram);
    const slot = hash % dimension;
    // The sign bit comes from a different part of the hash than the slot, so collisions cancel on average.
    vector[slot] = (vector[slot] ?? 0) + ((hash >>> 31) & 1 ? -1 : 1);
  }
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** Cosine similarity; for L2-normalised vectors this is the dot product. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < Math.min(a.length, b.length); index++) {
    const x = a[index] ?? 0;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

const encoder = new TextEncoder();

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const unit of encoder.encode(text)) {
    hash ^= unit;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
