/**
 * npm run docs:protocol [-- --check]
 *
 * Writes the generated part of docs/PROTOCOL.md (between its `generated:start` and `generated:end` markers) from
 * the code, so the tables cannot drift from it:
 * - the socket namespaces, their commands (payload, ack result) and events (payload), read with the TypeScript
 *   compiler from `Namespaces` in src/protocol/wire/namespaces.ts, with each entry's TSDoc;
 * - the HTTP routes (method, path, the file that declares them), recorded while the real app is composed (memory
 *   store, offline model), so a route mounted under a prefix shows its whole path.
 * Error codes are not restated: their code, default message and status are read where they are declared.
 * `--check` writes nothing and exits 1 when the file differs (test/protocol-doc.test.ts runs the same comparison).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { protocolTables, withTables } from './protocol-tables.js';

const FILE = 'docs/PROTOCOL.md';

const current = readFileSync(FILE, 'utf8');
const next = withTables(current, await protocolTables());
if (process.argv.includes('--check')) {
  if (next !== current) {
    process.stderr.write(`${FILE} is out of date: run npm run docs:protocol\n`);
    process.exitCode = 1;
  }
} else if (next !== current) {
  writeFileSync(FILE, next);
  process.stdout.write(`${FILE} updated\n`);
}
