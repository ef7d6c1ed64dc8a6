import { z } from 'zod';
import type { Logger } from '../kernel/index.js';
import { loadPrompt, type LanguageModel } from '../llm/index.js';
import { fence } from '../text/index.js';
import { MAX_CHAPTERS, chapterProblems, mergeSegments } from './chapter-plan.js';
import type { Chapter } from './types.js';

/**
 * The PDF analyst agent (seed step 2): Gemini reads the whole PDF inline and proposes chapters with page ranges.
 * It proposes, the server decides: the reply must validate against the schema and then tile the pages exactly
 * (in order, no overlap, no gap, within the page count), otherwise it is discarded and the caller falls back to
 * page windows. Only Gemini can read page images, so the offline model is never asked.
 */

export const ANALYST_TASK = 'materials.analyse';

export const AnalystReplySchema = z.object({
  chapters: z
    .array(
      z.object({
        title: z.string().trim().min(1).max(200),
        startPage: z.number().int(),
        endPage: z.number().int(),
      }),
    )
    .min(1)
    .max(100),
});
export type AnalystReply = z.infer<typeof AnalystReplySchema>;

/** Gemini takes inline data up to ~20 MB per request; larger files would need the Files API. */
const MAX_INLINE_BYTES = 19 * 1024 * 1024;
const DIGEST_LINE_LENGTH = 80;

export interface AnalyseOptions {
  model: LanguageModel;
  bytes: Uint8Array;
  pageCount: number;
  pageTexts: readonly string[];
  materialId: string;
  logger?: Logger | undefined;
  signal?: AbortSignal;
  maxChapters?: number;
}

/** Checks the agent's ranges; returns the problems (empty when they tile pages 1..pageCount). */
export function analystProblems(reply: AnalystReply, pageCount: number): string[] {
  const chapters = reply.chapters.map((chapter, index) => ({ index, ...chapter }));
  return chapterProblems(chapters, pageCount);
}

/** One line per page, so the prompt still names the pages' topics when the PDF itself is not attached. */
export function pageDigest(pageTexts: readonly string[]): string {
  return pageTexts
    .map((text, index) => {
      const line = text.split('\n').map((part) => part.replace(/\s+/g, ' ').trim()).find((part) => part.length > 0) ?? '';
      return `${index + 1}쪽: ${line.slice(0, DIGEST_LINE_LENGTH)}`;
    })
    .join('\n');
}

/** Asks the analyst for chapters; null when it is not available, fails, or answers ranges that do not tile. */
export async function analyseChapters(options: AnalyseOptions): Promise<Chapter[] | null> {
  const { model, bytes, pageCount, logger } = options;
  if (!model.capabilities.followsPrompts) return null;
  const maxChapters = options.maxChapters ?? MAX_CHAPTERS;
  const inline = model.capabilities.pdfInput && bytes.byteLength <= MAX_INLINE_BYTES;
  const hasText = options.pageTexts.some((text) => text.trim().length > 0);
  if (!inline && !hasText) return null;
  const prompt = loadPrompt('pdf-analyst').render({
    pageCount: String(pageCount),
    maxChapters: String(maxChapters),
    pageDigest: fence('쪽별_첫_줄', pageDigest(options.pageTexts)),
  });
  let reply: AnalystReply;
  try {
    const result = await model.generateObject({
      task: ANALYST_TASK,
      input: { pageCount, maxChapters },
      prompt,
      schema: AnalystReplySchema,
      role: 'generation',
      temperature: 0,
      files: inline ? [{ mimeType: 'application/pdf', data: bytes }] : [],
      attribution: { materialId: options.materialId },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    reply = result.object;
  } catch (error) {
    logger?.warn({ err: error, materialId: options.materialId }, 'pdf analyst failed; falling back to page windows');
    return null;
  }
  const problems = analystProblems(reply, pageCount);
  if (problems.length > 0) {
    logger?.warn({ materialId: options.materialId, problems }, 'pdf analyst ranges rejected; falling back to page windows');
    return null;
  }
  // The agent's boundaries are kept; only an over-long list is merged down to the chapter cap.
  const segments = reply.chapters.map((chapter) => ({ start: chapter.startPage - 1, titles: [chapter.title] }));
  return mergeSegments(segments, pageCount, { minPages: 1, maxChapters });
}
