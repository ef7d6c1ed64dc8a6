/**
 * Classes: join codes, rosters and the instructor's live monitor. It hears sessions through the lecture's published
 * `SessionActivity` and talks to instructors and students through its `MonitorPort` (hands are acknowledged there).
 */
export { ClassMonitor, type MonitorPort } from './class-monitor.js';
export { ClassRepository } from './class-repository.js';
export { ClassService, INSTRUCTOR_TOKEN_TTL_MS, type CreatedClass } from './class-service.js';
export type { ClassSummary } from '../protocol/wire/classroom.js';
