import { Router } from 'express';
import type { AccountService } from '../auth/index.js';
import { AppError } from '../kernel/index.js';
import { AccountId } from '../protocol/account.js';
import { PageQuery } from '../protocol/page.js';
import { ErrorCode } from '../protocol/wire/error-codes.js';
import { inviteUrl, resetUrl } from './account-links.js';
import { requireAdmin } from './principal.js';
import { parseOrThrow } from '../boundary/index.js';

/**
 * `/api/admin` (the admin account only): the list of accounts, invites, disabling and re-enabling an account, and
 * one-time password reset links (no e-mail: the admin hands the link over).
 */
export function createAdminRouter({ accounts, publicUrl }: { accounts: AccountService; publicUrl: string | undefined }): Router {
  const router = Router();
  const accountId = (value: unknown): string => {
    const parsed = AccountId.safeParse(value);
    if (!parsed.success) throw new AppError(ErrorCode.NOT_FOUND, '계정을 찾을 수 없습니다.');
    return parsed.data;
  };

  router.get('/accounts', async (request, response, next) => {
    try {
      requireAdmin(response);
      response.set('Cache-Control', 'no-store').json(await accounts.listAccounts(parseOrThrow(PageQuery, request.query)));
    } catch (error) {
      next(error);
    }
  });

  router.post('/invites', async (request, response, next) => {
    try {
      const admin = requireAdmin(response);
      const { code, expiresAt } = await accounts.createInvite(admin.accountId);
      response.status(201).set('Cache-Control', 'no-store').json({ code, url: inviteUrl(request, publicUrl, code), expiresAt });
    } catch (error) {
      next(error);
    }
  });

  for (const [action, status] of [['disable', 'disabled'], ['enable', 'active']] as const) {
    router.post(`/accounts/:id/${action}`, async (request, response, next) => {
      try {
        const admin = requireAdmin(response);
        response.json({ account: await accounts.setStatus(admin.accountId, accountId(request.params.id), status) });
      } catch (error) {
        next(error);
      }
    });
  }

  router.post('/accounts/:id/reset-link', async (request, response, next) => {
    try {
      requireAdmin(response);
      const { code, expiresAt } = await accounts.createResetLink(accountId(request.params.id));
      response.status(201).set('Cache-Control', 'no-store').json({ url: resetUrl(request, publicUrl, code), expiresAt });
    } catch (error) {
      next(error);
    }
  });

  return router;
}
