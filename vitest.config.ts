import { configDefaults, defineConfig } from 'vitest/config';
import DurationSequencer from './test/support/duration-sequencer.js';
import { TEST_TIMEOUT_MS, WAIT_TIMEOUT_MS } from './test/support/waits.js';

/**
 * Files that need a process of their own: what they check is process-wide and another file may have changed it first
 * (math-equivalence: ME10 proves that importing src/math loads no parser, which only a fresh module graph shows).
 */
const TESTS = ['test/**/*.test.ts', 'src/**/*.test.ts'];
const ISOLATED = ['test/math-equivalence.test.ts'];

export default defineConfig({
  test: {
    // The pages' bundles (public/build/) are built once before any test: the browser tests load them.
    globalSetup: ['test/support/build-client.global.ts'],
    // One budget for a test and its hooks, and a quarter of it for any single wait (test/support/waits.ts): the suite
    // shares two cores with whatever else runs, and a correct test must not fail because the machine is slow (MS13
    // once waited 1 s for a graded answer, the old expect.poll default).
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    expect: { poll: { timeout: WAIT_TIMEOUT_MS } },
    // Integration tests boot servers and Redis instances; two cores do not gain from more workers.
    maxWorkers: 2,
    // Longest files first, from committed durations (a fresh clone has no results cache to order by).
    sequence: { sequencer: DurationSequencer },
    // The files of a worker share one module graph: src/ and test/support/ are imported once per worker instead of
    // once per file (that import was about half of the suite's time). What a file leaves behind is therefore seen by
    // the next one: test/support keys its caches by test file or by server object, never by a name or a port another
    // file may reuse; tests restore what they patch (fake timers, process listeners) in their own hooks; and no test
    // mocks a module (vi.mock would need isolation). A file that needs a fresh process goes into ISOLATED: that
    // project sorts first ('isolated' < 'shared'), so its files start at once and the shared workers then run on.
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      { extends: true, test: { name: 'shared', include: TESTS, exclude: [...configDefaults.exclude, ...ISOLATED], isolate: false } },
    ],
  },
});
