import { storeKey as key } from '../store/index.js';

/** The limits' store keys: ephemeral counters and token buckets whose TTL is their window; never durable. */
export const limitKeys = {
  /** Hits of one limiter by one client (address or account) in one fixed window (number in the key). */
  rateLimit: (limiter: string, client: string, window: number) => key('rate', limiter, client, window),
  /** The join attempts' token bucket of a client address (expires once full again). */
  joinBucket: (client: string) => key('rate', 'join-bucket', client),
};
