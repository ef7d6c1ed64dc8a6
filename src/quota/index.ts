/**
 * Quotas: what an account may hold (materials, PDF bytes, open rooms) and a class (quizzes). Counters in the store,
 * one hash per owner; a creation reserves first (HINCRBY, atomic on both stores), compares with the limit and rolls
 * back when over it or when the creation fails, so two requests for the last slot cannot both pass. data/ counts back
 * down through the QuotaReleases port when things are deleted. A feature enforcing its own limit (quiz pictures'
 * bytes) counts through accountCounter (account-counter.ts), never through the keys.
 */
export { Quotas, type QuotaReleases, type QuotasOptions, type RoomOwner } from './quotas.js';
export { formatBytes, quotaExceeded } from './quota-messages.js';
export { quotaKeys } from './quota-keys.js';
export { accountCounter } from './account-counter.js';
