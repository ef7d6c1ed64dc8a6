import { loadPrompt, type Prompt } from '../llm/prompt-loader.js';

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
