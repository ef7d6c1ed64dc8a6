import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from './wire/account.js';
import type * as wire from './wire/account.js';

/** The zod schemas of `/api/auth` and `/api/admin` (server only); the types are in ./wire/account.ts. */
export type * from './wire/account.js';
export { PASSWORD_MAX, PASSWORD_MIN };

/**
 * One spelling per address: trimmed, NFKC (full-width `ｋｉｍ＠…` is `kim@…`; composed and decomposed Hangul are
 * one string) and lower-cased, so the same person cannot hold two accounts by changing case or width.
 */
export function normaliseEmail(email: string): string {
  return email.trim().normalize('NFKC').toLowerCase();
}

export const Email = z
  .string({ error: '이메일을 입력해 주세요.' })
  .max(254, { error: '이메일이 너무 깁니다.' })
  .transform(normaliseEmail)
  .pipe(z.email({ error: '올바른 이메일 주소를 입력해 주세요.' }));

export const Password = z
  .string({ error: '비밀번호를 입력해 주세요.' })
  .min(PASSWORD_MIN, { error: `비밀번호는 ${PASSWORD_MIN}자 이상이어야 합니다.` })
  .max(PASSWORD_MAX, { error: `비밀번호는 ${PASSWORD_MAX}자 이하여야 합니다.` });

/** Invite and reset codes: 43 base64url characters (32 random bytes); anything else is refused before a lookup. */
export const LinkCode = z.string({ error: '링크 코드가 없습니다.' }).regex(/^[A-Za-z0-9_-]{43}$/, { error: '링크가 올바르지 않습니다.' });

export const SignUpBody = z.object({
  email: Email,
  password: Password,
  invite: LinkCode.optional(),
}) satisfies z.ZodType<wire.SignUpBody>;

export const SignInBody = z.object({
  email: Email,
  // Any length on sign-in: the limits are for new passwords; a wrong one is simply wrong.
  password: z.string({ error: '비밀번호를 입력해 주세요.' }).min(1, { error: '비밀번호를 입력해 주세요.' }).max(PASSWORD_MAX * 4, { error: '비밀번호가 너무 깁니다.' }),
}) satisfies z.ZodType<wire.SignInBody>;

const closeDoors = {
  revokeApiKeys: z.boolean({ error: 'API 키를 폐기할지(true/false) 골라 주세요.' }).default(true),
  endSessions: z.boolean({ error: '다른 로그인을 끝낼지(true/false) 골라 주세요.' }).default(true),
};

export const ChangePasswordBody = z.object({
  ...closeDoors,
  current: z.string({ error: '현재 비밀번호를 입력해 주세요.' }).min(1, { error: '현재 비밀번호를 입력해 주세요.' }).max(PASSWORD_MAX * 4, { error: '비밀번호가 너무 깁니다.' }),
  next: Password,
}) satisfies z.ZodType<wire.ChangePasswordBody>;

export const CreateApiTokenBody = z.object({
  name: z
    .string({ error: '이름을 입력해 주세요.' })
    .trim()
    .min(1, { error: '이름을 입력해 주세요.' })
    .max(60, { error: '이름은 60자 이하여야 합니다.' }),
}) satisfies z.ZodType<wire.CreateApiTokenBody>;

export const ResetPasswordBody = z.object({
  ...closeDoors,
  code: LinkCode,
  password: Password,
}) satisfies z.ZodType<wire.ResetPasswordBody>;

/** Account and token ids in paths: 32 hex characters. */
export const AccountId = z.string().regex(/^[0-9a-f]{32}$/, { error: '계정을 찾을 수 없습니다.' });
export const ApiTokenId = z.string().regex(/^[0-9a-f]{32}$/, { error: 'API 키를 찾을 수 없습니다.' });
