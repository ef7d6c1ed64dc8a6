/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - HS6 — Codes at the edge. An `AppError` given only a code carries the code's Korean message and answers the code's
 *   `ERROR_STATUS`; a status it names itself wins.
 * - HS7 — No status literals in the domain. Outside `http/`, `realtime/` and `boundary/` no HTTP error status (4xx,
 *   5xx) is written as a number where a status is meant (`status: 409`, `.status(404)`, `x.status === 401`, a number
 *   passed beside an `ErrorCode`); a domain that needs another status throws another code. Only the clients of other
 *   servers (the model server, the LMS) read the statuses those answer with.
 * - HS8 — Default messages are not repeated. No throw site passes the message its code has anyway
 *   (`ERROR_MESSAGES[code]`); a message is given only where it says more.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, httpStatusOf } from '../src/boundary/index.js';
import { AppError } from '../src/kernel/errors.js';
import { ERROR_MESSAGES, ErrorCode } from '../src/protocol/wire/index.js';
import { redundantMessages, redundantMessagesIn, statusLiterals, statusLiteralsIn } from './support/error-sites.js';

const SRC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** The folders that speak HTTP or sockets and may name statuses. */
const EDGE = ['http/', 'realtime/', 'boundary/'];

/**
 * Files that read the statuses other servers answer us with (retry a 5xx or 429, refresh a token on 401, fall back
 * on a 400/422 that names a parameter): HTTP clients, not our answers. The test fails when one no longer has any.
 */
const UPSTREAM_READERS = ['llm/openai-model.ts', 'llm/retry.ts', 'lti/platform-client.ts'];

/** HS6 (test/SPEC.md, "House"): one status table at the edge; domain code throws a code, its message defaults. */

describe('error codes at the edge', () => {
  it('HS6 an AppError given only a code says the code\'s Korean message and answers the code\'s status; a status it names wins', () => {
    const closed = new AppError(ErrorCode.EXAM_CLOSED);
    expect(closed.message).toBe(ERROR_MESSAGES.EXAM_CLOSED);
    expect(closed.status).toBeUndefined();
    expect(httpStatusOf(closed)).toBe(409);
    expect(httpStatusOf(new AppError(ErrorCode.INVALID_PAYLOAD, '너무 큽니다.', { status: 413 }))).toBe(413);
    expect(httpStatusOf(new AppError(ErrorCode.MATERIAL_NOT_FOUND))).toBe(404);
    for (const status of Object.values(ERROR_STATUS)) expect(status >= 400 && status < 600).toBe(true);
    expect(Object.keys(ERROR_STATUS).sort()).toEqual(Object.values(ErrorCode).sort());
  });

  it('HS7 the scanner finds statuses in every status position and no ordinary number', () => {
    const source = [
      "throw new AppError(ErrorCode.X, 'm', { status: 409 });",
      'response.status(404).json({});',
      'if (response.status === 401) retry();',
      "const refuse = () => refuse(ErrorCode.Y, 'm', 403);",
      'const statusCode = ok ? 200 : 503;',
      'new HttpError(429, body);',
      "const limits = { maxPages: 500, port: 4000, timeoutMs: 404 };",
      'setTimeout(done, 500); const code = 410; items.slice(0, 422);',
    ].join('\n');
    expect(statusLiteralsIn('x.ts', source).map(({ line, status }) => [line, status])).toEqual([[1, 409], [2, 404], [3, 401], [4, 403], [5, 503], [6, 429]]);
  });

  it('HS7 no HTTP status literal outside http/, realtime/ and boundary/ (other servers\' statuses only where read)', () => {
    const all = statusLiterals(SRC, []);
    const found = all.filter((literal) => !EDGE.some((folder) => literal.file.startsWith(folder)));
    const where = (literal: { file: string; line: number; context: string }) => `${literal.file}:${literal.line} ${literal.context}`;
    expect(found.filter((literal) => !UPSTREAM_READERS.includes(literal.file)).map(where)).toEqual([]);
    for (const file of UPSTREAM_READERS) expect(found.some((literal) => literal.file === file), file).toBe(true);
    // the edge itself still maps statuses, so the scan sees them there (it reads real code)
    expect(all.some((literal) => literal.file.startsWith('http/'))).toBe(true);
  });

  it('HS8 no throw site repeats its code\'s default message', () => {
    expect(redundantMessagesIn('x.ts', "throw new AppError(ErrorCode.NOT_FOUND, '요청한 것을 찾을 수 없습니다.');", ERROR_MESSAGES)).toEqual([{ file: 'x.ts', line: 1, code: 'NOT_FOUND' }]);
    expect(redundantMessagesIn('x.ts', "throw new AppError(ErrorCode.NOT_FOUND, '자료를 찾을 수 없습니다.');", ERROR_MESSAGES)).toEqual([]);
    expect(redundantMessages(SRC, ERROR_MESSAGES).map(({ file, line, code }) => `${file}:${line} ${code}`)).toEqual([]);
  });
});
