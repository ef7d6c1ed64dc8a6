import type { Request, Response } from 'express';
import type { TokenSigner } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { bearerToken, signedBearer } from './bearer.js';
import { optionalAccount } from './principal.js';

/** A class student calling with their class session token (`Authorization: Bearer`). */
export interface ClassStudent {
  classId: string;
  sessionId: string;
  billTo: string | undefined;
}

export interface ClassStudentDeps {
  signer: TokenSigner;
  /** A tutoring session's material, class and paying account (DataLifecycle.sessionProfile). */
  sessionProfile(sessionId: string): Promise<{ materialId: string; classId?: string | undefined; billTo?: string | undefined } | null>;
}

/**
 * The student of a class routes for class students only (the class math problems, live exams): no credential 401;
 * an instructor's credential, or a session outside a class, 403; a session that no longer exists 404. `what` names
 * the feature in the Korean messages ("수학 문제 풀기", "시험").
 */
export async function classStudent(deps: ClassStudentDeps, request: Request, response: Response, what: string): Promise<ClassStudent> {
  if (!signedBearer(request)) {
    // A signed-in instructor is someone, just not a student of a class: 403 like the seed API's instructor token.
    if (optionalAccount(response) !== undefined) {
      throw new AppError(ErrorCode.FORBIDDEN, `${what}${topic(what)} 수업에 참여한 학생만 쓸 수 있습니다.`);
    }
    response.set('WWW-Authenticate', 'Bearer');
    throw new AppError(ErrorCode.UNAUTHORIZED, `수업에 참여한 학생만 ${what}${object(what)} 쓸 수 있습니다. 수업에 다시 참여해 주세요.`);
  }
  const token = bearerToken(deps.signer, request, response, ['session']);
  const profile = await deps.sessionProfile(token.sub);
  if (!profile) throw new AppError(ErrorCode.SESSION_NOT_FOUND, '강의 세션을 찾을 수 없습니다. 수업에 다시 참여해 주세요.');
  if (profile.classId === undefined) {
    throw new AppError(ErrorCode.FORBIDDEN, `${what}${topic(what)} 수업에 참여한 학생만 쓸 수 있습니다.`);
  }
  return { classId: profile.classId, sessionId: token.sub, billTo: profile.billTo };
}

const hasFinal = (word: string) => {
  const code = (word.at(-1) ?? '').charCodeAt(0) - 0xac00;
  return code >= 0 && code <= 11171 && code % 28 !== 0;
};
const topic = (word: string) => (hasFinal(word) ? '은' : '는');
const object = (word: string) => (hasFinal(word) ? '을' : '를');
