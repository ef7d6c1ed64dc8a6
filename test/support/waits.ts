/**
 * The suite's time budgets, in one place so that no helper gives up before the test would. The suite shares two
 * cores (with CI's other jobs, or with other suites on a developer's machine): a correct test must pass however slow
 * the machine is, short of a test that takes minutes.
 *
 * - TEST_TIMEOUT_MS: one test, or one hook (vitest.config.ts `testTimeout` / `hookTimeout`). Measured: a quiz game
 *   that waits out its question timers (quiz.e2e) took 11 s on a quiet machine, 33 s on a slower idle one and over
 *   60 s beside another suite; beside another suite (load 15–24 on two cores) a server process took over 30 s to load
 *   its modules. So the budget is 300 s: it only bounds a hang. Only a test that needs more (a soak) names its own.
 * - WAIT_TIMEOUT_MS: the default of every helper that waits for one thing (an event, a connection, an ack, a chapter,
 *   a server's readiness), of `expect.poll` and of every browser context (launchBrowser). Under a third of the test's
 *   budget: slow waits still fit in their test, and a wait that never ends fails with its own message (what it waited
 *   for, the last events) before the test's generic timeout hides it. A passing test never waits it out, so a helper
 *   or a test names no shorter one.
 *
 * A test that waits for something on purpose not to happen passes its own, short timeout.
 */
export const TEST_TIMEOUT_MS = 300_000;
export const WAIT_TIMEOUT_MS = 90_000;
