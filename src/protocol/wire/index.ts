/**
 * The wire protocol for both ends: types and constants only. Nothing under `wire/` imports zod, node or any other
 * part of `src/` (eslint enforces it), so the browser client bundles it as is. The zod schemas that check inbound
 * payloads on the server are one folder up (`../tutor.ts`, `../classroom.ts`, `../quiz.ts`, `../page.ts`).
 */
export * from './ack.js';
export * from './classroom.js';
export * from './error-codes.js';
export * from './events.js';
export * from './namespaces.js';
export * from './page.js';
export * from './quiz.js';
export * from './self-quiz.js';
export * from './material-terms.js';
export * from './tutor.js';
export * from './error-messages.js';
export * from './tutor-phases.js';
export * from './account.js';
export * from './critic.js';
export * from './jobs.js';
export * from './quality.js';
export * from './exams.js';
export * from './shortfall.js';
export * from './analytics.js';
