import type { Response } from 'express';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { optionalAccount } from './principal.js';

/** Where a model call is started from, as far as the route knows. */
export interface ModelCallContext {
  /**
   * The caller proved it is inside a class or room: it holds that class's instructor token, a session token of the
   * class, a player or host token of the room. Only then may a caller without an account start a model call.
   */
  joined?: { classId?: string; roomId?: string } | undefined;
  /** The account that pays when it is not the caller's own (OWN: the class's owner for its students). */
  billTo?: string | undefined;
}

/**
 * the one check every route that starts a model call goes through. A signed-in account may (and pays, unless
 * `billTo` names another); a client without an account only inside a class or room it joined (and pays nothing
 * itself: its class's owner does, once OWN passes `billTo`); anyone else is refused with 401 before any work.
 * Returns the account to bill, for `runBilledTo` / a session's `billTo`.
 */
export function authorizeModelCall(response: Response, context: ModelCallContext = {}): { billTo: string | undefined } {
  const account = optionalAccount(response);
  if (account === undefined && context.joined === undefined) {
    throw new AppError(ErrorCode.UNAUTHORIZED, '로그인하거나 수업에 참여해야 AI 기능을 쓸 수 있습니다.');
  }
  return { billTo: context.billTo ?? account?.accountId };
}
