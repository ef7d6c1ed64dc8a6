import { z } from 'zod';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from './wire/page.js';

export { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX };
export type { Page, PageRequest } from './wire/page.js';

/** Cursors are item ids (32 hex characters, UUIDs or room ids): opaque to clients, checked for shape here. */
const CURSOR = /^[A-Za-z0-9_-]{1,64}$/;

/** `?cursor=&limit=` of every list endpoint (the rules are in ./wire/page.ts). */
export const PageQuery = z.object({
  cursor: z.string().regex(CURSOR, '다음 페이지 위치가 올바르지 않습니다. 목록을 처음부터 다시 불러와 주세요.').optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `한 번에 받을 개수는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`)
    .transform(Number)
    .pipe(z.number().int().min(1, `한 번에 받을 개수는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`).max(PAGE_LIMIT_MAX, `한 번에 받을 개수는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`))
    .default(PAGE_LIMIT_DEFAULT),
});

