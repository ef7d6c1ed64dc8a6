/**
 * The live lecture: generation, feeds, the pacer, the session actor and its steps, the Q&A tutor and the raise-hand
 * dialogue (`hand/`). Other folders see sessions only through `SessionActivity`.
 */
export { handOfflineTasks } from './hand/assistant-offline.js';
export { LectureService } from './lecture-service.js';
export { lectureOfflineTasks } from './offline-tasks.js';
export { isAnswerSentence } from './model-answer.js';
export type { PacerEmitMeta } from './pacer.js';
export { observeActivity, type ActivityObserver, type SessionActivity } from './session-activity.js';
export type { SessionActor, SessionObserver } from './session-actor.js';
export type { SessionPort } from './session-port.js';
