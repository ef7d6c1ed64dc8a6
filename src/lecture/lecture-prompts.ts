import { fence } from '../text/index.js';
import { loadPrompt, type Prompt } from '../llm/index.js';

/** Task names the model layer dispatches on (the offline model registers handlers for them). */
export const LECTURE_TASKS = {
  write: 'lecture.write',
  continue: 'lecture.continue',
} as const;

export interface LecturePrompts {
  system: Prompt;
  write: Prompt;
  continue: Prompt;
}

/** The Main Lecture Agent's prompts (loaded once, cached by the loader). */
export function lecturePrompts(): LecturePrompts {
  return {
    system: loadPrompt('lecture-system'),
    write: loadPrompt('lecture-write'),
    continue: loadPrompt('lecture-continue'),
  };
}

/**
 * The writer's user prompt for a chapter (pure; pinned by exact-output tests): the first attempt, or — when text of
 * the chapter was already written — the continuation after `prefix`. Titles come from the PDF and the prefix from a
 * model: all fenced.
 */
export function renderLecturePrompt(input: { materialTitle: string; title: string; prefix: string }): string {
  const prompts = lecturePrompts();
  const title = fence('챕터_제목', input.title);
  return input.prefix.length > 0
    ? prompts.continue.render({ title, prefix: fence('이미_작성된_강의', input.prefix) })
    : prompts.write.render({ title, materialTitle: fence('자료_제목', input.materialTitle) });
}
