import type { OfflineTasks } from '../llm/index.js';
import { examGradingGraderOfflineTasks } from './exam-grading-offline.js';
import { examFeedbackOfflineTasks } from './feedback-agent.js';

/** The offline grader (`exam.grade`) and feedback agent (`exam.feedback`), for src/offline-tasks.ts. */
export const examGradingOfflineTasks: OfflineTasks = { ...examGradingGraderOfflineTasks, ...examFeedbackOfflineTasks };
