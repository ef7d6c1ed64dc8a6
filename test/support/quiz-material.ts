import { createOfflineModel } from '../../src/llm/offline-model.js';
import type { Material } from '../../src/materials/types.js';
import { RetrievalService } from '../../src/retrieval/index.js';
import { MemoryStore } from '../../src/store/memory-store.js';
import type { Store } from '../../src/store/store.js';
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

/** The agent's materials port serving QUIZ_MATERIAL. */
export function quizMaterials() {
  return {
    get: async (id: string) => (id === QUIZ_MATERIAL.id ? QUIZ_MATERIAL : null),
  };
}

/**
 * The retrieval index of QUIZ_MATERIAL over `text` (a page is one paragraph), built lazily on first use with the
 * offline model's embeddings (whatever model the quiz itself is written with), on a memory store unless given one.
 */
export function quizRetriever(text = SAMPLE_MATERIAL_TEXT, store: Store = new MemoryStore()): RetrievalService {
  const pageTexts = text.split('\n\n');
  return new RetrievalService({
    store,
    model: createOfflineModel({}),
    source: { load: async (id) => (id === QUIZ_MATERIAL.id ? { chapters: QUIZ_MATERIAL.chapters, pageTexts } : null) },
  });
}

interface ItemCore {
  question: unknown;
  choices: string[];
  answer: number;
  explanation: unknown;
  difficulty: unknown;
}

/**
 * An item's own five fields with its choices sorted and the answer index following its choice: two items that
 * differ only in the order of their choices (as the quiz's seed shuffles them), their random `quizId` or how their
 * sources are written (passage numbers in a reply, passages in the result) compare equal.
 */
export function withoutChoiceOrder(item: ItemCore): ItemCore {
  const choices = [...item.choices].sort();
  const { question, explanation, difficulty } = item;
  return { question, choices, answer: choices.indexOf(item.choices[item.answer] as string), explanation, difficulty };
}

/** Items without their `quizId` (random per generation): two generations with one seed compare equal. */
export function withoutIds<T extends { quizId?: string | undefined }>(items: readonly T[]): Omit<T, 'quizId'>[] {
  return items.map(({ quizId: _quizId, ...rest }) => rest);
}

/** How often `term` occurs in `text`. */
export function countTerm(text: string, term: string): number {
  return term === '' ? 0 : text.split(term).length - 1;
}

/** An English handout with a numbered procedure, numbers with units and plain statements. */
export const ENGLISH_PAGES = [
  [
    'Preparing a Wet Mount',
    'A wet mount lets a student look at living cells under a light microscope.',
    'Preparing a wet mount takes about 5 minutes.',
    '1. Place a clean glass slide on a flat surface.',
    '2. Add one drop of water to the centre of the slide.',
    '3. Lay the specimen in the drop of water.',
    '4. Lower a cover slip at an angle to avoid air bubbles.',
    '5. Remove extra water with the edge of a paper towel.',
  ],
  [
    'Using the Microscope',
    'A compound microscope magnifies a specimen with two lenses.',
    'The eyepiece lens magnifies the image 10 times.',
    'Always start with the low power objective lens.',
    'The coarse focus knob moves the stage in large steps.',
    'The fine focus knob is used for sharp detail at high power.',
  ],
  [
    'Cells',
    'Plant cells have a cell wall made of cellulose.',
    'Animal cells do not have a cell wall.',
    'A typical animal cell is about 20 micrometres across.',
    'The nucleus contains the genetic material of the cell.',
    'Chloroplasts are found in plant cells and carry out photosynthesis.',
  ],
];
