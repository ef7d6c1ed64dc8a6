import { z } from 'zod';

/**
 * A registered LMS platform: what an admin types on the account page (or what dynamic registration learned). One
 * deployment of lectern may have several (a school's Moodle and Canvas, a test Moodle).
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http only on this machine (a test LMS): a platform's keys and tokens never travel in clear. */
export function secureUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  } catch {
    return false;
  }
}

const PlatformUrl = z
  .string()
  .trim()
  .max(2048)
  .refine(secureUrl, 'https:// 주소여야 합니다 (http://는 이 컴퓨터(localhost)의 LMS만).');

/** An origin a platform frames lectern from (CSP frame-ancestors), e.g. `https://moodle.school.kr`. */
const FrameOrigin = z
  .string()
  .trim()
  .max(300)
  .refine(secureUrl, 'https:// 주소여야 합니다.')
  .transform((value) => new URL(value).origin);

export const PlatformInput = z.object({
  /** A name for people ("우리 학교 Moodle"). */
  name: z.string().trim().min(1).max(100),
  issuer: PlatformUrl,
  clientId: z.string().trim().min(1).max(255),
  /** Launches from any other deployment are refused. Dynamic registration may learn none (the admin adds it then). */
  deploymentIds: z.array(z.string().trim().min(1).max(255)).max(50),
  jwksUrl: PlatformUrl,
  authUrl: PlatformUrl,
  tokenUrl: PlatformUrl,
  /** Extra origins the LMS pages are served from (Canvas: the school's own address); the issuer's and auth URL's are added. */
  frameOrigins: z.array(FrameOrigin).max(20).default([]),
  /** An instructor launching for the first time gets a lectern account (else only instructors already linked). */
  createInstructors: z.boolean().default(true),
  /** The LMS's e-mail addresses may link a first launch to the lectern account with the same address. */
  trustEmails: z.boolean().default(false),
});
export type PlatformInput = z.infer<typeof PlatformInput>;

/** What the account page sends: a manual registration names at least one deployment. */
export const ManualPlatformInput = PlatformInput.extend({
  deploymentIds: z.array(z.string().trim().min(1).max(255)).min(1, '배포 ID를 하나 이상 적어 주세요.').max(50),
});

export const PlatformRecord = PlatformInput.extend({
  platformId: z.string(),
  createdAt: z.number(),
  /** Who registered it: an admin account, or `dynamic` (the code's maker is in `createdBy`). */
  createdBy: z.string(),
  via: z.enum(['manual', 'dynamic']),
});
export type PlatformRecord = z.infer<typeof PlatformRecord>;

/** Every origin the platform may frame lectern from: the issuer's, the auth URL's and the admin's extra ones. */
export function frameOriginsOf(platform: Pick<PlatformRecord, 'issuer' | 'authUrl' | 'frameOrigins'>): string[] {
  return [...new Set([new URL(platform.issuer).origin, new URL(platform.authUrl).origin, ...platform.frameOrigins])];
}
