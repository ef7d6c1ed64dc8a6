/**
 * The edge both transports share: what http/ (express) and realtime/ (socket.io) both do to what arrives, so neither
 * imports the other.
 * - validate.ts + zod-korean.ts: every inbound payload is parsed with zod; a failure is the one INVALID_PAYLOAD
 *   error, with a Korean sentence naming the field (never a regex, a zod path or parser text).
 * - join-attempts.ts: guessing class and room codes runs dry — each address has JOIN_ATTEMPT_POINTS per window in
 *   the store, a right code costs 1, a wrong one JOIN_FAILURE_COST; shared by HTTP joins and `/quiz` room:join.
 * - rate-limit-store.ts: express-rate-limit's store over our Store (fixed windows keyed by their number, an
 *   injected clock), so limits are shared by every node on Redis.
 * - error-status.ts: `ERROR_STATUS`, the HTTP status of every error code; domain code throws codes, the edges map.
 */
export { invalidPayload, parseOrThrow, withBody } from './validate.js';
export { koreanFieldName, koreanIssue, koreanZodMessage } from './zod-korean.js';
export { isWrongCode, JoinAttempts, type JoinAttempt } from './join-attempts.js';
export { StoreRateLimitStore } from './rate-limit-store.js';
export { limitKeys } from './limit-keys.js';
export { ERROR_STATUS, httpStatusOf } from './error-status.js';
