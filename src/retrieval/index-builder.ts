import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from '../kernel/index.js';
import type { LanguageModel } from '../llm/index.js';
import { ANALYZER_VERSION, analyze } from './analyzer.js';
import { LexicalIndexBuilder, type LexicalIndex } from './bm25.js';
import { chunkMaterialSliced, type ChunkSource } from './chunker.js';
import { packVectors } from './dense.js';
import { heuristicDocumentType, heuristicLevels } from './heuristics.js';
import type { ChunkRecord, IndexEmbedding, RetrievalIndex } from './index-codec.js';
import { labelPassages } from './passage-analyst.js';

/**
 * Builds a material's retrieval index: chunks (chunker.ts) → terms and BM25 postings → labels (the analyst agent
 * with a model that has structured output, the heuristic otherwise or where it gives nothing) → dense vectors from
 * the model's `embed` (RETRIEVAL_DOCUMENT). CPU work runs in slices with a turn of the event loop between them, so
 * a 300-page material never stalls the streams served meanwhile. A failed embedding leaves an index without
 * vectors (lexical only), which is refreshed on first use.
 */

export interface BuildIndexOptions {
  materialId: string;
  source: ChunkSource;
  model: LanguageModel;
  dimensions: number;
  logger?: Logger | undefined;
  signal?: AbortSignal | undefined;
}

/** Chunks analysed or embedded between two turns of the event loop. */
const SLICE = 64;

/** What is analysed and embedded for a chunk: its chapter's title gives every chunk its context. */
function indexedText(chunk: Pick<ChunkRecord, 'chapterTitle' | 'text'>): string {
  return chunk.chapterTitle === '' ? chunk.text : `${chunk.chapterTitle}\n${chunk.text}`;
}

/** The lexical index of the chunks, analysed a slice at a time. */
export async function indexTerms(chunks: readonly Pick<ChunkRecord, 'chapterTitle' | 'text'>[]): Promise<LexicalIndex> {
  const builder = new LexicalIndexBuilder();
  for (const [index, chunk] of chunks.entries()) {
    builder.add(analyze(indexedText(chunk)));
    if (index % SLICE === SLICE - 1) await yieldToLoop();
  }
  return builder.finish();
}

/** Normalised document vectors of the chunks, or null (logged) when the model cannot embed them now. */
export async function embedChunks(
  options: Pick<BuildIndexOptions, 'materialId' | 'model' | 'dimensions' | 'logger' | 'signal'>,
  chunks: readonly Pick<ChunkRecord, 'chapterTitle' | 'text'>[],
): Promise<{ embedding: IndexEmbedding; vectors: Float32Array } | null> {
  const { model, dimensions } = options;
  const name = model.modelName('embedding');
  try {
    const vectors: number[][] = [];
    for (let start = 0; start < chunks.length; start += SLICE) {
      const texts = chunks.slice(start, start + SLICE).map(indexedText);
      vectors.push(
        ...(await model.embed(texts, {
          taskType: 'RETRIEVAL_DOCUMENT',
          dimensions,
          attribution: { materialId: options.materialId },
          ...(options.signal ? { signal: options.signal } : {}),
        })),
      );
      await yieldToLoop();
    }
    return { embedding: { model: name, dimensions }, vectors: packVectors(vectors, dimensions) };
  } catch (error) {
    options.logger?.warn({ err: error, materialId: options.materialId, model: name }, 'could not embed passages; the index is lexical only for now');
    return null;
  }
}

export async function buildRetrievalIndex(options: BuildIndexOptions): Promise<RetrievalIndex> {
  const { materialId, model } = options;
  const drafts = await chunkMaterialSliced(options.source);
  const lexical = await indexTerms(drafts);
  const levels = heuristicLevels(drafts, lexical);
  await yieldToLoop();
  let labels = drafts.map((draft, index) => ({ documentType: heuristicDocumentType(draft.text), level: levels[index] ?? 'beginner' }));
  await yieldToLoop();
  let labelledBy: RetrievalIndex['labels'] = { by: 'heuristic', labelled: 0 };
  if (model.capabilities.followsPrompts && drafts.length > 0) {
    const result = await labelPassages({
      model,
      texts: drafts.map((draft) => draft.text),
      fallback: labels,
      materialId,
      logger: options.logger,
      signal: options.signal,
    });
    labels = result.labels;
    if (result.labelled > 0) labelledBy = { by: 'analyst', labelled: result.labelled };
  }
  const chunks: ChunkRecord[] = drafts.map((draft, index) => ({
    id: draft.id,
    chapter: draft.chapter,
    chapterTitle: draft.chapterTitle,
    startPage: draft.startPage,
    endPage: draft.endPage,
    documentType: labels[index]?.documentType ?? 'explanation',
    level: labels[index]?.level ?? 'beginner',
    text: draft.text,
  }));
  const dense = chunks.length === 0 ? null : await embedChunks(options, chunks);
  return {
    materialId,
    builtAt: new Date().toISOString(),
    analyzer: ANALYZER_VERSION,
    labels: labelledBy,
    embedding: dense?.embedding ?? null,
    chunks,
    lexical,
    vectors: dense?.vectors ?? new Float32Array(0),
  };
}
