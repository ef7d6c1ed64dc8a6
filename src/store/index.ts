/**
 * The store: one small interface of primitives (strings with TTL/NX, bytes, hashes with HSETNX/HINCRBY, sorted
 * sets, append-only streams with tails, leases, token buckets) implemented twice with Redis semantics — MemoryStore
 * (one process) and RedisStore — and pinned by one contract suite over both (test/store-contract.ts).
 * - Keys: every name is built with keys.ts's `storeKey` (the store's own keys there, a feature's in its `*-keys.ts`). Ephemeral keys always carry a TTL (RETENTION); durable keys (accounts,
 *   materials, classes, quizzes, exams, jobs' records) are listed there and removed only by data/'s deletions (drain-index.ts: indexes drained a batch at a time).
 * - JSON records come back through readJsonRecord (json-record.ts): parsed with their zod schema; a record that is not
 *   JSON or does not match is logged (key and issues, never content) and treated as missing.
 * - Redis fails fast while disconnected (no offline queue): every method rejects with StoreUnavailableError
 *   (STORE_UNAVAILABLE, 503, retryable) and the process recovers by itself. Stream tails share one subscriber
 *   connection (xadd publishes a notification; tails re-read with XRANGE).
 * - node-liveness.ts: a heartbeat per node (5 s TTL, written every second); presence counts only living nodes.
 */
import type { Logger } from '../kernel/index.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import type { Store } from './store.js';

export type { ScoredMember, SetOptions, Store, StreamEntry, TailOptions } from './store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export { KEY_PREFIX, keys, storeKey, type Keys } from './keys.js';

export interface CreateStoreOptions {
  /** Redis when set (and not empty); the one-process memory store otherwise. */
  redisUrl: string | undefined;
  /** Redis only: RedisStoreOptions.commandTimeoutMs. */
  commandTimeoutMs?: number;
  logger?: Logger;
}

export function createStore(options: CreateStoreOptions): Store {
  if (!options.redisUrl) return new MemoryStore();
  return new RedisStore({
    url: options.redisUrl,
    ...(options.commandTimeoutMs === undefined ? {} : { commandTimeoutMs: options.commandTimeoutMs }),
    ...(options.logger ? { logger: options.logger } : {}),
  });
}
export { pageOfIndex } from './index-page.js';
export { NodeHeartbeat, SINGLE_NODE, type NodeLiveness } from './node-liveness.js';
export { RETENTION } from './retention.js';
export type { HsetnxUnlessResult, TakeTokensOptions, TakeTokensResult } from './store.js';
export { readJsonRecord, type RecordSource } from './json-record.js';
export { DELETE_BATCH, drainIndex, readIndex } from './drain-index.js';
