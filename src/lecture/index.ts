/**
 * The live lecture: generation, feeds, the pacer, the session actor and its steps, the Q&A tutor and the raise-hand
 * dialogue (`hand/`). Other folders see sessions only through `SessionActivity`.
 * - Generation (lecture-generator.ts): per (material, chapter, prompt hash, model) one store stream of raw model text,
 *   written once across nodes under a lease; a failed attempt is continued, not restarted, so the stream is append-only.
 * - Feeds (chapter-feed.ts): one tail per chapter per node, parsed once into text and question segments.
 * - SessionActor (session-actor.ts): one per session with a socket on this node; paces deltas (pacer.ts, tokens by
 *   eojeol, at most one emit per window), asks questions, runs tutoring (tutoring-steps.ts, qa-tutor.ts), and logs
 *   every event with its seq in the session log, so resume replays or snapshots (session-resume.ts).
 * - hand/: the raise-hand dialogue is a pure machine by step (hand-dialogue.ts) run by hand-steps.ts; the student
 *   assistant answers with passages from the Retriever.
 * - Offline agents (offline-*.ts) are deterministic; `npm run golden` checks offline lectures against golden files.
 */
export { handOfflineTasks } from './hand/assistant-offline.js';
export { LectureService } from './lecture-service.js';
export { lectureOfflineTasks } from './offline/offline-tasks.js';
export { isAnswerSentence } from './model-answer.js';
export type { PacerEmitMeta } from './pacer.js';
export { observeActivity, type ActivityObserver, type SessionActivity } from './session-activity.js';
export type { SessionActor, SessionObserver } from './session-actor.js';
export type { SessionPort } from './session-port.js';
export { lectureKeys } from './lecture-keys.js';
export { lectureLifecycle } from './lecture-lifecycle.js';
