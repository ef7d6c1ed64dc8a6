/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - HS4 — Generated protocol tables. docs/PROTOCOL.md's block between its generated markers is exactly what `npm run
 *   docs:protocol` writes from `src/protocol/wire` and the composed app's routes.
 * - HS5 — Complete tables. The tables name every namespace with its commands and events, and routes with their whole
 *   mounted path. Error codes are not restated: they are read where they are declared (error-codes.ts, with their
 *   messages beside them and their statuses in src/boundary/error-status.ts, which HS7 checks).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { protocolTables, withTables } from '../scripts/protocol-tables.js';

/**
 * HS4–HS5 (test/SPEC.md, "House"): docs/PROTOCOL.md's tables of socket commands and events and of HTTP routes
 * are what `npm run docs:protocol` writes from the code; a change to the wire or a route without the docs
 * fails here.
 */

describe('docs/PROTOCOL.md', () => {
  it('HS4 the generated block is what npm run docs:protocol writes from src/protocol/wire and the composed app', async () => {
    const document = readFileSync('docs/PROTOCOL.md', 'utf8');
    expect(withTables(document, await protocolTables())).toBe(document);
  });

  it('HS5 the tables name every namespace and the routes mounted under a prefix, and restate no error code', async () => {
    const tables = await protocolTables();
    for (const namespace of ['/tutor', '/monitor', '/quiz', '/jobs']) expect(tables).toContain(`### \`${namespace}\``);
    expect(tables).toContain('| `answer:submit` | `AnswerSubmitPayload` { questionId, text }');
    expect(tables).not.toContain('EXAM_CLOSED');
    expect(tables).toContain('| POST | `/api/classes/:code/join` | src/http/classes-router.ts |');
    expect(tables).toContain('| GET | `/api/auth/me` | src/http/auth-router.ts |');
  });
});
