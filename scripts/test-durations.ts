/**
 * npm run test:durations -- <report.json>: writes test/support/durations.json (seconds per test file, relative path)
 * from a vitest JSON report (`npx vitest run --reporter=json --outputFile=<report.json>`), for the duration sequencer.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

const reportPath = process.argv[2];
if (!reportPath) {
  console.error('usage: npm run test:durations -- <vitest JSON report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as { testResults: { name: string; startTime: number; endTime: number }[] };
const durations = Object.fromEntries(
  report.testResults
    .map((file) => [relative(process.cwd(), file.name), Math.round((file.endTime - file.startTime) / 100) / 10] as const)
    .sort(([, left], [, right]) => right - left),
);
writeFileSync('test/support/durations.json', `${JSON.stringify(durations, null, 1)}\n`);
console.log(JSON.stringify({ files: Object.keys(durations).length, totalSeconds: Math.round(Object.values(durations).reduce((sum, s) => sum + s, 0)) }));
