import { z } from 'zod';
import type { LexicalIndex } from './bm25.js';
import { DocumentTypeSchema, LevelSchema, type DocumentType, type Level } from './metadata.js';

/**
 * A material's retrieval index as stored: one byte string (store `setBytes`), read back whole. Layout:
 *
 *   "LRX1" · u32 LE header length · header (JSON, UTF-8, padded with spaces to a multiple of 4)
 *   · vectors  Float32 LE × chunks × dimensions (absent without embeddings)
 *   · offsets  Uint32 LE × (chunks + 1)
 *   · postings Uint32 LE × 2 × postingCount (term id, count)
 *
 * The header holds the chunks (text and metadata), the term dictionary, the analyzer version and the embedding
 * model's name and dimensions: an index made with another model (or analyzer) is stale and is refreshed on first use.
 * Little-endian on every platform Node runs on; decoding checks the header with zod and the section sizes, and an
 * index that does not decode is treated as missing (and rebuilt).
 */

export interface ChunkRecord {
  id: string;
  chapter: number;
  chapterTitle: string;
  startPage: number;
  endPage: number;
  documentType: DocumentType;
  level: Level;
  text: string;
}

export interface IndexEmbedding {
  model: string;
  dimensions: number;
}

export interface RetrievalIndex {
  materialId: string;
  builtAt: string;
  analyzer: number;
  /** Who labelled document types and levels: the analyst agent (for `labelled` chunks) or the heuristic alone. */
  labels: { by: 'analyst' | 'heuristic'; labelled: number };
  embedding: IndexEmbedding | null;
  chunks: ChunkRecord[];
  lexical: LexicalIndex;
  /** chunks × dimensions, L2-normalised; empty when `embedding` is null. */
  vectors: Float32Array;
}

const MAGIC = 'LRX1';
const FORMAT = 1;

const HeaderSchema = z.object({
  format: z.literal(FORMAT),
  materialId: z.string(),
  builtAt: z.string(),
  analyzer: z.number().int(),
  labels: z.object({ by: z.enum(['analyst', 'heuristic']), labelled: z.number().int().min(0) }),
  embedding: z.object({ model: z.string().min(1), dimensions: z.number().int().min(1) }).nullable(),
  chunks: z.array(
    z.object({
      id: z.string(),
      chapter: z.number().int().min(0),
      chapterTitle: z.string(),
      startPage: z.number().int().min(1),
      endPage: z.number().int().min(1),
      documentType: DocumentTypeSchema,
      level: LevelSchema,
      text: z.string(),
    }),
  ),
  terms: z.array(z.string()),
  postingCount: z.number().int().min(0),
});

export function encodeIndex(index: RetrievalIndex): Buffer {
  const header = {
    format: FORMAT,
    materialId: index.materialId,
    builtAt: index.builtAt,
    analyzer: index.analyzer,
    labels: index.labels,
    embedding: index.embedding,
    chunks: index.chunks,
    terms: index.lexical.terms,
    postingCount: index.lexical.postings.length / 2,
  } satisfies z.infer<typeof HeaderSchema>;
  let json = Buffer.from(JSON.stringify(header), 'utf8');
  const padding = (4 - ((MAGIC.length + 4 + json.length) % 4)) % 4;
  if (padding > 0) json = Buffer.concat([json, Buffer.alloc(padding, 0x20)]);
  const prefix = Buffer.alloc(8);
  prefix.write(MAGIC, 0, 'latin1');
  prefix.writeUInt32LE(json.length, 4);
  const section = (array: Float32Array | Uint32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  return Buffer.concat([prefix, json, section(index.vectors), section(index.lexical.offsets), section(index.lexical.postings)]);
}

/** The index in `bytes`, or null when they are not a readable index of this format. */
export function decodeIndex(bytes: Uint8Array): RetrievalIndex | null {
  if (bytes.byteLength < 8 || Buffer.from(bytes.buffer, bytes.byteOffset, 4).toString('latin1') !== MAGIC) return null;
  // A copy on a fresh ArrayBuffer: typed-array views need 4-byte alignment, which a Buffer from a pool lacks.
  const copy = new Uint8Array(bytes);
  const view = new DataView(copy.buffer);
  const headerLength = view.getUint32(4, true);
  if (8 + headerLength > copy.byteLength) return null;
  let header: z.infer<typeof HeaderSchema>;
  try {
    const parsed = HeaderSchema.safeParse(JSON.parse(Buffer.from(copy.buffer, 8, headerLength).toString('utf8')));
    if (!parsed.success) return null;
    header = parsed.data;
  } catch {
    return null;
  }
  const chunkCount = header.chunks.length;
  const vectorLength = header.embedding === null ? 0 : chunkCount * header.embedding.dimensions;
  let at = 8 + headerLength;
  const expected = at + 4 * (vectorLength + chunkCount + 1 + 2 * header.postingCount);
  if (expected !== copy.byteLength) return null;
  const vectors = new Float32Array(copy.buffer, at, vectorLength);
  at += 4 * vectorLength;
  const offsets = new Uint32Array(copy.buffer, at, chunkCount + 1);
  at += 4 * (chunkCount + 1);
  const postings = new Uint32Array(copy.buffer, at, 2 * header.postingCount);
  if (offsets[chunkCount] !== header.postingCount) return null;
  for (let index = 0; index < postings.length; index += 2) if ((postings[index] ?? 0) >= header.terms.length) return null;
  return {
    materialId: header.materialId,
    builtAt: header.builtAt,
    analyzer: header.analyzer,
    labels: header.labels,
    embedding: header.embedding,
    chunks: header.chunks,
    lexical: { terms: header.terms, offsets, postings },
    vectors,
  };
}
