/**
 * Classes: join codes, rosters and the instructor's live monitor. It hears sessions through the lecture's published
 * `SessionActivity` and talks to instructors and students through its `MonitorPort` (hands are acknowledged there).
 * Join codes are reserved with SET NX; a join gets a session token scoped to the class. ClassMonitor keeps the roster
 * in the store and publishes compact events to the class's /monitor room through the adapter (so they cross nodes):
 * progress coalesced to one event per second per student, and lecture deltas never cause a store write. Roster
 * classes admit only listed names.
 */
export { ClassMonitor, type MonitorPort } from './class-monitor.js';
export { ClassRepository } from './class-repository.js';
export { ClassService, INSTRUCTOR_TOKEN_TTL_MS, type CreatedClass } from './class-service.js';
export type { ClassSummary } from '../protocol/wire/classroom.js';
export { classKeys } from './class-keys.js';
export { classLifecycle } from './class-lifecycle.js';
