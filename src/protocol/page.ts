import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './wire/page.js';

export { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX };
export type { Page, PageRequest } from './wire/page.js';

/** Cursors are item ids (32 hex characters, UUIDs or room ids): opaque to clients, checked for shape here. */
const CURSOR = /^[A-Za-z0-9_-]{1,64}$/;

/** `?cursor=&limit=` of every list endpoint (the rules are in ./wire/page.ts). */
export const PageQuery = z.object({
  cursor: z.string().regex(CURSOR, 'cursor는 이전 페이지의 nextCursor 값이어야 합니다.').optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `limit는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`)
    .transform(Number)
    .pipe(z.number().int().min(1, `limit는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`).max(PAGE_LIMIT_MAX, `limit는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`))
    .default(PAGE_LIMIT_DEFAULT),
});

