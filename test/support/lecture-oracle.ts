import type { Material, MaterialService } from '../../src/materials/index.js';
import { writeOfflineLecture } from '../../src/lecture/offline/offline-lecture.js';

/**
 * The expected lecture of a chapter on the offline model, for L1 and L2, from an oracle that shares no code with the
 * product's marker parser or its lecture pipeline (generator, store, feed, pacer).
 *
 * - `raw`: what the offline model writes for the chapter. The model is a pure function of the chapter's title and
 *   text, so calling it again gives the source the generator was fed, not what the generator stored.
 * - `text` and `questions`: `raw` cut by the spec's own wording of a question ("`[질문] … [\질문]` (or `[/질문]`)",
 *   test/SPEC.md L1/L2) with a regular expression, not by `src/lecture/marker-parser.ts`. The offline model writes
 *   only well-formed, terminated questions, so the expression needs none of the parser's recovery rules; `cut`
 *   refuses a marker it would have to guess about, so a change in the model's output cannot make the oracle wrong in
 *   silence.
 */
export interface ExpectedLecture {
  raw: string;
  text: string;
  questions: string[];
}

const QUESTION_OPEN = '[질문]';
const QUESTION_CLOSERS = ['[\\질문]', '[/질문]'];
/** One question: the opener, the shortest run of text, then either closer. */
const QUESTION = /\[질문\]([\s\S]*?)(?:\[\\질문\]|\[\/질문\])/gu;

/** Splits a lecture into the text a student reads and the questions asked (trimmed), per L1 and L2. */
export function cut(raw: string): { text: string; questions: string[] } {
  const questions: string[] = [];
  const text = raw.replace(QUESTION, (_whole, question: string) => {
    if (question.includes(QUESTION_OPEN)) throw new Error(`a question inside a question: ${question}`);
    questions.push(question.trim());
    return '';
  });
  for (const marker of [QUESTION_OPEN, ...QUESTION_CLOSERS]) {
    if (text.includes(marker)) throw new Error(`a marker outside a question (${marker}): the oracle would have to guess`);
  }
  return { text, questions };
}

/** The offline model's lecture of one chapter of `material`, and what L1/L2 say a student receives of it. */
export async function expectedOfflineLecture(
  app: { materials: Pick<MaterialService, 'chapterText'> },
  material: Material,
  chapter: number,
): Promise<ExpectedLecture> {
  const title = material.chapters.find((candidate) => candidate.index === chapter)?.title ?? '';
  const raw = writeOfflineLecture({ title, text: await app.materials.chapterText(material.id, chapter) });
  return { raw, ...cut(raw) };
}
