import { buildClient } from '../../scripts/build-client.js';

/**
 * vitest global setup: bundles client/ into public/build/ once before any test file runs, so the browser tests
 * drive the pages as `npm start` serves them (CI runs exactly `npm test` on a fresh clone, with no build step).
 */
export default async function setup(): Promise<void> {
  await buildClient();
}
