import { WAIT_TIMEOUT_MS } from './waits.js';

/**
 * How long a test's own polling loop waits for a condition before it fails: the same budget as `expect.poll`
 * (vitest.config.ts) and every other helper's wait (waits.ts). A passing test never waits it out; a loaded machine
 * (the suite shares two cores) must not make a correct test fail, so no helper picks a shorter deadline of its own.
 */
export const POLL_TIMEOUT_MS = WAIT_TIMEOUT_MS;
