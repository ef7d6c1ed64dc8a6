import type { Request, Response } from 'express';
import type { TokenKind, TokenPayload, TokenSigner } from '../classroom/tokens.js';
import { AppError } from '../errors.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/**
 * The request's bearer token (`Authorization: Bearer …`; never in the URL, where logs would keep it), which must be
 * valid and of one of `kinds`: missing, malformed, forged, tampered or expired answers 401 (with
 * `WWW-Authenticate: Bearer`); a valid token of another kind 403 — the same split as the socket handshake.
 */
export function bearerToken(signer: TokenSigner, request: Request, response: Response, kinds: readonly TokenKind[]): TokenPayload {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.get('authorization') ?? '');
  const check = signer.verify(match?.[1], kinds);
  if (check.ok) return check.payload;
  const wanted = kinds.map((kind) => KIND_NAMES[kind]).join(' 또는 ');
  if (check.reason === 'kind') throw new AppError(ErrorCode.FORBIDDEN, `${wanted} 토큰이 아닙니다.`, { status: 403 });
  response.set('WWW-Authenticate', 'Bearer');
  throw new AppError(ErrorCode.UNAUTHORIZED, check.reason === 'expired' ? '토큰이 만료되었습니다.' : `유효한 ${wanted} 토큰이 필요합니다.`, { status: 401 });
}

const KIND_NAMES: Record<TokenKind, string> = { instructor: '강사', host: '퀴즈 진행자', player: '퀴즈 참가자', session: '학생' };

/** The class id of the request's instructor token (see bearerToken for the 401/403 split). */
export function instructorClassId(signer: TokenSigner, request: Request, response: Response): string {
  return bearerToken(signer, request, response, ['instructor']).sub;
}

/** Like {@link instructorClassId}, and the token must be `classId`'s: another class's token answers 403. */
export function requireInstructor(signer: TokenSigner, request: Request, response: Response, classId: string): void {
  if (instructorClassId(signer, request, response) !== classId) {
    throw new AppError(ErrorCode.FORBIDDEN, '이 수업의 강사 토큰이 아닙니다.', { status: 403 });
  }
}
