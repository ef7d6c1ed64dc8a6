import type { CookieOptions, Request, RequestHandler, Response } from 'express';
import { sameSecret, type AccountService, type NewWebSession } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';

/** Who is calling: an instructor account, by its browser session cookie or a personal API token. */
export interface Principal {
  accountId: string;
  email: string;
  role: 'admin' | 'instructor';
  via: 'cookie' | 'api-token';
  /** The browser session's id (sha256 of the cookie value) when `via` is 'cookie'. */
  webSessionId?: string;
}

export const SESSION_COOKIE = 'lectern_session';
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface AuthLocals {
  principal?: Principal;
  /** The cookie named an account, but this state-changing request failed the CSRF check: the cookie authorises nothing. */
  csrfRefused?: true;
  /** The session's CSRF token, for `/api/auth/me`. */
  csrfToken?: string;
}
const authLocals = (response: Response) => response.locals as AuthLocals;

const csrfInvalid = () =>
  new AppError(ErrorCode.CSRF_INVALID);

export interface AuthenticateOptions {
  accounts: AccountService;
  /** PUBLIC_URL: its origin is accepted in the Origin header besides the request's own host. */
  publicUrl: string | undefined;
}

/**
 * Finds the caller of every /api request and puts it in `response.locals.principal`:
 * - `Authorization: Bearer lct_…`: a personal API token; an unknown or revoked one is 401 at once (a script must not
 *   carry on anonymously), one of a disabled account 403 ACCOUNT_DISABLED. Other bearers (the signed class, session,
 *   player and host tokens) are left to the routes that read them.
 * - the `lectern_session` cookie: a browser session; an unknown or expired one is anonymous and the cookie is cleared.
 *   On POST/PUT/PATCH/DELETE the cookie counts only with `X-CSRF-Token` equal to the session's and an Origin (when
 *   sent) of this server; otherwise no principal is set and {@link requireAccount}/{@link optionalAccount} answer
 *   403 CSRF_INVALID. Routes that never ask who is calling (joining a class as a student) are unaffected, so a
 *   signed-in instructor can still try the student pages in the same browser.
 * A request carrying any Authorization header is exempt from the CSRF check: a forged cross-site request cannot set
 * that header (it would need a CORS preflight, which this server never allows).
 */
export function authenticate({ accounts, publicUrl }: AuthenticateOptions): RequestHandler {
  return async (request, response, next) => {
    try {
      const authorization = request.get('authorization');
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
      if (bearer?.startsWith('lct_')) {
        const credential = await accounts.resolveApiToken(bearer);
        if (!credential) {
          response.set('WWW-Authenticate', 'Bearer');
          throw new AppError(ErrorCode.UNAUTHORIZED, 'API 키가 올바르지 않거나 삭제되었습니다.');
        }
        const { account } = credential;
        authLocals(response).principal = { accountId: account.accountId, email: account.email, role: account.role, via: 'api-token' };
        next();
        return;
      }
      const cookieValue = readCookie(request, SESSION_COOKIE);
      if (cookieValue === undefined) {
        next();
        return;
      }
      const credential = await accounts.resolveWebSession(cookieValue);
      if (!credential?.webSessionId || credential.csrfToken === undefined) {
        clearSessionCookie(response, request, publicUrl);
        next();
        return;
      }
      const csrfChecked = !STATE_CHANGING.has(request.method) || authorization !== undefined;
      if (!csrfChecked && !(sameOrigin(request, publicUrl) && sameSecret(request.get('x-csrf-token') ?? '', credential.csrfToken))) {
        authLocals(response).csrfRefused = true;
        next();
        return;
      }
      const { account } = credential;
      authLocals(response).principal = {
        accountId: account.accountId,
        email: account.email,
        role: account.role,
        via: 'cookie',
        webSessionId: credential.webSessionId,
      };
      authLocals(response).csrfToken = credential.csrfToken;
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** The signed-in account, or 401 UNAUTHORIZED (403 CSRF_INVALID when a cookie came without its CSRF proof). */
export function requireAccount(response: Response): Principal {
  const principal = optionalAccount(response);
  if (!principal) throw new AppError(ErrorCode.UNAUTHORIZED, '로그인이 필요합니다.');
  return principal;
}

/** The signed-in account or undefined for an anonymous caller; still 403 CSRF_INVALID for a cookie without its proof. */
export function optionalAccount(response: Response): Principal | undefined {
  const locals = authLocals(response);
  if (locals.csrfRefused) throw csrfInvalid();
  return locals.principal;
}

/** The signed-in admin, or 401 / 403 FORBIDDEN. */
export function requireAdmin(response: Response): Principal {
  const principal = requireAccount(response);
  if (principal.role !== 'admin') throw new AppError(ErrorCode.FORBIDDEN, '관리자만 할 수 있는 일입니다.');
  return principal;
}

/** The CSRF token of the request's browser session (set by {@link authenticate}), for `/api/auth/me`. */
export function sessionCsrfToken(response: Response): string | undefined {
  return authLocals(response).csrfToken;
}

/**
 * Refuses (403 CSRF_INVALID) a request whose Origin header names another site. Used on the routes that need no
 * session (sign-up, sign-in, reset) so another site cannot sign a browser into an account of its choosing.
 */
export function requireSameOrigin(request: Request, publicUrl: string | undefined): void {
  if (!sameOrigin(request, publicUrl)) throw csrfInvalid();
}

function sameOrigin(request: Request, publicUrl: string | undefined): boolean {
  const origin = request.get('origin');
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a redirect from elsewhere) or garbage
  }
  if (publicUrl !== undefined && parsed.origin === new URL(publicUrl).origin) return true;
  return parsed.host === request.get('host');
}

/** Sets a new browser session's cookie on the response: what sign-up, sign-in and single sign-on finish with. */
export type StartWebSession = (response: Response, accountId: string, request: Request) => Promise<NewWebSession>;

/**
 * A {@link StartWebSession} bound to the account service and PUBLIC_URL (Secure cookie behind https). `framed`: the
 * session starts inside another site's frame (an LMS launch), where a SameSite=Lax cookie would never come back:
 * SameSite=None, which browsers accept only with Secure, so only where Secure works (https, or this machine); the CSRF
 * token and Origin checks of {@link authenticate} still guard every state-changing request.
 */
export function webSessionStarter(accounts: AccountService, publicUrl: string | undefined, options: { framed?: boolean } = {}): StartWebSession {
  return async (response, accountId, request) => {
    const session = await accounts.createWebSession(accountId);
    const base = cookieOptions(request, publicUrl);
    const framed = options.framed === true && (base.secure === true || LOCAL_HOSTS.has(request.hostname));
    response.cookie(SESSION_COOKIE, session.cookieValue, {
      ...base,
      ...(framed ? { sameSite: 'none' as const, secure: true } : {}),
      expires: new Date(session.expiresAt),
    });
    return session;
  };
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function clearSessionCookie(response: Response, request: Request, publicUrl: string | undefined): void {
  response.clearCookie(SESSION_COOKIE, cookieOptions(request, publicUrl));
}

function cookieOptions(request: Request, publicUrl: string | undefined): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: request.secure || (publicUrl?.startsWith('https:') ?? false),
  };
}

/** One cookie's value from the Cookie header (no cookie-parser: this is the only cookie the server reads). */
function readCookie(request: Request, name: string): string | undefined {
  const header = request.get('cookie');
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const value = part.slice(separator + 1).trim();
    return value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  }
  return undefined;
}
