import { handOfflineTasks } from './lecture/hand/assistant-offline.js';
import { lectureOfflineTasks } from './lecture/offline-tasks.js';
import type { OfflineTasks } from './llm/offline-model.js';
import { quizOfflineTasks } from './quiz/quiz-offline.js';

/**
 * Every task the offline model can answer, gathered from the feature folders that own the agents. A task missing
 * here is answered with UNKNOWN_TASK, never with an invented reply.
 */
export const offlineTasks: OfflineTasks = {
  ...lectureOfflineTasks,
  ...handOfflineTasks,
  ...quizOfflineTasks,
};
