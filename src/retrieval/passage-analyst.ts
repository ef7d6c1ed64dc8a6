import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { loadPrompt, type LanguageModel } from '../llm/index.js';
import { fence } from '../text/index.js';
import { DOCUMENT_TYPES, DOCUMENT_TYPE_MEANINGS, DocumentTypeSchema, LevelSchema, type DocumentType, type Level } from './metadata.js';

/**
 * The analyst agent's passage labels: one `generateObject` call per batch of passages proposes each passage's
 * document type and level. It proposes, the server decides: the reply is validated with the schema, a label for a
 * number outside the batch or a second label for one passage is ignored, and every passage left without a label
 * (and every passage of a batch whose call failed) keeps its offline heuristic label.
 */

export const PASSAGE_ANALYST_TASK = 'retrieval.classify';
/** Passages per call: about 15,000 characters of text, a reply of a few hundred tokens. */
export const PASSAGE_BATCH = 24;
/** Calls in flight per material. */
const CONCURRENCY = 3;

export const PassageLabelsSchema = z.object({
  passages: z
    .array(z.object({ number: z.number().int(), documentType: DocumentTypeSchema, level: LevelSchema }))
    .max(PASSAGE_BATCH * 2),
});
export type PassageLabels = z.infer<typeof PassageLabelsSchema>;

export interface PassageLabel {
  documentType: DocumentType;
  level: Level;
}

/** The prompt for one batch (exported for the prompt tests). */
export function renderPassagePrompt(texts: readonly string[]): string {
  return loadPrompt('passage-analyst').render({
    count: String(texts.length),
    types: DOCUMENT_TYPES.map((type) => `- ${type}: ${DOCUMENT_TYPE_MEANINGS[type]}`).join('\n'),
    passages: texts.map((text, index) => `발췌문 ${index + 1}:\n${fence('자료_발췌', text)}`).join('\n\n'),
  });
}

export interface LabelPassagesOptions {
  model: LanguageModel;
  texts: readonly string[];
  /** What the heuristic says, per passage: kept wherever the agent gives nothing usable. */
  fallback: readonly PassageLabel[];
  materialId: string;
  logger?: Logger | undefined;
  signal?: AbortSignal | undefined;
}

/** Labels from the agent where it answered, the fallback elsewhere; `labelled` counts the agent's labels kept. */
export async function labelPassages(options: LabelPassagesOptions): Promise<{ labels: PassageLabel[]; labelled: number }> {
  const labels = options.fallback.map((label) => ({ ...label }));
  let labelled = 0;
  const batches: number[] = [];
  for (let start = 0; start < options.texts.length; start += PASSAGE_BATCH) batches.push(start);
  const work = async (start: number): Promise<void> => {
    const texts = options.texts.slice(start, start + PASSAGE_BATCH);
    try {
      const { object } = await options.model.generateObject({
        task: PASSAGE_ANALYST_TASK,
        input: { count: texts.length },
        prompt: renderPassagePrompt(texts),
        schema: PassageLabelsSchema,
        role: 'generation',
        temperature: 0,
        attribution: { materialId: options.materialId },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const seen = new Set<number>();
      for (const entry of object.passages) {
        if (entry.number < 1 || entry.number > texts.length || seen.has(entry.number)) continue;
        seen.add(entry.number);
        labels[start + entry.number - 1] = { documentType: entry.documentType, level: entry.level };
        labelled += 1;
      }
    } catch (error) {
      options.logger?.warn({ err: error, materialId: options.materialId, start }, 'passage analyst failed; keeping heuristic labels');
    }
  };
  const queue = [...batches];
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, queue.length) }, async () => {
      for (let start = queue.shift(); start !== undefined; start = queue.shift()) await work(start);
    }),
  );
  return { labels, labelled };
}
