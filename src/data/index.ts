/**
 * The data lifecycle: complete deletion of materials, classes, quizzes and quiz rooms (both stores; the blobs on
 * disk through the materials service), the retention purge of old student data (and of uploaded quiz pictures no
 * quiz shows) under a store lease, and the class
 * export (JSON and CSV). It orchestrates only: each feature deletes and reads its own keys through its
 * `…Lifecycle` export (quizLifecycle, classLifecycle, lectureLifecycle, mathLifecycle, qualityLifecycle, deleteUsage,
 * the material and retrieval leases) or a port (exams, LMS courses, quotas); data/ keeps the order, the batching,
 * quota releases and ownership.
 */
export { DataLifecycle, type DataLifecycleOptions } from './data-lifecycle.js';
export type { CourseParts, ExamParts } from './owner-parts.js';
export { ClassDeletion, type SessionDrivers } from './class-deletion.js';
export { ClassExporter, type ClassExport, type ExportedStudent } from './class-export.js';
export { classExportCsv, csvCell } from './export-csv.js';
export { MaterialDeletion, type MaterialParts, type RetrievalParts } from './material-deletion.js';
export { QuizDeletion } from './quiz-deletion.js';
export { dataKeys } from './data-keys.js';
export { RetentionPurge, type PurgeRun, type RetentionPurgeOptions } from './retention-purge.js';
export { RoomDeletion, type RoomOwner } from './room-deletion.js';
export type { QuotaReleases } from './quota-releases.js';
