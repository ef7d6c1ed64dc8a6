import { Router, type Request, type Response } from 'express';
import type { ClassService } from '../classroom/class-service.js';
import type { TokenSigner } from '../classroom/tokens.js';
import { AppError } from '../errors.js';
import { CreateClassBody, JoinClassBody, JoinCode } from '../protocol/classroom.js';
import { ErrorCode } from '../protocol/error-codes.js';
import { parseOrThrow, withBody } from './validate.js';

/**
 * `POST /api/classes` (create), `POST /api/classes/:code/join` (a student joins), `GET /api/classes/:id` (the
 * instructor's view, `Authorization: Bearer <instructorToken>`).
 */
export function createClassesRouter({ classes, signer }: { classes: ClassService; signer: TokenSigner }): Router {
  const router = Router();
  router.post(
    '/',
    withBody(CreateClassBody, async (body, _request, response) => {
      response.status(201).json(await classes.create(body));
    }),
  );
  router.post(
    '/:code/join',
    withBody(JoinClassBody, async (body, request, response) => {
      const code = parseOrThrow(JoinCode, request.params.code);
      response.status(201).json(await classes.join(code, body));
    }),
  );
  router.get('/:id', async (request, response, next) => {
    try {
      const classId = String(request.params.id);
      requireInstructor(signer, request, response, classId);
      response.json(await classes.info(classId));
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/**
 * The class id of the request's bearer token, which must be a valid instructor token: missing, malformed, forged,
 * tampered or expired answers 401; a valid token of another kind 403 (the same split as the socket handshake).
 */
export function instructorClassId(signer: TokenSigner, request: Request, response: Response): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.get('authorization') ?? '');
  const check = signer.verify(match?.[1], ['instructor']);
  if (!check.ok && check.reason !== 'kind') {
    response.set('WWW-Authenticate', 'Bearer');
    const message = check.reason === 'expired' ? '토큰이 만료되었습니다.' : '유효한 강사 토큰이 필요합니다.';
    throw new AppError(ErrorCode.UNAUTHORIZED, message, { status: 401 });
  }
  if (!check.ok) throw new AppError(ErrorCode.FORBIDDEN, '강사 토큰이 아닙니다.', { status: 403 });
  return check.payload.sub;
}

/** Like {@link instructorClassId}, and the token must be `classId`'s: another class's token answers 403. */
export function requireInstructor(signer: TokenSigner, request: Request, response: Response, classId: string): void {
  if (instructorClassId(signer, request, response) !== classId) {
    throw new AppError(ErrorCode.FORBIDDEN, '이 수업의 강사 토큰이 아닙니다.', { status: 403 });
  }
}
