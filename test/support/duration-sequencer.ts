import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Orders the suite's files longest first from the durations committed in test/support/durations.json, so that on
 * a fresh clone (no vitest results cache: CI) the two workers do not end with one long file running alone after
 * everything else. Files not listed yet (new ones) go first, since their time is unknown; projects keep vitest's
 * order (the isolated one first). Which files run, and how, does not change: only their order.
 *
 * `npm run test:durations -- <vitest JSON report>` rewrites the durations file after a full run.
 */
export default class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const root = this.ctx.config.root;
    const seconds = (spec: TestSpecification) => durations[relative(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      return seconds(b) - seconds(a);
    });
  }
}

function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
