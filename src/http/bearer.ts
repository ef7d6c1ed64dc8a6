import type { Request, Response } from 'express';
import { authorizeToken, isTokenRefusal, type TokenKind, type TokenPayload, type TokenSigner } from '../auth/index.js';
import { httpStatusOf } from '../boundary/index.js';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/**
 * The request's bearer token (`Authorization: Bearer …`; never in the URL, where logs would keep it), which must be
 * valid and of one of `kinds`. A refusal is the auth module's one mapping (401 `UNAUTHORIZED`, here with
 * `WWW-Authenticate: Bearer`; a valid token of another kind 403 `FORBIDDEN`), the same as every socket handshake.
 */
export function bearerToken(signer: TokenSigner, request: Request, response: Response, kinds: readonly TokenKind[]): TokenPayload {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.get('authorization') ?? '');
  try {
    return authorizeToken(signer, match?.[1], kinds);
  } catch (error) {
    if (isTokenRefusal(error) && httpStatusOf(error) === 401) response.set('WWW-Authenticate', 'Bearer');
    throw error;
  }
}

/** The class id of the request's instructor token (see bearerToken for the 401/403 split). */
export function instructorClassId(signer: TokenSigner, request: Request, response: Response): string {
  return bearerToken(signer, request, response, ['instructor']).sub;
}

/** Like {@link instructorClassId}, and the token must be `classId`'s: another class's token answers 403. */
export function requireInstructor(signer: TokenSigner, request: Request, response: Response, classId: string): void {
  if (instructorClassId(signer, request, response) !== classId) {
    throw new AppError(ErrorCode.FORBIDDEN, '이 수업의 강사 접속 권한이 아닙니다.');
  }
}

/** A signed (non-account) bearer token is present: `Authorization: Bearer …` not starting with `lct_`. */
export function signedBearer(request: Request): boolean {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.get('authorization') ?? '')?.[1];
  return bearer !== undefined && !bearer.startsWith('lct_');
}
