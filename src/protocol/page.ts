import { z } from 'zod';

/**
 * Pagination of every list endpoint: `?cursor=&limit=` in, `{<items>: [...], nextCursor}` out. `limit` is 1–50
 * (default 20); `cursor` is the opaque `nextCursor` of the previous page (absent for the first page). A page holds at
 * most `limit` items; `nextCursor: null` means there is nothing after it. A cursor stays valid while items are added
 * in front of it (new items appear on the first page, never twice). See docs/PROTOCOL.md ("Lists").
 */
export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 50;

/** Cursors are item ids (32 hex characters, UUIDs or room ids): opaque to clients, checked for shape here. */
const CURSOR = /^[A-Za-z0-9_-]{1,64}$/;

export const PageQuery = z.object({
  cursor: z.string().regex(CURSOR, 'cursor는 이전 페이지의 nextCursor 값이어야 합니다.').optional(),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, `limit는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`)
    .transform(Number)
    .pipe(z.number().int().min(1, `limit는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`).max(PAGE_LIMIT_MAX, `limit는 1–${PAGE_LIMIT_MAX} 사이의 정수입니다.`))
    .default(PAGE_LIMIT_DEFAULT),
});

export interface PageRequest {
  cursor?: string | undefined;
  limit: number;
}

export interface Page<T> {
  items: T[];
  /** Pass it back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}
