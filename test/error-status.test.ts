/*
 * Rules pinned in this file (test/SPEC.md is their index; the tests below are their full statement):
 * - HS6 — Codes at the edge. An `AppError` given only a code carries the code's Korean message and answers the code's
 *   `ERROR_STATUS`; a status it names itself wins.
 */
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, httpStatusOf } from '../src/boundary/index.js';
import { AppError } from '../src/errors.js';
import { ERROR_MESSAGES, ErrorCode } from '../src/protocol/wire/index.js';

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
});
