import type { Difficulty } from '../protocol/quiz.js';
import { loadQuizSource, type QuizMaterialSource, type QuizSource } from '../quiz/index.js';
import type { Passage } from '../retrieval/index.js';
import type { ComplexityLevel, ExamRequest } from './exam-types.js';

/**
 * The passages an exam is written from: the quiz agent's retrieval (quiz-passages.ts: ten passages of the material,
 * or of each chapter asked for, the request's difficulty as the passages' level and relaxed when too few have it),
 * merged over the chapters in the request's order. The planner, the writer and the validator all see these passages,
 * numbered from 1, as seed 001's reference data.
 */

export interface ExamSource {
  materialId: string;
  /** `자료 「기초 통계」 1장 「평균의 의미」 · 자료 「기초 통계」 2장 「기댓값」`, or the whole material. */
  scope: string;
  passages: Passage[];
}

/** Seed 000's complexity levels as the retrieval's difficulty (→ the passages' level). */
export const DIFFICULTY_OF_COMPLEXITY: Readonly<Record<ComplexityLevel, Difficulty>> = { Basic: 'easy', Intermediate: 'medium', Advanced: 'hard' };

export async function loadExamSource(
  materials: QuizMaterialSource,
  retriever: Parameters<typeof loadQuizSource>[1],
  materialId: string,
  request: Pick<ExamRequest, 'chapters' | 'difficulty'>,
  signal?: AbortSignal,
): Promise<ExamSource> {
  const difficulty = request.difficulty === undefined ? {} : { difficulty: DIFFICULTY_OF_COMPLEXITY[request.difficulty] };
  const chapters = request.chapters === undefined ? [undefined] : [...new Set(request.chapters)];
  const sources: QuizSource[] = [];
  for (const chapter of chapters) {
    sources.push(await loadQuizSource(materials, retriever, materialId, { ...(chapter === undefined ? {} : { chapter }), ...difficulty }, { signal }));
  }
  const passages = new Map<string, Passage>();
  for (const source of sources) for (const passage of source.retrieval.passages) if (!passages.has(passage.chunkId)) passages.set(passage.chunkId, passage);
  return { materialId, scope: sources.map((source) => source.scope).join(' · '), passages: [...passages.values()] };
}

