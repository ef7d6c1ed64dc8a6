import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { safeReturnPath, type OidcIdentity, type OidcSignIn } from '../auth/index.js';
import { AppError, isAppError } from '../kernel/index.js';
import type { Logger } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/**
 * What single sign-on needs from accounts, injected so this router does not know how accounts or web sessions are
 * stored. `signIn` finds, links or creates the account (or throws an AppError such as ACCOUNT_DISABLED or
 * SIGNUP_CLOSED); `startWebSession` sets the browser's session cookie on `response`.
 */
export interface OidcAccounts {
  signIn(identity: OidcIdentity): Promise<{ accountId: string }>;
  startWebSession(response: Response, accountId: string, request: Request): Promise<void>;
}

/** Where a browser lands when a sign-in fails: the sign-in page shows the code's Korean message. */
export const SIGN_IN_PAGE = '/signin.html';
export const OIDC_CALLBACK_PATH = '/api/auth/oidc/callback';

const StartQuery = z.object({ return: z.string().max(2_048).optional().catch(undefined) });
const bounded = z.string().max(4_096).optional();
/** The callback's parameters, each one string at most (a repeated parameter is refused). */
const CallbackQuery = z.object({ state: bounded, code: bounded, error: bounded, error_description: bounded, iss: bounded });

/**
 * `GET /api/auth/oidc` ({enabled, name}), `GET /api/auth/oidc/start?return=/path` (302 to the provider) and
 * `GET /api/auth/oidc/callback` (302 to the return path with a session cookie, or to the sign-in page with
 * `?error=<code>`). Without OIDC configured only the first answers, with `{enabled: false}`.
 */
export function createOidcRouter(deps: {
  signIn: OidcSignIn | undefined;
  accounts: OidcAccounts;
  publicUrl: string | undefined;
  logger: Logger;
}): Router {
  const router = Router();
  const { signIn, accounts, logger } = deps;
  router.use((_request, response, next) => {
    // Sign-in answers carry one-time URLs and cookies; no cache may keep them.
    response.set('Cache-Control', 'no-store');
    next();
  });
  router.get('/', (_request, response) => {
    response.json(signIn ? { enabled: true, name: signIn.name } : { enabled: false, name: null });
  });
  if (!signIn) return router;

  router.get('/start', async (request, response, next) => {
    try {
      const { return: wanted } = StartQuery.parse(request.query);
      const redirectUri = `${deps.publicUrl ?? `${request.protocol}://${request.get('host') ?? 'localhost'}`}${OIDC_CALLBACK_PATH}`;
      const url = await signIn.begin(redirectUri, safeReturnPath(wanted));
      response.redirect(302, url.href);
    } catch (error) {
      // A browser gets the sign-in page with the code; a program gets the JSON error (e.g. 503 OIDC_UNAVAILABLE).
      if (isAppError(error) && request.accepts(['json', 'html']) === 'html') return failTo(response, error.code);
      next(error);
    }
  });

  router.get('/callback', async (request, response) => {
    try {
      const parsed = CallbackQuery.safeParse(request.query);
      if (!parsed.success) {
        throw new AppError(ErrorCode.OIDC_STATE_INVALID, '로그인 응답이 올바르지 않습니다. 처음부터 다시 로그인해 주세요.');
      }
      const query = new URLSearchParams(Object.entries(parsed.data).filter((entry): entry is [string, string] => entry[1] !== undefined));
      const { identity, returnPath } = await signIn.finish(query);
      const { accountId } = await accounts.signIn(identity);
      await accounts.startWebSession(response, accountId, request);
      logger.info({ accountId, issuer: identity.issuer }, 'oidc sign-in');
      response.redirect(302, returnPath);
    } catch (error) {
      // The callback is always a browser following the provider's redirect: it gets a page, never JSON.
      if (!isAppError(error)) logger.error({ err: error }, 'oidc callback failed');
      failTo(response, isAppError(error) ? error.code : ErrorCode.INTERNAL);
    }
  });
  return router;
}

function failTo(response: Response, code: string): void {
  response.redirect(302, `${SIGN_IN_PAGE}?error=${encodeURIComponent(code)}`);
}
