/** QUOTA (issue 12): what an account may hold (materials, PDF bytes, open rooms) and a class (quizzes). */
export { Quotas, type QuotaReleases, type QuotasOptions, type RoomOwner } from './quotas.js';
export { formatBytes, quotaExceeded } from './quota-messages.js';
