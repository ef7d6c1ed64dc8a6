import { Router } from 'express';
import { accountView, type AccountService } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { ApiTokenId, ChangePasswordBody, CreateApiTokenBody, LinkCode, ResetPasswordBody, SignInBody, SignUpBody } from '../protocol/account.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { clearSessionCookie, requireAccount, requireSameOrigin, sessionCsrfToken, type StartWebSession } from './principal.js';
import { parseOrThrow } from '../boundary/index.js';

export interface AuthRouterOptions {
  accounts: AccountService;
  startWebSession: StartWebSession;
  publicUrl: string | undefined;
}

const notSignedInWithCookie = () => new AppError(ErrorCode.INVALID_PAYLOAD, '브라우저에서 로그인한 상태가 아닙니다.');

/**
 * `/api/auth`: sign-up, sign-in, sign-out (here or everywhere), who am I (with the CSRF token), password change,
 * personal API tokens, password reset by link, and invite checks. Every body is zod-validated; see docs/PROTOCOL.md.
 */
export function createAuthRouter({ accounts, startWebSession, publicUrl }: AuthRouterOptions): Router {
  const router = Router();

  router.get('/signup', async (_request, response, next) => {
    try {
      // Whether the sign-up page should show its form without an invite (the first account is always welcome).
      const first = !(await accounts.hasAdmin());
      response.json({ mode: accounts.signup, open: first || accounts.signup === 'open', firstAccount: first });
    } catch (error) {
      next(error);
    }
  });

  router.post('/signup', async (request, response, next) => {
    try {
      requireSameOrigin(request, publicUrl);
      const account = await accounts.signUp(parseOrThrow(SignUpBody, request.body));
      const session = await startWebSession(response, account.accountId, request);
      response.status(201).json({ account: accountView(account), csrfToken: session.csrfToken });
    } catch (error) {
      next(error);
    }
  });

  router.post('/signin', async (request, response, next) => {
    try {
      requireSameOrigin(request, publicUrl);
      const account = await accounts.signIn(parseOrThrow(SignInBody, request.body));
      const session = await startWebSession(response, account.accountId, request);
      response.json({ account: accountView(account), csrfToken: session.csrfToken });
    } catch (error) {
      next(error);
    }
  });

  router.post('/signout', async (request, response, next) => {
    try {
      const principal = requireAccount(response);
      if (principal.webSessionId === undefined) throw notSignedInWithCookie();
      await accounts.signOut(principal.accountId, principal.webSessionId);
      clearSessionCookie(response, request, publicUrl);
      response.json({ ok: true });
    } catch (error) {
      next(error);
    }
  });

  router.post('/signout-all', async (request, response, next) => {
    try {
      const principal = requireAccount(response);
      const ended = await accounts.signOutEverywhere(principal.accountId);
      if (principal.via === 'cookie') clearSessionCookie(response, request, publicUrl);
      response.json({ ok: true, ended });
    } catch (error) {
      next(error);
    }
  });

  router.get('/me', async (_request, response, next) => {
    try {
      const principal = requireAccount(response);
      const account = await accounts.get(principal.accountId);
      if (!account) throw new AppError(ErrorCode.UNAUTHORIZED, '로그인이 필요합니다.');
      response.set('Cache-Control', 'no-store').json({ account: accountView(account), csrfToken: sessionCsrfToken(response) ?? null });
    } catch (error) {
      next(error);
    }
  });

  router.post('/password', async (request, response, next) => {
    try {
      const principal = requireAccount(response);
      const { current, next: password, ...choice } = parseOrThrow(ChangePasswordBody, request.body);
      const closed = await accounts.changePassword(principal.accountId, current, password, { ...choice, keepWebSessionId: principal.webSessionId });
      response.json({ ok: true, ...closed });
    } catch (error) {
      next(error);
    }
  });

  router.get('/tokens', async (_request, response, next) => {
    try {
      const principal = requireAccount(response);
      response.set('Cache-Control', 'no-store').json({ tokens: await accounts.listApiTokens(principal.accountId) });
    } catch (error) {
      next(error);
    }
  });

  router.post('/tokens', async (request, response, next) => {
    try {
      const principal = requireAccount(response);
      const { name } = parseOrThrow(CreateApiTokenBody, request.body);
      response.status(201).set('Cache-Control', 'no-store').json(await accounts.createApiToken(principal.accountId, name));
    } catch (error) {
      next(error);
    }
  });

  router.delete('/tokens/:id', async (request, response, next) => {
    try {
      const principal = requireAccount(response);
      const tokenId = ApiTokenId.safeParse(request.params.id);
      if (!tokenId.success) throw new AppError(ErrorCode.NOT_FOUND, 'API 키를 찾을 수 없습니다.');
      await accounts.revokeApiToken(principal.accountId, tokenId.data);
      response.json({ ok: true });
    } catch (error) {
      next(error);
    }
  });

  router.post('/reset', async (request, response, next) => {
    try {
      requireSameOrigin(request, publicUrl);
      const { code, password, ...choice } = parseOrThrow(ResetPasswordBody, request.body);
      const { account, ...closed } = await accounts.resetPassword(code, password, choice);
      response.json({ ok: true, email: account.email, ...closed });
    } catch (error) {
      next(error);
    }
  });

  router.get('/invites/:code', async (request, response, next) => {
    try {
      const code = LinkCode.safeParse(request.params.code);
      const invite = code.success ? await accounts.checkInvite(code.data) : null;
      if (!invite) throw new AppError(ErrorCode.INVITE_INVALID, '초대 링크가 올바르지 않거나 만료되었거나 이미 사용되었습니다.', { status: 404 });
      response.json({ valid: true, expiresAt: invite.expiresAt });
    } catch (error) {
      next(error);
    }
  });

  return router;
}
