import { criticOfflineTasks } from './critic/index.js';
import { examGradingOfflineTasks, examOfflineTasks } from './exams/index.js';
import { handOfflineTasks, lectureOfflineTasks } from './lecture/index.js';
import type { OfflineTasks } from './llm/index.js';
import { mathOfflineTasks } from './math-problems/index.js';
import { evalOfflineTasks, quizOfflineTasks, typedOfflineTasks } from './quiz/index.js';

/**
 * Every task the offline model can answer, gathered from the feature folders that own the agents. A task missing
 * here is answered with UNKNOWN_TASK, never with an invented reply.
 */
export const offlineTasks: OfflineTasks = {
  ...lectureOfflineTasks,
  ...handOfflineTasks,
  ...quizOfflineTasks,
  ...typedOfflineTasks,
  ...evalOfflineTasks,
  ...mathOfflineTasks,
  ...criticOfflineTasks,
  ...examOfflineTasks,
  ...examGradingOfflineTasks,
};
