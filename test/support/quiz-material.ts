import type { Material } from '../../src/materials/types.js';
import { SAMPLE_MATERIAL_TEXT } from './hand-material.js';

/** The sample material as the quiz agent sees it: a record with three chapters over SAMPLE_MATERIAL_TEXT. */
export const QUIZ_MATERIAL: Material = {
  id: 'sample',
  title: '기초 통계',
  pageCount: 10,
  hasTextLayer: true,
  chapterSource: 'outline',
  chapters: [
    { index: 0, title: '평균의 의미', startPage: 1, endPage: 4 },
    { index: 1, title: '기댓값', startPage: 5, endPage: 7 },
    { index: 2, title: '대수의 법칙', startPage: 8, endPage: 10 },
  ],
};

/** The agent's materials port serving QUIZ_MATERIAL over `text` (a page is one paragraph). */
export function quizMaterials(text = SAMPLE_MATERIAL_TEXT) {
  return {
    get: async (id: string) => (id === QUIZ_MATERIAL.id ? QUIZ_MATERIAL : null),
    materialText: async () => text,
    chapterText: async (_id: string, index: number) => {
      const chapter = QUIZ_MATERIAL.chapters[index];
      return chapter ? text.split('\n\n').slice(chapter.startPage - 1, chapter.endPage).join('\n\n') : '';
    },
  };
}

/**
 * An item with its choices sorted and the answer index following its choice: two items that differ only in the
 * order of their choices (as the quiz's seed shuffles them) compare equal.
 */
export function withoutChoiceOrder<T extends { choices: string[]; answer: number }>(item: T): T {
  const choices = [...item.choices].sort();
  return { ...item, choices, answer: choices.indexOf(item.choices[item.answer] as string) };
}

/** How often `term` occurs in `text`. */
export function countTerm(text: string, term: string): number {
  return term === '' ? 0 : text.split(term).length - 1;
}
