import type { Logger } from '../logger.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import type { Store } from './store.js';

export type { ScoredMember, SetOptions, Store, StreamEntry, TailOptions } from './store.js';
export { MemoryStore, type MemoryStoreOptions } from './memory-store.js';
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export { KEY_PREFIX, keys, type Keys } from './keys.js';

export interface CreateStoreOptions {
  /** Redis when set (and not empty); the one-process memory store otherwise. */
  redisUrl: string | undefined;
  logger?: Logger;
}

export function createStore(options: CreateStoreOptions): Store {
  if (!options.redisUrl) return new MemoryStore();
  return new RedisStore({ url: options.redisUrl, ...(options.logger ? { logger: options.logger } : {}) });
}
export { pageOfIndex } from './index-page.js';
export { NodeHeartbeat, SINGLE_NODE, type NodeLiveness } from './node-liveness.js';
export { RETENTION } from './retention.js';
export type { HsetnxUnlessResult, TakeTokensOptions, TakeTokensResult } from './store.js';
export { readJsonRecord, type RecordSource } from './json-record.js';
